// Checks for tasks/cancel (tasks.md "Cancelling Tasks", Behavior Requirements > "Task Cancellation");
// requirement ids from schema/requirements.json. tasks/cancel for an unknown id is in errors.ts.
import { isLimitError, readLimit } from '../judge/error-codes.ts';
import { backoffMs } from '../judge/pacing.ts';
import { defineCheck, type CheckContext, type CheckDef } from '../engine/check.ts';
import { expectError } from '../arrange/tasks.ts';
import { cancelAndSettle, cancelFresh, cancelledTask, createTask, reachTerminal, type CreatedTask } from '../arrange/arrange.ts';
import { timeLeft } from '../arrange/budget.ts';
import { delay, getTask, observe, pollDelay, seqText } from '../arrange/poll.ts';
import { short } from '../engine/text.ts';
import type { JsonRpcError, Message, Response } from '../wire/peer.ts';
import { isTaskStatus, isTerminal, type TaskStatus } from '../../schema/protocol.ts';
import { roleRunMs, type ProfileRole } from '../engine/profile.ts';

const SECTION = 'Task Cancellation';

/** Creates a task of `role` and makes sure it is still running (else skip: nothing to cancel). */
async function runningTask(ctx: CheckContext, role: ProfileRole, meta?: Record<string, unknown>): Promise<CreatedTask> {
  const c = await createTask(ctx, role, meta ? { meta } : {});
  if (isTaskStatus(c.task.status) && isTerminal(c.task.status))
    ctx.skip(`the ${role} task was already "${c.task.status}" in its CreateTaskResult; nothing to cancel`);
  return c;
}

/**
 * A refused tasks/cancel of a running task: skip when the task ended first, or its reported ttl had run out (a
 * busy run arranging more before the cancel): the cancel then rightly fails; else the violation.
 */
async function refusedCancel(ctx: CheckContext, created: CreatedTask, error: JsonRpcError): Promise<never> {
  const taskId = created.taskId;
  const g = await getTask(ctx, taskId);
  const st = g.result?.status;
  if (!g.error && isTaskStatus(st) && isTerminal(st) && st !== 'cancelled')
    ctx.skip(`the task reached "${st}" before tasks/cancel arrived (cancel answered ${error.code})`);
  const { ttl, createdAt } = created.task ?? {};
  const expiresAt = typeof ttl === 'number' && typeof createdAt === 'string' ? Date.parse(createdAt) + ttl : NaN;
  if (g.error && Date.now() >= expiresAt)
    ctx.skip(
      `the task's ttl (${ttl} ms from createdAt ${createdAt}) had run out before tasks/cancel arrived (cancel answered ${error.code}, tasks/get ${g.error.code})`,
    );
  ctx.violation(`tasks/cancel of running task ${taskId} answered error ${error.code} ${error.message} (tasks/get then: ${short(g.error ?? st)})`);
}

/** tasks/cancel of a running task; a refused one is judged by refusedCancel. */
async function cancelRunning(ctx: CheckContext, created: CreatedTask): Promise<Response> {
  const r = await ctx.peer.request('tasks/cancel', { taskId: created.taskId });
  if (r.error) await refusedCancel(ctx, created, r.error);
  return r;
}

/** A running `role` task cancelled (cancelFresh: a second one when the first ended before its cancel); a refused cancel is judged by refusedCancel. */
async function cancelFreshRunning(ctx: CheckContext, role: ProfileRole): Promise<{ c: CreatedTask; r: Response }> {
  const { created: c, cancel: r } = await cancelFresh(ctx, role);
  if (r.error) await refusedCancel(ctx, c, r.error);
  return { c, r };
}

/** A task of `role` polled to its terminal status; cancelling it must then be rejected with -32602. */
async function expectTerminalRejected(ctx: CheckContext, taskId: string, status: string): Promise<string> {
  const r = await ctx.peer.request('tasks/cancel', { taskId });
  const err = expectError(ctx, r, -32602, `tasks/cancel of task ${taskId}, already "${status}"`);
  if (typeof err.message !== 'string' || err.message.trim() === '') ctx.note('the -32602 error has an empty message (errors-informative-message)');
  return `rejected with -32602 "${err.message}"`;
}

