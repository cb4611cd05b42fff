/**
 * The reference receiver: a spec-exact MCP Tasks receiver (spec 2025-11-25), our own code on top of
 * the SDK's transports only. See mocks/RECEIVER.md.
 *
 * Public API
 * ----------
 *   createReferenceReceiver(options?: ReceiverOptions): ReferenceReceiver
 *
 *   class ReferenceReceiver {
 *     readonly options: ResolvedReceiverOptions;
 *     readonly faults: FaultSet;
 *     readonly store: TaskStore;
 *     readonly runs: Map<string, number>;            // tool name → times its work started
 *     connect(transport: Transport, identity?: SessionIdentity, opts?: SessionOptions): Promise<ReceiverSession>;
 *     inProcess(identity?: SessionIdentity): Promise<{ clientTransport: Transport; session: ReceiverSession; close(): Promise<void> }>;
 *     listenHttp(port?: number, host?: string, access?: HttpAccessOptions): Promise<{ url: string; port: number; close(): Promise<void> }>;
 *     serveStdio(): Promise<ReceiverSession>;        // resolves once started; the process serves until stdin ends
 *     close(): Promise<void>;                        // closes every session and server, deletes every task
 *   }
 *
 * HTTP: POST/GET/DELETE on path /mcp, one StreamableHTTPServerTransport per session (routed by the
 * mcp-session-id header; an initialize POST without a session id opens a new session; a missing
 * session id → 400, an unknown one → 404; DELETE ends the session). Every request first passes the
 * access guard (http-access.ts): a foreign Host or Origin → 403, a missing/wrong bearer token (when
 * tokens are set) → 401, each with a JSON-RPC error body.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { listenEndpoint, MCP_PATH } from '../http-endpoint.ts';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
// Type only: the HTTP transport (and the web server it brings) loads with the first HTTP session, not in a stdio process.
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { FaultSet } from './faults.ts';
import { createAccessGuard, type AccessRefusal, type HttpAccessOptions } from './http-access.ts';
import { ReceiverSession } from './connection.ts';
import type { ReceiverCore, ScenarioHooks, SessionIdentity, SessionOptions, SessionPort } from './port.ts';
import { answer } from './dispatch.ts';
import { cancelOnDisconnect } from './task-methods.ts';
import { FaultSwitches } from './fault-switches.ts';
import { LatitudeSet } from './latitudes.ts';
import { LatitudeSwitches } from './latitude-switches.ts';
import { TaskStore } from './store.ts';
import { CoalescingStdioServerTransport } from './stdio.ts';
import { buildTools, DEFAULT_TIMINGS, type ToolDef, type ToolTimings } from './tools.ts';

export { FAULTS, FAULT_NAMES, FaultSet, isFaultName, type FaultName, type FaultInfo } from './faults.ts';
export { LATITUDES, LATITUDE_NAMES, LatitudeSet, isLatitudeName, type LatitudeName, type LatitudeInfo } from './latitudes.ts';
export { ReceiverSession } from './connection.ts';
export { SERVER_NAME, SERVER_VERSION } from './core.ts';
export { cancelledResult, CANCELLED_STATUS_MESSAGE } from './task-methods.ts';
export type { SessionIdentity, SessionOptions, ScenarioHooks, TapEvent } from './port.ts';
export { buildTools, type ToolDef } from './tools.ts';
export { isLoopbackHost, type HttpAccessOptions } from './http-access.ts';
export { RpcError, TaskStore, IllegalTransitionError, LIMIT_ERROR_CODE } from './store.ts';
export { DEFAULT_TIMINGS, MAX_TOOL_MS, type ToolTimings } from './tools.ts';

export interface ReceiverOptions {
  /** Named faults to switch on (see faults.ts). */
  faults?: Iterable<string>;
  /** Named latitudes to switch on (see latitudes.ts): freedoms the spec leaves, used. */
  latitudes?: Iterable<string>;
  /** tasks/list page size (1 … MAX_PAGE_SIZE). Default 10. */
  pageSize?: number;
  /** Maximum task ttl in ms; larger requests are capped. Default 3 600 000 (1 h). */
  maxTtl?: number;
  /** ttl in ms when the request gives none. Default 300 000 (5 min). */
  defaultTtl?: number;
  /** pollInterval (ms) suggested in every Task. Default 100. */
  pollInterval?: number;
  /** Max non-terminal tasks per requestor. Default 100. */
  maxConcurrentTasks?: number;
  /** Max retained tasks (any status) per requestor; oldest terminal ones are evicted. Default 1000. */
  maxRetainedTasks?: number;
  /** Send notifications/tasks/status on every status change. Default false. */
  statusNotifications?: boolean;
  /** Declare the tasks capability (default true). false: `task` is ignored, tasks/* are -32601. */
  tasksCapability?: boolean;
  /**
   * Streamable HTTP: answer every POST carrying requests with an SSE stream (the SDK transport's
   * default), task-related messages riding on the tasks/result stream. Default false: answers are
   * application/json (tasks/get is never upgraded to SSE) and task-related messages go on the
   * standalone GET stream.
   */
  sseResponses?: boolean;
  /** Tool run times. */
  timings?: Partial<ToolTimings>;
  /** Audit log: true → stderr; a function → called with each line. Default off. */
  log?: boolean | ((line: string) => void);
  /** Where internal errors go (default: stderr when `log` is on, else nowhere). */
  errorLog?: (line: string) => void;
  // --- scenario hooks (client grading: mocks/receiver/scenarios.ts) ---
  /** Replaces the tool set (default: the tools of tools.ts). */
  tools?: ToolDef[];
  /** Message tap and scenario behaviours (see ScenarioHooks in port.ts). */
  scenario?: ScenarioHooks;
}

