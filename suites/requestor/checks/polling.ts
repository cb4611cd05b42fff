// Requestor checks: polling (Requestor: Polling). Scenario sets and helpers they share: common.ts.
import { allTasks, at, cancelledByClient, createdBy, lastShown, terminal, type Analysis } from '../analysis.ts';
import { defineRequestorCheck, type JudgeContext, type RequestorCheckDef } from '../engine.ts';
import { TASK_SCENARIOS, FOLLOW, OUTCOME, SERVER_TASKS, POLL_TOLERANCE } from './common.ts';

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
      const gaps: { gap: number; pi: number; taskId: string; ms: number }[] = [];
      for (const t of allTasks(run)) {
        // The first poll counts too: the CreateTaskResult carries a pollInterval, from its arrival.
        for (let i = 0; i < t.gets.length; i++) {
          const cur = t.gets[i]!;
          const since = i === 0 ? t.created.response?.ms : t.gets[i - 1]!.sentMs;
          const pi = lastShown(t, cur.sentMs)?.pollInterval;
          if (pi === undefined || since === undefined) continue;
          gaps.push({ gap: cur.sentMs - since, pi, taskId: t.taskId, ms: cur.sentMs });
        }
      }
      if (gaps.length === 0) ctx.skip('no tasks/get after a pollInterval was shown: no polling interval to measure');
      const list = (g: typeof gaps) =>
        g
          .slice(0, 12)
          .map((x) => x.gap)
          .join(', ') + (g.length > 12 ? ` … (${g.length} in all)` : '');
      const pis = [...new Set(gaps.map((g) => g.pi))].join('/');
      const bad = gaps.filter((g) => g.gap < POLL_TOLERANCE * g.pi);
      if (bad.length) {
        ctx.violation(
          `${bad.length} of ${gaps.length} gaps between tasks/get were shorter than ${POLL_TOLERANCE} × pollInterval (pollInterval ${pis} ms, so at least ${[...new Set(gaps.map((g) => Math.round(g.pi * POLL_TOLERANCE)))].join('/')} ms): too short (ms): ${list(bad)}; all intervals seen (ms): ${list(gaps)}`,
        );
      }
      return `intervals between tasks/get (ms): ${list(gaps)} (pollInterval ${pis} ms, tolerance ≥ ${POLL_TOLERANCE}×)`;
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
        bad.push(
          `task ${t.taskId} (${createdBy(t)}): the last status the requestor saw was "${last.status}" (${last.via} at ${at(last.ms)}), and afterwards it sent no tasks/get and no tasks/result it waited on (${t.gets.length} tasks/get in all)`,
        );
      }
      ctx.expect(bad.length === 0, `the requestor stopped following ${bad.length} of ${tasks.length} task(s): ${bad.join('; ')}`);
      return `${tasks.length} task(s) followed to: ${[...new Set(how)].join(', ')}`;
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
      for (const { t, r } of cases) {
        const later = [...t.gets, ...t.results].filter((x) => x.sentMs > r.answeredMs!).sort((a, b) => a.sentMs - b.sentMs);
        if (later.length === 0)
          bad.push(
            `task ${t.taskId}: tasks/result answered error ${r.error!.code} at ${at(r.answeredMs)}; afterwards the requestor sent no tasks/get or tasks/result for the task`,
          );
        else ok.push(`after the failed tasks/result (${at(r.answeredMs)}) the requestor sent ${later[0]!.method} at ${at(later[0]!.sentMs)}`);
      }
      ctx.expect(bad.length === 0, bad.join('; '));
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
      for (const t of tasks) {
        const last = lastShown(t);
        const learned = terminal(last) || t.results.some((x) => x.response !== undefined);
        if (!learned) {
          bad.push(
            `task ${t.taskId} (${createdBy(t)}): last status the requestor saw "${last?.status}" at ${at(last?.ms)}; it neither polled to a terminal status nor got a tasks/result answer`,
          );
        }
      }
      ctx.expect(
        bad.length === 0,
        `the receiver sends no notifications/tasks/status, and the requestor did not reach the outcome of ${bad.length} of ${tasks.length} task(s) by polling: ${bad.join('; ')}`,
      );
      return `outcome of all ${tasks.length} task(s) reached without status notifications`;
    },
  }),
];
