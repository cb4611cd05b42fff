// The driver of 2026-07-28: stateless requests over stdio and Streamable HTTP. No initialize, no session;
// every request carries its own `_meta` (protocol version, the client capabilities of that request, the
// client's identity), over HTTP also the standard headers (MCP-Protocol-Version, Mcp-Method, Mcp-Name).
// It is the 2025-11-25 Peer (suites/wire/peer.ts: transcript, bounded waits, scopes, raw bytes) on a modern
// transport, plus what the new wire adds: per-call capabilities and headers, server/discover, subscriptions/listen
// streams, cancellation by closing a stream (HTTP) or notifications/cancelled (stdio). No task logic here.
//
//   const peer = await connectModern({ kind: 'stdio', command: 'node', args: ['server.js'] });
//   const s = modern(peer.peer.scope('my-check'));          // in a check: modern(ctx.peer)
//   await s.discover();                                      // server/discover with this request's _meta
//   const r = await s.request('tools/call', { name: 'x', arguments: {} });             // declares the extension
//   const n = await s.request('tools/call', { name: 'x' }, { capabilities: CLIENT_CAPABILITIES.nonDeclaring });
//   const h = await s.request('tasks/get', { taskId }, { headers: { 'Mcp-Name': 'other' } });  // HTTP: r.httpStatus
//   const sub = await s.listen({ taskIds: [taskId] });  await sub.acknowledged();  await sub.close();
import { LegacyField, Meta, Method, PROTOCOL_VERSION, tasksExtensionCapabilities } from '../../../schema/2026-07-28/protocol.ts';
import {
  Peer,
  STARTUP_MS,
  WireClosedError,
  WireTimeoutError,
  idKey,
  frameRequests,
  type Message,
  type PeerOptions,
  type RequestOptions,
  type Response,
  type Scope,
} from '../../wire/peer.ts';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { HttpNoAnswerError, ModernHttpTransport, type HeaderOverrides, type HttpExchange } from './http.ts';
import { ModernStdioTransport } from './stdio.ts';

export { HttpNoAnswerError, type HttpExchange } from './http.ts';

/** How the suite names itself in `_meta["io.modelcontextprotocol/clientInfo"]`. */
export const CLIENT_INFO = { name: 'mcp-tasks-conformance', version: '0.1.0' } as const;

/**
 * Client capabilities a request can carry. `declaring` is the suite's default: it can answer elicitation
 * (form) input requests and declares the Tasks extension; `nonDeclaring` is the same without the extension;
 * `legacyTasksOnly` declares only the 2025-11-25 `tasks` capability (a non-declaring client, SEP-2663).
 */
export const CLIENT_CAPABILITIES = {
  declaring: { elicitation: { form: {} }, ...tasksExtensionCapabilities() },
  nonDeclaring: { elicitation: { form: {} } },
  legacyTasksOnly: {
    elicitation: { form: {} },
    [LegacyField.tasksCapability]: { requests: { tools: { call: {} } }, cancel: {}, list: {} },
  },
} as const satisfies Record<string, Record<string, unknown>>;

export interface ModernRequestOptions extends RequestOptions {
  /** `_meta["io.modelcontextprotocol/clientCapabilities"]` of this request (default: the connection's, i.e. declaring). */
  capabilities?: Record<string, unknown>;
  /** `_meta` keys set over the per-request fields (and over params._meta); a key set to undefined is left out. */
  meta?: Record<string, unknown>;
  /** Send `params` exactly as given: no `_meta` is added (malformed requests). */
  raw?: boolean;
  /** HTTP only: headers set over (a string) or left out of (null) the standard ones derived from the body. */
  headers?: HeaderOverrides;
}

/** A response, with what Streamable HTTP said around it. */
export interface ModernResponse extends Response {
  /** HTTP status of the POST that carried it (Streamable HTTP). */
  httpStatus?: number;
  /** Headers the request was sent with (Streamable HTTP). */
  httpRequestHeaders?: Record<string, string>;
}

