// tasks/get, tasks/list and tasks/cancel of the reference receiver, and the Task as it travels.
import { ErrorCode, isTerminal, RELATED_TASK_META, type Task } from '../../schema/protocol.ts';
import type { ReceiverSession } from './connection.ts';
import { CANCELLED_STATUS_MESSAGE, cancelledResult, isObject, type Params, type Reply, type RequestCtx } from './core.ts';
import { sendProgress, statusChanged } from './result-delivery.ts';
import { RpcError, type StoredTask } from './store.ts';

/** The Task as it travels (ttl-created-at, ttl-last-updated-at in RFC 3339 / ISO 8601; id-string). */
export function wireTask(s: ReceiverSession, t: StoredTask): Task {
  const out: Record<string, unknown> = { taskId: t.taskId, status: t.status };
  if (t.statusMessage !== undefined) out.statusMessage = t.statusMessage;
  out.createdAt = new Date(t.createdAtMs).toISOString();
  out.lastUpdatedAt = new Date(t.lastUpdatedAtMs).toISOString();
  out.ttl = t.ttl; // ttl-actual-in-get (null would mean unlimited; this receiver always has a finite ttl)
  out.pollInterval = s.core.pollInterval;
  return s.core.switches.task(t, out as unknown as Task);
}

/** The related-task _meta of a task's messages. */
export function relatedMeta(s: ReceiverSession, t: StoredTask): Record<string, unknown> {
  return { [RELATED_TASK_META]: { taskId: s.core.switches.wireId(t) } };
}

/** The result of tasks/get and tasks/cancel: the Task, without related-task _meta (related-task-get-list-cancel-should-not: SHOULD NOT). */
function plainTaskResult(s: ReceiverSession, t: StoredTask): Record<string, unknown> {
  const r: Record<string, unknown> = { ...wireTask(s, t) };
  if (s.core.switches.relatedTaskOnTaskResults()) r._meta = relatedMeta(s, t);
  return r;
}

/** The requestor's task named by params.taskId (related-task-taskid-source-of-truth: related-task _meta in the request is ignored). */
export function lookup(s: ReceiverSession, params: Params, ctx: RequestCtx): StoredTask {
  const sw = s.core.switches;
  const meta = isObject(params._meta) && isObject(params._meta[RELATED_TASK_META]) ? (params._meta[RELATED_TASK_META] as Params).taskId : undefined;
  const taskId = sw.requestedTaskId(params, meta, ctx.owner);
  const internal = sw.internalFailure(taskId);
  if (internal) throw new RpcError(internal.code, internal.message);
  try {
    // errors-invalid-taskid-32602
    return s.core.store.lookup(sw.ownerScope(ctx.owner), taskId, sw.unknownTaskCode(ErrorCode.InvalidParams, taskId));
  } catch (e) {
    s.core.audit('task.lookup-failed', { task: typeof taskId === 'string' ? taskId : JSON.stringify(taskId), requestor: ctx.auth ?? ctx.sessionLabel });
    throw e;
  }
}

export function tasksGet(s: ReceiverSession, params: Params, ctx: RequestCtx): Reply {
  const t = lookup(s, params, ctx);
  return s.core.switches.tasksGet(t, plainTaskResult(s, t), { statusChanged: () => statusChanged(s, t), sendProgress: (p) => sendProgress(s, t, p) });
}

export function tasksList(s: ReceiverSession, params: Params, ctx: RequestCtx): Reply {
  const sw = s.core.switches;
  const store = s.core.store;
  const owner = sw.ownerScope(ctx.owner);
  let after = 0;
  if (params.cursor !== undefined) {
    try {
      after = store.decodeCursor(owner, params.cursor); // errors-invalid-cursor-32602
    } catch (e) {
      if (!sw.ignoresBadCursor()) throw e;
    }
  }
  // security-list-own-context: only the requestor's tasks, in creation order.
  const { tasks: page, more } = sw.listPage(store, owner, after, s.core.pageSize) ?? store.page(owner!, after, s.core.pageSize);
  const result: Record<string, unknown> = { tasks: page.map((t) => wireTask(s, t)) };
  // list-next-cursor: present iff more remain.
  if (more && !sw.omitsNextCursor()) result.nextCursor = store.encodeCursor(owner, page[page.length - 1]!.seq);
  if (sw.relatedTaskOnTaskResults() && page[0]) result._meta = relatedMeta(s, page[0]);
  return { result };
}

export function tasksCancel(s: ReceiverSession, params: Params, ctx: RequestCtx): Reply {
  const sw = s.core.switches;
  const t = lookup(s, params, ctx);
  if (isTerminal(t.status)) {
    // cancel-terminal-32602
    if (sw.cancelsTerminal()) return { result: plainTaskResult(s, t) };
    throw new RpcError(ErrorCode.InvalidParams, `Cannot cancel task: already in terminal status '${t.status}'`);
  }
  s.core.audit('task.cancel-requested', { task: t.taskId, requestor: ctx.auth ?? ctx.sessionLabel });
  const deferred = sw.deferCancel(
    () => plainTaskResult(s, t),
    () => s.guard('late cancel (fault cancel-after-response)', () => cancelNow(s, t)),
  );
  if (deferred) return deferred;
  const only = sw.cancelAnswerOnly(() => plainTaskResult(s, t), CANCELLED_STATUS_MESSAGE);
  if (only) return only;
  // cancel-transition-before-response
  cancelNow(s, t);
  return { result: plainTaskResult(s, t) };
}

function cancelNow(s: ReceiverSession, t: StoredTask): void {
  if (t.deleted || isTerminal(t.status)) return;
  const store = s.core.store;
  store.settle(t, { kind: 'result', result: cancelledResult() });
  store.transition(t, 'cancelled', CANCELLED_STATUS_MESSAGE);
  for (const p of t.inputQueue.splice(0)) p.reject(new Error('task cancelled'));
  // cancel-attempt-stop (SHOULD): stop the work.
  if (!s.core.switches.workOutlivesCancel()) t.abort.abort(new Error('task cancelled'));
  s.core.audit('task.cancelled', { task: t.taskId });
  s.core.switches.afterCancel(t, store);
}
