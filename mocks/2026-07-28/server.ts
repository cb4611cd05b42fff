// The reference extension server (MCP 2026-07-28 + io.modelcontextprotocol/tasks): one JSON-RPC message in,
// at most one answer out, stateless — every request is judged by its own `_meta` (version, capabilities)
// and, over HTTP, its own headers. The transports (stdio.ts, http.ts) only frame messages and give each
// request its context. Named faults and latitudes (faults.ts) act where their name appears.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { Switches, type FaultName } from './faults.ts';
import {
  BASE64_SENTINEL,
  declaresTasksExtension,
  ErrorCode,
  Header,
  INITIALIZE,
  isTerminal,
  MCP_NAME_SOURCE,
  Meta,
  Method,
  missingTasksCapabilityData,
  PROTOCOL_VERSION,
  ResultType,
  SUPPORTED_VERSIONS,
  TASK_METHODS,
  TASKS_EXTENSION,
} from './protocol.ts';
import { RpcError, TaskStore, type InputRequest, type JsonObject, type JsonRpcError, type StoredTask } from './store.ts';
import { OFFICIAL_SUITE_TOOLS } from './official-tools.ts';
import { answerText, elicitation, questionOf, runTime, toolDefinition, TOOLS, type Question, type Timings, type ToolSpec } from './tools.ts';
import { isObj } from '../../schema/json.ts';

export const SERVER_NAME = 'mcp-tasks-reference-extension-server';
export const SERVER_VERSION = '0.1.0';

export interface ServerOptions {
  faults?: readonly string[];
  latitudes?: readonly string[];
  /** ttlMs of new tasks (default 60 000; null: unlimited). */
  ttlMs?: number | null;
  /** pollIntervalMs of new tasks (default 100). */
  pollIntervalMs?: number;
  timings?: Partial<Timings>;
  /** Unfinished tasks per requestor (default 100). */
  maxConcurrentTasks?: number;
  /** Tasks kept per requestor (default 1000). */
  maxRetained?: number;
  /** Open subscriptions/listen per connection (stdio) or in all (HTTP) (default 32). */
  maxSubscriptions?: number;
  /** Task ids per subscriptions/listen (default 100). */
  maxListenTaskIds?: number;
  /** Entries per tasks/update inputResponses (default 100). */
  maxInputResponses?: number;
  /** Delay of every answer under the latitude high-latency (default 300). */
  latencyMs?: number;
  /** Declare and serve the extension (default true). Off: tasks/* → -32601, tools/call never makes a task. */
  tasksExtension?: boolean;
  /** Also serve the fixture tools of the official MCP conformance suite's Tasks scenarios (official-tools.ts; default false). */
  officialSuiteTools?: boolean;
  /** Members added to server/discover's capabilities (the dual-era target's fault legacy-capabilities-advertised). */
  moreCapabilities?: JsonObject;
  /** Observer of every message in and out (client grading, debugging). */
  onWire?: (event: WireEvent) => void;
  /** When the latitude update-applies-later applies an acknowledged tasks/update (default: UPDATE_LATER_MS later). */
  deferUpdate?: (taskId: string, apply: () => void) => void;
  /** Diagnostics (stderr in the CLI). */
  log?: (line: string) => void;
}

export interface WireEvent {
  dir: 'in' | 'out';
  transport: 'stdio' | 'http';
  message: unknown;
  headers?: IncomingHttpHeaders;
  time: number;
}

/** fault legacy-status-notification: the 2025-11-25 name of the status notification. */
const LEGACY_STATUS_NOTIFICATION = 'notifications/tasks/status';
/** fault deleted-at-end: how long a terminal task is kept. */
const DELETED_AT_END_MS = 300;

export const DEFAULTS = {
  ttlMs: 60_000,
  pollIntervalMs: 100,
  timings: { completesMs: 100, slowMs: 3_000 } as Timings,
  maxConcurrentTasks: 100,
  maxRetained: 1_000,
  maxSubscriptions: 32,
  maxListenTaskIds: 100,
  maxInputResponses: 100,
  latencyMs: 300,
} as const;

/** How long the fault create-before-durable hides a new task; how long cancel-later and update-applies-later wait. */
export const NOT_YET_DURABLE_MS = 2_000;
export const CANCEL_LATER_MS = 500;
export const UPDATE_LATER_MS = 300;
const SEED_WAIT_MS = 200;
const REQUEST_STATE_TTL_MS = 10 * 60_000;

/** The context of one request, given by its transport. */
export interface RequestCtx {
  transport: 'stdio' | 'http';
  /** Whose tasks this request may see (auth binding): the bearer token's hash, or the connection (stdio). */
  owner: string;
  /** HTTP request headers (HTTP only). */
  headers?: IncomingHttpHeaders;
  /** HTTP request headers as sent, names as written: name, value, name, value … (HTTP only). */
  rawHeaders?: readonly string[];
  /** Aborted when the request is cancelled (stdio notifications/cancelled, HTTP disconnect) or the server closes. */
  signal: AbortSignal;
  /** Sends a notification belonging to this request (the subscriptions/listen stream). */
  notify(message: JsonObject): void;
  /** Open subscriptions on this connection (stdio) or server (HTTP), for the limit. */
  subscriptions: { count: number };
}

/** An answer: the JSON-RPC message and the HTTP status it goes with. */
export interface Answer {
  message: JsonObject;
  httpStatus: number;
  /** Over HTTP the status alone, no body (latitude http-level-refusals). */
  bare?: boolean;
}

type Params = JsonObject;
const iso = (ms: number): string => new Date(ms).toISOString();

/** How far apart the requests of one round become outstanding under latitude input-requests-staggered. */
const STAGGER_MS = 150;

/** The implementation-defined code of latitude rate-limit-custom-code (outside JSON-RPC's and MCP's ranges). */
const RATE_LIMIT_CODE = -31029;

/** A request for a task another requestor owns, refused at the HTTP level (latitude http-level-refusals). */
class ForeignTaskError extends RpcError {}

/** An error found before the method ran (envelope, headers, _meta, version): it carries its HTTP status. */
class LadderError extends RpcError {
  constructor(
    code: number,
    message: string,
    readonly httpStatus: number,
    data?: unknown,
    /** The -32602 of a request without its required _meta fields. */
    readonly metaMissing = false,
  ) {
    super(code, message, data);
  }
}

/** Decodes `=?base64?…?=` (streamable-http "Value Encoding"); undefined when the value is not a valid header value. */
export function decodeHeaderValue(v: string): string | undefined {
  const m = BASE64_SENTINEL.exec(v);
  if (m) return Buffer.from(m[1]!, 'base64').toString('utf8');
  // visible ASCII, space, tab (RFC 9110 field values); no leading/trailing whitespace.
  if (!/^[\x21-\x7e]([\x20-\x7e\t]*[\x21-\x7e])?$/.test(v)) return undefined;
  return v;
}

export class ExtensionServer {
  readonly switches: Switches;
  readonly store: TaskStore;
  readonly timings: Timings;
  readonly opts: Required<Omit<ServerOptions, 'faults' | 'latitudes' | 'timings' | 'onWire' | 'deferUpdate' | 'log' | 'ttlMs' | 'pollIntervalMs'>> & {
    ttlMs: number | null;
    pollIntervalMs: number | undefined;
  };
  private readonly secret = randomBytes(32);
  private readonly onWire?: (event: WireEvent) => void;
  private readonly deferUpdate: (taskId: string, apply: () => void) => void;
  private readonly log: (line: string) => void;
  /** Open subscriptions: closed gracefully when the server closes. */
  private readonly listens = new Set<() => void>();
  /** tools/call count (latitude alternate-results). */
  private calls = 0;
  /** fault version-from-prior-request: the supported version each client named last. */
  private readonly priorVersions = new Map<string, string>();
  /** tasks/get that showed a task failed (fault failed-resumes) or completed (fault completed-refails). */
  private readonly failedShown = new WeakMap<StoredTask, number>();
  private readonly completedShown = new WeakMap<StoredTask, number>();
  /** The tools/call request that created each task (fault task-cancel-notified). */
  private readonly createdBy = new WeakMap<StoredTask, string | number>();
  /** How many times each tool's work started. */
  readonly runs = new Map<string, number>();
  /** The tools served, in tools/list order. */
  readonly tools: readonly ToolSpec[];
  private readonly toolByName: ReadonlyMap<string, ToolSpec>;
  closed = false;