/** One subscriptions/listen stream. */
export interface Subscription {
  /** The listen request's id: the `io.modelcontextprotocol/subscriptionId` of its notifications. */
  readonly id: string | number;
  /** Waits (bounded) for `notifications/subscriptions/acknowledged` of this subscription. */
  acknowledged(timeoutMs?: number): Promise<Message>;
  /**
   * Messages of this subscription so far, in order: over HTTP everything that arrived on its stream, over
   * stdio the messages naming its id in `_meta` (and its final response, if the server ended it).
   */
  messages(): Message[];
  /** Waits (bounded) for a message of this subscription matching `pred` (one already received counts). */
  waitFor(pred: (m: Message) => boolean, timeoutMs?: number, what?: string): Promise<Message>;
  /** The HTTP answer of the listen POST (status, content type), once it arrived. */
  readonly exchange?: HttpExchange;
  /** Ends it: closes the stream (HTTP) or sends notifications/cancelled for its id (stdio). */
  close(): Promise<void>;
}

/** The per-request `_meta` of a 2026-07-28 request (protocol version, this request's client capabilities, client info). */
export function requestMeta(capabilities: Record<string, unknown>): Record<string, unknown> {
  return { [Meta.ProtocolVersion]: PROTOCOL_VERSION, [Meta.ClientCapabilities]: capabilities, [Meta.ClientInfo]: CLIENT_INFO };
}

const registry = new WeakMap<Peer, ModernPeer>();

/** The 2026-07-28 connection `scope` belongs to, as a modern scope (throws for a 2025-11-25 connection). */
export function modern(scope: Scope): ModernScope {
  const mp = registry.get(scope.peer);
  if (!mp) throw new Error(`${scope.peer.label}: not a 2026-07-28 connection (open it with connectModern)`);
  return new ModernScope(mp, scope);
}

/** A Peer on a modern transport, with the connection's defaults. */
export class ModernPeer {
  readonly transportKind: 'stdio' | 'http';
  private readonly subscriptions = new Set<Subscription>();
  constructor(
    readonly peer: Peer,
    private readonly http: ModernHttpTransport | undefined,
    /** The capabilities a request carries unless it says otherwise. */
    readonly defaultCapabilities: Record<string, unknown> = CLIENT_CAPABILITIES.declaring,
  ) {
    this.transportKind = http ? 'http' : 'stdio';
    registry.set(peer, this);
    // The engine's own requests on this connection (suites/wire/peer.ts requestOn) carry this revision's `_meta` and headers.
    frameRequests(peer, (via, method, params, options) => new ModernScope(this, via instanceof Peer ? undefined : via).request(method, params, options));
  }

  static of(peer: Peer): ModernPeer | undefined {
    return registry.get(peer);
  }

  /** The whole connection as a modern scope (tests, probes); checks use `modern(ctx.peer)`. */
  all(): ModernScope {
    return new ModernScope(this, undefined);
  }

  /** @internal the message as it goes out: params with this request's `_meta`. */
  build(id: unknown, method: string, params: unknown, o: ModernRequestOptions): Message {
    const message: Message = { jsonrpc: '2.0', id, method };
    if (o.raw) {
      if (params !== undefined) message.params = params;
    } else {
      const p = params && typeof params === 'object' && !Array.isArray(params) ? { ...(params as Record<string, unknown>) } : {};
      const meta: Record<string, unknown> = {
        ...requestMeta(o.capabilities ?? this.defaultCapabilities),
        ...((p._meta as Record<string, unknown> | undefined) ?? {}),
        ...(o.meta ?? {}),
      };
      for (const [k, v] of Object.entries(meta)) if (v === undefined) delete meta[k];
      p._meta = meta;
      message.params = p;
    }
    if (o.headers) {
      if (this.http) this.http.overrideHeaders(message, o.headers);
      else throw new Error('headers apply to Streamable HTTP only');
    }
    return message;
  }