export const MAX_PAGE_SIZE = 1000;

export interface ResolvedReceiverOptions {
  pageSize: number;
  maxTtl: number;
  defaultTtl: number;
  pollInterval: number;
  maxConcurrentTasks: number;
  maxRetainedTasks: number;
  statusNotifications: boolean;
  tasksCapability: boolean;
  sseResponses: boolean;
  timings: ToolTimings;
}

export const DEFAULT_OPTIONS: ResolvedReceiverOptions = {
  pageSize: 10,
  maxTtl: 3_600_000,
  defaultTtl: 300_000,
  pollInterval: 100,
  maxConcurrentTasks: 100,
  maxRetainedTasks: 1000,
  statusNotifications: false,
  tasksCapability: true,
  sseResponses: false,
  timings: DEFAULT_TIMINGS,
};

function posInt(v: number | undefined, fallback: number, name: string, min = 0): number {
  if (v === undefined) return fallback;
  if (!Number.isFinite(v) || v < min) throw new Error(`${name} must be a number ≥ ${min}`);
  return Math.floor(v);
}

export class ReferenceReceiver implements ReceiverCore {
  readonly options: ResolvedReceiverOptions;
  readonly faults: FaultSet;
  readonly switches: FaultSwitches;
  readonly latitudes: LatitudeSet;
  readonly latitude: LatitudeSwitches;
  readonly store: TaskStore;
  readonly tools: ReadonlyMap<string, ToolDef>;
  readonly runs = new Map<string, number>();
  /** Scenario hooks (client grading); undefined normally. */
  readonly scenario: ScenarioHooks | undefined;
  readonly sessions = new Set<ReceiverSession>();
  private readonly httpServers = new Set<{ close(): Promise<void> }>();
  private readonly logLine: ((line: string) => void) | undefined;
  private readonly errLine: ((line: string) => void) | undefined;

