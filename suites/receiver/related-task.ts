// Checks for related-task metadata (tasks.md Behavior Requirements > "Associating Task-Related
// Messages", Data Types > "Related Task Metadata"); requirement ids from schema/requirements.json.
//
// Which messages are "related to a task" (related-task-all-messages, RULINGS.md#related-task-exemptions):
//  - the tasks/result response (also its own MUST, related-task-result-must);
//  - requests the receiver sends on behalf of the task (elicitation/create …): input-required-related-task;
//  - notifications/progress for the task sent after the CreateTaskResult (before it, the requestor
//    cannot know the task id yet, so those are not judged);
//  - notifications/message (logging) the task's work sends after the CreateTaskResult (role logs);
//  - NOT tasks/get, tasks/list, tasks/cancel results and notifications/tasks/status: the page's
//    specific SHOULD NOTs govern those (absence is never a failure; presence warns).
import { defineCheck, type CheckContext, type CheckDef } from '../engine/check.ts';
import { hasRelatedTask, PROGRESS_WITHOUT_RELATED_TASK, relatedTaskId } from '../arrange/tasks.ts';
import { cancelFresh, cancelledTask, createTask, reachTerminal } from '../arrange/arrange.ts';
import { inputAnswer, skipIfMisrouted } from '../arrange/input.ts';
import { canonical, withoutMeta } from '../judge/compare.ts';
import { timeLeft } from '../arrange/budget.ts';
import { delay, getTask, pollDelay } from '../arrange/poll.ts';
import { short } from '../engine/text.ts';
import { WireTimeoutError, type Message, type Response, type TranscriptEntry } from '../wire/peer.ts';
import { isTaskStatus, isTerminal, RELATED_TASK_META } from '../../schema/protocol.ts';

const SECTION = 'Associating Task-Related Messages';

const metaFor = (taskId: string) => ({ [RELATED_TASK_META]: { taskId } });
const bogusId = () => `conformance-no-such-task-${Math.random().toString(36).slice(2, 10)}`;

/** The tasks/result response carries related-task naming `taskId`. */
/** The messages a connection received after the answer to request `id` (all it received when that answer is not in the transcript). */
function receivedAfter(transcript: readonly TranscriptEntry[], id: Response['id']): Message[] {
  const answeredAt = transcript.findIndex((e) => e.dir === 'in' && (e.message as Message | undefined)?.id === id);
  return transcript
    .slice(answeredAt + 1)
    .filter((e) => e.dir === 'in')
    .map((e) => e.message as Message);
}

function expectResultMeta(ctx: CheckContext, r: Response, taskId: string, what: string): void {
  if (r.error)
    ctx.skip(`tasks/result for the ${what} task answered JSON-RPC error ${r.error.code} ${r.error.message} (an error response has no _meta to judge)`);
  ctx.expect(
    hasRelatedTask(r.result),
    `tasks/result response for the ${what} task ${taskId} has no _meta["${RELATED_TASK_META}"] (result _meta: ${short(r.result?._meta)})`,
  );
  const got = relatedTaskId(r.result);
  ctx.expect(got === taskId, `tasks/result response for the ${what} task ${taskId} carries related-task taskId ${JSON.stringify(got)}`);
}

/**
 * Sends a tasks/* request carrying related-task _meta that names another (or no) task. No answer is a
 * violation: the metadata was not ignored (e.g. the reply was routed to the other task's queue).
 */
async function requestWithForeignMeta(ctx: CheckContext, method: string, params: Record<string, unknown>, what: string): Promise<Response> {
  try {
    return await ctx.peer.request(method, params);
  } catch (e) {
    if (!(e instanceof WireTimeoutError)) throw e;
    // Time alone is never a verdict (RULINGS.md#response-time): the same request without the _meta, answered
    // where this one was not, shows the _meta was acted on; unanswered too, the target is only slow.
    const { _meta: _dropped, ...plain } = params;
    const again = await ctx.peer.request(method, plain).catch((e2: unknown) => {
      if (e2 instanceof WireTimeoutError)
        ctx.skip(`${what}: no answer within ${ctx.peer.peer.defaultTimeoutMs} ms, and none to the same request without the _meta either (a slow target)`, {
          timedOut: true,
        });
      throw e2;
    });
    ctx.violation(
      `${what}: no answer within ${ctx.peer.peer.defaultTimeoutMs} ms, while the same request without the _meta was answered (${again.error ? `error ${again.error.code}` : 'a result'}) — the related-task _meta was not ignored (a reply about params.taskId must come)`,
    );
  }
}

