// JSON-RPC dispatch for one connection of the reference receiver (our own code: no SDK Server/Protocol).
// Short requirement ids in comments refer to tasks.md rules (catalog: schema/requirements.json).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import {
  ErrorCode,
  isTerminal,
  MODEL_IMMEDIATE_RESPONSE_META,
  PROTOCOL_VERSION,
  RELATED_TASK_META,
  type Task,
  type TaskStatus,
} from '../../schema/protocol.ts';
import type { FaultSet } from './faults.ts';
import { RpcError, type JsonRpcErrorObject, type Outcome, type PendingInput, type StoredTask, type TaskStore } from './store.ts';
import type { CallToolResult, ToolContext, ToolDef } from './tools.ts';

export const SERVER_NAME = 'mcp-tasks-reference-receiver';
export const SERVER_VERSION = '0.1.0';

/** The result tasks/result gives for a cancelled task (documented in RECEIVER.md). */
export const CANCELLED_STATUS_MESSAGE = 'The task was cancelled by request.';
export function cancelledResult(): CallToolResult {
  return { content: [{ type: 'text', text: `Task cancelled: ${CANCELLED_STATUS_MESSAGE}` }], isError: true };
}

/** What a session needs from the receiver. */
export interface ReceiverCore {
  readonly store: TaskStore;
  readonly faults: FaultSet;
  readonly tools: ReadonlyMap<string, ToolDef>;
  readonly tasksCapability: boolean;
  readonly statusNotifications: boolean;
  readonly pageSize: number;
  readonly pollInterval: number;
  /** How many times each tool's work started (tests: "the tool must not run"). */
  readonly runs: Map<string, number>;
  /** Scenario hooks for client grading (optional; see ScenarioHooks). */
  readonly scenario?: ScenarioHooks;
  audit(event: string, fields: Record<string, unknown>): void;
  logError(text: string): void;
  sessionClosed(s: ReceiverSession): void;
}

export interface SessionIdentity {
  /** A bearer token that binds this connection's tasks (in-process/stdio use; HTTP reads the Authorization header). */
  authToken?: string;
  /** Fixed ownership key (overrides everything); for tests. */
  owner?: string;
  /** Human label for logs. */
  label?: string;
}

export interface SessionOptions {
  /** Answer transport parse errors with JSON-RPC errors (stdio: the transport reports bad lines via onerror). */
  answerTransportErrors?: boolean;
  /**
   * Streamable HTTP with JSON responses: an `application/json` answer carries only the response, so
   * messages that belong to a request (input requests, progress and status notifications) go on the
   * standalone GET SSE stream instead ("clients SHOULD expect messages to be delivered on any SSE
   * stream, including the HTTP GET stream", tasks.md). Requests wait in a queue until one is open;
   * notifications sent while none is open are lost (as on any closed stream).
   */
  relatedOnStandalone?: boolean;
}

// --- scenario hooks (client grading: mocks/receiver/scenarios.ts, suites/requestor/) -------------
// Everything here is off unless a scenario asks for it; the receiver's default behaviour is unchanged.

/** One recorded message or fact of a session: `in` = the requestor sent it, `out` = the receiver sent it. */
export interface TapEvent {
  /** The session's localId. */
  session: string;
  dir: 'in' | 'out' | 'event';
  message?: unknown;
  note?: string;
  /** Date.now() when recorded. */
  time: number;
}

export interface ScenarioHooks {
  /** Called with every message in both directions, and with session open/close (and HTTP GET) events. */
  tap?: (e: TapEvent) => void;
  /** Declare (and honour) `tasks.requests.tools.call` when the tasks capability is on. Default true; false: `task` on tools/call is ignored. */
  toolsCallTasks?: boolean;
  /** List `execution.taskSupport` even when task-augmented tools/call is not declared (tests "regardless of taskSupport"). */
  listTaskSupportAlways?: boolean;
  /** The first tasks/result for each non-terminal task answers -32603 (an interrupted result stream), before delivering input. */
  failFirstResult?: boolean;
  /** Deliver queued input requests on the standalone (HTTP GET) stream instead of the tasks/result stream, once the requestor opened one. */
  inputOnStandaloneStream?: boolean;
}

const failedResultOnce = new WeakSet<object>();
// --- end of scenario hooks -------------------------------------------------------------------