export const checks: CheckDef[] = [
  defineCheck({
    id: 'cancel.cancelled-before-response',
    title: 'tasks/cancel of a working task answers with status "cancelled", and tasks/get right after shows "cancelled"',
    section: SECTION,
    requirements: ['cancel-transition-before-response'],
    level: 'MUST',
    killedBy: ['cancel-after-response'],
    clientReceiver: true,
    needs: ['slow'],
    needsCapabilities: ['tasks.cancel'],
    async run(ctx: CheckContext) {
      const { c, r } = await cancelFreshRunning(ctx, 'slow');
      ctx.expect(r.result?.taskId === c.taskId, `tasks/cancel result is about task ${short(r.result?.taskId)}, not ${c.taskId}`);
      ctx.expect(
        r.result?.status === 'cancelled',
        `tasks/cancel answered with status ${short(r.result?.status)}; the task must be "cancelled" before the response is sent`,
      );
      const g = await getTask(ctx, c.taskId);
      if (g.error) return ctx.note(`tasks/get right after answered ${g.error.code} (deleted: receivers MAY delete cancelled tasks)`);
      ctx.expect(g.result?.status === 'cancelled', `tasks/get sent after the cancel response shows status ${short(g.result?.status)}, not "cancelled"`);
    },
  }),
  defineCheck({
    id: 'cancel.stays-cancelled',
    title: 'a cancelled task stays "cancelled" past the time its work would have finished',
    section: SECTION,
    requirements: ['cancel-sticky'],
    level: 'MUST',
    killedBy: ['cancelled-resurrects', 'cancel-answer-only'],
    clientReceiver: true,
    needs: ['slow'],
    waitsMs: (p) => roleRunMs(p, 'slow') + 500, // the twin's run, then ≥ 500 ms of polls
    needsCapabilities: ['tasks.cancel'],
    async run(ctx: CheckContext) {
      // A (cancelled) and B (left running, created after A's cancel) run the same tool: once B ends,
      // A's work would have ended too. A must show "cancelled" (or be gone) all along. A is cancelled
      // first, so nothing but one round trip lies between its creation and its cancel.
      const { created: a, cancel } = await cancelFresh(ctx, 'slow');
      if (cancel.error) await refusedCancel(ctx, a, cancel.error);
      const k = await cancelAndSettle(ctx, a.taskId, ctx.peer, cancel);
      if (k.deleted) return 'task deleted right after cancellation (receivers MAY delete cancelled tasks)';
      if (k.settled !== 'cancelled') {
        // Once the tasks/cancel answer showed "cancelled", any other status later is the violation itself.
        if (k.cancel.result?.status === 'cancelled') ctx.violation(`tasks/cancel answered status "cancelled", then tasks/get showed "${k.settled}"`);
        ctx.skip(
          `after tasks/cancel the task shows "${k.settled}" and the cancel answer showed ${short(k.cancel.result?.status)} (judged by cancel.cancelled-before-response)`,
        );
      }
      const b = await createTask(ctx, 'slow');
      const bound = timeLeft(ctx, { marginMs: 3_000, floorMs: 2_000 });
      const seen: TaskStatus[] = [];
      let bDoneAt: number | undefined;
      let after = 0; // polls of A after B ended
      // A is polled (deletion, -32602, allowed: RULINGS.md#delete-vs-sticky); B in step with it until B ends.
      const o = await observe(
        ctx,
        a.taskId,
        (t) => {
          ctx.expect(t.status === 'cancelled', `cancelled task ${a.taskId} later shows status ${short(t.status)} (seen ${seqText(seen)})`);
          return bDoneAt !== undefined && ++after >= 3 && Date.now() - bDoneAt >= 500;
        },
        {
          boundMs: bound,
          into: seen,
          allowGone: true,
          label: 'watching the cancelled task',
          between: async () => {
            if (bDoneAt !== undefined) return;
            const gb = await getTask(ctx, b.taskId);
            if (gb.error || (isTaskStatus(gb.result?.status) && isTerminal(gb.result.status))) bDoneAt = Date.now();
          },
        },
      );
      if (o.gone) return `task deleted after cancellation (tasks/get ${o.gone.code}); seen ${seqText(seen) || 'nothing'} before`;
      if (o.timedOut) ctx.note(`the uncancelled twin task did not end within ${bound} ms; judged on what was seen`);
      await ctx.peer.request('tasks/cancel', { taskId: b.taskId }).catch(() => undefined);
      return `stayed cancelled over ${seen.length} polls`;
    },
  }),
  defineCheck({
    id: 'cancel.completed-rejected',
    title: 'tasks/cancel of a completed task → -32602',
    section: SECTION,
    requirements: ['cancel-terminal-32602'],
    level: 'MUST',
    killedBy: ['cancel-terminal-ok'],
    clientReceiver: true,
    needs: ['completes'],
    needsCapabilities: ['tasks.cancel'],
    async run(ctx: CheckContext) {
      const c = await createTask(ctx, 'completes');
      const last = await reachTerminal(ctx, c.taskId, { initial: c.task });
      return expectTerminalRejected(ctx, c.taskId, last.status);
    },
  }),
  defineCheck({
    id: 'cancel.failed-rejected',
    title: 'tasks/cancel of a failed task → -32602',
    section: SECTION,
    requirements: ['cancel-terminal-32602'],
    level: 'MUST',
    killedBy: ['cancel-terminal-ok'],
    clientReceiver: true,
    needs: ['fails'],
    needsCapabilities: ['tasks.cancel'],
    async run(ctx: CheckContext) {
      const c = await createTask(ctx, 'fails');
      const last = await reachTerminal(ctx, c.taskId, { initial: c.task });
      if (last.status !== 'failed') ctx.note(`the fails task ended "${last.status}" (still terminal)`);
      return expectTerminalRejected(ctx, c.taskId, last.status);
    },
  }),
  defineCheck({
    id: 'cancel.cancelled-rejected',
    title: 'tasks/cancel of an already cancelled task → -32602',
    section: SECTION,
    requirements: ['cancel-terminal-32602'],
    level: 'MUST',
    killedBy: ['cancel-terminal-ok'],
    clientReceiver: true,
    needs: ['slow'],
    needsCapabilities: ['tasks.cancel'],
    async run(ctx: CheckContext) {
      // A deleted task would also give -32602 (unknown id), which would prove nothing: cancelledTask skips then.
      const { created: c } = await cancelledTask(ctx, 'slow');
      return expectTerminalRejected(ctx, c.taskId, 'cancelled');
    },
  }),

  defineCheck({
    id: 'cancel.stops-work',
    title: "after tasks/cancel the task's work stops: no more progress notifications for it",
    section: SECTION,
    requirements: ['cancel-attempt-stop'],
    level: 'SHOULD',
    killedBy: ['cancel-keeps-running'],
    needs: ['progress'],
    needsCapabilities: ['tasks.cancel'],
    async run(ctx: CheckContext) {
      const token = (x: string) => `${ctx.def.id}-${x}-${Math.random().toString(36).slice(2, 10)}`;
      let tokA = token('a');
      const tokB = token('b');
      let a = await runningTask(ctx, 'progress', { progressToken: tokA });
      // Cancelled at once (a short progress tool may otherwise end first on a loaded machine); a task that
      // still ended first is tried once more with a new one (a precondition, not a verdict).
      const first = await ctx.peer.request('tasks/cancel', { taskId: a.taskId });
      let r = first;
      if (first.error) {
        const g = await getTask(ctx, a.taskId);
        if (!g.error && isTaskStatus(g.result?.status) && isTerminal(g.result.status) && g.result.status !== 'cancelled') {
          ctx.note(`the first progress task reached "${g.result.status}" before its tasks/cancel arrived: tried again with a new one`);
          tokA = token('a');
          a = await runningTask(ctx, 'progress', { progressToken: tokA });
        }
        r = await cancelRunning(ctx, a);
      }
      // B: the same work left running, to know how long A's work would have gone on.
      const b = await createTask(ctx, 'progress', { meta: { progressToken: tokB } });
      await reachTerminal(ctx, b.taskId, { initial: b.task });
      // A few more polls so late notifications of A can arrive.
      for (let i = 0; i < 3; i++) {
        const g = await getTask(ctx, a.taskId);
        await delay(pollDelay(ctx, g.result));
      }
      const t = ctx.peer.transcript;
      const cancelAt = t.findIndex((e) => e.dir === 'in' && (e.message as Message | undefined)?.id === r.id);
      const progress = (tok: string, from: number) =>
        t
          .slice(from + 1)
          .filter((e) => e.dir === 'in' && (e.message as Message)?.method === 'notifications/progress' && (e.message as Message).params?.progressToken === tok);
      const late = progress(tokA, cancelAt);
      const twin = progress(tokB, -1).length;
      // Over HTTP one notification sent before the cancel may still arrive after its answer (RULINGS.md#http-stream-order).
      const inFlight = ctx.info.transport === 'http' ? 1 : 0;
      if (late.length > 0 && late.length <= inFlight)
        ctx.note(`1 progress notification arrived after the tasks/cancel answer; over HTTP it may have been sent before (RULINGS.md#http-stream-order)`);
      ctx.expect(
        late.length <= inFlight,
        `${late.length} notifications/progress for task ${a.taskId} arrived after its tasks/cancel response (e.g. ${short((late[0]?.message as Message)?.params)})`,
      );
      // Without progress from the uncancelled twin there is nothing to compare with: no evidence either way.
      if (twin === 0) ctx.skip('the uncancelled twin task sent no progress notifications, so stopped work cannot be told from silent work');
      return `no progress for the cancelled task after the cancel response (its twin sent ${twin})`;
    },
  }),

  // A deleted cancelled task is a nonexistent taskId: errors-invalid-taskid-32602 asks -32602 of tasks/get,
  // tasks/result and tasks/cancel (deleting it is the MAY of cancel.delete-may; a receiver keeping it is not judged).
  defineCheck({
    id: 'cancel.deleted-answers-32602',
    title: 'once a cancelled task is deleted, tasks/get, tasks/result and tasks/cancel naming it answer -32602',
    section: SECTION,
    requirements: ['errors-invalid-taskid-32602'],
    level: 'MUST',
    killedBy: ['cancelled-gone-32603'],
    needs: ['slow'],
    needsCapabilities: ['tasks.cancel'],
    async run(ctx: CheckContext) {
      const { c } = await cancelFreshRunning(ctx, 'slow');
      let gone: Response['error'];
      for (let i = 0; i < 3 && !gone; i++) {
        const g = await getTask(ctx, c.taskId);
        // A limit (suites/judge/error-codes.ts) says nothing of the task: back off and ask again.
        if (g.error && !isLimitError(g.error)) gone = g.error;
        else await delay(g.error ? backoffMs(i + 1, { retryAfterMs: readLimit(g.error)?.retryAfterMs }) : pollDelay(ctx, g.result));
      }
      if (!gone) ctx.skip('the cancelled task is kept (deleting it is a MAY), so no answer for a deleted task was seen');
      const seen = [`tasks/get → ${gone.code}`];
      const wrong: string[] = gone.code === -32602 ? [] : [`tasks/get answered ${gone.code} ${short(gone.message)}`];
      for (const method of ['tasks/result', 'tasks/cancel']) {
        const r = await ctx.peer.request(method, { taskId: c.taskId });
        seen.push(`${method} → ${r.error ? r.error.code : 'a result'}`);
        if (r.error && r.error.code !== -32602) wrong.push(`${method} answered ${r.error.code} ${short(r.error.message)}`);
      }
      ctx.expect(wrong.length === 0, `the cancelled task ${c.taskId} is gone, but ${wrong.join('; ')}: a nonexistent taskId is -32602 (Invalid params)`);
      return `deleted cancelled task: ${seen.join(', ')}`;
    },
  }),

  // MAY: observation only.
  defineCheck({
    id: 'cancel.delete-may',
    title: 'whether a cancelled task is kept (tasks/get) or deleted',
    section: SECTION,
    requirements: ['cancel-delete-may'],
    level: 'MAY',
    killedBy: [],
    clientReceiver: true,
    needs: ['slow'],
    needsCapabilities: ['tasks.cancel'],
    async run(ctx: CheckContext) {
      const { c } = await cancelFreshRunning(ctx, 'slow');
      const seen: string[] = [];
      let last: any;
      for (let i = 0; i < 3; i++) {
        const g = await getTask(ctx, c.taskId);
        // The error code of a deleted task is judged by cancel.deleted-answers-32602.
        if (g.error) return `deleted: tasks/get → ${g.error.code} after ${seen.length} poll(s) (${g.error.message})`;
        last = g.result;
        seen.push(String(last?.status));
        await delay(pollDelay(ctx, last));
      }
      return `retained: tasks/get still shows ${seqText(seen)}`;
    },
  }),
];
