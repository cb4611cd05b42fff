// Requestor checks (2026-07-28): polling (tasks.md "Task Polling").
import { CAUSE_CUT_OFF, POLL_TOLERANCE } from '../../../requestor/checks/common.ts';
import { allTasks, at, createdBy, cutWhileFollowing, endedOnError, lastShown, shownBefore, type Analysis } from '../analysis.ts';
import { defineExtensionRequestorCheck, FOLLOW, INPUT, ALL, type ExtensionRequestorCheckDef, type JudgeContext } from '../engine.ts';
import { isTerminal } from '../../../../schema/2026-07-28/protocol.ts';

const SECTION = 'Requestor (2026-07-28): Task Polling';

export const checks: ExtensionRequestorCheckDef[] = [
  defineExtensionRequestorCheck({
    id: '2026-requestor.poll-interval',
    title: `Polls no faster than the latest pollIntervalMs (gap between tasks/get ≥ ${POLL_TOLERANCE} × pollIntervalMs)`,
    section: SECTION,
    requirements: ['2026-poll-respect-interval'],
    level: 'SHOULD',
    killedBy: ['fast-poll', 'ignore-interval-change'],
    scenarios: ALL,
    judge(run: Analysis, ctx: JudgeContext) {
      const gaps: { gap: number; pi: number }[] = [];
      for (const t of allTasks(run)) {
        // The first poll counts from the CreateTaskResult (it carries pollIntervalMs); the value that applies is
        // the latest the client was shown before it sent the poll (2026-poll-interval-may-change).
        for (let i = 0; i < t.gets.length; i++) {
          const cur = t.gets[i]!;
          const since = i === 0 ? t.created.answeredMs : t.gets[i - 1]!.sentMs;
          const pi = shownBefore(t, cur)?.pollIntervalMs;
          if (pi === undefined || since === undefined) continue;
          gaps.push({ gap: cur.sentMs - since, pi });
        }
      }
      if (gaps.length === 0) ctx.skip('no tasks/get after a pollIntervalMs was shown: no polling interval to measure');
      const list = (g: typeof gaps) =>
        g
          .slice(0, 12)
          .map((x) => `${x.gap} (of ${x.pi})`)
          .join(', ') + (g.length > 12 ? ` … (${g.length} in all)` : '');
      const bad = gaps.filter((g) => g.gap < POLL_TOLERANCE * g.pi);
      ctx.expect(
        bad.length === 0,
        `${bad.length} of ${gaps.length} gaps before a tasks/get were shorter than ${POLL_TOLERANCE} × the pollIntervalMs last shown (gap (of pollIntervalMs), ms): ${list(bad)}; all: ${list(gaps)}`,
      );
      return `gaps before tasks/get (of pollIntervalMs), ms: ${list(gaps)}`;
    },
  }),

  defineExtensionRequestorCheck({
    id: '2026-requestor.poll-until-terminal',
    title: 'Keeps polling each task until it is terminal (or cancels it with tasks/cancel)',
    section: SECTION,
    requirements: ['2026-poll-until-terminal'],
    level: 'SHOULD',
    killedBy: ['stop-polling', 'stop-after-update', 'ignore-ack'],
    scenarios: FOLLOW,
    judge(run: Analysis, ctx: JudgeContext) {
      const tasks = allTasks(run).filter((t) => t.cancels.length === 0);
      if (tasks.length === 0) ctx.skip('the client created no task it did not cancel');
      const bad: string[] = [];
      const ok: string[] = [];
      const gaveUp: string[] = [];
      const cut: string[] = [];
      for (const t of tasks) {
        const last = lastShown(t);
        if (last && isTerminal(last.status)) {
          ok.push(`${last.status} (${last.via})`);
          continue;
        }
        const err = endedOnError(t);
        if (err) {
          gaveUp.push(`task ${t.taskId}: the client's last ${err.method} was answered error ${err.error!.code}`);
          continue;
        }
        if (t.gets.some((g) => !g.response)) {
          ok.push('a tasks/get in flight when the run ended');
          continue;
        }
        // Killed at the scenario's bound while it was still polling the task: only time stopped it.
        const c = cutWhileFollowing(run, t);
        if (c) {
          cut.push(c);
          continue;
        }
        bad.push(
          `task ${t.taskId} (${createdBy(t)}): the last status the client saw was "${last?.status}" (${last?.via} at ${at(last?.ms)}); it sent no tasks/get afterwards (${t.gets.length} in all) and did not cancel it`,
        );
      }
      ctx.expect(bad.length === 0, `the client stopped following ${bad.length} of ${tasks.length} task(s): ${bad.join('; ')}`);
      if (ok.length === 0 && cut.length) ctx.skip(cut.join('; '), { timedOut: true, cause: CAUSE_CUT_OFF });
      if (ok.length === 0) ctx.skip(`no task to judge: ${gaveUp.join('; ')}`);
      const notJudged = [...gaveUp, ...cut];
      return `${ok.length} task(s) followed to: ${[...new Set(ok)].join(', ')}${notJudged.length ? `; not judged: ${notJudged.join('; ')}` : ''}`;
    },
  }),

  defineExtensionRequestorCheck({
    id: '2026-requestor.observe-after-update',
    title: 'After a tasks/update, keeps observing the task until it is terminal',
    section: SECTION,
    requirements: ['2026-input-client-keep-observing'],
    level: 'SHOULD',
    killedBy: ['stop-after-update'],
    scenarios: INPUT,
    judge(run: Analysis, ctx: JudgeContext) {
      const tasks = allTasks(run).filter((t) => t.updates.some((u) => u.result !== undefined) && t.cancels.length === 0);
      if (tasks.length === 0) ctx.skip('the client sent no acknowledged tasks/update (for a task it did not cancel)');
      const bad: string[] = [];
      const cut: string[] = [];
      for (const t of tasks) {
        const lastUpdate = t.updates.at(-1)!;
        const later = t.gets.filter((g) => g.sentMs > lastUpdate.sentMs);
        const last = lastShown(t);
        // Observed "via polling or notifications" (2026-input-client-keep-observing): a terminal status shown after the
        // update by either counts, as in poll-until-terminal; the client need not poll.
        if (last && isTerminal(last.status) && last.ms >= lastUpdate.sentMs) continue;
        if (later.length && (endedOnError(t) || later.some((g) => !g.response))) continue;
        // Killed at the scenario's bound while it was still polling (or had just had its tasks/update answered): only time stopped it.
        const c = cutWhileFollowing(run, t, lastUpdate.answeredMs ?? lastUpdate.sentMs);
        if (c) {
          cut.push(c);
          continue;
        }
        bad.push(
          `task ${t.taskId} (${createdBy(t)}): after its tasks/update at ${at(lastUpdate.sentMs)} the client sent ${later.length} tasks/get and saw no terminal status (by poll or notification); the last status it saw was "${last?.status}" (${last?.via})`,
        );
      }
      ctx.expect(bad.length === 0, bad.join('; '));
      if (cut.length === tasks.length) ctx.skip(cut.join('; '), { timedOut: true, cause: CAUSE_CUT_OFF });
      for (const c of cut) ctx.note(`not judged: ${c}`);
      return `${tasks.length - cut.length} task(s) observed after tasks/update until terminal`;
    },
  }),
];