// --- state of named faults (per task, or per store = per receiver) ---------------------------
/** Status a fault reports instead of the real one (illegal-transition, completed-resumes); the store keeps the real one. */
const reportedAs = new WeakMap<StoredTask, { status: TaskStatus; atMs: number }>();
/** How many tasks/get have shown the task in a terminal status. */
const terminalGets = new WeakMap<StoredTask, number>();
/** The progressToken of a task and the last progress value sent (progress-after-terminal). */
const progressOf = new WeakMap<StoredTask, { token: unknown; last: number; total?: number }>();
/** The last task creation of a receiver (duplicate-ids). */
const lastCreation = new WeakMap<TaskStore, { owner: string; key: string; ms: number; taskId: string }>();
/** Generic messages by code (generic-error-messages). */
const GENERIC_MESSAGES: Record<number, string> = {
  [ErrorCode.ParseError]: 'Parse error',
  [ErrorCode.InvalidRequest]: 'Invalid request',
  [ErrorCode.MethodNotFound]: 'Method not found',
  [ErrorCode.InvalidParams]: 'Invalid params',
  [ErrorCode.InternalError]: 'Internal error',
};
/** The error of the underlying request, returned by tasks/result as is (not a protocol error of tasks/result). */
class UnderlyingRequestError extends RpcError {}

type Params = Record<string, unknown>;
type Msg = Record<string, any>;
type RequestCtx = { id: string | number; owner: string; auth: string | undefined; progressToken: unknown; sessionLabel: string };
type Reply = { result: Record<string, unknown>; after?: () => void } | typeof NO_REPLY;
const NO_REPLY = Symbol('no-reply');

/** A route for task-related messages: an open tasks/result request (its SSE stream on HTTP). */
interface ResultStream {
  session: ReceiverSession;
  requestId: string | number;
}
const resultStreams = new WeakMap<StoredTask, ResultStream[]>();
function streamsOf(t: StoredTask): ResultStream[] {
  let s = resultStreams.get(t);
  if (!s) resultStreams.set(t, (s = []));
  return s;
}