  constructor(opts: ReceiverOptions = {}) {
    const o: ResolvedReceiverOptions = {
      pageSize: Math.min(posInt(opts.pageSize, DEFAULT_OPTIONS.pageSize, 'pageSize', 1), MAX_PAGE_SIZE),
      maxTtl: posInt(opts.maxTtl, DEFAULT_OPTIONS.maxTtl, 'maxTtl'),
      defaultTtl: posInt(opts.defaultTtl, DEFAULT_OPTIONS.defaultTtl, 'defaultTtl'),
      pollInterval: posInt(opts.pollInterval, DEFAULT_OPTIONS.pollInterval, 'pollInterval'),
      maxConcurrentTasks: posInt(opts.maxConcurrentTasks, DEFAULT_OPTIONS.maxConcurrentTasks, 'maxConcurrentTasks', 1),
      maxRetainedTasks: posInt(opts.maxRetainedTasks, DEFAULT_OPTIONS.maxRetainedTasks, 'maxRetainedTasks', 1),
      statusNotifications: opts.statusNotifications ?? false,
      tasksCapability: opts.tasksCapability ?? true,
      sseResponses: opts.sseResponses ?? false,
      timings: { ...DEFAULT_TIMINGS, ...(opts.timings ?? {}) },
    };
    this.options = o;
    this.faults = new FaultSet(opts.faults ?? []);
    this.switches = new FaultSwitches(this.faults);
    this.latitudes = new LatitudeSet(opts.latitudes ?? []);
    this.latitude = new LatitudeSwitches(this.latitudes);
    this.logLine = opts.log === true ? (l) => process.stderr.write(l + '\n') : typeof opts.log === 'function' ? opts.log : undefined;
    this.errLine = opts.errorLog ?? (opts.log ? (l) => process.stderr.write(l + '\n') : undefined);
    this.tools = new Map((opts.tools ?? buildTools(o.timings)).map((t) => [t.name, this.latitude.tool(t)]));
    this.scenario = opts.scenario;
    this.store = new TaskStore({
      maxTtl: o.maxTtl,
      defaultTtl: o.defaultTtl,
      maxConcurrentTasks: o.maxConcurrentTasks,
      maxRetainedTasks: Math.max(o.maxRetainedTasks, 1),
      ...this.switches.storeOptions(),
      ...this.latitude.storeOptions(),
      onStatusChange: (t) => (t.origin as ReceiverSession).statusChanged(t),
      onDelete: (t, reason) => this.audit('task.deleted', { task: t.taskId, reason }),
      onError: (text) => this.logError(text),
    });
  }

  get tasksCapability(): boolean {
    return this.options.tasksCapability;
  }
  get statusNotifications(): boolean {
    return this.latitude.statusNotifications(this.options.statusNotifications);
  }
  get pageSize(): number {
    return this.options.pageSize;
  }
  get pollInterval(): number {
    return this.options.pollInterval;
  }

  /** Audit log (Audit and Logging SHOULDs): creation, completion, retrieval, failed lookups, with the requestor. */
  audit(event: string, fields: Record<string, unknown>): void {
    if (!this.logLine) return;
    const kv = Object.entries(fields)
      .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
      .join(' ');
    this.logLine(`[audit] ${new Date().toISOString()} ${event} ${kv}`);
  }

  logError(text: string): void {
    this.errLine?.(`[receiver] ${text}`);
  }

  sessionClosed(s: SessionPort): void {
    this.sessions.delete(s as ReceiverSession);
    // Session-bound tasks die with their session (bounded memory); token-bound tasks outlive it.
    this.store.deleteOwner(`session:${s.sessionKey}`, 'session-closed');
  }

  async connect(transport: Transport, identity?: SessionIdentity, opts?: SessionOptions): Promise<ReceiverSession> {
    const s = new ReceiverSession(this, transport, answer, identity, opts);
    this.sessions.add(s);
    await transport.start();
    return s;
  }

  async inProcess(identity?: SessionIdentity): Promise<{ clientTransport: Transport; session: ReceiverSession; close(): Promise<void> }> {
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    const session = await this.connect(serverTransport, identity);
    return {
      clientTransport,
      session,
      close: async () => {
        await serverTransport.close();
      },
    };
  }

  async serveStdio(): Promise<ReceiverSession> {
    const transport = new CoalescingStdioServerTransport();
    return this.connect(transport, { label: 'stdio' }, { answerTransportErrors: true });
  }

