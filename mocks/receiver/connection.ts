// One connection of the reference receiver (our own code: no SDK Server/Protocol): the transport, sending
// requests, notifications and responses, the ownership key of its requests, the standalone HTTP GET
// stream, and teardown. What a request means is the business of the dispatcher it is handed (dispatch.ts).
import { abortWith } from './abort.ts';
import { createHash, randomUUID } from 'node:crypto';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode } from '../../schema/protocol.ts';
import { deferred } from '../../suites/wire/deferred.ts';
import { isObject, NO_REPLY, type Msg, type Params, type RequestCtx } from './core.ts';
import type { Dispatcher, PeerResponse as Response, ReceiverCore, SessionIdentity, SessionOptions, SessionPort, TapEvent } from './port.ts';
import { statusChanged } from './result-delivery.ts';
import type { JsonRpcErrorObject, StoredTask } from './store.ts';

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function bearerFrom(extra: MessageExtraInfo | undefined): string | undefined {
  if (extra?.authInfo?.token) return extra.authInfo.token;
  const h = extra?.requestInfo?.headers?.authorization ?? extra?.requestInfo?.headers?.Authorization;
  const v = Array.isArray(h) ? h[0] : h;
  if (typeof v !== 'string') return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(v);
  return m ? m[1] : undefined;
}

export class ReceiverSession implements SessionPort {
  readonly localId = randomUUID();
  initialized = false;
  closed = false;
  clientCapabilities: Params = {};
  private outCounter = 0;
  private readonly pendingOut = new Map<string, { resolve(r: Response): void; reject(e: Error): void }>();
  /** Plain (non-task) requests under way, by JSON id: notifications/cancelled aborts them. */
  readonly inflight = new Map<string, AbortController>();
  /** Open tasks/result requests: each is released (unanswered) when the connection closes. */
  readonly waitingResults = new Set<() => void>();
  /** The requestor has a standalone GET SSE stream open (HTTP; kept by the HTTP server). */
  standaloneStreamOpen = false;
  private standaloneStreams = 0;
  /** Requests waiting for a standalone stream (relatedOnStandalone). */
  private readonly standaloneQueue: { message: Msg; done(ok: boolean): void }[] = [];
  /** When our latest response went out, until the peer's next message (peerReactionMs). */
  private answeredAt: number | undefined;
  /** The longest the peer took from one of our responses to its next message: its latency as this session sees it. */
  peerReactionMs = 0;

  /** Scenario hook: whether task-augmented tools/call is declared (with the tasks capability). */
  get toolsCallTasks(): boolean {
    return this.core.scenario?.toolsCallTasks ?? true;
  }

  /** Scenario hook: records into the tap, if any. */
  tap(dir: TapEvent['dir'], message?: unknown, note?: string): void {
    const tap = this.core.scenario?.tap;
    if (!tap) return;
    try {
      tap({ session: this.localId, dir, ...(message !== undefined ? { message } : {}), ...(note !== undefined ? { note } : {}), time: Date.now() });
    } catch {
      /* a tap's failure is its own */
    }
  }

  constructor(
    readonly core: ReceiverCore,
    readonly transport: Transport,
    private readonly answer: Dispatcher,
    private readonly identity: SessionIdentity = {},
    private readonly opts: SessionOptions = {},
  ) {
    transport.onmessage = (m, extra) => this.onMessage(m as Msg, extra);
    transport.onerror = (e) => this.onTransportError(e);
    transport.onclose = () => this.close();
    this.tap('event', undefined, 'session opened');
  }

  /** The session part of the ownership key: the HTTP session id, else this connection. */
  get sessionKey(): string {
    return this.transport.sessionId ?? this.localId;
  }

