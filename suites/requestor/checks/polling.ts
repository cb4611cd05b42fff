// Requestor checks: polling (Requestor: Polling). Scenario sets and helpers they share: common.ts.
import {
  actWindowMs,
  allTasks,
  at,
  cancelledByClient,
  createdBy,
  cutOffWhileFollowing,
  endedTooSoon,
  returnedControl,
  slowPollerCutOff,
  lastShown,
  polling,
  terminal,
  type Analysis,
} from '../analysis.ts';
import { defineRequestorCheck, type JudgeContext, type RequestorCheckDef } from '../engine.ts';
import { TASK_SCENARIOS, FOLLOW, OUTCOME, SERVER_TASKS, POLL_TOLERANCE, CAUSE_CUT_OFF, CAUSE_STOPPED_FOLLOWING } from './common.ts';

const SEC_POLL = 'Requestor: Polling';

export const checks: RequestorCheckDef[] = [
  defineRequestorCheck({
    id: 'requestor.poll-interval',
    title: `Polls no faster than pollInterval (gap between tasks/get ≥ ${POLL_TOLERANCE} × pollInterval)`,
    section: SEC_POLL,
    requirements: ['poll-respect-interval'],
    level: 'SHOULD',
    killedBy: ['fast-poll'],
    scenarios: [...TASK_SCENARIOS, ...SERVER_TASKS],
    judge(run: Analysis, ctx: JudgeContext) {
      // RULINGS.md#poll-interval-frequency: event-driven tasks/get are no polls; the first poll counts from the
      // CreateTaskResult as written; later polls are judged as runs (their gaps summed), so that arrival jitter is not the requestor's.
      const all: number[] = [];
      const pis = new Set<number>();
      const bad: string[] = [];
      let eventDriven = 0;
      let judged = 0;
      const list = (g: number[]) => g.slice(0, 12).map(Math.round).join(', ') + (g.length > 12 ? ` … (${g.length} in all)` : '');
      for (const s of run.sessions)
        for (const t of s.tasks.values()) {
          const p = polling(s, t);
          eventDriven += p.eventDriven.length;
          if (p.first) {
            judged++;
            all.push(p.first.gap);
            pis.add(p.first.pi);
            if (p.first.gap < POLL_TOLERANCE * p.first.pi)
              bad.push(
                `task ${t.taskId}: first tasks/get ${Math.round(p.first.gap)} ms after the CreateTaskResult, whose pollInterval is ${p.first.pi} ms (at least ${Math.round(POLL_TOLERANCE * p.first.pi)} ms): too short (ms): ${Math.round(p.first.gap)}`,
              );
          }
          for (const r of p.runs) {
            judged += r.length;
            const gaps = r.map((g) => g.gap);
            all.push(...gaps);
            r.forEach((g) => pis.add(g.pi));
            const sum = gaps.reduce((a, b) => a + b, 0);
            const want = POLL_TOLERANCE * r.reduce((a, g) => a + g.pi, 0);
            if (sum < want)
              bad.push(
                `task ${t.taskId}: ${r.length} gaps between tasks/get add up to ${Math.round(sum)} ms, less than ${POLL_TOLERANCE} × their pollIntervals (${Math.round(want)} ms; pollInterval ${[...new Set(r.map((g) => g.pi))].join('/')} ms): too short (ms): ${list(gaps.filter((g, i) => g < POLL_TOLERANCE * r[i]!.pi))}`,
              );
          }
        }
      const events = eventDriven ? `; ${eventDriven} tasks/get sent upon an event of the task (not polls)` : '';
      if (judged === 0) ctx.skip(`no tasks/get after a pollInterval was shown: no polling interval to measure${events}`);
      const piText = [...pis].join('/');
      if (bad.length) ctx.violation(`${bad.join('; ')}; all intervals seen (ms): ${list(all)}${events}`);
      return `intervals between tasks/get (ms): ${list(all)} (pollInterval ${piText} ms, tolerance ≥ ${POLL_TOLERANCE}×)${events}`;
    },
  }),

  defineRequestorCheck({
    id: 'requestor.poll-until-terminal',
    title: 'Keeps polling until the task is terminal or input_required (or waits on tasks/result)',
    section: SEC_POLL,
    requirements: ['poll-until-terminal'],
    level: 'SHOULD',
    killedBy: ['stop-polling'],
    scenarios: [...FOLLOW, ...SERVER_TASKS],
    judge(run: Analysis, ctx: JudgeContext) {
      const tasks = allTasks(run).filter((t) => !cancelledByClient(t));
      if (tasks.length === 0) ctx.skip('the requestor created no task (or cancelled every one)');
      const bad: string[] = [];
      const how: string[] = [];
      const cutOff: string[] = [];
      for (const t of tasks) {
        const last = lastShown(t);
        if (!last) continue;
        if (terminal(last) || last.status === 'input_required') {
          how.push(`${last.status} (${last.via})`);
          continue;
        }
        // Waiting on a blocking tasks/result sent after the last status seen is following the task too.
        const waiting = t.results.filter((x) => x.sentMs >= last.ms && !x.error);
        const pendingGet = t.gets.some((x) => x.sentMs >= last.ms && !x.response);
        if (waiting.length || pendingGet) {
          how.push(`waited on tasks/result while ${last.status}`);
          continue;
        }
        // Killed at the scenario's bound while still polling: only time stopped it (RULINGS.md#response-time).
        const cut = cutOffWhileFollowing(run, t);
        if (cut) {
          cutOff.push(cut);
          continue;
        }
        bad.push(
          `task ${t.taskId} (${createdBy(t)}): the last status the requestor saw was "${last.status}" (${last.via} at ${at(last.ms)}), and afterwards it sent no tasks/get and no tasks/result it waited on (${t.gets.length} tasks/get in all)`,
        );
      }
      ctx.expect(bad.length === 0, `the requestor stopped following ${bad.length} of ${tasks.length} task(s): ${bad.join('; ')}`, {
        cause: CAUSE_STOPPED_FOLLOWING,
      });
      if (how.length === 0 && cutOff.length) ctx.skip(cutOff.join('; '), { timedOut: true, cause: CAUSE_CUT_OFF });
      for (const c of cutOff) ctx.note(c);
      return `${tasks.length - cutOff.length} task(s) followed to: ${[...new Set(how)].join(', ')}`;
    },
  }),

  defineRequestorCheck({
    id: 'requestor.poll-after-result-error',
    title: 'Resumes polling tasks/get when a tasks/result fails while the task is still running',
    section: SEC_POLL,
    requirements: ['poll-not-stopped-by-result'],
    level: 'SHOULD',
    killedBy: ['no-poll-after-result-error'],
    scenarios: TASK_SCENARIOS,
    judge(run: Analysis, ctx: JudgeContext) {
      const cases = allTasks(run).flatMap((t) =>
        t.results.filter((r) => r.error && r.answeredMs !== undefined && !terminal(lastShown(t, r.answeredMs))).map((r) => ({ t, r })),
      );
      if (cases.length === 0) ctx.skip('no tasks/result failed while its task was still running');
      const bad: string[] = [];
      const ok: string[] = [];
      const cut: string[] = [];
      for (const { t, r } of cases) {
        const later = [...t.gets, ...t.results].filter((x) => x.sentMs > r.answeredMs!).sort((a, b) => a.sentMs - b.sentMs);
        // No time to poll again before its run ended abnormally: only time stopped it (RULINGS.md#response-time).
        const tooSoon = later.length ? undefined : endedTooSoon(run, t.session, r.answeredMs!, actWindowMs(lastShown(t, r.answeredMs)?.pollInterval));
        if (tooSoon) cut.push(`task ${t.taskId}: tasks/result answered error ${r.error!.code} at ${at(r.answeredMs)}, and ${tooSoon}`);
        else if (later.length === 0)
          bad.push(
            `task ${t.taskId}: tasks/result answered error ${r.error!.code} at ${at(r.answeredMs)}; afterwards the requestor sent no tasks/get or tasks/result for the task`,
          );
        else ok.push(`after the failed tasks/result (${at(r.answeredMs)}) the requestor sent ${later[0]!.method} at ${at(later[0]!.sentMs)}`);
      }
      ctx.expect(bad.length === 0, bad.join('; '));
      if (ok.length === 0 && cut.length) ctx.skip(cut.join('; '), { timedOut: true, cause: CAUSE_CUT_OFF });
      for (const c of cut) ctx.note(`not judged: ${c}`);
      return ok.join('; ');
    },
  }),

  defineRequestorCheck({
    id: 'requestor.no-status-notification-reliance',
    title: 'Reaches every task outcome without notifications/tasks/status (the receiver sends none)',
    section: SEC_POLL,
    requirements: ['notify-no-reliance'],
    level: 'MUST',
    killedBy: ['stop-polling'],
    scenarios: [...OUTCOME, ...SERVER_TASKS],
    judge(run: Analysis, ctx: JudgeContext) {
      if (run.sessions.some((s) => s.serverNotifications.some((e) => (e.message as any)?.method === 'notifications/tasks/status'))) {
        ctx.skip('the receiver sent notifications/tasks/status in this scenario');
      }
      const tasks = allTasks(run).filter((t) => !cancelledByClient(t));
      if (tasks.length === 0) ctx.skip('the requestor created no task');
      const bad: string[] = [];
      const cutOff: string[] = [];
      const returned: string[] = [];
      for (const t of tasks) {
        const last = lastShown(t);
        const learned = terminal(last) || t.results.some((x) => x.response !== undefined);
        if (learned) continue;
        // A requestor killed at the scenario's bound while still polling relied on nothing: only time stopped it.
        const cut = cutOffWhileFollowing(run, t) ?? slowPollerCutOff(run, t);
        const back = cut ? undefined : returnedControl(run, t);
        if (cut) cutOff.push(cut);
        else if (back) returned.push(back);
        else
          bad.push(
            `task ${t.taskId} (${createdBy(t)}): last status the requestor saw "${last?.status}" at ${at(last?.ms)}; it neither polled to a terminal status nor got a tasks/result answer`,
          );
      }
      ctx.expect(
        bad.length === 0,
        `the receiver sends no notifications/tasks/status, and the requestor did not reach the outcome of ${bad.length} of ${tasks.length} task(s) by polling: ${bad.join('; ')}`,
        { cause: CAUSE_STOPPED_FOLLOWING },
      );
      if (cutOff.length === tasks.length) ctx.skip(cutOff.join('; '), { timedOut: true, cause: CAUSE_CUT_OFF });
      if (returned.length && cutOff.length + returned.length === tasks.length)
        ctx.skip(`${[...returned, ...cutOff].join('; ')}: it relied on no notification`, { cause: 'the requestor returned control before its task ended' });
      for (const c of [...cutOff, ...returned]) ctx.note(c);
      return `outcome of ${tasks.length - cutOff.length - returned.length} of ${tasks.length} task(s) reached without status notifications`;
    },
  }),
];