function isObject(v: unknown): v is Params {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

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

export class ReceiverSession {
  readonly localId = randomUUID();
  initialized = false;
  closed = false;
  clientCapabilities: Params = {};
  private outCounter = 0;
  private readonly pendingOut = new Map<string, { resolve(r: { result?: unknown; error?: JsonRpcErrorObject }): void; reject(e: Error): void }>();
  private readonly inflight = new Map<string, AbortController>();
  private readonly waitingResults = new Set<() => void>();
  /** The requestor has a standalone GET SSE stream open (HTTP; kept by the HTTP server). */
  standaloneStreamOpen = false;
  private standaloneStreams = 0;
  /** Requests waiting for a standalone stream (relatedOnStandalone). */
  private readonly standaloneQueue: { message: Msg; done(ok: boolean): void }[] = [];

  /** Scenario hook: whether task-augmented tools/call is declared (with the tasks capability). */
  private get toolsCallTasks(): boolean {
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
    private readonly core: ReceiverCore,
    readonly transport: Transport,
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
  request(method: string, params: Params, relatedRequestId?: string | number): { sent: Promise<boolean>; response: Promise<{ result?: unknown; error?: JsonRpcErrorObject }> } {
    const id = `rr-${++this.outCounter}`;
    let resolve!: (r: { result?: unknown; error?: JsonRpcErrorObject }) => void;
    let reject!: (e: Error) => void;
    const response = new Promise<{ result?: unknown; error?: JsonRpcErrorObject }>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    response.catch(() => undefined);
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
    return this.sendRaw(id === null ? { jsonrpc: '2.0', ...body } : { jsonrpc: '2.0', id, ...body }).catch(() => undefined);
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
      c?.abort(new Error('request cancelled'));
    }
  }

  private async onRequest(m: Msg, extra: MessageExtraInfo | undefined): Promise<void> {
    const id = m.id as string | number;
    const { owner, auth } = this.ownerFor(extra);
    const params = m.params;
    const progressToken = isObject(params) && isObject(params._meta) ? params._meta.progressToken : undefined;
    const ctx: RequestCtx = { id, owner, auth, progressToken, sessionLabel: this.identity.label ?? `session:${this.sessionKey}` };
    let out: Reply;
    try {
      if (params !== undefined && !isObject(params)) throw new RpcError(ErrorCode.InvalidParams, 'Invalid params: params must be an object');
      out = await this.dispatch(m.method as string, (params ?? {}) as Params, ctx);
    } catch (e) {
      if (e instanceof RpcError) {
        let error = e.toJSON();
        if (this.core.faults.has('generic-error-messages') && String(m.method).startsWith('tasks/') && !(e instanceof UnderlyingRequestError)) {
          error = { code: error.code, message: GENERIC_MESSAGES[error.code] ?? 'Internal error' }; // errors-informative-message
        }
        await this.reply(id, { error });
      } else {
        this.core.logError(`internal error in ${String(m.method)}: ${e instanceof Error ? e.stack : String(e)}`);
        await this.reply(id, { error: { code: ErrorCode.InternalError, message: `Internal error: ${e instanceof Error ? e.message : String(e)}` } });
      }
      return;
    }
    if (out === NO_REPLY) return;
    await this.reply(id, { result: out.result });
    if (out.after) this.guard(`after ${String(m.method)}`, out.after);
  }

  /** Runs background work (timers, post-response steps) so that an error is logged, never thrown. */
  private guard(what: string, fn: () => void): void {
    try {
      fn();
    } catch (e) {
      this.core.logError(`${what} failed: ${e instanceof Error ? e.stack : String(e)}`);
    }
  }

  private dispatch(method: string, params: Params, ctx: RequestCtx): Promise<Reply> | Reply {
    switch (method) {
      case 'initialize':
        return { result: this.initialize(params) };
      case 'ping':
        return { result: {} };
      case 'tools/list':
        return { result: this.toolsList() };
      case 'tools/call':
        return this.toolsCall(params, ctx);
    }
    if (this.core.tasksCapability || this.core.faults.has('undeclared-creates-task')) {
      switch (method) {
        case 'tasks/get':
          return this.tasksGet(params, ctx);
        case 'tasks/result':
          return this.tasksResult(params, ctx);
        case 'tasks/list':
          return this.tasksList(params, ctx);
        case 'tasks/cancel':
          return this.tasksCancel(params, ctx);
      }
    }
    throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
  }

  // --- lifecycle -----------------------------------------------------------------------------
  private initialize(params: Params): Record<string, unknown> {
    if (isObject(params.capabilities)) this.clientCapabilities = params.capabilities;
    const capabilities: Record<string, unknown> = { tools: {} };
    // caps-declare: the tasks capability, with list, cancel and task-augmented tools/call.
    if (this.core.tasksCapability) capabilities.tasks = { list: {}, cancel: {}, requests: { tools: { call: {} } } };
    if (this.core.tasksCapability && !this.toolsCallTasks) capabilities.tasks = { list: {}, cancel: {} }; // scenario hook
    if (this.core.tasksCapability && this.core.faults.has('caps-not-objects')) capabilities.tasks = { list: true, cancel: true, requests: { tools: { call: true } } };
    return {
      protocolVersion: PROTOCOL_VERSION,
      capabilities,
      serverInfo: { name: SERVER_NAME, version: SERVER_VERSION },
      instructions: 'Reference receiver for MCP Tasks conformance testing (spec 2025-11-25).',
    };
  }

  private toolsList(): Record<string, unknown> {
    return {
      tools: [...this.core.tools.values()].map((t) => ({
        name: t.name,
        title: t.title,
        description: t.description,
        inputSchema: t.inputSchema,
        // tool-level negotiation: execution.taskSupport (absent on `plain`, and when tasks are not declared).
        ...(t.taskSupport && (this.core.tasksCapability || this.core.scenario?.listTaskSupportAlways) ? { execution: { taskSupport: t.taskSupport } } : {}),
      })),
    };
  }

  // --- tools/call ------------------------------------------------------------------------------
  private async toolsCall(params: Params, ctx: RequestCtx): Promise<Reply> {
    const f = this.core.faults;
    if (typeof params.name !== 'string') throw new RpcError(ErrorCode.InvalidParams, 'Invalid params: "name" must be a string');
    const args = params.arguments ?? {};
    if (!isObject(args)) throw new RpcError(ErrorCode.InvalidParams, 'Invalid params: "arguments" must be an object');
    const tool = this.core.tools.get(params.name);
    if (!tool) throw new RpcError(ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
    // support-undeclared-process-normally: without the tasks capability, `task` is ignored and the request processed normally.
    const tasksOn = this.core.tasksCapability || f.has('undeclared-creates-task'); // the fault creates tasks undeclared
    const task = tasksOn && this.toolsCallTasks ? params.task : undefined;
    const support = tool.taskSupport ?? 'forbidden';
    if (task !== undefined) {
      if (!isObject(task)) throw new RpcError(ErrorCode.InvalidParams, 'Invalid params: "task" must be an object');
      if (task.ttl !== undefined && (typeof task.ttl !== 'number' || !Number.isFinite(task.ttl) || task.ttl < 0)) {
        throw new RpcError(ErrorCode.InvalidParams, 'Invalid params: "task.ttl" must be a non-negative number of milliseconds');
      }
      // tool-forbidden-should-32601: never run a forbidden tool as a task.
      if (support === 'forbidden' && !f.has('forbidden-runs-as-task')) {
        throw new RpcError(ErrorCode.MethodNotFound, `Method not found: tool "${tool.name}" does not support task-augmented execution (taskSupport "forbidden")`);
      }
      // create-returns-createtaskresult
      if (support === 'optional' && f.has('ignores-task')) return this.runPlain(tool, args, ctx);
      return this.createTask(tool, args, task, ctx);
    }
    // tool-required-must-32601
    if (support === 'required' && this.core.tasksCapability && this.toolsCallTasks && !f.has('required-runs-without-task')) {
      throw new RpcError(ErrorCode.MethodNotFound, `Method not found: tool "${tool.name}" requires task-augmented execution (taskSupport "required")`);
    }
    return this.runPlain(tool, args, ctx);
  }

  private bump(tool: ToolDef): void {
    this.core.runs.set(tool.name, (this.core.runs.get(tool.name) ?? 0) + 1);
  }

  private async runPlain(tool: ToolDef, args: Params, ctx: RequestCtx): Promise<Reply> {
    const key = JSON.stringify(ctx.id);
    const abort = new AbortController();
    this.inflight.set(key, abort);
    this.bump(tool);
    const session = this;
    const toolCtx: ToolContext = {
      args,
      signal: abort.signal,
      sleep: (ms) => abortableSleep(ms, abort.signal),
      progress(progress, total, message) {
        if (ctx.progressToken === undefined || abort.signal.aborted) return;
        void session.notify('notifications/progress', { progressToken: ctx.progressToken, progress, ...(total !== undefined ? { total } : {}), ...(message ? { message } : {}) }, ctx.id);
      },
      requestInput: async (method, p) => {
        const { response } = this.request(method, p, ctx.id);
        return raceAbort(response, abort.signal);
      },
    };
    try {
      const result = await tool.run(toolCtx);
      return { result };
    } catch (e) {
      if (abort.signal.aborted) return NO_REPLY; // cancelled: no response (cancellation.md)
      throw e;
    } finally {
      this.inflight.delete(key);
    }
  }

  // --- tasks -----------------------------------------------------------------------------------
  /** The Task as it travels (faults may spoil timestamps). */
  wireTask(t: StoredTask): Task {
    const f = this.core.faults;
    const reported = reportedAs.get(t);
    // id-string: a string, unless the fault sends it as a number.
    const out: Record<string, unknown> = { taskId: this.wireId(t), status: reported?.status ?? t.status };
    if (reported) out.statusMessage = 'Resumed';
    else if (t.statusMessage !== undefined) out.statusMessage = t.statusMessage;
    // ttl-created-at / ttl-last-updated-at (RFC 3339 / ISO 8601)
    if (!f.has('missing-created-at')) out.createdAt = new Date(t.createdAtMs).toISOString();
    let updated = Math.max(t.lastUpdatedAtMs, reported?.atMs ?? 0);
    if (f.has('last-updated-backwards')) updated = t.createdAtMs - 1000;
    out.lastUpdatedAt = f.has('bad-timestamp') ? new Date(updated).toString() : new Date(updated).toISOString();
    out.ttl = t.ttl; // ttl-actual-in-get (null would mean unlimited; this receiver always has a finite ttl)
    out.pollInterval = this.core.pollInterval;
    return out as unknown as Task;
  }

  private wireId(t: StoredTask): string | number {
    return this.core.faults.has('numeric-task-id') ? Number(t.taskId) : t.taskId;
  }

  private relatedMeta(t: StoredTask): Record<string, unknown> {
    return { [RELATED_TASK_META]: { taskId: this.wireId(t) } };
  }

  /** Adds related-task meta only under the fault (related-task-get-list-cancel-should-not: SHOULD NOT). */
  private plainTaskResult(t: StoredTask, extra: Record<string, unknown> = {}): Record<string, unknown> {
    const r: Record<string, unknown> = { ...this.wireTask(t), ...extra };
    if (this.core.faults.has('related-task-on-get')) r._meta = this.relatedMeta(t);
    return r;
  }

  private async createTask(tool: ToolDef, args: Params, taskParam: Params, ctx: RequestCtx): Promise<Reply> {
    const f = this.core.faults;
    const ttl = taskParam.ttl as number | undefined;
    const t = this.core.store.create({
      owner: ctx.owner,
      requestedTtl: ttl,
      taskId: this.faultyTaskId(tool, args, taskParam, ctx),
      toolName: tool.name,
      origin: this,
      // lifecycle-begin-working
      initialStatus: f.has('starts-completed') ? 'completed' : 'working',
    });
    this.core.audit('task.created', { task: t.taskId, tool: tool.name, ttl: t.ttl, requestor: ctx.auth ?? ctx.sessionLabel });
    this.bump(tool);
    // A background task must never take the receiver down: any error is logged (errorLog) and dropped.
    const work = this.runTask(t, tool, args, ctx.progressToken).catch((e: unknown) => this.core.logError(`task ${t.taskId} (${tool.name}) failed in the background: ${e instanceof Error ? e.stack : String(e)}`));
    // create-asap: answer at once; the work continues in the background.
    const task = this.wireTask(t);
    if (f.has('slow-create')) {
      // The CreateTaskResult (its task as at creation) only once the work has ended — or waits for input,
      // which the requestor could never give without the task id.
      let onChange = () => {};
      const blocked = new Promise<void>((resolve) => {
        onChange = () => {
          if (t.inputQueue.length > 0 || t.deleted) resolve();
        };
        t.listeners.add(onChange);
      });
      await Promise.race([work, blocked]);
      t.listeners.delete(onChange);
    }
    return {
      result: {
        task,
        _meta: { [MODEL_IMMEDIATE_RESPONSE_META]: `Started task ${t.taskId} for tool "${tool.name}"; the result will be available via tasks/result.` },
      },
    };
  }

  /** A task id chosen by a fault (id-string, id-unique, id-receiver-generated); undefined: the store's UUID. */
  private faultyTaskId(tool: ToolDef, args: Params, taskParam: Params, ctx: RequestCtx): string | undefined {
    const f = this.core.faults;
    const store = this.core.store;
    if (f.has('adopts-requestor-id') && typeof taskParam.taskId === 'string' && taskParam.taskId.length > 0) return taskParam.taskId;
    if (f.has('duplicate-ids')) {
      const key = JSON.stringify([tool.name, args, taskParam, ctx.progressToken ?? null]); // the same request
      const now = Date.now();
      const last = lastCreation.get(store);
      if (last && last.owner === ctx.owner && last.key === key && last.ms === now) return last.taskId;
      const taskId = randomUUID();
      lastCreation.set(store, { owner: ctx.owner, key, ms: now, taskId });
      return taskId;
    }
    // 53 random bits: a safe integer, sent as a JSON number.
    if (f.has('numeric-task-id')) return String(Number(randomBytes(8).readBigUInt64BE() >> 11n) || 1);
    return undefined;
  }

  /** Sends a task-related message on an open tasks/result stream of the task if any, else on the creating connection. */
  private sendForTask(t: StoredTask, message: { method: string; params: Params }): void {
    const streams = resultStreams.get(t);
    const s = streams?.find((x) => !x.session.closed);
    if (s) void s.session.notify(message.method, message.params, s.requestId);
    else {
      const origin = t.origin as ReceiverSession;
      if (!origin.closed) void origin.notify(message.method, message.params);
    }
  }

  /** notifications/tasks/status on every status change (optional; no related-task meta). */
  statusChanged(t: StoredTask): void {
    if (!this.core.statusNotifications) return;
    const f = this.core.faults;
    const params = this.wireTask(t) as unknown as Params;
    if (f.has('status-notification-wrong-status') && params.status === 'failed') params.status = 'completed'; // lifecycle-valid-paths
    if (f.has('status-notification-related-task')) params._meta = this.relatedMeta(t); // notify-status-no-related-task
    this.sendForTask(t, { method: 'notifications/tasks/status', params });
  }

  private async runTask(t: StoredTask, tool: ToolDef, args: Params, progressToken: unknown): Promise<void> {
    const f = this.core.faults;
    const store = this.core.store;
    const signal = t.abort.signal;
    const toolCtx: ToolContext = {
      args,
      signal,
      sleep: (ms) => abortableSleep(ms, signal),
      progress: (progress, total, message) => {
        // progress-same-token; progress-stop-after-terminal (cancel-keeps-running: the work goes on after the cancel)
        if (progressToken === undefined || t.deleted) return;
        if (isTerminal(t.status) && !(t.status === 'cancelled' && f.has('cancel-keeps-running'))) return;
        progressOf.set(t, { token: progressToken, last: progress, ...(total !== undefined ? { total } : {}) });
        const token = f.has('progress-new-token') ? `${String(progressToken)}-task-${t.taskId}` : progressToken;
        this.sendProgress(t, { progressToken: token, progress, ...(total !== undefined ? { total } : {}), ...(message ? { message } : {}) });
      },
      requestInput: (method, params) => this.requestTaskInput(t, method, params),
    };
    let outcome: Outcome;
    try {
      outcome = { kind: 'result', result: await tool.run(toolCtx) };
    } catch (e) {
      if (signal.aborted || t.deleted) return; // cancelled / expired: the status already says so
      outcome = e instanceof RpcError ? { kind: 'error', error: e.toJSON() } : { kind: 'error', error: { code: ErrorCode.InternalError, message: `Internal error: ${e instanceof Error ? e.message : String(e)}` } };
    }
    this.finishTask(t, outcome);
  }

  /** notifications/progress for a task: related-task _meta (related-task-all-messages) unless the fault drops it. */
  private sendProgress(t: StoredTask, params: Params): void {
    const meta = this.core.faults.has('progress-no-related-task') ? {} : { _meta: this.relatedMeta(t) };
    this.sendForTask(t, { method: 'notifications/progress', params: { ...params, ...meta } });
  }

  private finishTask(t: StoredTask, outcome: Outcome): void {
    const f = this.core.faults;
    const store = this.core.store;
    if (t.deleted) return;
    if (t.status === 'cancelled') {
      // cancel-sticky: a cancelled task stays cancelled even if the work completes.
      if (f.has('cancelled-resurrects')) store.transition(t, 'completed', undefined, { unchecked: true });
      return;
    }
    if (isTerminal(t.status)) {
      // Reachable only under a fault that made the task terminal before its work ended (starts-completed):
      // terminal statuses are final, so the status stays; the outcome is kept for tasks/result.
      store.settle(t, outcome);
      return;
    }
    let to: TaskStatus = 'completed';
    let message: string | undefined;
    if (outcome.kind === 'error') {
      to = 'failed';
      message = `Request failed: ${outcome.error.message}`;
    } else if (outcome.result.isError === true) {
      // lowercase "should" (RULINGS #6): isError → failed
      to = 'failed';
      const content = outcome.result.content as { type?: string; text?: string }[] | undefined;
      const first = Array.isArray(content) ? content.find((c) => c?.type === 'text')?.text : undefined;
      message = first ? String(first) : 'Tool execution failed';
    }
    if (to === 'failed' && f.has('no-status-message-on-failure')) message = undefined; // exec-failed-status-message
    store.settle(t, outcome);
    store.transition(t, to, message);
    this.core.audit(`task.${to}`, { task: t.taskId, tool: t.toolName, requestor: t.owner.startsWith('bearer:') ? `bearer:sha256:${t.owner.slice(7, 19)}` : t.owner });
  }

  /** input-required flow: queue the request, move to input_required, deliver through tasks/result. */
  private async requestTaskInput(t: StoredTask, method: string, params: Params): Promise<{ result?: unknown; error?: JsonRpcErrorObject }> {
    const store = this.core.store;
    if (t.abort.signal.aborted || t.deleted) throw new Error('task is no longer active');
    const withMeta = this.core.faults.has('input-no-related-task')
      ? params
      : { ...params, _meta: { ...(isObject(params._meta) ? params._meta : {}), ...this.relatedMeta(t) } }; // input-required-related-task
    const answer = new Promise<{ result?: unknown; error?: JsonRpcErrorObject }>((resolve, reject) => {
      const p: PendingInput = { method, params: withMeta, resolve, reject, delivered: false };
      t.inputQueue.push(p);
    });
    answer.catch(() => undefined);
    // input-required-move (the fault leaves the task working)
    if (t.status === 'working' && !this.core.faults.has('no-input-required')) store.transition(t, 'input_required', `Waiting for input: ${method}`);
    store.fire(t); // wake any open tasks/result to deliver it
    try {
      const r = await raceAbort(answer, t.abort.signal);
      // input-required-resume: the fault keeps the task input_required long after the answer.
      if (this.core.faults.has('input-stuck')) await abortableSleep(INPUT_STUCK_MS, t.abort.signal);
      return r;
    } finally {
      if (!t.deleted && t.status === 'input_required' && t.inputQueue.length === 0) store.transition(t, 'working');
    }
  }

  private lookup(params: Params, ctx: RequestCtx): StoredTask {
    const f = this.core.faults;
    let taskId = params.taskId;
    if (f.has('numeric-task-id') && typeof taskId === 'number') taskId = String(taskId); // numeric ids are accepted back
    if (f.has('meta-taskid-wins')) {
      const m = isObject(params._meta) && isObject(params._meta[RELATED_TASK_META]) ? (params._meta[RELATED_TASK_META] as Params).taskId : undefined;
      if (typeof m === 'string' || (typeof m === 'number' && f.has('numeric-task-id'))) taskId = String(m);
    }
    // related-task-taskid-source-of-truth: params.taskId only; related-task _meta in the request is ignored.
    const code = f.has('unknown-task-32603') ? ErrorCode.InternalError : ErrorCode.InvalidParams;
    try {
      return this.core.store.lookup(f.has('no-isolation') ? null : ctx.owner, taskId, code);
    } catch (e) {
      this.core.audit('task.lookup-failed', { task: typeof taskId === 'string' ? taskId : JSON.stringify(taskId), requestor: ctx.auth ?? ctx.sessionLabel });
      throw e;
    }
  }

  private tasksGet(params: Params, ctx: RequestCtx): Reply {
    const f = this.core.faults;
    const t = this.lookup(params, ctx);
    const r = this.plainTaskResult(t);
    if (f.has('ttl-missing')) delete r.ttl;
    if (f.has('unknown-status') && r.status === 'working') r.status = 'running'; // lifecycle-valid-paths
    const shown = r.status as TaskStatus;
    if (!isTerminal(shown) || !isTerminal(t.status)) return { result: r };
    // Faults that act once a tasks/get has shown the task terminal (after the answer went out).
    const n = (terminalGets.get(t) ?? 0) + 1;
    terminalGets.set(t, n);
    const after: (() => void)[] = [];
    // The reported status changes now (this answer is already made), so the next poll sees it; its status
    // notification follows the answer.
    const flip = () => {
      reportedAs.set(t, { status: 'working', atMs: Date.now() });
      after.push(() => this.statusChanged(t));
    };
    // lifecycle-valid-paths (illegal-transition): failed → working, seen by the next poll.
    if (f.has('illegal-transition') && shown === 'failed' && n === 1) flip();
    // lifecycle-terminal-sticky (completed-resumes): completed → working after two polls showed completed.
    if (f.has('completed-resumes') && shown === 'completed' && n === 2) flip();
    // progress-stop-after-terminal (progress-after-terminal): one more progress after the completed task was seen.
    const p = progressOf.get(t);
    if (f.has('progress-after-terminal') && shown === 'completed' && n === 1 && p) {
      after.push(() => this.sendProgress(t, { progressToken: p.token, progress: p.last + 1, ...(p.total !== undefined ? { total: p.total + 1 } : {}), message: 'late progress' }));
    }
    return after.length ? { result: r, after: () => after.forEach((a) => a()) } : { result: r };
  }


  private resultOf(t: StoredTask): Record<string, unknown> {
    const f = this.core.faults;
    const o = t.outcome!;
    // result-terminal-returns-final (the fault answers with the Task instead)
    if (f.has('result-returns-task')) return { ...this.wireTask(t), _meta: this.relatedMeta(t) };
    // result-exact-error: the same JSON-RPC error the plain call would give.
    if (o.kind === 'error') throw new UnderlyingRequestError(o.error.code, o.error.message, o.error.data);
    let result = o.result;
    if (f.has('result-differs')) {
      const content = Array.isArray(result.content) ? result.content : [];
      result = { ...result, content: [...content, { type: 'text', text: '(delivered via tasks/result)' }] };
    }
    if (f.has('result-no-related-task')) return result;
    // related-task-result-must
    return { ...result, _meta: { ...(isObject(result._meta) ? result._meta : {}), ...this.relatedMeta(t) } };
  }

  private ready(t: StoredTask): boolean {
    return t.outcome !== undefined && isTerminal(t.status);
  }

  /** result-terminal-returns-final (cancelled-result-hangs): tasks/result of a cancelled task is never answered. */
  private hangs(t: StoredTask): boolean {
    return t.status === 'cancelled' && this.core.faults.has('cancelled-result-hangs');
  }

  private tasksResult(params: Params, ctx: RequestCtx): Reply | Promise<Reply> {
    const t = this.lookup(params, ctx);
    this.core.audit('task.result-requested', { task: t.taskId, status: t.status, requestor: ctx.auth ?? ctx.sessionLabel });
    if (this.ready(t) && !this.hangs(t)) return { result: this.resultOf(t) };
    if (this.core.scenario?.failFirstResult && !failedResultOnce.has(t)) {
      // scenario hook result-error: one interrupted tasks/result per task (a -32603 internal error).
      failedResultOnce.add(t);
      throw new RpcError(ErrorCode.InternalError, 'Internal error: the result stream was interrupted (scenario result-error); keep polling tasks/get and call tasks/result again');
    }
    if (this.core.faults.has('result-not-blocking')) {
      return { result: { content: [{ type: 'text', text: `not ready: task is ${t.status}` }], _meta: this.relatedMeta(t) } };
    }
    // result-blocks-nonterminal: answer only once terminal; meanwhile deliver queued input requests here.
    const stream: ResultStream = { session: this, requestId: ctx.id };
    const streams = streamsOf(t);
    streams.push(stream);
    return new Promise<Reply>((resolve, reject) => {
      const done = () => {
        t.listeners.delete(check);
        this.waitingResults.delete(onClose);
        const i = streams.indexOf(stream);
        if (i >= 0) streams.splice(i, 1);
      };
      const onClose = () => {
        done();
        resolve(NO_REPLY);
      };
      const check = () => {
        try {
          if (this.ready(t) && this.hangs(t)) {
            t.listeners.delete(check); // never answered (until the session ends)
            return;
          }
          if (this.ready(t)) {
            done();
            resolve({ result: this.resultOf(t) });
            return;
          }
          if (t.deleted) {
            done();
            reject(new RpcError(ErrorCode.InvalidParams, 'Failed to retrieve task: Task has expired'));
            return;
          }
          for (const p of t.inputQueue) {
            if (p.delivered) continue;
            p.delivered = true;
            const standalone = this.core.scenario?.inputOnStandaloneStream === true && this.standaloneStreamOpen; // scenario hook
            const { sent, response } = this.request(p.method, p.params, standalone ? undefined : ctx.id);
            void sent.then((ok) => {
              if (!ok) p.delivered = false; // stream gone: deliver on the next tasks/result
            });
            response.then(
              (r) => {
                const i = t.inputQueue.indexOf(p);
                if (i >= 0) t.inputQueue.splice(i, 1);
                p.resolve(r);
              },
              () => undefined,
            );
          }
        } catch (e) {
          done();
          reject(e);
        }
      };
      t.listeners.add(check);
      this.waitingResults.add(onClose);
      check();
    });
  }

  private tasksList(params: Params, ctx: RequestCtx): Reply {
    const f = this.core.faults;
    const store = this.core.store;
    const owner = f.has('no-isolation') ? null : ctx.owner;
    // security-list-own-context: only the requestor's tasks, in creation order.
    if (owner !== null && !f.has('list-omits-task')) {
      let after = 0;
      if (params.cursor !== undefined) {
        try {
          after = store.decodeCursor(owner, params.cursor); // errors-invalid-cursor-32602
        } catch (e) {
          if (!f.has('bad-cursor-ignored')) throw e;
        }
      }
      const { tasks: page, more } = store.page(owner, after, this.core.pageSize);
      const result: Record<string, unknown> = { tasks: page.map((t) => this.wireTask(t)) };
      // list-next-cursor: present iff more remain.
      if (more && !f.has('no-next-cursor')) result.nextCursor = store.encodeCursor(owner, page[page.length - 1]!.seq);
      if (f.has('related-task-on-get') && page[0]) result._meta = this.relatedMeta(page[0]);
      return { result };
    }
    // Faults no-isolation (everyone's tasks) and list-omits-task: the whole list, then the page.
    let all = store.list(owner);
    if (f.has('list-omits-task')) all = all.slice(1);
    let after = 0;
    if (params.cursor !== undefined) {
      try {
        after = store.decodeCursor(owner, params.cursor); // errors-invalid-cursor-32602
      } catch (e) {
        if (!f.has('bad-cursor-ignored')) throw e;
      }
    }
    const rest = all.filter((t) => t.seq > after);
    const page = rest.slice(0, this.core.pageSize);
    const result: Record<string, unknown> = { tasks: page.map((t) => this.wireTask(t)) };
    // list-next-cursor: present iff more remain.
    if (rest.length > page.length && !f.has('no-next-cursor')) result.nextCursor = store.encodeCursor(owner, page[page.length - 1]!.seq);
    if (f.has('related-task-on-get') && page[0]) result._meta = this.relatedMeta(page[0]);
    return { result };
  }

  private tasksCancel(params: Params, ctx: RequestCtx): Reply {
    const f = this.core.faults;
    const t = this.lookup(params, ctx);
    if (isTerminal(t.status)) {
      // cancel-terminal-32602
      if (f.has('cancel-terminal-ok')) return { result: this.plainTaskResult(t) };
      throw new RpcError(ErrorCode.InvalidParams, `Cannot cancel task: already in terminal status '${t.status}'`);
    }
    this.core.audit('task.cancel-requested', { task: t.taskId, requestor: ctx.auth ?? ctx.sessionLabel });
    if (f.has('cancel-after-response')) {
      const snapshot = this.plainTaskResult(t);
      return { result: snapshot, after: () => setImmediate(() => this.guard('late cancel (fault cancel-after-response)', () => this.cancelNow(t))) };
    }
    // cancel-transition-before-response
    this.cancelNow(t);
    return { result: this.plainTaskResult(t) };
  }

  private cancelNow(t: StoredTask): void {
    if (t.deleted || isTerminal(t.status)) return;
    const store = this.core.store;
    store.settle(t, { kind: 'result', result: cancelledResult() });
    store.transition(t, 'cancelled', CANCELLED_STATUS_MESSAGE);
    for (const p of t.inputQueue.splice(0)) p.reject(new Error('task cancelled'));
    // cancel-attempt-stop (SHOULD): stop the work, unless the fault keeps it running.
    if (!this.core.faults.has('cancelled-resurrects') && !this.core.faults.has('cancel-keeps-running')) t.abort.abort(new Error('task cancelled'));
    this.core.audit('task.cancelled', { task: t.taskId });
  }

  // --- teardown --------------------------------------------------------------------------------
  close(): void {
    if (this.closed) return;
    this.tap('event', undefined, 'session closed');
    this.closed = true;
    for (const c of this.inflight.values()) c.abort(new Error('connection closed'));
    this.inflight.clear();
    for (const p of this.pendingOut.values()) p.reject(new Error('connection closed'));
    this.pendingOut.clear();
    for (const q of this.standaloneQueue.splice(0)) q.done(false);
    for (const w of [...this.waitingResults]) w();
    this.core.sessionClosed(this);
  }
}

/** How long the fault input-stuck keeps a task input_required after its input arrived (the check allows 10 s). */
export const INPUT_STUCK_MS = 11_500;

export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason ?? new Error('aborted'));
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason ?? new Error('aborted'));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    timer.unref?.();
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function raceAbort<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason ?? new Error('aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason ?? new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