  /**
   * Ownership key (security-bind-context): the bearer token's hash when an authorization context
   * is present, else the session. Two sessions presenting the same token share the context.
   */
  ownerFor(extra: MessageExtraInfo | undefined): { owner: string; auth: string | undefined } {
    if (this.identity.owner) return { owner: this.identity.owner, auth: undefined };
    const token = bearerFrom(extra) ?? this.identity.authToken;
    if (token) {
      const h = hashToken(token);
      return { owner: `bearer:${h}`, auth: `bearer:sha256:${h.slice(0, 12)}` };
    }
    return { owner: `session:${this.sessionKey}`, auth: undefined };
  }

  /** HTTP: a standalone GET SSE stream of this session is under way; queued requests go out on it. */
  standaloneStreamOpened(): void {
    this.standaloneStreams++;
    this.standaloneStreamOpen = true;
    this.tap('event', undefined, 'http GET: standalone SSE stream opened');
    for (const q of this.standaloneQueue.splice(0)) {
      this.sendRaw(q.message).then(
        () => q.done(true),
        () => q.done(false),
      );
    }
  }

  /** HTTP: a standalone GET SSE stream of this session ended. */
  standaloneStreamClosed(): void {
    this.standaloneStreams = Math.max(0, this.standaloneStreams - 1);
    this.standaloneStreamOpen = this.standaloneStreams > 0;
    this.tap('event', undefined, 'http GET: standalone SSE stream closed');
  }

  // --- wire ----------------------------------------------------------------------------------
  private async sendRaw(message: Msg, relatedRequestId?: string | number): Promise<void> {
    if (this.closed) return;
    if (this.opts.relatedOnStandalone && typeof message.method === 'string') {
      // JSON responses: a request-related message cannot ride on the answer; the GET stream takes it.
      relatedRequestId = undefined;
      if ('id' in message && !this.standaloneStreamOpen) {
        return new Promise<void>((resolve, reject) => {
          this.standaloneQueue.push({ message, done: (ok) => (ok ? resolve() : reject(new Error('could not send request'))) });
        });
      }
    }
    const late = this.core.latitude.sendDelayMs(); // RULINGS.md#response-time (latency)
    if (late > 0) await new Promise((r) => setTimeout(r, late));
    if (this.closed) return;
    this.tap('out', message, relatedRequestId !== undefined ? `related to request ${JSON.stringify(relatedRequestId)}` : undefined);
    try {
      await this.transport.send(message as JSONRPCMessage, relatedRequestId !== undefined ? { relatedRequestId } : undefined);
    } catch (e) {
      this.core.logError(`send failed (${String(message.method ?? `response ${String(message.id)}`)}): ${e instanceof Error ? e.message : String(e)}`);
      throw e;
    }
  }

  notify(method: string, params: Params, relatedRequestId?: string | number): Promise<void> {
    return this.sendRaw({ jsonrpc: '2.0', method, params }, relatedRequestId).catch(() => undefined);
  }

  /** Sends a request to the peer; resolves with its response (result or error). */
  request(method: string, params: Params, relatedRequestId?: string | number): { sent: Promise<boolean>; response: Promise<Response> } {
    const id = `rr-${++this.outCounter}`;
    const { promise: response, resolve, reject } = deferred<Response>();
    this.pendingOut.set(id, { resolve, reject });
    const sent = this.sendRaw({ jsonrpc: '2.0', id, method, params }, relatedRequestId).then(
      () => true,
      () => {
        this.pendingOut.delete(id);
        reject(new Error('could not send request'));
        return false;
      },
    );
    return { sent, response };
  }

  /**
   * Sends a response. `id` null (the request's id could not be read): the `id` member is omitted, as the
   * MCP schema's JSONRPCErrorResponse has `id?: RequestId` (JSON-RPC 2.0 would write null, which MCP
   * clients such as the SDK reject as an invalid message).
   */
  private reply(id: string | number | null, body: { result: unknown } | { error: JsonRpcErrorObject }): Promise<void> {
    return this.sendRaw(id === null ? { jsonrpc: '2.0', ...body } : { jsonrpc: '2.0', id, ...body }).then(
      () => void (this.answeredAt = Date.now()),
      () => undefined,
    );
  }

