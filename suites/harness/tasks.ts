// Task operations shared by the checks: create, poll (following pollInterval, bounded), fetch results, walk lists.
import { hasPath, type CheckContext } from '../engine.ts';
import type { Response, Scope } from './wire.ts';
import { isTaskStatus, isTerminal, RELATED_TASK_META, type TaskStatus } from '../../schema/protocol.ts';
import { type ProfileRole } from './profile.ts';

export interface CreatedTask {
  taskId: string;
  response: Response;
  /** The task object of the CreateTaskResult. */
  task: any;
}

/** Sends a task-augmented tools/call for a role; violation if the target does not answer with a CreateTaskResult. */
export async function createTask(ctx: CheckContext, role: ProfileRole, opts: { ttl?: number; peer?: Scope; meta?: Record<string, unknown> } = {}): Promise<CreatedTask> {
  const tool = ctx.tool(role);
  const task: Record<string, unknown> = {};
  if (opts.ttl !== undefined) task.ttl = opts.ttl;
  // A client target receives sampling/createMessage or elicitation/create instead (TargetInfo.taskRequest).
  const custom = ctx.info.taskRequest?.(role, task);
  // A receiver that does not declare task support for tools/call processes `task` normally (support-undeclared-process-normally):
  // no task to observe, so whatever needs one is not exercised.
  if (!custom && !hasPath(ctx.info.serverCapabilities, 'tasks.requests.tools.call')) ctx.skip('target does not declare tasks.requests.tools.call, so no task can be created');
  const params: Record<string, unknown> = custom ? { ...custom.params } : { name: tool.name, arguments: tool.arguments ?? {}, task };
  if (opts.meta) params._meta = custom ? { ...((params._meta as object) ?? {}), ...opts.meta } : opts.meta;
  const what = custom ? `task-augmented ${custom.method}` : `task-augmented tools/call of "${tool.name}"`;
  const response = await (opts.peer ?? ctx.peer).request(custom?.method ?? 'tools/call', params);
  if (response.error) ctx.violation(`${what} answered error ${response.error.code} ${response.error.message}`);
  const t = response.result?.task;
  if (!t || typeof t.taskId !== 'string') ctx.violation(`${what} did not return a CreateTaskResult with task.taskId (got ${short(response.result)})`);
  return { taskId: t.taskId, response, task: t };
}

/** Plain (non-task) tools/call for a role. */
export function callTool(ctx: CheckContext, role: ProfileRole, peer: Scope = ctx.peer): Promise<Response> {
  const tool = ctx.tool(role);
  const custom = ctx.info.taskRequest?.(role);
  if (custom) return peer.request(custom.method, custom.params); // a client target: the same request without `task`
  return peer.request('tools/call', { name: tool.name, arguments: tool.arguments ?? {} });
}

export function getTask(ctx: CheckContext, taskId: unknown, peer: Scope = ctx.peer): Promise<Response> {
  return peer.request('tasks/get', { taskId });
}

/** The delay before the next poll: the target's pollInterval, clamped to [20 ms, maxPollIntervalMs]. */
export function pollDelay(ctx: CheckContext, task: any): number {
  const p = typeof task?.pollInterval === 'number' && task.pollInterval > 0 ? task.pollInterval : 100;
  return Math.min(Math.max(p, 20), ctx.options.maxPollIntervalMs);
}

export interface PollResult {
  /** Every status seen, in order (including the CreateTaskResult's). */
  statuses: TaskStatus[];
  /** The last tasks/get result. */
  last: any;
  /** Every tasks/get response. */
  responses: Response[];
}

/**
 * Polls tasks/get until `until(task)` holds or `boundMs` passes (then violation, unless `onTimeout` says otherwise).
 * Every status seen is recorded; a tasks/get error or an unknown status is a violation.
 */