  constructor(options: ServerOptions = {}) {
    this.switches = new Switches(options.faults, options.latitudes);
    const l = (n: Parameters<Switches['latitude']>[0]) => this.switches.latitude(n);
    this.timings = { ...DEFAULTS.timings, ...options.timings };
    this.opts = {
      ttlMs: l('ttl-unlimited') ? null : options.ttlMs === undefined ? DEFAULTS.ttlMs : options.ttlMs,
      pollIntervalMs: l('no-poll-interval') ? undefined : (options.pollIntervalMs ?? DEFAULTS.pollIntervalMs),
      maxConcurrentTasks: options.maxConcurrentTasks ?? DEFAULTS.maxConcurrentTasks,
      maxRetained: options.maxRetained ?? DEFAULTS.maxRetained,
      maxSubscriptions: options.maxSubscriptions ?? DEFAULTS.maxSubscriptions,
      maxListenTaskIds: options.maxListenTaskIds ?? DEFAULTS.maxListenTaskIds,
      maxInputResponses: options.maxInputResponses ?? DEFAULTS.maxInputResponses,
      latencyMs: options.latencyMs ?? DEFAULTS.latencyMs,
      tasksExtension: options.tasksExtension ?? true,
      officialSuiteTools: options.officialSuiteTools ?? false,
      moreCapabilities: options.moreCapabilities ?? {},
    };
    this.tools = this.opts.officialSuiteTools ? [...TOOLS, ...OFFICIAL_SUITE_TOOLS] : TOOLS;
    this.toolByName = new Map(this.tools.map((t) => [t.name, t]));
    this.store = new TaskStore({
      ttlMs: this.opts.ttlMs,
      pollIntervalMs: this.opts.pollIntervalMs,
      maxConcurrentTasks: this.opts.maxConcurrentTasks,
      maxRetained: this.opts.maxRetained,
      sequentialIds: this.fault('sequential-task-ids'),
      expiry: l('expiry-fails-any')
        ? 'fail-any-then-delete'
        : l('expiry-fails-first')
          ? 'fail-then-delete'
          : l('retain-expired') || l('lazy-expiry')
            ? 'keep'
            : 'delete',
    });
    if (l('ttl-changes')) this.store.on('change', (t) => t.ttlMs !== null && this.store.setTtl(t, t.ttlMs + 1000));
    if (this.fault('deleted-at-end')) this.store.on('change', (t) => isTerminal(t.status) && setTimeout(() => this.store.remove(t), DELETED_AT_END_MS).unref());
    this.onWire = options.onWire;
    this.deferUpdate = options.deferUpdate ?? ((_taskId, apply) => setTimeout(apply, UPDATE_LATER_MS).unref());
    this.log = options.log ?? (() => {});
  }

  private fault(name: FaultName): boolean {
    return this.switches.fault(name);
  }
  private latitude(name: Parameters<Switches['latitude']>[0]): boolean {
    return this.switches.latitude(name);
  }

  wire(dir: 'in' | 'out', transport: 'stdio' | 'http', message: unknown, headers?: IncomingHttpHeaders): void {
    if (!this.onWire) return;
    try {
      this.onWire({ dir, transport, message, ...(headers ? { headers } : {}), time: Date.now() });
    } catch {
      /* an observer's failure is its own */
    }
  }

  // --- messages ----------------------------------------------------------------------------------------

  /** The answer to a message that could not be parsed as JSON (-32700, no id). */
  parseError(detail: string): Answer {
    return { message: { jsonrpc: '2.0', error: { code: ErrorCode.ParseError, message: `Parse error: ${detail}` } }, httpStatus: 400 };
  }

  /** An error answer without a request id (the id could not be read, or the message was not one request). */
  invalidRequest(message: string, id?: unknown): Answer {
    return { message: { jsonrpc: '2.0', ...(id !== undefined ? { id } : {}), error: { code: ErrorCode.InvalidRequest, message } }, httpStatus: 400 };
  }