  private onTransportError(e: Error): void {
    this.core.logError(`transport error: ${e?.message ?? String(e)}`);
    if (!this.opts.answerTransportErrors) return;
    if (e instanceof SyntaxError) {
      void this.reply(null, { error: { code: ErrorCode.ParseError, message: `Parse error: ${e.message}` } });
    } else if (e?.name === 'ZodError' || Array.isArray((e as { issues?: unknown }).issues)) {
      void this.reply(null, { error: { code: ErrorCode.InvalidRequest, message: 'Invalid Request: not a valid JSON-RPC 2.0 message' } });
    }
  }

  private onMessage(m: Msg, extra: MessageExtraInfo | undefined): void {
    this.tap('in', m);
    if (this.answeredAt !== undefined) this.peerReactionMs = Math.max(this.peerReactionMs, Date.now() - this.answeredAt);
    this.answeredAt = undefined;
    try {
      if (!isObject(m)) return;
      const hasId = 'id' in m && (typeof m.id === 'string' || typeof m.id === 'number');
      if (typeof m.method === 'string' && hasId) void this.onRequest(m, extra);
      else if (typeof m.method === 'string') this.onNotification(m);
      else if (hasId && ('result' in m || 'error' in m)) this.onResponse(m);
      else if (this.opts.answerTransportErrors) void this.reply(null, { error: { code: ErrorCode.InvalidRequest, message: 'Invalid Request' } });
    } catch (e) {
      this.core.logError(`message handling failed: ${e instanceof Error ? e.stack : String(e)}`);
    }
  }

  private onResponse(m: Msg): void {
    const p = this.pendingOut.get(String(m.id));
    if (!p) return;
    this.pendingOut.delete(String(m.id));
    if ('error' in m && isObject(m.error)) p.resolve({ error: m.error as JsonRpcErrorObject });
    else p.resolve({ result: m.result });
  }

  private onNotification(m: Msg): void {
    if (m.method === 'notifications/initialized') this.initialized = true;
    else if (m.method === 'notifications/cancelled' && isObject(m.params)) {
      // cancellation.md: stop the plain request, send no response. Tasks ignore this (tasks/cancel is the way).
      const c = this.inflight.get(JSON.stringify(m.params.requestId));
      if (c) abortWith(c, new Error('request cancelled'));
    }
  }

  private async onRequest(m: Msg, extra: MessageExtraInfo | undefined): Promise<void> {
    const id = m.id as string | number;
    const { owner, auth } = this.ownerFor(extra);
    const params = m.params;
    const progressToken = isObject(params) && isObject(params._meta) ? params._meta.progressToken : undefined;
    const ctx: RequestCtx = { id, owner, auth, progressToken, sessionLabel: this.identity.label ?? `session:${this.sessionKey}` };
    const out = await this.answer(this, m.method as string, params, ctx);
    if (out === NO_REPLY) return;
    if ('error' in out) return this.reply(id, { error: out.error });
    await this.reply(id, { result: out.result });
    if (out.after) this.guard(`after ${String(m.method)}`, out.after);
  }

  /** notifications/tasks/status for a task this connection created (the store calls it on every status change). */
  statusChanged(t: StoredTask): void {
    statusChanged(this, t);
  }

  /** Runs background work (timers, post-response steps) so that an error is logged, never thrown. */
  guard(what: string, fn: () => void): void {
    try {
      fn();
    } catch (e) {
      this.core.logError(`${what} failed: ${e instanceof Error ? e.stack : String(e)}`);
    }
  }

  // --- teardown --------------------------------------------------------------------------------
  close(): void {
    if (this.closed) return;
    this.tap('event', undefined, 'session closed');
    this.closed = true;
    for (const c of this.inflight.values()) abortWith(c, new Error('connection closed'));
    this.inflight.clear();
    for (const p of this.pendingOut.values()) p.reject(new Error('connection closed'));
    this.pendingOut.clear();
    for (const q of this.standaloneQueue.splice(0)) q.done(false);
    for (const w of [...this.waitingResults]) w();
    this.core.sessionClosed(this);
  }
}
