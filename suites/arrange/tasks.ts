// Task observations shared by the checks: walking tasks/list, related-task _meta, expected errors,
// status notifications in the sender's order. Creating tasks and reaching statuses: arrange.ts; polling: poll.ts.
import type { CheckContext } from '../engine/check.ts';
import type { Message, Response, Scope, TranscriptEntry } from '../wire/peer.ts';
import { RELATED_TASK_META } from '../../schema/protocol.ts';
import { short } from '../engine/text.ts';

/** Walks every page of tasks/list (bounded page count); violation on an error or a repeated cursor. */
export async function listAll(ctx: CheckContext, peer: Scope = ctx.peer, maxPages = 200): Promise<{ tasks: any[]; pages: Response[] }> {
  const tasks: any[] = [];
  const pages: Response[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let i = 0; i < maxPages; i++) {
    const r = await peer.request('tasks/list', cursor === undefined ? {} : { cursor });
    pages.push(r);
    if (r.error)
      ctx.violation(
        `tasks/list ${cursor === undefined ? '(first page)' : `with cursor ${JSON.stringify(cursor)}`} answered error ${r.error.code} ${r.error.message}`,
      );
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
/** The root cause shared by the checks that see a task's progress without related-task _meta. */
export const PROGRESS_WITHOUT_RELATED_TASK = 'notifications/progress of a task without related-task _meta';

export function relatedTaskId(container: any): unknown {
  return container?._meta?.[RELATED_TASK_META]?.taskId;
}
export function hasRelatedTask(container: any): boolean {
  return container?._meta !== undefined && container._meta !== null && typeof container._meta === 'object' && RELATED_TASK_META in container._meta;
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

/** notifications/tasks/status received on this connection for a task, in the sender's order. */
export function statusNotifications(peer: Scope, taskId: string): Message[] {
  return inSenderOrder(peer.peer.messages((m) => m.method === 'notifications/tasks/status' && m.params?.taskId === taskId));
}

/** Messages exchanged on one connection: the shared one, or an extra session of an earlier check. */
export interface Source {
  label: string;
  entries: readonly TranscriptEntry[];
}

/** Everything received so far: the shared connection, plus each extra session found in earlier checks' transcripts. */
export function targetTranscripts(ctx: CheckContext): Source[] {
  const out: Source[] = [{ label: 'shared connection', entries: ctx.peer.peer.transcript }];
  for (const result of ctx.history()) {
    if (result.id === ctx.def.id) continue;
    const bySession = new Map<string, TranscriptEntry[]>();
    for (const e of result.transcript) {
      if (!e.note?.startsWith('session ')) continue;
      const list = bySession.get(e.note) ?? [];
      list.push(e);
      bySession.set(e.note, list);
    }
    for (const [note, entries] of bySession) out.push({ label: `${result.id} ${note}`, entries });
  }
  return out;
}
