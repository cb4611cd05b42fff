// Requestor checks (2026-07-28): input (tasks.md "Task Update Requests").
import { CAUSE_CUT_OFF } from '../../../requestor/checks/common.ts';
import { actWindowMs } from '../../../requestor/analysis.ts';
import { allTasks, at, createdBy, endedTooSoon, type Analysis, type TaskView } from '../analysis.ts';
import { defineExtensionRequestorCheck, INPUT, ALL, type ExtensionRequestorCheckDef, type JudgeContext } from '../engine.ts';

const SECTION = 'Requestor (2026-07-28): Task Update Requests';

/** Keys the client was shown in inputRequests (tasks/get, CreateTaskResult or notification), first sight. */
function keysShown(t: TaskView): Map<string, number> {
  const seen = new Map<string, number>();
  for (const s of t.shown) for (const k of Object.keys(s.inputRequests ?? {})) if (!seen.has(k)) seen.set(k, s.ms);
  return seen;
}

function answeredKeys(x: { params: any }): string[] {
  const r = x.params?.inputResponses;
  return r && typeof r === 'object' && !Array.isArray(r) ? Object.keys(r) : [];
}

export const checks: ExtensionRequestorCheckDef[] = [
  defineExtensionRequestorCheck({
    id: '2026-requestor.input-fulfil',
    title: 'Answers the inputRequests of an input_required task through tasks/update',
    section: SECTION,
    requirements: ['2026-input-client-fulfill'],
    level: 'SHOULD',
    killedBy: ['ignore-input'],
    scenarios: INPUT,
    judge(run: Analysis, ctx: JudgeContext) {
      const tasks = allTasks(run).filter((t) => keysShown(t).size > 0);
      if (tasks.length === 0) ctx.skip('the client saw no input_required task with inputRequests');
      const bad: string[] = [];
      const cut: string[] = [];
      let keys = 0;
      for (const t of tasks) {
        const answered = new Set(t.updates.flatMap(answeredKeys));
        for (const [k, ms] of keysShown(t)) {
          keys++;
          if (answered.has(k)) continue;
          // Killed at the scenario's bound within a poll of seeing the key: only time stopped it.
          const late = endedTooSoon(run, ms, actWindowMs(t.shown.find((x) => x.ms === ms)?.pollIntervalMs), 'before it could answer');
          if (late) cut.push(`task ${t.taskId}: key "${k}" shown at ${at(ms)}: ${late}`);
          else bad.push(`task ${t.taskId} (${createdBy(t)}): key "${k}" shown at ${at(ms)} was never answered (${t.updates.length} tasks/update)`);
        }
      }
      ctx.expect(bad.length === 0, bad.join('; '));
      if (cut.length === keys) ctx.skip(cut.join('; '), { timedOut: true, cause: CAUSE_CUT_OFF });
      for (const c of cut) ctx.note(`not judged: ${c}`);
      return `${keys - cut.length} input request(s) of ${tasks.length} task(s) answered through tasks/update`;
    },
  }),

  defineExtensionRequestorCheck({
    id: '2026-requestor.answer-once',
    title: 'Answers each inputRequests key once (tracks keys across polls)',
    section: SECTION,
    requirements: ['2026-update-client-track-keys', '2026-input-client-dedupe'],
    level: 'SHOULD',
    killedBy: ['no-dedupe'],
    scenarios: INPUT,
    judge(run: Analysis, ctx: JudgeContext) {
      const tasks = allTasks(run).filter((t) => t.updates.length > 0);
      if (tasks.length === 0) ctx.skip('the client sent no tasks/update');
      const bad: string[] = [];
      for (const t of tasks) {
        // An update the server refused was not delivered: sending its keys again is a retry.
        // Keys never issued are 2026-requestor.update-keys-outstanding's; here: the keys the server issued.
        const issued = keysShown(t);
        const count = new Map<string, number[]>();
        for (const u of t.updates.filter((x) => x.result !== undefined))
          for (const k of answeredKeys(u).filter((k) => issued.has(k))) count.set(k, [...(count.get(k) ?? []), u.sentMs]);
        for (const [k, times] of count)
          if (times.length > 1) bad.push(`task ${t.taskId}: key "${k}" answered in ${times.length} acknowledged tasks/update (${times.map(at).join(', ')})`);
      }
      ctx.expect(bad.length === 0, bad.join('; '));
      return `every key answered once in ${tasks.reduce((n, t) => n + t.updates.length, 0)} tasks/update of ${tasks.length} task(s)`;
    },
  }),

  defineExtensionRequestorCheck({
    id: '2026-requestor.update-keys-outstanding',
    title: 'tasks/update answers only keys outstanding in the inputRequests last shown',
    section: SECTION,
    requirements: ['2026-update-keys-outstanding'],
    level: 'MUST',
    killedBy: ['stray-keys'],
    scenarios: ALL,
    judge(run: Analysis, ctx: JudgeContext) {
      const updates = allTasks(run).flatMap((t) => t.updates.map((u) => ({ t, u })));
      if (updates.length === 0) ctx.skip('the client sent no tasks/update');
      const bad: string[] = [];
      for (const { t, u } of updates) {
        // RULINGS.md#ext-update-outstanding-as-seen: against the inputRequests last shown before the update.
        const before = t.shown.filter((s) => s.ms <= u.sentMs && s.by !== u && s.inputRequests);
        const outstanding = new Set(Object.keys(before.at(-1)?.inputRequests ?? {}));
        const stray = answeredKeys(u).filter((k) => !outstanding.has(k));
        if (stray.length)
          bad.push(
            `task ${t.taskId}: tasks/update at ${at(u.sentMs)} answers ${stray.map((k) => `"${k}"`).join(', ')}, not in the inputRequests last shown (${[...outstanding].join(', ') || 'none'})`,
          );
      }
      ctx.expect(bad.length === 0, bad.join('; '));
      return `${updates.length} tasks/update, each key outstanding when sent`;
    },
  }),
];
