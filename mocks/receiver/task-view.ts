// The Task as it travels (tasks/get, tasks/list, tasks/cancel, tasks/result, notifications), its
// related-task _meta, and the requestor's task a request names.
import { ErrorCode, RELATED_TASK_META, type Task } from '../../schema/protocol.ts';
import type { SessionPort } from './port.ts';
import { isObject, type Params, type RequestCtx } from './core.ts';
import { RpcError, type StoredTask } from './store.ts';

// Every Task sent formats two instants; many tasks share the same millisecond and most polls repeat the last
// one: the latest few are kept (a small map, cleared when full).
const ISO = new Map<number, string>();
function isoOf(ms: number): string {
  let s = ISO.get(ms);
  if (s === undefined) {
    if (ISO.size >= 256) ISO.clear();
    ISO.set(ms, (s = new Date(ms).toISOString()));
  }
  return s;
}

/** The Task as it travels (ttl-created-at, ttl-last-updated-at in RFC 3339 / ISO 8601; id-string). */
export function wireTask(s: SessionPort, t: StoredTask, where: 'create' | 'other' = 'other'): Task {
  const out: Record<string, unknown> = { taskId: t.taskId, status: t.status };
  const lat = s.core.latitude;
  const statusMessage = lat.statusMessage(t, t.statusMessage);
  if (statusMessage !== undefined) out.statusMessage = statusMessage;
  out.createdAt = lat.createdAt(t.createdAtMs, where, isoOf);
  out.lastUpdatedAt = lat.lastUpdatedAt(t.lastUpdatedAtMs, isoOf);
  out.ttl = t.ttl; // ttl-actual-in-get (null would mean unlimited; this receiver always has a finite ttl)
  const pollInterval = lat.pollInterval(s.core.pollInterval);
  if (pollInterval !== undefined) out.pollInterval = pollInterval;
  return s.core.switches.task(t, out as unknown as Task);
}

/** The related-task _meta of a task's messages. */
export function relatedMeta(s: SessionPort, t: StoredTask): Record<string, unknown> {
  return { [RELATED_TASK_META]: { taskId: s.core.switches.wireId(t) } };
}

/** The requestor's task named by params.taskId (related-task-taskid-source-of-truth: related-task _meta in the request is ignored). */
export function lookup(s: SessionPort, params: Params, ctx: RequestCtx, purpose: 'result' | 'other' = 'other'): StoredTask {
  const sw = s.core.switches;
  const meta = isObject(params._meta) && isObject(params._meta[RELATED_TASK_META]) ? (params._meta[RELATED_TASK_META] as Params).taskId : undefined;
  const taskId = sw.requestedTaskId(params, meta, ctx.owner);
  const internal = sw.internalFailure(taskId);
  if (internal) throw new RpcError(internal.code, internal.message);
  try {
    // errors-invalid-taskid-32602
    const code = sw.unknownTaskCode(ErrorCode.InvalidParams, taskId);
    // security-bind-context binds only to an authorization context (latitude shared-session-tasks).
    if (s.core.latitude.sharesSessionTasks(ctx.auth, purpose)) {
      const t = s.core.store.lookup(null, taskId, code);
      if (t.owner === ctx.owner || t.owner.startsWith('session:')) return t;
      throw new RpcError(code, 'Failed to retrieve task: Task not found');
    }
    const foreign = s.core.latitude.foreignContextError(s.core.store.peek(taskId), ctx.owner);
    if (foreign) throw foreign;
    return s.core.store.lookup(sw.ownerScope(ctx.owner), taskId, code);
  } catch (e) {
    s.core.audit('task.lookup-failed', { task: typeof taskId === 'string' ? taskId : JSON.stringify(taskId), requestor: ctx.auth ?? ctx.sessionLabel });
    throw e;
  }
}
