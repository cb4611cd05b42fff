// What the target sent in the run so far, for the checks that judge every message of a kind wherever it
// came (error codes, resultType values, server-initiated requests and notifications/cancelled): the shared
// connection and each connection of an earlier check's own (suites/arrange/tasks.ts targetTranscripts), every
// message once, with the request a response answers (matched by id on its own connection). A connection
// that spoke 2025-11-25 (a dual-era target's legacy session) is left out: its rules are that revision's; so is,
// on a target not known to speak modern versions only, an answer to a request without the modern protocol
// version, or to no request we can tell (RULINGS.md#dual-era-ambiguous-request).
import type { CheckContext } from '../../engine/check.ts';
import { targetTranscripts } from '../../arrange/tasks.ts';
import { idKey, type JsonRpcError, type Message } from '../../wire/peer.ts';
import { Field, Meta, Method } from '../../../schema/2026-07-28/protocol.ts';
import type { Sighting } from '../../judge/transitions.ts';
import { ModernPeer } from '../wire/peer.ts';

/** A response of the target and the request it answers. */
export interface Answered {
  /** The connection: "shared connection" or "<check id> session <label>". */
  source: string;
  /** The request it answers (undefined when no request of ours on that connection had its id). */
  request?: Message;
  response: Message;
  /** When the request went out (ms since the epoch). */
  sentAt?: number;
  /** When the response arrived (ms since the epoch). */
  at: number;
  /** The HTTP headers the request went out with, where still known (the shared connection over HTTP). */
  headers?: Record<string, string>;
  /** The HTTP status of its answer, where known (the shared connection over HTTP). */
  httpStatus?: number;
}

/** A message of the target that is not a response (a notification or a request), and the requests of ours on its connection by id. */
export interface Incoming {
  source: string;
  message: Message;
  /** When it arrived (ms since the epoch). */
  at: number;
  /** Our requests on the same connection, by idKey. */
  requests: ReadonlyMap<string, Message>;
}

interface Run {
  answers: Answered[];
  incoming: Incoming[];
}

/**
 * A connection that spoke 2025-11-25: an initialize of ours on it was answered with a result (a dual-era
 * target's legacy session, opened by the cross-version checks; over stdio, a connection initialize switched).
 * Its messages follow that revision's rules (server requests, -32042 …), not these.
 */
function spokeLegacy(entries: readonly { dir: string; message?: unknown }[], requests: ReadonlyMap<string, Message>): boolean {
  return entries.some((e) => {
    const m = e.message as Message | undefined;
    return e.dir === 'in' && !!m && typeof m === 'object' && 'result' in m && requests.get(idKey(m.id))?.method === 'initialize';
  });
}

/** Every message of the target in the run so far (this check's own exchanges on the shared connection included), each once; connections that spoke 2025-11-25 left out. */
function observe(ctx: CheckContext): Run {
  const seen = new Set<unknown>();
  const answers: Answered[] = [];
  const incoming: Incoming[] = [];
  const shared = ModernPeer.of(ctx.peer.peer);
  // A dual-era server may answer a request that has neither the modern _meta nor initialize as one of 2025-11-25.
  const mayBeDualEra = ctx.info.legacy?.speaks !== false;
  for (const src of targetTranscripts(ctx)) {
    const requests = new Map<string, Message>();
    const sentAt = new Map<string, number>();
    for (const e of src.entries) {
      const m = e.message as Message | undefined;
      if (e.dir !== 'out' || !m || typeof m !== 'object' || typeof m.method !== 'string' || !('id' in m)) continue;
      requests.set(idKey(m.id), m);
      sentAt.set(idKey(m.id), Date.parse(e.time));
    }
    if (spokeLegacy(src.entries, requests)) continue;
    for (const e of src.entries) {
      const m = e.message as Message | undefined;
      if (e.dir !== 'in' || !m || typeof m !== 'object' || Array.isArray(m) || seen.has(m)) continue;
      seen.add(m);
      if (typeof m.method === 'string') {
        incoming.push({ source: src.label, message: m, at: Date.parse(e.time), requests });
        continue;
      }
      if (!('result' in m) && !('error' in m)) continue;
      const key = 'id' in m ? idKey(m.id) : undefined;
      const request = key !== undefined ? requests.get(key) : undefined;
      if (mayBeDualEra && (request ? request.params?._meta?.[Meta.ProtocolVersion] === undefined : m.id === null)) continue;
      const exchange = src.label === 'shared connection' && request ? shared?.exchangeOf(request.id) : undefined;
      answers.push({
        source: src.label,
        response: m,
        at: Date.parse(e.time),
        ...(request ? { request, sentAt: sentAt.get(key!) } : {}),
        ...(exchange?.headers ? { headers: exchange.headers } : {}),
        ...(exchange?.status !== undefined ? { httpStatus: exchange.status } : {}),
      });
    }
  }
  return { answers, incoming };
}