export async function pollUntil(
  ctx: CheckContext,
  taskId: string,
  until: (task: any) => boolean,
  opts: { boundMs?: number; peer?: Scope; initial?: any; what?: string } = {},
): Promise<PollResult> {
  const bound = opts.boundMs ?? ctx.options.checkTimeoutMs - 2_000;
  const deadline = Date.now() + bound;
  const statuses: TaskStatus[] = [];
  const responses: Response[] = [];
  let last = opts.initial;
  if (last && isTaskStatus(last.status)) statuses.push(last.status);
  for (;;) {
    const r = await getTask(ctx, taskId, opts.peer);
    responses.push(r);
    if (r.error) ctx.violation(`tasks/get for task ${taskId} answered error ${r.error.code} ${r.error.message} while polling`);
    last = r.result;
    if (!isTaskStatus(last?.status)) ctx.violation(`tasks/get returned status ${JSON.stringify(last?.status)}, not a task status`);
    statuses.push(last.status);
    if (until(last)) return { statuses, last, responses };
    if (Date.now() + pollDelay(ctx, last) > deadline) {
      ctx.violation(`task ${taskId} did not reach ${opts.what ?? 'the awaited state'} within ${bound} ms (last status ${last.status}; seen ${statuses.join(' → ')})`);
    }
    await delay(pollDelay(ctx, last));
  }
}

/** Polls until terminal. */
export function pollTerminal(ctx: CheckContext, taskId: string, opts: { boundMs?: number; peer?: Scope; initial?: any } = {}): Promise<PollResult> {
  return pollUntil(ctx, taskId, (t) => isTerminal(t.status), { ...opts, what: 'a terminal status' });
}

/** Walks every page of tasks/list (bounded page count); violation on an error or a repeated cursor. */
export async function listAll(ctx: CheckContext, peer: Scope = ctx.peer, maxPages = 200): Promise<{ tasks: any[]; pages: Response[] }> {
  const tasks: any[] = [];
  const pages: Response[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let i = 0; i < maxPages; i++) {
    const r = await peer.request('tasks/list', cursor === undefined ? {} : { cursor });
    pages.push(r);
    if (r.error) ctx.violation(`tasks/list ${cursor === undefined ? '(first page)' : `with cursor ${JSON.stringify(cursor)}`} answered error ${r.error.code} ${r.error.message}`);
    if (!Array.isArray(r.result?.tasks)) ctx.violation(`tasks/list result has no tasks array (got ${short(r.result)})`);
    tasks.push(...r.result.tasks);
    const next = r.result.nextCursor;
    if (next === undefined || next === null) return { tasks, pages };
    if (typeof next !== 'string') ctx.violation(`tasks/list nextCursor is ${typeof next}, not a string`);
    if (seen.has(next)) ctx.violation(`tasks/list returned cursor ${JSON.stringify(next)} twice (pagination loops)`);
    seen.add(next);
    cursor = next;
  }
  ctx.violation(`tasks/list did not end within ${maxPages} pages`);
}

/** The related-task taskId in a message's `_meta` (result or params), or undefined. */
export function relatedTaskId(container: any): unknown {
  return container?._meta?.[RELATED_TASK_META]?.taskId;
}
export function hasRelatedTask(container: any): boolean {
  return container?._meta !== undefined && container._meta !== null && typeof container._meta === 'object' && RELATED_TASK_META in container._meta;
}

/** Answers every elicitation/create from the target on this scope with `content`; returns a remover. */
export function answerElicitation(peer: Scope, content: Record<string, unknown> = { answer: 'conformance' }): () => void {
  return peer.onRequest((req) => (req.method === 'elicitation/create' ? { result: { action: 'accept', content } } : undefined));
}

export function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export function short(v: unknown, max = 200): string {
  const s = JSON.stringify(v);
  return s === undefined ? 'undefined' : s.length > max ? s.slice(0, max) + '…' : s;
}

/** Expects a JSON-RPC error with `code`; returns it. */
export function expectError(ctx: CheckContext, r: Response, code: number, what: string): NonNullable<Response['error']> {
  if (!r.error) ctx.violation(`${what}: expected JSON-RPC error ${code}, got result ${short(r.result)}`);
  ctx.expect(r.error.code === code, `${what}: expected error code ${code}, got ${r.error.code} (${r.error.message})`);
  return r.error;
}

/**
 * notifications/tasks/status in the sender's order: by their own lastUpdatedAt (stable; arrival order for
 * ties or unreadable stamps). Over Streamable HTTP notifications may come on different SSE streams, so
 * arrival order alone is not send order.
 */
export function inSenderOrder<M extends { params?: any }>(notes: readonly M[]): M[] {
  return notes
    .map((m, i) => ({ m, i, t: Date.parse(m.params?.lastUpdatedAt) }))
    .sort((a, b) => (Number.isNaN(a.t) || Number.isNaN(b.t) ? 0 : a.t - b.t) || a.i - b.i)
    .map((x) => x.m);
}