  /**
   * The Streamable HTTP endpoint as a request handler, for a node:http server of its own (listenHttp) or one
   * it shares (the dual-era target). `parsed`: the body the caller already read and parsed (the stream is then
   * not read again).
   */
  httpHandler(
    host = '127.0.0.1',
    access: HttpAccessOptions = {},
  ): {
    onRequest(req: IncomingMessage, res: ServerResponse, parsed?: { body: unknown }): void;
    close(): Promise<void>;
    sessionOf(id: string): ReceiverSession | undefined;
  } {
    const transports = new Map<string, StreamableHTTPServerTransport>();
    const refuse = createAccessGuard(host, access);
    return {
      onRequest: (req, res, parsed) => {
        const refusal = refuse(req);
        if (refusal) return refuseRequest(req, res, refusal);
        this.handleHttp(req, res, transports, parsed).catch((e) => {
          this.logError(`http handler failed: ${e instanceof Error ? e.stack : String(e)}`);
          if (!res.headersSent) jsonError(res, 500, -32603, 'Internal server error');
          else res.end();
        });
      },
      close: async () => {
        for (const t of [...transports.values()]) await t.close().catch(() => undefined);
        transports.clear();
      },
      sessionOf: (id) => {
        const t = transports.get(id);
        return t ? [...this.sessions].find((x) => x.transport === t) : undefined;
      },
    };
  }

  async listenHttp(port = 0, host = '127.0.0.1', access: HttpAccessOptions = {}): Promise<{ url: string; port: number; close(): Promise<void> }> {
    const handler = this.httpHandler(host, access);
    const server: Server = createServer((req, res) => handler.onRequest(req, res));
    const { url, port: bound, closeServer } = await listenEndpoint(server, port, host);
    const handle = {
      close: async () => {
        this.httpServers.delete(handle);
        await handler.close();
        await closeServer();
      },
    };
    this.httpServers.add(handle);
    return { url, port: bound, close: handle.close };
  }

