// tasks/get, tasks/list and tasks/cancel of the reference receiver (the Task as it travels: task-view.ts).
import { abortWith } from './abort.ts';
import { ErrorCode, isTerminal } from '../../schema/protocol.ts';
import type { SessionPort } from './port.ts';
import type { Params, Reply, RequestCtx } from './core.ts';
import { sendProgress, statusChanged } from './result-delivery.ts';
import { RpcError, type StoredTask } from './store.ts';
import type { CallToolResult } from './tools.ts';
import { lookup, relatedMeta, wireTask } from './task-view.ts';

/** The result tasks/result gives for a cancelled task (documented in RECEIVER.md). */
export const CANCELLED_STATUS_MESSAGE = 'The task was cancelled by request.';
export function cancelledResult(): CallToolResult {
  return { content: [{ type: 'text', text: `Task cancelled: ${CANCELLED_STATUS_MESSAGE}` }], isError: true };
}

/** The result of tasks/get and tasks/cancel: the Task, without related-task _meta (related-task-get-list-cancel-should-not: SHOULD NOT). */
function plainTaskResult(s: SessionPort, t: StoredTask): Record<string, unknown> {
  const r: Record<string, unknown> = { ...wireTask(s, t) };
  if (s.core.switches.relatedTaskOnTaskResults()) r._meta = relatedMeta(s, t);
  return r;
}

export function tasksGet(s: SessionPort, params: Params, ctx: RequestCtx): Reply {
  const t = lookup(s, params, ctx);
  return s.core.switches.tasksGet(t, plainTaskResult(s, t), { statusChanged: () => statusChanged(s, t), sendProgress: (p) => sendProgress(s, t, p) });
}

export function tasksList(s: SessionPort, params: Params, ctx: RequestCtx): Reply {
  const sw = s.core.switches;
  const store = s.core.store;
  const owner = sw.ownerScope(ctx.owner);
  let after = 0;
  if (params.cursor !== undefined && !s.core.latitude.listIgnoresParams()) {
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

export function tasksCancel(s: SessionPort, params: Params, ctx: RequestCtx): Reply {
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

/** The fault disconnect-cancels: the requestor closed the HTTP response of its tasks/result for this task. */
export function cancelOnDisconnect(s: SessionPort, taskId: unknown): void {
  let t: StoredTask;
  try {
    t = s.core.store.lookup(null, taskId);
  } catch {
    return; // unknown or gone: nothing to cancel
  }
  cancelNow(s, t);
}

function cancelNow(s: SessionPort, t: StoredTask): void {
  if (t.deleted || isTerminal(t.status)) return;
  const store = s.core.store;
  store.settle(t, { kind: 'result', result: cancelledResult() });
  store.transition(t, 'cancelled', CANCELLED_STATUS_MESSAGE);
  for (const p of t.inputQueue.splice(0)) p.reject(new Error('task cancelled'));
  // cancel-attempt-stop (SHOULD): stop the work.
  if (!s.core.switches.workOutlivesCancel()) abortWith(t.abort, new Error('task cancelled'));
  s.core.audit('task.cancelled', { task: t.taskId });
  s.core.switches.afterCancel(t, store);
  if (s.core.latitude.deletesCancelled()) store.delete(t, 'evicted'); // cancel-delete-may
}