  /**
   * One parsed message. Requests get an answer (undefined when the request was cancelled: no response is
   * sent for it); notifications and responses get none. `kind` tells the transport which it was.
   */
  async handle(msg: unknown, ctx: RequestCtx): Promise<Answer | undefined> {
    if (!isObj(msg))
      return this.invalidRequest(Array.isArray(msg) ? 'Invalid Request: batches are not supported' : 'Invalid Request: a message must be a JSON object');
    const hasValidId = 'id' in msg && (typeof msg.id === 'string' || (typeof msg.id === 'number' && Number.isInteger(msg.id)));
    if (typeof msg.method !== 'string') {
      // A response (the client must not send any; there is nothing outstanding) is dropped; anything else is invalid.
      if ('result' in msg || 'error' in msg) return undefined;
      return this.invalidRequest('Invalid Request: no method', hasValidId ? msg.id : undefined);
    }
    if (!('id' in msg)) {
      this.notification(msg, ctx);
      return undefined;
    }
    if (!hasValidId) return this.invalidRequest('Invalid Request: id must be a string or an integer (not null)');
    const id = msg.id as string | number;
    if (msg.jsonrpc !== '2.0') return this.invalidRequest('Invalid Request: jsonrpc must be "2.0"', id);
    try {
      const result = await this.request(msg.method, msg.params, id, ctx);
      if (result === undefined || ctx.signal.aborted) return undefined;
      if (this.latitude('high-latency')) await sleep(this.opts.latencyMs);
      return { message: { jsonrpc: '2.0', id, result: this.withServerInfo(result, msg.method) }, httpStatus: 200 };
    } catch (e) {
      if (ctx.signal.aborted && !(e instanceof RpcError)) return undefined;
      const err = e instanceof RpcError ? e : new RpcError(ErrorCode.InternalError, `Internal error: ${e instanceof Error ? e.message : String(e)}`);
      if (!(e instanceof RpcError)) this.log(`internal error on ${msg.method}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      if (this.latitude('high-latency')) await sleep(this.opts.latencyMs);
      // latitude http-level-refusals: a header mismatch refused as an intermediary in front would (a bare 400), a
      // foreign task as an authorization layer would (a bare 403).
      const bare = this.latitude('http-level-refusals') && (err instanceof ForeignTaskError || err.code === ErrorCode.HeaderMismatch);
      return {
        message: { jsonrpc: '2.0', id, error: this.errorObject(err, msg.method) },
        httpStatus: this.httpStatus(err, msg.method),
        ...(bare ? { bare } : {}),
      };
    }
  }

  private errorObject(err: RpcError, method: string): JsonRpcError {
    const o = err.toJSON();
    // fault error-message-empty: the extension's protocol errors say nothing about their cause.
    if (this.fault('error-message-empty') && ((TASK_METHODS as readonly string[]).includes(method) || o.code === ErrorCode.MissingRequiredClientCapability))
      o.message = '';
    // fault no-required-capabilities: -32021 without data.requiredCapabilities.
    if (o.code === ErrorCode.MissingRequiredClientCapability && this.fault('no-required-capabilities')) delete o.data;
    if (o.code === ErrorCode.MissingRequiredClientCapability && this.fault('no-required-capabilities-task-methods') && method !== Method.ToolsCall)
      delete o.data;
    if (this.latitude('extra-fields') && o.data === undefined) o.data = { 'x-reference-note': 'extra member (latitude extra-fields)' };
    return o;
  }

  private httpStatus(err: RpcError, method: string): number {
    if (err instanceof ForeignTaskError) return 403;
    if (err.code === ErrorCode.MissingRequiredClientCapability)
      return this.fault('capability-error-http-200') || (this.fault('task-methods-32021-http-200') && method !== Method.ToolsCall) ? 200 : 400;
    if (!(err instanceof LadderError)) return 200;
    if (err.code === ErrorCode.HeaderMismatch && this.fault('header-mismatch-http-200')) return 200;
    if (err.code === ErrorCode.MethodNotFound && this.fault('unknown-method-http-400')) return 400;
    if (err.metaMissing && this.fault('meta-missing-http-200')) return 200;
    if (err.code === ErrorCode.UnsupportedProtocolVersion && this.fault('unsupported-version-http-200')) return 200;
    return err.httpStatus;
  }

  private withServerInfo(result: JsonObject, method: string): JsonObject {
    // latitude extra-fields: an unknown member on every result but the acks, which hold nothing but resultType and _meta (RULINGS.md#ext-empty-ack).
    const ack = method === Method.TasksUpdate || method === Method.TasksCancel;
    const extra = this.latitude('extra-fields') && !ack ? { 'x-reference-extra': true } : {};
    const meta = isObj(result._meta) ? result._meta : {};
    return {
      ...result,
      ...extra,
      _meta: {
        ...meta,
        [Meta.ServerInfo]: { name: SERVER_NAME, version: SERVER_VERSION },
        ...(this.latitude('extra-fields') ? { 'com.example.reference/extra': 'vendor key' } : {}),
      },
    };
  }

  /** notifications/cancelled is the transports' business (they own the in-flight requests); the rest is ignored. */
  private notification(msg: JsonObject, _ctx: RequestCtx): void {
    void msg;
  }

  // --- the request ladder --------------------------------------------------------------------------------

  private async request(method: string, rawParams: unknown, id: string | number, ctx: RequestCtx): Promise<JsonObject | undefined> {
    if (rawParams !== undefined && !isObj(rawParams)) throw new LadderError(ErrorCode.InvalidParams, 'Invalid params: params must be an object', 400);
    const params: Params = rawParams ?? {};
    const handler = this.handlerFor(method);
    if (!handler) {
      // latitude initialize-unanswered: no answer, until the request is cancelled or its connection ends.
      if (method === INITIALIZE && this.latitude('initialize-unanswered')) {
        await new Promise<void>((resolve) => (ctx.signal.aborted ? resolve() : ctx.signal.addEventListener('abort', () => resolve(), { once: true })));
        return undefined;
      }
      if (method === INITIALIZE && !this.fault('initialize-error-no-versions')) {
        // basic-versioning.md: a modern-only server names the versions it supports in its error to initialize.
        const requested = typeof params.protocolVersion === 'string' ? params.protocolVersion : '';
        throw new LadderError(
          ErrorCode.UnsupportedProtocolVersion,
          `Unsupported protocol version: this server implements only ${SUPPORTED_VERSIONS.join(', ')} (no initialize handshake)`,
          400,
          {
            supported: [...SUPPORTED_VERSIONS],
            requested,
          },
        );
      }
      throw new LadderError(ErrorCode.MethodNotFound, `Method not found: ${method}`, 404);
    }
    const version = this.checkMeta(params);
    if (ctx.transport === 'http' && ctx.headers) this.checkHeaders(method, params, version, ctx);
    if (!SUPPORTED_VERSIONS.includes(version) && !this.fault('unsupported-version-served') && !this.versionFromPriorRequest(params, ctx)) {
      throw new LadderError(ErrorCode.UnsupportedProtocolVersion, `Unsupported protocol version: ${version}`, 400, {
        supported: [...SUPPORTED_VERSIONS],
        requested: version,
      });
    }
    if (this.fault('version-from-prior-request')) this.rememberVersion(params, ctx, version);
    return handler.call(this, params, ctx, id);
  }

  /** fault version-from-prior-request: the client (requestor and clientInfo) named a supported version before. */
  private versionFromPriorRequest(params: Params, ctx: RequestCtx): boolean {
    return this.fault('version-from-prior-request') && this.priorVersions.has(this.clientKey(params, ctx));
  }

  private rememberVersion(params: Params, ctx: RequestCtx, version: string): void {
    if (!SUPPORTED_VERSIONS.includes(version)) return;
    if (this.priorVersions.size >= 1_000) this.priorVersions.clear();
    this.priorVersions.set(this.clientKey(params, ctx), version);
  }

  private clientKey(params: Params, ctx: RequestCtx): string {
    return `${ctx.owner} ${JSON.stringify(isObj(params._meta) ? (params._meta[Meta.ClientInfo] ?? null) : null)}`;
  }

  private handlerFor(method: string): ((p: Params, ctx: RequestCtx, id: string | number) => Promise<JsonObject | undefined>) | undefined {
    const ext = this.opts.tasksExtension;
    switch (method) {
      case Method.ServerDiscover:
        return this.fault('discover-not-implemented') ? undefined : this.discover;
      case Method.ToolsList:
        return this.toolsList;
      case Method.ToolsCall:
        return this.toolsCall;
      case Method.SubscriptionsListen:
        return this.listen;
      case Method.TasksGet:
        return ext ? this.tasksGet : undefined;
      case Method.TasksUpdate:
        return ext ? this.tasksUpdate : undefined;
      case Method.TasksCancel:
        return ext ? this.tasksCancel : undefined;
      case Method.TasksResult:
        return ext && this.fault('tasks-result-served') ? this.tasksResult : undefined;
      case Method.TasksList:
        return ext && this.fault('tasks-list-served') ? this.tasksList : undefined;
      default:
        return undefined;
    }
  }

  /** The per-request protocol fields (basic-index.md "_meta"): both required, else -32602 (HTTP 400). */
  private checkMeta(params: Params): string {
    const meta = params._meta;
    const version = isObj(meta) ? meta[Meta.ProtocolVersion] : undefined;
    const caps = isObj(meta) ? meta[Meta.ClientCapabilities] : undefined;
    if (this.fault('missing-meta-served')) return typeof version === 'string' ? version : PROTOCOL_VERSION;
    if (meta !== undefined && !isObj(meta)) throw new LadderError(ErrorCode.InvalidParams, 'Invalid params: _meta must be an object', 400);
    if (typeof version !== 'string' || version === '')
      throw new LadderError(ErrorCode.InvalidParams, `Invalid params: _meta["${Meta.ProtocolVersion}"] is required (a string)`, 400, undefined, true);
    if (!isObj(caps))
      throw new LadderError(ErrorCode.InvalidParams, `Invalid params: _meta["${Meta.ClientCapabilities}"] is required (an object)`, 400, undefined, true);
    if (caps.extensions !== undefined && !isObj(caps.extensions))
      throw new LadderError(ErrorCode.InvalidParams, 'Invalid params: clientCapabilities.extensions must be an object', 400);
    return version;
  }

  /** Streamable HTTP "Server Validation": the standard headers present and equal to the body (-32020, HTTP 400). */
  private checkHeaders(method: string, params: Params, version: string, ctx: RequestCtx): void {
    const headers = ctx.headers ?? {};
    const raw = ctx.rawHeaders ?? [];
    const one = (name: string): string | undefined => {
      // fault header-names-case-sensitive: only the name as the specification spells it is looked at.
      if (this.fault('header-names-case-sensitive')) {
        const i = raw.findIndex((n, k) => k % 2 === 0 && n === name);
        return i < 0 ? undefined : raw[i + 1];
      }
      const v = headers[name.toLowerCase()];
      return Array.isArray(v) ? v[0] : v;
    };
    const mismatch = (text: string) => new LadderError(ErrorCode.HeaderMismatch, `Header mismatch: ${text}`, 400);
    const pv = one(Header.ProtocolVersion);
    if (pv === undefined) throw mismatch(`${Header.ProtocolVersion} header is required`);
    if (pv !== version && !this.fault('protocol-version-header-unchecked'))
      throw mismatch(`${Header.ProtocolVersion} header value '${pv}' does not match _meta value '${version}'`);
    const m = one(Header.Method);
    if (m === undefined) throw mismatch(`${Header.Method} header is required`);
    if (m !== method && !this.fault('mcp-method-unchecked')) throw mismatch(`${Header.Method} header value '${m}' does not match body value '${method}'`);
    const source = MCP_NAME_SOURCE[method];
    if (!source) return;
    const task = method.startsWith('tasks/');
    const name = one(Header.Name);
    const body = params[source];
    if (name === undefined) {
      // RULINGS.md#ext-mcp-name-task-id: rejecting a task request without Mcp-Name is the server's choice (latitude mcp-name-optional).
      if (task && this.latitude('mcp-name-optional')) return;
      if (task && body === undefined && this.fault('task-without-id-resolved')) return;
      throw mismatch(`${Header.Name} header is required for ${method}`);
    }
    // fault mcp-name-not-decoded: the value compared as sent, a Base64 sentinel not decoded.
    const decoded = this.fault('mcp-name-not-decoded') ? name : decodeHeaderValue(name);
    if (decoded === undefined) throw mismatch(`${Header.Name} header value contains invalid characters`);
    if (decoded !== body && !(task && this.fault('mcp-name-unchecked')))
      throw mismatch(`${Header.Name} header value '${decoded}' does not match body value '${String(body)}'`);
    if (method !== Method.ToolsCall) return;
    // "Custom Headers from Tool Parameters": a mirrored value in the body needs its Mcp-Param header, equal after decoding.
    const args = isObj(params.arguments) ? params.arguments : {};
    for (const [k, m] of Object.entries((typeof body === 'string' ? this.toolByName.get(body) : undefined)?.mirrored ?? {})) {
      const header = `${Header.ParamPrefix}${m.header}`;
      const sent = one(header);
      const value = args[k];
      const got = sent === undefined ? undefined : decodeHeaderValue(sent);
      if (sent !== undefined && got === undefined) throw mismatch(`${header} header value contains invalid characters`);
      if (value === undefined || value === null) continue;
      if (sent === undefined) throw mismatch(`${header} header is required: arguments.${k} is in the body`);
      if (got !== String(value)) throw mismatch(`${header} header value '${got}' does not match body value '${String(value)}'`);
      if (this.fault('mcp-param-match-refused')) throw mismatch(`${header} header value '${got}' refused`);
    }
  }

  // --- capabilities ----------------------------------------------------------------------------------

  private caps(params: Params): JsonObject {
    const meta = params._meta;
    const caps = isObj(meta) ? meta[Meta.ClientCapabilities] : undefined;
    return isObj(caps) ? caps : {};
  }

  /** The request declares the extension (only this request's declaration counts; the 2025 `tasks` capability does not). */
  private declares(params: Params): boolean {
    if (declaresTasksExtension(params)) return true;
    // fault legacy-capability-counts: the 2025-11-25 capability taken for the extension.
    return this.fault('legacy-capability-counts') && isObj(this.caps(params).tasks);
  }

  private requireTasks(params: Params): void {
    if (!this.declares(params)) {
      throw new RpcError(
        ErrorCode.MissingRequiredClientCapability,
        `Missing required client capability: the ${TASKS_EXTENSION} extension`,
        missingTasksCapabilityData(),
      );
    }
  }

  /** Form-mode elicitation declared (an empty `elicitation` object means form). */
  private declaresElicitation(params: Params): boolean {
    const e = this.caps(params).elicitation;
    return isObj(e) && (Object.keys(e).length === 0 || isObj(e.form));
  }

  private requireElicitation(params: Params): void {
    if (this.declaresElicitation(params)) return;
    throw new RpcError(ErrorCode.MissingRequiredClientCapability, 'Missing required client capability: elicitation (form mode)', {
      requiredCapabilities: { elicitation: { form: {} } },
    });
  }

  // --- Task on the wire --------------------------------------------------------------------------------

  private taskFields(t: StoredTask): JsonObject {
    const legacy = this.fault('legacy-field-names');
    const statusMessage = t.statusMessage ?? (this.latitude('status-message-always') ? `The task is ${t.status}.` : undefined);
    return {
      taskId: t.taskId,
      status: t.status,
      ...(statusMessage !== undefined ? { statusMessage } : {}),
      createdAt: this.stamp(t.createdAtMs, 'createdAt'),
      lastUpdatedAt: this.stamp(this.fault('last-updated-frozen') ? t.createdAtMs : t.lastUpdatedAtMs, 'lastUpdatedAt'),
      [legacy ? 'ttl' : 'ttlMs']: t.ttlMs,
      ...(t.pollIntervalMs !== undefined ? { [legacy ? 'pollInterval' : 'pollIntervalMs']: t.pollIntervalMs } : {}),
      ...(this.latitude('extra-fields') ? { 'x-reference-extra': 'unknown member' } : {}),
    };
  }

  /**
   * A timestamp as written (ISO 8601, tasks.md:129-133; RULINGS.md#ext-timestamps-iso8601). latitude
   * timestamps-naive: Python's naive isoformat() of the UTC time (microseconds, no zone); latitude
   * timestamps-mixed-precision: createdAt in whole seconds, lastUpdatedAt in milliseconds with a +00:00 offset.
   */
  private stamp(ms: number, field: 'createdAt' | 'lastUpdatedAt'): string {
    const z = iso(ms);
    if (this.latitude('timestamps-naive')) return `${z.slice(0, -1)}000`;
    if (this.latitude('timestamps-mixed-precision')) return field === 'createdAt' ? `${z.slice(0, 19)}Z` : `${z.slice(0, -1)}+00:00`;
    return z;
  }

  /** The DetailedTask of the task's current status (tasks.md "Response" 1-5). */
  private detailed(t: StoredTask): JsonObject {
    const d = this.taskFields(t);
    if (t.status === 'completed' && !this.fault('completed-no-result')) {
      // The underlying request's result as it would have been returned (CallToolResult, resultType included);
      // latitude inline-result-bare: without resultType, as the examples of tasks.md show it.
      d.result = this.latitude('inline-result-bare') ? { ...t.result } : { resultType: ResultType.Complete, ...t.result };
    }
    if (t.status === 'failed' && !this.fault('failed-no-error')) d.error = t.error ?? { code: ErrorCode.InternalError, message: 'failed' };
    if (t.status === 'failed' && this.fault('failed-no-status-message')) delete d.statusMessage;
    if (t.status === 'input_required' && !this.fault('input-required-no-requests')) {
      const entries = [...t.outstanding.entries()];
      d.inputRequests = Object.fromEntries(this.fault('input-requests-partial-list') ? entries.slice(0, 1) : entries);
      // fault input-request-not-mrtr: each outstanding request shown as a method MRTR does not carry.
      if (this.fault('input-request-not-mrtr')) d.inputRequests = Object.fromEntries(entries.map(([k]) => [k, { method: 'ping', params: {} }]));
    }
    return d;
  }

  // --- server/discover, tools/list ----------------------------------------------------------------------

  private async discover(): Promise<JsonObject> {
    return {
      ...(this.fault('discover-no-result-type') ? {} : { resultType: ResultType.Complete }),
      supportedVersions: [...SUPPORTED_VERSIONS],
      capabilities: { tools: {}, ...(this.opts.tasksExtension ? { extensions: { [TASKS_EXTENSION]: {} } } : {}), ...(this.opts.moreCapabilities ?? {}) },
      instructions: 'Reference server of the mcp-tasks-conformance suite: each tool plays one role of the Tasks extension.',
      ttlMs: 0,
      cacheScope: 'public',
    };
  }

  private async toolsList(params: Params): Promise<JsonObject> {
    if (params.cursor !== undefined) throw new RpcError(ErrorCode.InvalidParams, 'Invalid params: unknown cursor (this server lists every tool on one page)');
    const tools = this.tools.filter((t) => this.opts.tasksExtension || !this.taskOnly(t)).map((t) => toolDefinition(t, this.timings));
    // fault result-type-unknown: a resultType outside the supported set.
    const resultType = this.fault('result-type-unknown') ? 'list' : ResultType.Complete;
    return { ...(this.fault('discover-no-result-type') ? {} : { resultType }), tools, ttlMs: 0, cacheScope: 'public' };
  }

  // --- tools/call ---------------------------------------------------------------------------------------

  private async toolsCall(params: Params, ctx: RequestCtx, id: string | number): Promise<JsonObject> {
    if (typeof params.name !== 'string') throw new RpcError(ErrorCode.InvalidParams, 'Invalid params: name must be a string');
    const tool = this.toolByName.get(params.name);
    if (!tool || (this.taskOnly(tool) && !this.opts.tasksExtension)) throw new RpcError(ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
    const ms = runTime(tool, params.arguments, this.timings);
    const args = isObj(params.arguments) ? params.arguments : {};
    // SEP-2663: the 2025-11-25 `task` parameter is unknown here and ignored (fault task-param-validated).
    if (
      this.fault('task-param-validated') &&
      params.task !== undefined &&
      !(isObj(params.task) && (params.task.ttl === undefined || typeof params.task.ttl === 'number'))
    ) {
      throw new RpcError(ErrorCode.InvalidParams, 'Invalid params: task must be a TaskMetadata object');
    }
    if (params.inputResponses !== undefined && !isObj(params.inputResponses))
      throw new RpcError(ErrorCode.InvalidParams, 'Invalid params: inputResponses must be an object');
    if (params.requestState !== undefined && typeof params.requestState !== 'string')
      throw new RpcError(ErrorCode.InvalidParams, 'Invalid params: requestState must be a string');
    const ext = this.opts.tasksExtension;
    const declared = ext && this.declares(params);
    if (this.taskOnly(tool) && !declared) {
      if (this.fault('undeclared-wrong-code')) throw new RpcError(ErrorCode.InvalidParams, `Tool ${tool.name} runs only as a task`);
      this.requireTasks(params);
    }
    // fault elicitation-undeclared: a declaring client's call without elicitation still starts the input tool's task.
    const elicitationUnchecked =
      (this.fault('mrtr-undeclared-elicitation') && !declared) || (this.fault('elicitation-undeclared') && declared && !!tool.rounds);
    if ((tool.rounds || tool.before) && !elicitationUnchecked) this.requireElicitation(params);
    // fault undeclared-bare-ack: a non-declaring client gets neither the core result nor an error.
    if (ext && !declared && !this.taskOnly(tool) && !tool.rounds && !tool.before && this.fault('undeclared-bare-ack') && this.decideTask(tool, true)) {
      void this.work(this.store.create(ctx.owner, tool.name), tool, ms, [], {}, args);
      return { resultType: ResultType.Complete };
    }
    // fault task-param-opts-in: for a declaring client the 2025-11-25 `task` parameter decides (a task with it, none without).
    const optIn = this.fault('task-param-opts-in') && declared && !this.taskOnly(tool) && !tool.syncOnly;
    const asTask = optIn
      ? params.task !== undefined
      : this.decideTask(
          tool,
          declared || (ext && (this.fault('task-to-undeclared') || (this.fault('task-to-undeclared-failing') && tool.name === 'fail_rpc'))),
        );
    const mrtrAfterTask = asTask && this.fault('mrtr-after-task');
    // MRTR on the tools/call itself: the question before the task (mrtr_then_task), and every question when it runs synchronously.
    const mrtrRounds: (readonly Question[])[] = [...(tool.before && !mrtrAfterTask ? [[tool.before]] : []), ...(asTask ? [] : (tool.rounds ?? []))];
    const answers: Record<string, string> = {};
    if (mrtrRounds.length) {
      const pending = this.mrtr(tool, mrtrRounds, params, ctx.owner, answers);
      if (pending) {
        // fault input-as-server-request: the question also goes out as a request of the server's own (no answer awaited).
        const first = Object.values((pending.inputRequests ?? {}) as Record<string, JsonObject>)[0];
        if (this.fault('input-as-server-request') && first)
          ctx.notify({ jsonrpc: '2.0', id: `server-${randomBytes(4).toString('hex')}`, method: first.method as string, params: first.params as JsonObject });
        return pending;
      }
    }
    if (!asTask) {
      this.runs.set(tool.name, (this.runs.get(tool.name) ?? 0) + 1);
      await sleep(ms, undefined, { signal: ctx.signal });
      const outcome = this.outcome(tool, answers, args);
      if ('error' in outcome) throw new RpcError(outcome.error.code, outcome.error.message, outcome.error.data);
      return { resultType: ResultType.Complete, ...outcome.result };
    }
    const task = this.store.create(ctx.owner, tool.name);
    this.createdBy.set(task, id);
    const taskRounds = [...(mrtrAfterTask && tool.before ? [[tool.before]] : []), ...(tool.rounds ?? [])];
    void this.work(task, tool, ms, taskRounds, answers, args);
    if (this.latitude('seed-current-status')) await this.settled(task, SEED_WAIT_MS);
    return this.createTaskResult(task);
  }

  /** The tool's outcome, with the error-code faults on a JSON-RPC error (the same with a task or without). */
  private outcome(tool: ToolSpec, answers: Record<string, string>, args: JsonObject): ReturnType<ToolSpec['outcome']> {
    const o = this.varied(tool.outcome(answers, args));
    if (!('error' in o)) return o;
    if (this.fault('tool-error-legacy-code')) return { error: { ...o.error, code: -32005 } };
    if (this.fault('tool-error-reserved-code')) return { error: { ...o.error, code: -32050 } };
    if (this.fault('tool-error-retired-code')) return { error: { ...o.error, code: -32002 } };
    if (this.fault('tool-error-defined-code'))
      return {
        error: { code: ErrorCode.MissingRequiredClientCapability, message: o.error.message, data: { requiredCapabilities: { elicitation: { form: {} } } } },
      };
    return o;
  }

  /** Whether a tool runs only as a task (latitude task-only-fails: the fail tool too). */
  private taskOnly(tool: ToolSpec): boolean {
    return tool.taskOnly === true || (tool.role === 'failsWithError' && this.latitude('task-only-fails'));
  }

  /** latitude nondeterministic-output: no two calls answer the same (a time and a random id in the text, or in error.data). */
  private varied(o: ReturnType<ToolSpec['outcome']>): ReturnType<ToolSpec['outcome']> {
    if (!this.latitude('nondeterministic-output')) return o;
    const stamp = `at ${new Date().toISOString()}, request ${randomBytes(6).toString('hex')}`;
    if ('error' in o) return { error: { ...o.error, data: { ...(o.error.data as JsonObject), at: stamp } } };
    const content = (o.result.content as JsonObject[]).map((c) => (c.type === 'text' ? { ...c, text: `${c.text as string} (${stamp})` } : c));
    return { result: { ...o.result, content } };
  }

  /** The server's choice: a task or the plain result (latitudes sync-results, alternate-results). */
  private decideTask(tool: ToolSpec, mayTask: boolean): boolean {
    if (!mayTask || tool.syncOnly) return false;
    if (this.taskOnly(tool)) return true;
    if (this.latitude('sync-results')) return false;
    if (this.latitude('alternate-results')) return this.calls++ % 2 === 0;
    return true;
  }

  private createTaskResult(task: StoredTask): JsonObject {
    const resultType = this.fault('create-result-type-complete') ? ResultType.Complete : ResultType.Task;
    // A seed in another status carries what tasks/get would (RULINGS.md#ext-create-task-result-terminal-seed).
    if (this.fault('create-result-nested')) return { resultType, task: this.detailed(task) };
    return { resultType, ...this.detailed(task) };
  }

  /** Resolves when the task leaves `working` or after `ms`. */
  private settled(task: StoredTask, ms: number): Promise<void> {
    if (task.status !== 'working') return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.store.off('change', onChange);
        resolve();
      };
      const onChange = (t: StoredTask) => t === task && t.status !== 'working' && done();
      const timer = setTimeout(done, ms);
      this.store.on('change', onChange);
    });
  }

  /** The work of a task: its input rounds, its run time, its outcome. Ends quietly when the task is cancelled or deleted. */
  private async work(
    task: StoredTask,
    tool: ToolSpec,
    ms: number,
    rounds: readonly (readonly Question[])[],
    answers: Record<string, string>,
    args: JsonObject,
  ): Promise<void> {
    this.runs.set(tool.name, (this.runs.get(tool.name) ?? 0) + 1);
    const signal = task.abort.signal;
    try {
      // The work begins after the CreateTaskResult is made: the seed state is working (latitude seed-current-status waits).
      await new Promise((r) => setImmediate(r));
      let previous: string[] = [];
      for (const round of rounds) {
        const keys = round.map((q, i) => (this.fault('input-key-reused') && previous[i] ? previous[i]! : this.store.newKey(task, q.label)));
        const requests: Record<string, InputRequest> = Object.fromEntries(round.map((q, i) => [keys[i]!, elicitation(q)]));
        const staggerMs = this.latitude('input-requests-staggered') ? STAGGER_MS : 0;
        await this.store.requestInput(task, requests, `Waiting for input: ${round.map((q) => q.label).join(', ')}`, staggerMs);
        round.forEach((q, i) => {
          const key = this.store.currentKey(task, keys[i]!);
          answers[q.label] = answerText(key, task.answers.get(key), q);
        });
        previous = keys;
      }
      await sleep(ms, undefined, { signal });
      let outcome = this.outcome(tool, answers, args);
      if (this.fault('is-error-as-failed') && 'result' in outcome && outcome.result.isError === true) {
        outcome = { error: { code: ErrorCode.InternalError, message: 'The tool reported an error' } };
      }
      if (this.fault('failed-error-altered') && 'error' in outcome) outcome = { error: { code: -31001, message: 'Task failed' } };
      if (this.fault('failed-message-altered') && 'error' in outcome)
        outcome = { error: { ...outcome.error, message: `Task failed: ${outcome.error.message}` } };
      if (this.fault('is-error-dropped') && 'result' in outcome && outcome.result.isError === true) {
        const { isError: _dropped, ...rest } = outcome.result;
        outcome = { result: rest };
      }
      if (this.fault('completed-result-altered') && 'result' in outcome)
        outcome = { result: { ...outcome.result, content: [{ type: 'text', text: 'not the result of the tool' }] } };
      if (task.status === 'cancelled' && this.fault('cancelled-resurrects')) {
        task.result = 'result' in outcome ? outcome.result : {};
        this.store.forceStatus(task, 'completed', 'The work finished after all');
        return;
      }
      this.store.finish(task, outcome);
    } catch (e) {
      if (signal.aborted || isTerminal(task.status) || !this.store.peek(task.taskId)) return;
      const error =
        e instanceof RpcError ? e.toJSON() : { code: ErrorCode.InternalError, message: `Internal error: ${e instanceof Error ? e.message : String(e)}` };
      this.store.finish(task, { error });
    }
  }

  // --- MRTR on the request itself --------------------------------------------------------------------------

  private sign(payload: JsonObject): string {
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${createHmac('sha256', this.secret).update(body).digest('base64url')}`;
  }

  private verify(state: string): JsonObject | undefined {
    const [body, mac] = state.split('.');
    if (!body || !mac) return undefined;
    const want = createHmac('sha256', this.secret).update(body).digest();
    const got = Buffer.from(mac, 'base64url');
    if (got.length !== want.length || !timingSafeEqual(got, want)) return undefined;
    try {
      const p = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      return isObj(p) ? p : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Runs the MRTR rounds of a tools/call: an InputRequiredResult for the next round not yet answered, or
   * undefined when every round is answered (the answers are in `answers`). requestState (integrity-protected,
   * bound to the requestor, the tool and an expiry) carries the rounds answered so far.
   */
  private mrtr(
    tool: ToolSpec,
    rounds: readonly (readonly Question[])[],
    params: Params,
    owner: string,
    answers: Record<string, string>,
  ): JsonObject | undefined {
    const ownerTag = createHash('sha256').update(owner).digest('base64url').slice(0, 16);
    let round = 0;
    let keys: string[] | undefined;
    if (typeof params.requestState === 'string') {
      const s = this.verify(params.requestState);
      if (
        !s ||
        s.t !== tool.name ||
        s.o !== ownerTag ||
        typeof s.e !== 'number' ||
        s.e < Date.now() ||
        typeof s.r !== 'number' ||
        !Array.isArray(s.k) ||
        !isObj(s.a)
      ) {
        throw new RpcError(ErrorCode.InvalidParams, 'Invalid params: requestState is not valid for this request (tampered, expired or from another request)');
      }
      round = s.r;
      keys = s.z ? undefined : (s.k as string[]);
      Object.assign(answers, s.a);
    } else if (this.latitude('mrtr-state-only')) {
      // latitude mrtr-state-only: the first answer carries only requestState (mrtr.md: at least one of the two); the retry gets the question.
      return {
        resultType: ResultType.InputRequired,
        requestState: this.sign({ t: tool.name, r: 0, k: [], a: {}, o: ownerTag, e: Date.now() + REQUEST_STATE_TTL_MS, z: 1 }),
      };
    }
    const responses = isObj(params.inputResponses) ? params.inputResponses : {};
    if (keys && round < rounds.length) {
      const qs = rounds[round]!;
      if (keys.every((k) => k in responses)) {
        qs.forEach((q, i) => (answers[q.label] = answerText(keys![i]!, responses[keys![i]!], q)));
        round++;
      }
    }
    if (round >= rounds.length) return undefined;
    const qs = rounds[round]!;
    const fresh = qs.map((q) => `${q.label}-${randomBytes(4).toString('hex')}`);
    return {
      resultType: ResultType.InputRequired,
      inputRequests: Object.fromEntries(qs.map((q, i) => [fresh[i]!, elicitation(q)])),
      requestState: this.sign({ t: tool.name, r: round, k: fresh, a: answers, o: ownerTag, e: Date.now() + REQUEST_STATE_TTL_MS }),
    };
  }

  // --- tasks/get, tasks/update, tasks/cancel --------------------------------------------------------------

  private taskMethodGate(params: Params): void {
    if (!this.fault('task-methods-undeclared')) this.requireTasks(params);
  }

  /** The task named by params.taskId for this requestor (auth binding; an unknown, expired or foreign id is -32602). */
  private lookup(params: Params, ctx: RequestCtx, verb: string): StoredTask {
    const id = params.taskId;
    // fault internal-error-custom-code: an internal failure answered outside the standard codes.
    if (this.fault('internal-error-custom-code') && typeof id === 'string' && id.length > 1024)
      throw new RpcError(-32000, 'Internal error: the task store cannot index a taskId this long');
    let task: StoredTask;
    if (this.fault('foreign-task-visible') && typeof id === 'string' && this.store.peek(id)) task = this.store.peek(id)!;
    else if (id === undefined && this.fault('task-without-id-resolved') && this.store.latestOf(ctx.owner)) task = this.store.latestOf(ctx.owner)!;
    else if (this.latitude('http-level-refusals') && ctx.transport === 'http' && typeof id === 'string' && this.store.peek(id) && !this.canSee(id, ctx.owner))
      throw new ForeignTaskError(ErrorCode.InvalidParams, `Forbidden: task ${id} belongs to another requestor`);
    else task = this.store.lookup(id, ctx.owner, verb);
    if (this.latitude('lazy-expiry') && task.ttlMs !== null && Date.now() > task.createdAtMs + task.ttlMs) {
      this.store.remove(task);
      throw new RpcError(ErrorCode.InvalidParams, `Failed to ${verb} task: Task has expired`);
    }
    if (this.fault('create-before-durable') && Date.now() - task.createdAtMs < NOT_YET_DURABLE_MS)
      throw new RpcError(ErrorCode.InvalidParams, `Failed to ${verb} task: Task not found`);
    return task;
  }

  private async tasksGet(params: Params, ctx: RequestCtx): Promise<JsonObject> {
    this.taskMethodGate(params);
    let task: StoredTask;
    try {
      task = this.lookup(params, ctx, 'retrieve');
    } catch (e) {
      if (this.fault('get-unknown-wrong-code') && e instanceof RpcError && e.code === ErrorCode.InvalidParams)
        throw new RpcError(ErrorCode.InternalError, e.message);
      throw e;
    }
    const now = Date.now();
    const limits = this.latitude('rate-limit-polls') || this.latitude('rate-limit-custom-code');
    if (limits && task.pollIntervalMs !== undefined && task.lastGetMs !== undefined && now - task.lastGetMs < task.pollIntervalMs) {
      const retryAfterMs = task.pollIntervalMs - (now - task.lastGetMs);
      // latitude rate-limit-custom-code: an implementation's own code with HTTP 429 (RULINGS.md#ext-rate-limit-error-open).
      if (this.latitude('rate-limit-custom-code'))
        throw new LadderError(RATE_LIMIT_CODE, `Slow down: poll this task every ${task.pollIntervalMs} ms`, 429, { retryAfterMs });
      throw new RpcError(ErrorCode.InternalError, `Rate limited: poll this task at most every ${task.pollIntervalMs} ms`, { retryAfterMs });
    }
    // RULINGS.md#ext-input-requests-declared-capability: the inputRequests shown answer to this request's capabilities.
    // latitude input-requests-any-get: every tasks/get is shown what is outstanding, whatever it declares.
    if (task.status === 'input_required' && !this.latitude('input-requests-any-get')) this.requireElicitation(params);
    task.lastGetMs = now;
    task.gets++;
    let d = this.detailed(task);
    if (task.status === 'failed' && this.fault('failed-resumes')) {
      const shown = this.failedShown.get(task) ?? 0;
      this.failedShown.set(task, shown + 1);
      if (shown >= 1) {
        const { error: _e, ...rest } = d;
        d = { ...rest, status: 'working' };
      }
    }
    if (task.status === 'completed' && this.fault('completed-refails')) {
      const shown = this.completedShown.get(task) ?? 0;
      this.completedShown.set(task, shown + 1);
      if (shown >= 1) {
        const { result: _r, ...rest } = d;
        d = { ...rest, status: 'failed', error: { code: ErrorCode.InternalError, message: 'Internal error: the task was lost' } };
      }
    }
    if (this.latitude('poll-interval-changes') && task.pollIntervalMs !== undefined) task.pollIntervalMs = Math.min(1000, Math.max(1, task.pollIntervalMs * 2));
    if (this.fault('get-no-result-type')) return d;
    const taskType = this.fault('get-result-type-task') || (this.fault('get-result-type-task-failed') && task.status === 'failed');
    return { resultType: taskType ? ResultType.Task : ResultType.Complete, ...d };
  }

  private ack(task: StoredTask | undefined, noResultType: boolean, carryTask: boolean): JsonObject {
    return { ...(noResultType ? {} : { resultType: ResultType.Complete }), ...(carryTask && task ? this.taskFields(task) : {}) };
  }

  private async tasksUpdate(params: Params, ctx: RequestCtx): Promise<JsonObject> {
    this.taskMethodGate(params);
    const responses = params.inputResponses;
    if (!isObj(responses)) throw new RpcError(ErrorCode.InvalidParams, 'Invalid params: inputResponses must be an object');
    if (Object.keys(responses).length > this.opts.maxInputResponses) {
      throw new RpcError(ErrorCode.InvalidParams, `Invalid params: at most ${this.opts.maxInputResponses} inputResponses per tasks/update`);
    }
    const noRt = this.fault('update-no-result-type');
    const carry = this.fault('update-ack-carries-task');
    let task: StoredTask;
    try {
      task = this.lookup(params, ctx, 'update');
    } catch (e) {
      if (this.fault('update-unknown-acked') && e instanceof RpcError && e.code === ErrorCode.InvalidParams && typeof params.taskId === 'string')
        return this.ack(undefined, noRt, false);
      throw e;
    }
    if (this.fault('terminal-update-rejected') && isTerminal(task.status))
      throw new RpcError(ErrorCode.InvalidParams, `Invalid params: task ${task.taskId} is already ${task.status}`);
    const keys = Object.keys(responses);
    // Validate what will be taken (mrtr.md "Error Handling"); keys not outstanding are ignored unread.
    for (const k of keys) if (task.outstanding.has(k)) answerText(k, responses[k], questionOf(task.outstanding.get(k)));
    if (this.fault('unknown-key-rejected')) {
      const stray = keys.filter((k) => !task.outstanding.has(k));
      if (stray.length) throw new RpcError(ErrorCode.InvalidParams, `Invalid params: not an outstanding input request: ${stray.join(', ')}`);
    }
    const apply = () => {
      if (this.fault('answered-key-reapplied'))
        for (const k of keys) if (task.answers.has(k) && !task.outstanding.has(k)) task.answers.set(k, responses[k] as JsonObject);
      const outstanding = keys.filter((k) => task.outstanding.has(k));
      if (this.latitude('partial-ignored') && outstanding.length < task.outstanding.size) return;
      const taken = this.store.answer(task, responses as Record<string, JsonObject>);
      // latitude supersede-on-partial: after a partial answer the requests left are reissued under new keys (tasks.md:379).
      if (this.latitude('supersede-on-partial') && taken.length && task.status === 'input_required')
        for (const k of [...task.outstanding.keys()]) this.store.supersede(task, k, this.store.newKey(task, k.replace(/-[0-9a-f]{8}$/, '')));
      if (this.fault('partial-answer-resumes') && outstanding.length && task.outstanding.size) {
        this.store.answer(task, Object.fromEntries([...task.outstanding.keys()].map((k) => [k, { action: 'cancel' }])));
      }
    };
    if (this.latitude('update-applies-later')) this.deferUpdate(task.taskId, apply);
    else apply();
    return this.ack(task, noRt, carry);
  }

  private async tasksCancel(params: Params, ctx: RequestCtx): Promise<JsonObject> {
    this.taskMethodGate(params);
    const noRt = this.fault('cancel-no-result-type');
    const carry = this.fault('cancel-ack-carries-task');
    let task: StoredTask;
    try {
      task = this.lookup(params, ctx, 'cancel');
    } catch (e) {
      if (this.fault('cancel-unknown-acked') && e instanceof RpcError && e.code === ErrorCode.InvalidParams && typeof params.taskId === 'string')
        return this.ack(undefined, noRt, false);
      throw e;
    }
    // A cancel of a terminal task changes nothing and is acknowledged (cancellation is a signal, not a state query).
    if (this.fault('cancel-rewrites-terminal') && (task.status === 'completed' || task.status === 'failed'))
      this.store.forceStatus(task, 'cancelled', 'The task was cancelled by request.');
    else if (!isTerminal(task.status) && !this.latitude('cancel-ignored')) {
      task.cancelRequested = true;
      if (this.fault('cancelled-resurrects')) {
        // the status says cancelled, the work is not stopped (work() then completes it)
        task.outstanding.clear();
        this.store.transition(task, 'cancelled', 'The task was cancelled by request.');
        task.inputWaiter?.resolve();
      } else if (this.latitude('cancel-later')) setTimeout(() => this.store.cancelNow(task), CANCEL_LATER_MS).unref();
      else this.store.cancelNow(task);
    }
    const answer = this.ack(task, noRt, carry);
    if (this.latitude('delete-on-cancel')) this.store.remove(task);
    return answer;
  }

  /** fault tasks-result-served: the removed method answered (the result of a completed task). */
  private async tasksResult(params: Params, ctx: RequestCtx): Promise<JsonObject> {
    const task = this.lookup(params, ctx, 'retrieve');
    return { resultType: ResultType.Complete, ...(task.result ?? { content: [] }) };
  }

  /** fault tasks-list-served: the removed method answered. */
  private async tasksList(_params: Params, ctx: RequestCtx): Promise<JsonObject> {
    const tasks: JsonObject[] = [];
    for (const id of this.ownTaskIds(ctx.owner)) tasks.push(this.taskFields(this.store.peek(id)!));
    return { resultType: ResultType.Complete, tasks };
  }

  private ownTaskIds(owner: string): string[] {
    const ids: string[] = [];
    this.store.eachTask((t) => t.owner === owner && ids.push(t.taskId));
    return ids;
  }

  // --- subscriptions/listen --------------------------------------------------------------------------------

  private async listen(params: Params, ctx: RequestCtx, id: string | number): Promise<JsonObject | undefined> {
    const filter = params.notifications;
    if (!isObj(filter)) throw new RpcError(ErrorCode.InvalidParams, 'Invalid params: notifications must be an object');
    const ids = filter.taskIds;
    if (ids !== undefined) {
      if (!Array.isArray(ids) || !ids.every((x) => typeof x === 'string'))
        throw new RpcError(ErrorCode.InvalidParams, 'Invalid params: notifications.taskIds must be an array of strings');
      if (ids.length > this.opts.maxListenTaskIds)
        throw new RpcError(ErrorCode.InvalidParams, `Invalid params: at most ${this.opts.maxListenTaskIds} taskIds per subscription`);
      if (this.opts.tasksExtension && !this.fault('listen-undeclared')) this.requireTasks(params);
      // latitude listen-refused (RULINGS.md#ext-listen-optional): no stream for task notifications; tasks/get only.
      if (this.opts.tasksExtension && this.latitude('listen-refused'))
        throw new LadderError(
          ErrorCode.MethodNotFound,
          `Method not found: ${Method.SubscriptionsListen} for task ids (this server pushes no task status notifications; poll tasks/get)`,
          404,
        );
    }
    if (ctx.subscriptions.count >= this.opts.maxSubscriptions)
      throw new RpcError(ErrorCode.InternalError, `Subscription limit reached: at most ${this.opts.maxSubscriptions} open subscriptions`, {
        limit: 'maxSubscriptions',
        max: this.opts.maxSubscriptions,
      });
    const wanted = this.opts.tasksExtension && Array.isArray(ids) ? (ids as string[]) : [];
    const agreed = this.latitude('listen-agrees-none') ? [] : [...new Set(wanted)].filter((t) => this.canSee(t, ctx.owner));
    const subMeta = { [Meta.SubscriptionId]: id };
    const elicitation = this.declaresElicitation(params);
    const notifyTask = (t: StoredTask) => {
      // No elicitation inputRequests to a subscription whose request did not declare elicitation: that change is not pushed.
      if (t.status === 'input_required' && !elicitation) return;
      const d = this.detailed(t);
      if (this.fault('notification-not-detailed')) {
        delete d.result;
        delete d.error;
      }
      if (this.fault('task-cancel-notified') && t.status === 'cancelled')
        ctx.notify({
          jsonrpc: '2.0',
          method: Method.Cancelled,
          params: { requestId: this.createdBy.get(t) ?? t.taskId, reason: 'The task was cancelled', _meta: subMeta },
        });
      if (this.fault('progress-on-listen'))
        ctx.notify({ jsonrpc: '2.0', method: Method.Progress, params: { progressToken: t.taskId, progress: 1, _meta: subMeta } });
      ctx.notify({
        jsonrpc: '2.0',
        method: this.fault('legacy-status-notification') ? LEGACY_STATUS_NOTIFICATION : Method.TasksNotification,
        params: { ...d, ...(this.fault('notification-no-subscription-id') ? {} : { _meta: subMeta }) },
      });
    };
    const watched = new Set(agreed);
    // latitude listen-ends-when-done (and fault listen-teardown-not-cancelled): the subscription ends once its tasks have.
    const endsWhenDone = agreed.length > 0 && (this.latitude('listen-ends-when-done') || this.fault('listen-teardown-not-cancelled'));
    let end: () => void = () => {};
    const allDone = () => agreed.every((a) => !this.store.peek(a) || isTerminal(this.store.peek(a)!.status));
    const onChange = (t: StoredTask) => {
      if (watched.has(t.taskId) || (this.fault('unrequested-task-notifications') && t.owner === ctx.owner)) notifyTask(t);
      if (endsWhenDone && watched.has(t.taskId) && allDone()) end();
    };
    if (this.fault('notification-before-ack') && agreed.length) notifyTask(this.store.peek(agreed[0]!)!);
    ctx.notify({
      jsonrpc: '2.0',
      method: Method.SubscriptionsAcknowledged,
      params: { _meta: subMeta, notifications: this.opts.tasksExtension && ids !== undefined ? { taskIds: agreed } : {} },
    });
    if (this.latitude('listen-snapshot')) for (const t of agreed) notifyTask(this.store.peek(t)!);
    ctx.subscriptions.count++;
    this.store.on('change', onChange);
    try {
      const graceful = await new Promise<boolean>((resolve) => {
        end = () => resolve(true);
        this.listens.add(end);
        if (endsWhenDone && allDone()) resolve(true);
        if (ctx.signal.aborted) resolve(false);
        ctx.signal.addEventListener('abort', () => resolve(false), { once: true });
      });
      if (!graceful) return undefined;
      // Teardown (cancellation.md): notifications/cancelled referencing the listen request, on the stream it ends
      // (fault listen-teardown-not-cancelled: left out); then graceful closure (subscriptions.md): a result
      // carrying the subscription id.
      if (!this.fault('listen-teardown-not-cancelled'))
        ctx.notify({ jsonrpc: '2.0', method: Method.Cancelled, params: { requestId: id, reason: 'The server ended the subscription', _meta: subMeta } });
      return { resultType: ResultType.Complete, _meta: subMeta };
    } finally {
      this.listens.delete(end);
      ctx.subscriptions.count--;
      this.store.off('change', onChange);
    }
  }

  private canSee(taskId: string, owner: string): boolean {
    const t = this.store.peek(taskId);
    return !!t && (t.owner === owner || this.fault('foreign-task-visible'));
  }

  /** Stops every task and ends every subscription gracefully. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const end of this.listens) end();
    this.listens.clear();
    this.store.close();
  }
}