/** Fails (SHOULD NOT → warn) when a tasks/get|list|cancel result carries related-task metadata. */
function expectNoMeta(ctx: CheckContext, result: any, method: string): void {
  ctx.expect(!hasRelatedTask(result), `${method} result carries _meta["${RELATED_TASK_META}"] = ${short(result?._meta?.[RELATED_TASK_META])}`);
}

export const checks: CheckDef[] = [
  defineCheck({
    id: 'related-task.result-completed',
    title: 'tasks/result response for a completed task carries related-task _meta with its taskId',
    section: SECTION,
    requirements: ['related-task-result-must'],
    level: 'MUST',
    killedBy: ['result-no-related-task'],
    clientReceiver: true,
    needs: ['completes'],
    async run(ctx: CheckContext) {
      const c = await createTask(ctx, 'completes');
      await reachTerminal(ctx, c.taskId, { initial: c.task });
      const r = await ctx.peer.request('tasks/result', { taskId: c.taskId });
      expectResultMeta(ctx, r, c.taskId, 'completed');
    },
  }),
  defineCheck({
    id: 'related-task.result-failed',
    title: 'tasks/result response for a failed task carries related-task _meta with its taskId',
    section: SECTION,
    requirements: ['related-task-result-must'],
    level: 'MUST',
    killedBy: ['result-no-related-task'],
    clientReceiver: true,
    needs: ['fails'],
    async run(ctx: CheckContext) {
      const c = await createTask(ctx, 'fails');
      const last = await reachTerminal(ctx, c.taskId, { initial: c.task });
      const r = await ctx.peer.request('tasks/result', { taskId: c.taskId });
      expectResultMeta(ctx, r, c.taskId, `"${last.status}"`);
    },
  }),
  defineCheck({
    id: 'related-task.result-cancelled',
    title: 'tasks/result response for a cancelled task carries related-task _meta with its taskId',
    section: SECTION,
    requirements: ['related-task-result-must'],
    level: 'MUST',
    killedBy: ['result-no-related-task'],
    clientReceiver: true,
    needs: ['slow'],
    needsCapabilities: ['tasks.cancel'],
    async run(ctx: CheckContext) {
      const { created: c } = await cancelledTask(ctx, 'slow');
      let r: Response;
      try {
        r = await ctx.peer.request('tasks/result', { taskId: c.taskId });
      } catch (e) {
        // No answer has no _meta to judge; a cancelled task's tasks/result that never answers is result.cancelled-answers' to judge.
        if (e instanceof WireTimeoutError)
          ctx.skip(`tasks/result for the cancelled task did not answer: ${e.message}`, { timedOut: true, judgedBy: 'result.cancelled-answers' });
        throw e;
      }
      expectResultMeta(ctx, r, c.taskId, 'cancelled');
    },
  }),
  defineCheck({
    id: 'related-task.input-request',
    title: "an input request the receiver sends for a task (elicitation/create) carries related-task _meta with that task's id",
    section: SECTION,
    requirements: ['input-required-related-task', 'related-task-nested-same-id'],
    level: 'MUST',
    killedBy: ['input-no-related-task'],
    needs: ['needsInput'],
    opensConnections: 1,
    async run(ctx: CheckContext) {
      // Own connection: every input request arriving there during the task is the task's. A ping relates to
      // no task (RULINGS.md#related-task-exemptions); another request counts when it names a task.
      const s = await ctx.openSession();
      const inputs: Message[] = [];
      let taskId: string | undefined;
      s.onRequest((req) => {
        const input = req.method === 'elicitation/create' || req.method === 'sampling/createMessage' || hasRelatedTask(req.params);
        if (!input) return undefined;
        inputs.push(req);
        return inputAnswer(req, taskId);
      });
      const c = await createTask(ctx, 'needsInput', { peer: s });
      taskId = c.taskId;
      // tasks/result carries the input requests (input_required flow); re-sent if it answers while the task is not terminal.
      const bound = timeLeft(ctx, { marginMs: 4_000, floorMs: 2_000, capMs: 15_000 });
      const deadline = Date.now() + bound;
      let status: unknown = c.task.status;
      while (inputs.length === 0 && Date.now() < deadline) {
        try {
          await s.request('tasks/result', { taskId: c.taskId }, { timeoutMs: Math.max(500, deadline - Date.now()) });
        } catch (e) {
          if (!(e instanceof WireTimeoutError)) throw e;
        }
        if (inputs.length) break;
        const g = await getTask(ctx, c.taskId, s);
        status = g.error ? `error ${g.error.code}` : g.result?.status;
        if (g.error || (isTaskStatus(status) && isTerminal(status))) break;
        await delay(pollDelay(ctx, g.result));
      }
      if (inputs.length === 0) skipIfMisrouted(ctx, c.taskId);
      if (inputs.length === 0) ctx.skip(`the receiver sent no request for the needsInput task (last status ${String(status)})`);
      for (const req of inputs) {
        ctx.expect(
          hasRelatedTask(req.params),
          `${req.method} sent for task ${c.taskId} has no params._meta["${RELATED_TASK_META}"] (params._meta: ${short(req.params?._meta)})`,
        );
        const got = relatedTaskId(req.params);
        ctx.expect(got === c.taskId, `${req.method} sent for task ${c.taskId} names related-task taskId ${JSON.stringify(got)}`);
      }
      return `${inputs.length} request(s): ${inputs.map((r) => r.method).join(', ')}`;
    },
  }),
  defineCheck({
    id: 'related-task.progress-notification',
    title: 'notifications/progress for a task (after the CreateTaskResult) carry related-task _meta with its taskId',
    section: SECTION,
    requirements: ['related-task-all-messages'],
    level: 'MUST',
    killedBy: ['progress-no-related-task'],
    needs: ['progress'],
    async run(ctx: CheckContext) {
      const token = `${ctx.def.id}-${Math.random().toString(36).slice(2, 10)}`;
      const c = await createTask(ctx, 'progress', { meta: { progressToken: token } });
      await reachTerminal(ctx, c.taskId, { initial: c.task });
      const progress = receivedAfter(ctx.peer.transcript, c.response.id).filter(
        (m) => m?.method === 'notifications/progress' && m.params?.progressToken === token,
      );
      if (progress.length === 0) ctx.skip("the target sent no notifications/progress with the task's progressToken after the CreateTaskResult");
      for (const m of progress) {
        const got = relatedTaskId(m.params);
        ctx.expect(
          got === c.taskId,
          `notifications/progress for task ${c.taskId} (progress ${m.params?.progress}) carries related-task taskId ${JSON.stringify(got)} (params._meta: ${short(m.params?._meta)})`,
          got === undefined ? { cause: PROGRESS_WITHOUT_RELATED_TASK } : {},
        );
      }
      return `${progress.length} notification(s) judged`;
    },
  }),
  defineCheck({
    id: 'related-task.log-message',
    title: 'notifications/message (logging) a task sends after its CreateTaskResult carry related-task _meta with its taskId',
    section: SECTION,
    requirements: ['related-task-all-messages'],
    level: 'MUST',
    killedBy: ['log-wrong-related-task'],
    clientReceiver: 'logging is a server utility (logging.md); a client receiving a task sends no notifications/message for it',
    needs: ['logs'],
    opensConnections: 1,
    async run(ctx: CheckContext) {
      // Own connection: only this task runs there. A log line relates to no task unless it carries the metadata
      // (RULINGS.md#related-task-exemptions): one without it is not judged; one naming another task than the only
      // one of its connection fails.
      const s = await ctx.openSession();
      const c = await createTask(ctx, 'logs', { peer: s });
      await reachTerminal(ctx, c.taskId, { initial: c.task, peer: s, role: 'logs' });
      const logs = receivedAfter(s.peer.transcript, c.response.id).filter((m) => m?.method === 'notifications/message');
      if (logs.length === 0) ctx.skip(`the logs task sent no notifications/message on its connection after the CreateTaskResult`);
      const named = logs.filter((m) => relatedTaskId(m.params) === c.taskId);
      const foreign = logs.filter((m) => hasRelatedTask(m.params) && relatedTaskId(m.params) !== c.taskId);
      for (const m of foreign)
        ctx.expect(
          false,
          `notifications/message during task ${c.taskId}, the only task of its connection, names related-task taskId ${JSON.stringify(relatedTaskId(m.params))}`,
        );
      if (named.length === 0 && foreign.length === 0)
        ctx.skip(
          `${logs.length} notifications/message arrived while task ${c.taskId} of the logs tool ran, none with params._meta["${RELATED_TASK_META}"]: a log line without it relates to no task (RULINGS.md#related-task-exemptions), not judged`,
        );
      return `${named.length} of ${logs.length} notifications/message name the task${named.length < logs.length ? "; the others carry no related-task (not known to be the task's: not judged)" : ''}`;
    },
  }),
  defineCheck({
    id: 'related-task.absent-on-get',
    title: 'tasks/get results do not carry related-task _meta',
    section: SECTION,
    requirements: ['related-task-get-list-cancel-should-not'],
    level: 'SHOULD',
    killedBy: ['related-task-on-get'],
    clientReceiver: true,
    needs: ['completes'],
    async run(ctx: CheckContext) {
      const c = await createTask(ctx, 'completes');
      const g = await getTask(ctx, c.taskId);
      if (g.error) ctx.skip(`tasks/get answered error ${g.error.code} ${g.error.message}`);
      expectNoMeta(ctx, g.result, 'tasks/get');
    },
  }),
  defineCheck({
    id: 'related-task.absent-on-list',
    title: 'tasks/list results do not carry related-task _meta',
    section: SECTION,
    requirements: ['related-task-get-list-cancel-should-not'],
    level: 'SHOULD',
    killedBy: ['related-task-on-get'],
    clientReceiver: true,
    needs: ['completes'],
    needsCapabilities: ['tasks.list'],
    opensConnections: 1,
    async run(ctx: CheckContext) {
      const s = await ctx.openSession();
      await createTask(ctx, 'completes', { peer: s });
      const r = await s.request('tasks/list', {});
      if (r.error) ctx.skip(`tasks/list answered error ${r.error.code} ${r.error.message}`);
      expectNoMeta(ctx, r.result, 'tasks/list');
      for (const t of Array.isArray(r.result?.tasks) ? r.result.tasks : []) expectNoMeta(ctx, t, `tasks/list entry ${short(t?.taskId)}`);
    },
  }),
  defineCheck({
    id: 'related-task.absent-on-cancel',
    title: 'tasks/cancel results do not carry related-task _meta',
    section: SECTION,
    requirements: ['related-task-get-list-cancel-should-not'],
    level: 'SHOULD',
    killedBy: ['related-task-on-get'],
    clientReceiver: true,
    needs: ['slow'],
    needsCapabilities: ['tasks.cancel'],
    async run(ctx: CheckContext) {
      const { cancel: r } = await cancelFresh(ctx, 'slow');
      if (r.error) ctx.skip(`tasks/cancel answered error ${r.error.code} ${r.error.message}`);
      expectNoMeta(ctx, r.result, 'tasks/cancel');
    },
  }),
  defineCheck({
    id: 'related-task.param-wins-get',
    title: 'tasks/get follows params.taskId, ignoring related-task _meta naming another or no task',
    section: SECTION,
    requirements: ['related-task-receiver-ignore', 'related-task-taskid-source-of-truth'],
    level: 'MUST',
    killedBy: ['meta-taskid-wins'],
    clientReceiver: true,
    needs: ['completes'],
    async run(ctx: CheckContext) {
      const a = await createTask(ctx, 'completes');
      const b = await createTask(ctx, 'completes');
      for (const [label, other] of [
        ['another task of ours', b.taskId],
        ['a nonexistent task', bogusId()],
      ] as const) {
        const what = `tasks/get {taskId: ${a.taskId}} with related-task _meta naming ${label} (${other})`;
        const r = await requestWithForeignMeta(ctx, 'tasks/get', { taskId: a.taskId, _meta: metaFor(other) }, what);
        ctx.expect(!r.error, `${what} answered error ${r.error?.code} ${r.error?.message}`);
        ctx.expect(r.result?.taskId === a.taskId, `${what} answered about task ${JSON.stringify(r.result?.taskId)}`);
      }
    },
  }),
  defineCheck({
    id: 'related-task.param-wins-result',
    title: 'tasks/result follows params.taskId, ignoring related-task _meta naming another or no task',
    section: SECTION,
    requirements: ['related-task-receiver-ignore', 'related-task-taskid-source-of-truth'],
    level: 'MUST',
    killedBy: ['meta-taskid-wins'],
    clientReceiver: true,
    needs: ['completes'],
    async run(ctx: CheckContext) {
      const a = await createTask(ctx, 'completes');
      // B's result differs from A's when a fails tool exists; otherwise only related-task tells them apart.
      const b = await createTask(ctx, ctx.info.profile.tools.fails ? 'fails' : 'completes');
      await reachTerminal(ctx, a.taskId, { initial: a.task });
      await reachTerminal(ctx, b.taskId, { initial: b.task });
      const expected = await ctx.peer.request('tasks/result', { taskId: a.taskId });
      if (expected.error) ctx.skip(`tasks/result for task A answered error ${expected.error.code} ${expected.error.message} without any _meta`);
      for (const [label, other] of [
        ['another task of ours', b.taskId],
        ['a nonexistent task', bogusId()],
      ] as const) {
        const what = `tasks/result {taskId: ${a.taskId}} with related-task _meta naming ${label} (${other})`;
        const r = await requestWithForeignMeta(ctx, 'tasks/result', { taskId: a.taskId, _meta: metaFor(other) }, what);
        ctx.expect(!r.error, `${what} answered error ${r.error?.code} ${r.error?.message}`);
        const rel = relatedTaskId(r.result);
        ctx.expect(rel === undefined || rel === a.taskId, `${what} answered with related-task taskId ${JSON.stringify(rel)}`);
        ctx.expect(
          canonical(withoutMeta(r.result)) === canonical(withoutMeta(expected.result)),
          `${what} answered ${short(withoutMeta(r.result))}, not task A's result ${short(withoutMeta(expected.result))}`,
        );
      }
    },
  }),
  defineCheck({
    id: 'related-task.param-wins-cancel',
    title: 'tasks/cancel follows params.taskId, ignoring related-task _meta naming another task',
    section: SECTION,
    requirements: ['related-task-receiver-ignore', 'related-task-taskid-source-of-truth'],
    level: 'MUST',
    killedBy: ['meta-taskid-wins'],
    clientReceiver: true,
    needs: ['slow', 'completes'],
    needsCapabilities: ['tasks.cancel'],
    async run(ctx: CheckContext) {
      const b = await createTask(ctx, 'completes');
      const bLast = await reachTerminal(ctx, b.taskId, { initial: b.task });
      const a = await createTask(ctx, 'slow');
      const g = await getTask(ctx, a.taskId);
      if (g.error || !isTaskStatus(g.result?.status) || isTerminal(g.result.status))
        ctx.skip(`the slow task is not running (tasks/get: ${short(g.error ?? g.result?.status)})`);
      const what = `tasks/cancel {taskId: ${a.taskId}} (working) with related-task _meta naming task ${b.taskId} ("${bLast.status}")`;
      const r = await requestWithForeignMeta(ctx, 'tasks/cancel', { taskId: a.taskId, _meta: metaFor(b.taskId) }, what);
      if (r.error) {
        // Rejected because A itself had ended meanwhile (a busy run): nothing to judge; A still running: the _meta won.
        const ga = await getTask(ctx, a.taskId);
        const st = ga.result?.status;
        if (!ga.error && isTaskStatus(st) && isTerminal(st) && st !== 'cancelled')
          ctx.skip(`task A reached "${st}" before the tasks/cancel arrived (it answered ${r.error.code} ${short(r.error.message)})`);
      }
      ctx.expect(!r.error, `${what} answered error ${r.error?.code} ${r.error?.message}`);
      ctx.expect(r.result?.taskId === a.taskId, `${what} answered about task ${JSON.stringify(r.result?.taskId)}`);
      const gb = await getTask(ctx, b.taskId);
      ctx.expect(gb.error || gb.result?.status === bLast.status, `after ${what}, task B shows "${gb.result?.status}"`);
    },
  }),
];