  /** @internal sends a built request and waits (bounded) for its response; an HTTP answer without one rejects at once. */
  async exchange(message: Message, send: (m: Message, timeoutMs: number) => Promise<Response>, timeoutMs: number): Promise<ModernResponse> {
    if (!this.http) return send(message, timeoutMs);
    const http = this.http;
    // A tools/call carries the Mcp-Param-* headers of the tool's listed inputSchema: a tool no tools/list of
    // this connection listed yet is looked up once per connection (bounded by the request's own timeout).
    const tool = message.method === Method.ToolsCall ? (message.params as { name?: unknown } | undefined)?.name : undefined;
    if (typeof tool === 'string' && !http.knowsTool(tool)) await this.listToolsOnce(timeoutMs);
    const answer = send(message, timeoutMs);
    // The POST's answer ended without the response: no point waiting out the timeout. (The exchange is
    // registered synchronously when the message goes out.)
    const x0 = http.exchangeOf(message.id);
    const ended = x0
      ? x0.done.then(() =>
          x0.endedWithout !== undefined && !x0.answered ? Promise.reject(new HttpNoAnswerError(x0, x0.endedWithout)) : new Promise<never>(() => undefined),
        )
      : new Promise<never>(() => undefined);
    ended.catch(() => undefined);
    const r = await Promise.race([answer, ended]);
    const x = http.exchangeOf(message.id);
    return { ...r, ...(x?.status !== undefined ? { httpStatus: x.status } : {}), ...(x ? { httpRequestHeaders: x.headers } : {}) };
  }

  private toolListing?: Promise<void>;
  /** tools/list, every page (bounded), once per connection; the transport reads the tools off the answers. */
  private listToolsOnce(timeoutMs: number): Promise<void> {
    this.toolListing ??= listTools(this.all(), timeoutMs).then(
      () => undefined,
      () => undefined,
    );
    return this.toolListing;
  }

  /** @internal */
  track(s: Subscription): void {
    this.subscriptions.add(s);
  }
  /** @internal */
  untrack(s: Subscription): void {
    this.subscriptions.delete(s);
  }

  /** Closes the stream of one request: HTTP aborts its POST; stdio sends notifications/cancelled (through `via`, a check's scope, for its evidence). */
  async cancelRequest(id: string | number, reason = 'cancelled by the conformance suite', via: Pick<Peer, 'notify'> = this.peer): Promise<void> {
    if (this.http) this.http.abort(id);
    else await via.notify(Method.Cancelled, { requestId: id, reason }).catch(() => undefined);
  }

  /** Posts raw text (HTTP: resolves once its answer is read) or writes a raw line (stdio); bounded by `timeoutMs` (default the request bound). */
  async sendBytes(text: string, headers?: Record<string, string>, timeoutMs?: number): Promise<void> {
    const http = this.http;
    if (http) {
      this.peer.record({ dir: 'out', raw: text });
      await this.peer.boundedRaw((signal) => http.sendRaw(text, headers, signal), timeoutMs);
    } else await this.peer.sendBytes(text, timeoutMs);
  }

  /** The HTTP exchange of a request id (status, content type, headers sent); undefined over stdio. */
  exchangeOf(id: unknown): HttpExchange | undefined {
    return this.http?.exchangeOf(id);
  }
  /** Over HTTP, the request id key whose answer carried `message`. */
  arrivedOn(message: object): string | undefined {
    return this.http?.arrivedOn(message);
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.close().catch(() => undefined)));
    await this.peer.close();
  }
}

/**
 * Request ids handed out per engine scope (or per connection, for the whole-connection view): every
 * ModernScope of one check shares its counter, so two views (`wire(ctx)` called twice) never send the same id.
 */
const idCounters = new WeakMap<object, number>();

/** A check's (or a probe's) view of a modern connection: requests with their own `_meta` and headers. */
export class ModernScope {
  constructor(
    readonly connection: ModernPeer,
    /** The engine's scope (its transcript is the check's evidence); undefined: the whole connection. */
    readonly scope: Scope | undefined,
  ) {}