/** Every response of the target in the run so far, with its request. */
export function runAnswers(ctx: CheckContext): Answered[] {
  return observe(ctx).answers;
}

/** Every notification and request of the target in the run so far. */
export function runIncoming(ctx: CheckContext): Incoming[] {
  return observe(ctx).incoming;
}

/** An error response: its error object (whatever its shape), else undefined. */
export function errorOf(a: Answered): JsonRpcError | undefined {
  const e = a.response.error;
  return e !== undefined && e !== null && typeof e === 'object' ? (e as JsonRpcError) : undefined;
}

/** The `_meta` client capabilities a request declared (an empty object when it declared none). */
export function declaredCapabilities(request: Message | undefined): Record<string, any> {
  const c = request?.params?._meta?.[Meta.ClientCapabilities];
  return c && typeof c === 'object' && !Array.isArray(c) ? c : {};
}

/** The error of each failed task seen in the run (tasks/get results and notifications/tasks), once per task. */
export function failedTaskErrors(ctx: CheckContext): { taskId: string; error: JsonRpcError; source: string }[] {
  const run = observe(ctx);
  const out = new Map<string, { taskId: string; error: JsonRpcError; source: string }>();
  const take = (source: string, t: any) => {
    if (t && typeof t === 'object' && t.status === 'failed' && typeof t.taskId === 'string' && t.error && typeof t.error === 'object' && !out.has(t.taskId))
      out.set(t.taskId, { taskId: t.taskId, error: t.error, source });
  };
  for (const a of run.answers) take(a.source, a.response.result);
  for (const i of run.incoming) if (i.message.method === Method.TasksNotification) take(i.source, i.message.params);
  return [...out.values()];
}

/**
 * Every status the target showed in the run so far (suites/judge/transitions.ts judges them): each result
 * carrying a task (a CreateTaskResult, a tasks/get, an acknowledgement that carries one) and each
 * notifications/tasks (polled or on a listen stream). Tasks are told apart by id; over stdio, where each
 * connection is a process of its own, by connection and id. A sighting that arrived past the task's
 * createdAt + ttlMs (the earliest any sighting states, less a margin for transit) is marked: from then on the
 * server may fail or delete it (RULINGS.md#ext-ttl-before-expiry).
 */
export function statusSightings(ctx: CheckContext, marginMs = 500): Sighting[] {
  const run = observe(ctx);
  const perConnection = ctx.info.transport !== 'http';
  const raw: { t: Record<string, any>; where: string; source: string; sentAt?: number; at: number }[] = [];
  const take = (t: unknown, where: string, source: string, at: number, sentAt?: number) => {
    if (t && typeof t === 'object' && !Array.isArray(t) && typeof (t as any)[Field.taskId] === 'string' && typeof (t as any)[Field.status] === 'string')
      raw.push({ t: t as Record<string, any>, where, source, at, ...(sentAt !== undefined ? { sentAt } : {}) });
  };
  for (const a of run.answers) take(a.response.result, `${a.request?.method ?? 'a response'} (${a.source})`, a.source, a.at, a.sentAt);
  for (const i of run.incoming)
    if (i.message.method === Method.TasksNotification) take(i.message.params, `${Method.TasksNotification} (${i.source})`, i.source, i.at);
  const key = (r: (typeof raw)[number]) => (perConnection ? `${r.source} ${r.t[Field.taskId]}` : String(r.t[Field.taskId]));
  const expiry = new Map<string, number>();
  for (const r of raw) {
    const created = Date.parse(r.t[Field.createdAt]);
    const ttl = r.t[Field.ttlMs];
    if (Number.isNaN(created) || typeof ttl !== 'number') continue;
    expiry.set(key(r), Math.min(expiry.get(key(r)) ?? Infinity, created + ttl - marginMs));
  }
  return raw.map((r) => ({
    task: key(r),
    status: r.t[Field.status],
    where: r.where,
    at: r.at,
    ...(r.sentAt !== undefined ? { sentAt: r.sentAt } : {}),
    ...(r.at > (expiry.get(key(r)) ?? Infinity) ? { afterExpiry: true } : {}),
  }));
}