  private async handleHttp(
    req: IncomingMessage,
    res: ServerResponse,
    transports: Map<string, StreamableHTTPServerTransport>,
    given?: { body: unknown },
  ): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== MCP_PATH) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`Not found: the MCP endpoint is ${MCP_PATH}\n`);
      return;
    }
    const sidHeader = req.headers['mcp-session-id'];
    const sid = Array.isArray(sidHeader) ? sidHeader[0] : sidHeader;
    if (sid !== undefined) {
      const t = transports.get(sid);
      // transports.md: a terminated/unknown session → 404 Not Found.
      if (!t) return jsonError(res, 404, -32001, 'Session not found');
      if (req.method === 'GET') {
        // The session learns when its standalone SSE stream is open (queued input requests go out on it).
        const s = [...this.sessions].find((x) => x.transport === t);
        if (s) watchStandaloneStream(s, res);
      }
      if (req.method === 'POST' && this.latitude.limitsPolls()) {
        // security-rate-limit (poll-rate-limit): a poll that comes too soon is answered HTTP 429 with Retry-After.
        try {
          given = { body: given ? given.body : JSON.parse(await readBody(req, 4 * 1024 * 1024)) };
        } catch {
          return jsonError(res, 400, -32700, 'Parse error: Invalid JSON');
        }
        const m = given.body as { id?: unknown; method?: unknown; params?: unknown } | undefined;
        const limited = m && !Array.isArray(m) && typeof m.method === 'string' && this.latitude.pollLimit(`http ${sid}`, m.method, m.params, this.pollInterval);
        if (limited) {
          res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
          res.end(JSON.stringify({ jsonrpc: '2.0', id: m.id ?? null, error: limited.toJSON() }));
          return;
        }
      }
      if (req.method === 'POST' && this.switches.disconnectCancels()) {
        const s = [...this.sessions].find((x) => x.transport === t);
        let parsed: unknown;
        try {
          parsed = given ? given.body : JSON.parse(await readBody(req, 4 * 1024 * 1024));
        } catch {
          return jsonError(res, 400, -32700, 'Parse error: Invalid JSON');
        }
        const dropped = (Array.isArray(parsed) ? parsed : [parsed]).filter((m) => m?.method === 'tasks/result').map((m) => m.params?.taskId);
        res.once('close', () => {
          if (!res.writableFinished && s) for (const id of dropped) cancelOnDisconnect(s, id);
        });
        await t.handleRequest(req, res, parsed);
        return;
      }
      await t.handleRequest(req, res, given?.body);
      return;
    }
    if (req.method !== 'POST') return jsonError(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    let body: unknown;
    try {
      body = given ? given.body : JSON.parse(await readBody(req, 4 * 1024 * 1024));
    } catch (e) {
      if (e instanceof BodyTooLarge) return jsonError(res, 413, -32000, 'Request body too large');
      return jsonError(res, 400, -32700, 'Parse error: Invalid JSON');
    }
    const msgs = Array.isArray(body) ? body : [body];
    const isInit = msgs.some((m) => m && typeof m === 'object' && (m as { method?: unknown }).method === 'initialize');
    // transports.md: requests without a session id other than initialization → 400.
    if (!isInit) return jsonError(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    const jsonResponses = !this.options.sseResponses && !this.switches.sseAnswers();
    const HttpTransport = await httpTransport();
    const transport: StreamableHTTPServerTransport = new HttpTransport({
      sessionIdGenerator: () => randomUUID(),
      // sse-get-no-upgrade: plain JSON answers (tasks/get above all); task messages use the GET stream.
      enableJsonResponse: jsonResponses,
      onsessioninitialized: (id) => {
        transports.set(id, transport);
      },
      onsessionclosed: (id) => {
        transports.delete(id);
      },
    });
    const session = await this.connect(transport, undefined, { relatedOnStandalone: jsonResponses });
    const prevClose = transport.onclose;
    transport.onclose = () => {
      if (transport.sessionId) transports.delete(transport.sessionId);
      prevClose?.();
    };
    await transport.handleRequest(req, res, body);
    if (!transport.sessionId) session.close();
  }

  async close(): Promise<void> {
    for (const h of [...this.httpServers]) await h.close();
    for (const s of [...this.sessions]) {
      await s.transport.close().catch(() => undefined);
      s.close();
    }
    this.store.clear();
  }
}

let loadingHttp: Promise<typeof StreamableHTTPServerTransport> | undefined;
/** The SDK's Streamable HTTP server transport, loaded once on first use. */
function httpTransport(): Promise<typeof StreamableHTTPServerTransport> {
  return (loadingHttp ??= import('@modelcontextprotocol/sdk/server/streamableHttp.js').then((m) => m.StreamableHTTPServerTransport));
}

export function createReferenceReceiver(options: ReceiverOptions = {}): ReferenceReceiver {
  return new ReferenceReceiver(options);
}

/**
 * Tells the session when a standalone GET SSE stream is under way (the SDK transport accepted the GET:
 * 200; a refused GET, e.g. a second one, 409, does not count) and when it ends.
 */
function watchStandaloneStream(s: ReceiverSession, res: ServerResponse): void {
  let opened = false;
  res.once('close', () => {
    if (opened) s.standaloneStreamClosed();
  });
  let tries = 0;
  const look = () => {
    if (res.destroyed || res.writableEnded) return;
    if (!res.headersSent) {
      if (++tries < 1000) setTimeout(look, 2).unref?.();
      return;
    }
    // The transport answers a GET with 200 only for the SSE stream (refusals are 4xx). Its headers go
    // through writeHead(status, headers), so getHeader() cannot read the content type back.
    if (res.statusCode === 200) {
      opened = true;
      s.standaloneStreamOpened();
    }
  };
  setImmediate(look);
}

class BodyTooLarge extends Error {}

function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        reject(new BodyTooLarge());
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function jsonError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** A refused request is answered without reading its body (-32000: a transport-level error, as the SDK transports answer). */
function refuseRequest(req: IncomingMessage, res: ServerResponse, r: AccessRefusal): void {
  req.resume();
  jsonError(res, r.status, -32000, r.message, { ...r.headers, connection: 'close' });
}