  get transportKind(): 'stdio' | 'http' {
    return this.connection.transportKind;
  }
  get peer(): Peer {
    return this.connection.peer;
  }

  private nextId(): string | number {
    const owner: object = this.scope ?? this.connection;
    const n = (idCounters.get(owner) ?? 0) + 1;
    idCounters.set(owner, n);
    return this.scope ? `${this.scope.label}-m${n}` : `m${n}-${Math.random().toString(36).slice(2, 8)}`;
  }

  /** Sends a request with this request's `_meta` (and, over HTTP, the standard headers) and waits (bounded) for its response. */
  request(method: string, params?: unknown, options: ModernRequestOptions = {}): Promise<ModernResponse> {
    const message = this.connection.build(options.id !== undefined ? options.id : this.nextId(), method, params, options);
    const timeoutMs = options.timeoutMs ?? this.peer.defaultTimeoutMs;
    const via = this.scope ?? this.peer;
    return this.connection.exchange(message, (m, t) => via.requestRaw(m, t), timeoutMs);
  }

  /** server/discover (declaring capabilities unless told otherwise). */
  discover(options: ModernRequestOptions = {}): Promise<ModernResponse> {
    return this.request(Method.ServerDiscover, {}, options);
  }

  /** A notification with the per-request `_meta` left out (notifications carry none of their own). */
  notify(method: string, params?: unknown): Promise<void> {
    return this.scope ? this.scope.notify(method, params) : this.peer.notify(method, params);
  }

  /** Raw text: one POST body (HTTP) or one line (stdio); bounded (ModernPeer.sendBytes). */
  sendBytes(text: string, headers?: Record<string, string>, timeoutMs?: number): Promise<void> {
    return this.connection.sendBytes(text, headers, timeoutMs);
  }

  /** Waits (bounded) for any message on the connection matching `pred`. */
  waitFor(pred: (m: Message) => boolean, timeoutMs?: number, what?: string, includePast = false): Promise<Message> {
    return this.peer.waitFor(pred, timeoutMs, what, includePast);
  }

  /**
   * Opens a subscriptions/listen stream with this `notifications` filter (e.g. `{ taskIds: [id] }`).
   * Resolves once the request is out (HTTP: once the answer's status is in); the stream stays open until
   * `close()` or the end of the connection. Its acknowledgement and notifications are read from the Subscription.
   */
  async listen(notifications: Record<string, unknown>, options: ModernRequestOptions = {}): Promise<Subscription> {
    const id = options.id !== undefined ? (options.id as string | number) : this.nextId();
    const message = this.connection.build(id, Method.SubscriptionsListen, { notifications }, options);
    const connection = this.connection;
    const peer = this.peer;
    const scope = this.scope;
    const key = idKey(id);
    const mine = (m: Message) =>
      connection.transportKind === 'http'
        ? connection.arrivedOn(m) === key
        : idKey(m.params?._meta?.[Meta.SubscriptionId]) === key || (!('method' in m) && idKey(m.id) === key);
    let closed = false;
    const sub: Subscription = {
      id,
      get exchange() {
        return connection.exchangeOf(id);
      },
      acknowledged: (timeoutMs) =>
        peer.waitFor(
          (m) => m.method === Method.SubscriptionsAcknowledged && idKey(m.params?._meta?.[Meta.SubscriptionId]) === key,
          timeoutMs,
          `notifications/subscriptions/acknowledged for subscription ${String(id)}`,
          true,
        ),
      messages: () => peer.messages(mine),
      waitFor: (pred, timeoutMs, what = 'notification of the subscription') => peer.waitFor((m) => mine(m) && pred(m), timeoutMs, what, true),
      close: async () => {
        if (closed) return;
        closed = true;
        connection.untrack(sub);
        if (!peer.closed) await connection.cancelRequest(id, 'subscription closed by the conformance suite', scope ?? peer);
      },
    };
    connection.track(sub);
    // Not a pending request: a listen answers only when the server ends the subscription.
    await (this.scope ? this.scope.send(message) : peer.send(message));
    return sub;
  }
}

/** tools/list, every page (bounded), with this revision's `_meta`; stops at an error or a page without tools. */
export async function listTools(s: ModernScope, timeoutMs?: number): Promise<any[]> {
  const tools: any[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const r = await s.request(Method.ToolsList, cursor ? { cursor } : {}, timeoutMs !== undefined ? { timeoutMs } : {});
    if (r.error || !Array.isArray(r.result?.tools)) break;
    tools.push(...r.result.tools);
    cursor = typeof r.result.nextCursor === 'string' ? r.result.nextCursor : undefined;
    if (!cursor) break;
  }
  return tools;
}

export type ModernTarget =
  | { kind: 'stdio'; command: string; args?: string[]; env?: Record<string, string>; cwd?: string }
  | { kind: 'http'; url: string; headers?: Record<string, string> }
  /**
   * A message stream in this process (a library caller's Transport, not yet started, e.g. one end of SDK v2's
   * InMemoryTransport pair): spoken to as stdio is (one stream per connection, cancellation by
   * notifications/cancelled), without raw bytes.
   */
  | { kind: 'transport'; transport: Transport; label?: string };

export interface ModernConnectOptions extends PeerOptions {
  /** Capabilities every request carries unless it says otherwise (default CLIENT_CAPABILITIES.declaring). */
  capabilities?: Record<string, unknown>;
}

/** Opens a 2026-07-28 connection: spawns the process (stdio), points at the endpoint (HTTP) or starts the transport. No handshake. */
export async function connectModern(target: ModernTarget, opts: ModernConnectOptions = {}): Promise<ModernPeer> {
  if (target.kind === 'transport') {
    const peer = new Peer(target.transport, { label: opts.label ?? target.label ?? 'in-process transport', ...opts });
    await target.transport.start();
    return new ModernPeer(peer, undefined, opts.capabilities);
  }
  if (target.kind === 'http') {
    let peerRef: Peer | undefined;
    const transport = new ModernHttpTransport({
      url: target.url,
      headers: target.headers,
      note: (text, raw) => peerRef?.record({ dir: 'event', note: text, ...(raw !== undefined ? { raw } : {}) }),
    });
    const peer = new Peer(transport, { label: opts.label ?? target.url, ...opts });
    peerRef = peer;
    await transport.start();
    return new ModernPeer(peer, transport, opts.capabilities);
  }
  const transport = new ModernStdioTransport({ command: target.command, args: target.args, env: target.env, cwd: target.cwd });
  // stdio: the client MUST NOT write JSON-RPC responses (basic-transports-stdio.md), and 2026-07-28 servers
  // send no requests; one that does gets no answer from us, and the transcript says so.
  const send = transport.send.bind(transport);
  let peerRef: Peer | undefined;
  transport.send = async (m) => {
    const msg = m as Message;
    if (!('method' in msg)) {
      peerRef?.record({ dir: 'event', note: `not sent: a JSON-RPC response (id=${idKey(msg.id)} ); clients write none on stdio` });
      return;
    }
    await send(m);
  };
  const peer = new Peer(transport, {
    label: opts.label ?? [target.command, ...(target.args ?? [])].join(' '),
    startupMs: STARTUP_MS,
    ...opts,
    child: () => transport.process,
    rawWriter: (text, signal) =>
      new Promise<void>((resolve, reject) => {
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        transport.write(text.endsWith('\n') ? text : text + '\n').then(resolve, (e) => reject(new WireClosedError(String(e?.message ?? e))));
      }),
  });
  peerRef = peer;
  transport.onstderr = (text) => peer.appendStderr(text);
  await transport.start();
  peer.record({ dir: 'event', note: `spawned ${[target.command, ...(target.args ?? [])].join(' ')}` });
  return new ModernPeer(peer, undefined, opts.capabilities);
}

export { WireClosedError, WireTimeoutError };
