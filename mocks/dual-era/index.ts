/**
 * The dual-era reference target (basic-versioning.md "Backward Compatibility with Initialization-Based
 * Versions"): the reference receiver of 2025-11-25 (mocks/receiver) and the reference extension server of
 * 2026-07-28 + io.modelcontextprotocol/tasks (mocks/2026-07-28) behind one endpoint, composed, not copied.
 * See README.md next to this file.
 *
 *   const d = createDualEraServer({ legacy: { … ReceiverOptions }, modern: { … ServerOptions }, faults: ['…'] });
 *   const conn = d.stdio(input, output);              // one stdio connection (one process) over a stream pair
 *   const { url, close } = await d.listenHttp(0);      // Streamable HTTP on 127.0.0.1, path /mcp
 *   await d.close();
 *
 * How a message finds its era ("A dual-era server selects its behavior from how the client opens"):
 * - `initialize` selects 2025-11-25, scoped to the stdio connection or the HTTP session (Mcp-Session-Id);
 * - a request carrying the modern `_meta` (io.modelcontextprotocol/protocolVersion) is served statelessly by
 *   the extension server; over stdio so is anything before an `initialize`, over HTTP any POST without a session;
 * - after `initialize` (stdio) the rest of the connection is 2025-11-25.
 * The cross-version rules of SEP-2663 "Backward Compatibility" hold where the two meet: a client's
 * io.modelcontextprotocol/tasks declared in a 2025-11-25 initialize enables nothing (the receiver never reads
 * it); server/discover advertises no 2025-11-25 `tasks` capability; a 2026-07-28 tasks/get or tasks/cancel of
 * a client declaring only the 2025-11-25 capability, naming a task that client created under 2025-11-25, is
 * served by the receiver (its answer with resultType "complete"). Over HTTP "that client" needs a bearer
 * token: a 2026-07-28 request has no session, and a 2025-11-25 task without a token is bound to its session.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { listenEndpoint } from '../http-endpoint.ts';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createReferenceReceiver, type ReceiverOptions, type ReceiverSession, type ReferenceReceiver } from '../receiver/index.ts';
import { answer } from '../receiver/dispatch.ts';
import { NO_REPLY, type RequestCtx as LegacyCtx } from '../receiver/core.ts';
import { createAccessGuard, type HttpAccessOptions } from '../receiver/http-access.ts';
import { createExtensionServer, MAX_LINE_BYTES, type ReferenceExtensionServer, type ServerOptions } from '../2026-07-28/index.ts';
import { httpHandler, MAX_BODY_BYTES } from '../2026-07-28/http.ts';
import type { RequestCtx as ModernCtx } from '../2026-07-28/server.ts';
import { ErrorCode, LegacyField, Meta, Method, PROTOCOL_VERSION as MODERN, ResultType, TASKS_EXTENSION } from '../2026-07-28/protocol.ts';
import { SPEC_REVISION as LEGACY_VERSION } from '../../schema/spec.ts';
import { DUAL_ERA_FAULTS, DUAL_ERA_LATITUDES, isDualEraFaultName, isDualEraLatitudeName, type DualEraFaultName, type DualEraLatitudeName } from './faults.ts';
import { deferred } from '../../suites/wire/deferred.ts';
import { isObj } from '../../schema/json.ts';

export { DUAL_ERA_FAULTS, DUAL_ERA_LATITUDES, isDualEraFaultName, isDualEraLatitudeName, type DualEraFaultName, type DualEraLatitudeName };

/** The 2025-11-25 tasks capability the receiver declares in initialize (what the fault legacy-capabilities-advertised leaks). */
const LEGACY_TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } };
/** The largest body the receiver reads (its own limit, mocks/receiver/index.ts). */
const LEGACY_MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface DualEraOptions {
  /** The 2025-11-25 reference receiver's options. */
  legacy?: ReceiverOptions;
  /** The 2026-07-28 reference extension server's options. */
  modern?: ServerOptions;
  /** Faults of the dual-era target itself (faults.ts). */
  faults?: readonly string[];
  /** Latitudes of the dual-era target itself (faults.ts). */
  latitudes?: readonly string[];
}

type Json = Record<string, any>;

/** A request of 2026-07-28: its params carry the per-request `_meta` protocol version. */
function isModern(m: unknown): m is Json {
  return isObj(m) && isObj(m.params) && isObj(m.params._meta) && m.params._meta[Meta.ProtocolVersion] !== undefined;
}

/** A JSON-RPC request (not a notification, not a batch). */
const isRequest = (m: unknown): m is Json => isObj(m) && typeof m.method === 'string' && 'id' in m;

function declaresExtension(capabilities: unknown): boolean {
  return isObj(capabilities) && isObj(capabilities.extensions) && capabilities.extensions[TASKS_EXTENSION] !== undefined;
}

/** A 2026-07-28 tasks/get or tasks/cancel of a client that does not declare the extension (e.g. only the 2025-11-25 capability). */
function undeclaredTaskRequest(m: unknown): m is Json {
  return (
    isModern(m) &&
    (m.method === Method.TasksGet || m.method === Method.TasksCancel) &&
    'id' in m &&
    typeof m.params.taskId === 'string' &&
    !declaresExtension(m.params._meta[Meta.ClientCapabilities])
  );
}

function bearerOwner(req: IncomingMessage): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return m ? `bearer:${createHash('sha256').update(m[1]!).digest('hex')}` : undefined;
}

export class DualEraServer {
  readonly legacy: ReferenceReceiver;
  readonly modern: ReferenceExtensionServer;
  readonly faults: ReadonlySet<DualEraFaultName>;
  readonly latitudes: ReadonlySet<DualEraLatitudeName>;
  private readonly listeners = new Set<{ close(): Promise<void> }>();
  private readonly connections = new Set<{ close(): void }>();

  constructor(options: DualEraOptions = {}) {
    for (const f of options.faults ?? []) if (!isDualEraFaultName(f)) throw new Error(`unknown fault of the dual-era target "${f}"`);
    this.faults = new Set(options.faults as DualEraFaultName[]);
    for (const l of options.latitudes ?? []) if (!isDualEraLatitudeName(l)) throw new Error(`unknown latitude of the dual-era target "${l}"`);
    this.latitudes = new Set(options.latitudes as DualEraLatitudeName[]);
    this.legacy = createReferenceReceiver(options.legacy);
    this.modern = createExtensionServer({
      ...options.modern,
      // fault legacy-capabilities-advertised (2026-compat-no-legacy-capabilities: MUST NOT).
      ...(this.fault('legacy-capabilities-advertised') ? { moreCapabilities: { [LegacyField.tasksCapability]: LEGACY_TASKS_CAPABILITY } } : {}),
    });
  }

  fault(name: DualEraFaultName): boolean {
    return this.faults.has(name);
  }

  latitude(name: DualEraLatitudeName): boolean {
    return this.latitudes.has(name);
  }

  /**
   * 2026-compat-dual-permit-legacy-get-cancel (SHOULD): a 2026-07-28 tasks/get or tasks/cancel of a client
   * declaring only the legacy capability, naming a task `owner` created under 2025-11-25, is served by the
   * receiver (on `session`, a session of that requestor); undefined when it names no such task.
   */
  private async legacyTaskAnswer(session: ReceiverSession, owner: string, m: Json): Promise<{ message: Json; after?: () => void } | undefined> {
    if (this.fault('legacy-tasks-refused-modern')) return undefined;
    try {
      this.legacy.store.lookup(owner, m.params.taskId);
    } catch {
      return undefined;
    }
    const ctx: LegacyCtx = { id: m.id, owner, auth: undefined, progressToken: undefined, sessionLabel: `${session.sessionKey} (a ${MODERN} request)` };
    const out = await answer(session, m.method, m.params, ctx);
    if (out === NO_REPLY) return undefined;
    if ('error' in out) return { message: { jsonrpc: '2.0', id: m.id, error: out.error } };
    // Every result of 2026-07-28 carries resultType.
    return { message: { jsonrpc: '2.0', id: m.id, result: { ...out.result, resultType: ResultType.Complete } }, after: out.after };
  }

  /**
   * The fault extension-under-2025: a 2025-11-25 tools/call (no `task` parameter) of a client that declared the
   * extension in initialize is answered by the extension server, as if that declaration applied.
   */
  private async extensionUnder2025(session: ReceiverSession, m: Json): Promise<Json | undefined> {
    if (!this.fault('extension-under-2025') || m.method !== Method.ToolsCall || !('id' in m) || !declaresExtension(session.clientCapabilities))
      return undefined;
    const params = isObj(m.params) ? m.params : {};
    if (params[LegacyField.task] !== undefined) return undefined;
    const meta = { ...(isObj(params._meta) ? params._meta : {}), [Meta.ProtocolVersion]: MODERN, [Meta.ClientCapabilities]: session.clientCapabilities };
    const ctx: ModernCtx = {
      transport: 'stdio',
      owner: `dual-era:${session.sessionKey}`,
      signal: new AbortController().signal,
      notify: () => undefined,
      subscriptions: { count: 0 },
    };
    return (await this.modern.server.handle({ ...m, params: { ...params, _meta: meta } }, ctx))?.message;
  }

  /** Serves one stdio connection (one client process) until `input` ends. */
  stdio(input: Readable, output: Writable): { closed: Promise<void>; close(): void } {
    const modernIn = new PassThrough();
    const legacyIn = new PassThrough();
    const modern = this.modern.stdio(modernIn, output);
    // The 2025-11-25 session of this connection: opened by its initialize (latitude ambiguous-as-legacy: by the
    // first request with neither initialize nor the modern _meta). Its era is 2025-11-25 once an initialize came.
    let session: Promise<ReceiverSession> | undefined;
    let initialized = false;
    const write = (m: Json) => {
      if (!output.writableEnded && !output.destroyed) output.write(JSON.stringify(m) + '\n');
    };
    const toLegacy = (bytes: Buffer) => {
      session ??= this.legacy.connect(new StdioServerTransport(legacyIn, output), { label: 'stdio' }, { answerTransportErrors: true });
      legacyIn.write(bytes);
    };
    // Output of the receiver's answers and ours never interleave mid-line: each is one write of one line.
    const current = (bytes: Buffer): void => void (initialized ? toLegacy(bytes) : modernIn.write(bytes));
    const line = async (bytes: Buffer) => {
      let m: unknown;
      try {
        m = JSON.parse(bytes.toString('utf8'));
      } catch {
        return current(bytes); // not JSON: the era of the connection answers -32700
      }
      if (isObj(m) && m.method === 'initialize') {
        initialized = true;
        return toLegacy(bytes);
      }
      if (isModern(m)) {
        // Latitude legacy-process-only: after its initialize the process speaks 2025-11-25 only (RULINGS.md#dual-era-one-era-per-process).
        if (initialized && this.latitude('legacy-process-only')) return void ('id' in m && write(unsupportedOnLegacyProcess(m)));
        if (session && undeclaredTaskRequest(m)) {
          const s = await session;
          const a = await this.legacyTaskAnswer(s, s.ownerFor(undefined).owner, m);
          if (a) {
            write(a.message);
            if (a.after) s.guard(`after ${m.method}`, a.after);
            return;
          }
        }
        return void modernIn.write(bytes);
      }
      if (session && isObj(m)) {
        const a = await this.extensionUnder2025(await session, m);
        if (a) return write(a);
      }
      // Latitude ambiguous-as-legacy: neither initialize nor the modern _meta is a 2025-11-25 request (RULINGS.md#dual-era-ambiguous-request).
      if (this.latitude('ambiguous-as-legacy') && isRequest(m)) return toLegacy(bytes);
      return current(bytes);
    };
    // Lines in order, each routed whole; a line longer than MAX_LINE_BYTES goes on, raw, to the connection's era.
    let buffer: Buffer = Buffer.alloc(0);
    let passing: ((b: Buffer) => void) | undefined;
    let queue: Promise<unknown> = Promise.resolve();
    const onData = (chunk: Buffer) => {
      buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
      for (let nl = buffer.indexOf(0x0a); nl !== -1; nl = buffer.indexOf(0x0a)) {
        const bytes = buffer.subarray(0, nl + 1);
        buffer = buffer.subarray(nl + 1);
        if (passing) {
          passing(bytes);
          passing = undefined;
        } else queue = queue.then(() => line(bytes)).catch(() => undefined);
      }
      if (!passing && buffer.length > MAX_LINE_BYTES) passing = initialized ? toLegacy : (b) => void modernIn.write(b);
      if (passing && buffer.length) {
        passing(buffer);
        buffer = Buffer.alloc(0);
      }
    };
    let ended = false;
    const { promise: closed, resolve: resolveClosed } = deferred<void>();
    const onEnd = () => {
      if (ended) return;
      ended = true;
      void queue
        .then(async () => {
          if (buffer.length && !passing) await line(buffer);
          modernIn.end();
          legacyIn.end();
          if (session) await (await session).transport.close();
          await modern.closed;
        })
        .finally(() => resolveClosed());
    };
    input.on('data', onData);
    input.on('end', onEnd);
    input.on('close', onEnd);
    input.on('error', onEnd);
    const connection = {
      closed,
      close: () => {
        input.off('data', onData);
        onEnd();
      },
    };
    this.connections.add(connection);
    return connection;
  }

  /** Streamable HTTP on one endpoint (/mcp): a session's requests (Mcp-Session-Id) and initialize go to the receiver, the rest to the extension server. */
  async listenHttp(port = 0, host = '127.0.0.1', access: HttpAccessOptions = {}): Promise<{ url: string; port: number; close(): Promise<void> }> {
    const legacy = this.legacy.httpHandler(host, access);
    const modern = httpHandler(this.modern.server, host, access);
    const refuse = createAccessGuard(host, access);
    const json = (res: ServerResponse, m: Json) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(m));
    const onRequest = async (req: IncomingMessage, res: ServerResponse) => {
      const sid = req.headers['mcp-session-id'];
      // Refused, or not a POST: the era's own handler answers (without anything read here).
      if (refuse(req) || req.method !== 'POST') return sid !== undefined ? legacy.onRequest(req, res) : modern.onRequest(req, res);
      if (sid !== undefined && !this.fault('extension-under-2025')) return legacy.onRequest(req, res);
      const body = await readBody(req, LEGACY_MAX_BODY_BYTES + 1);
      // Too large for the extension server: its 413 (a session's request: the receiver's limit, larger).
      if (sid === undefined && body.length > MAX_BODY_BYTES) return modern.onRequest(req, res, body);
      let m: unknown;
      try {
        m = JSON.parse(body.toString('utf8'));
      } catch {
        if (sid === undefined) return modern.onRequest(req, res, body);
        return void res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: Invalid JSON' } }));
      }
      if (sid !== undefined) {
        const s = legacy.sessionOf(String(sid));
        const a = s && isObj(m) ? await this.extensionUnder2025(s, m) : undefined;
        return a ? void json(res, a) : legacy.onRequest(req, res, { body: m });
      }
      const initializes = (x: unknown) => isObj(x) && x.method === 'initialize';
      if (initializes(m) || (Array.isArray(m) && m.some(initializes))) return legacy.onRequest(req, res, { body: m });
      // Latitude ambiguous-as-legacy (RULINGS.md#dual-era-ambiguous-request): the receiver answers it as a request outside a session.
      if (this.latitude('ambiguous-as-legacy') && isRequest(m) && !isModern(m)) return legacy.onRequest(req, res, { body: m });
      const owner = bearerOwner(req);
      const s = [...this.legacy.sessions].find((x) => !x.closed);
      if (owner && s && undeclaredTaskRequest(m)) {
        const a = await this.legacyTaskAnswer(s, owner, m);
        if (a) {
          json(res, a.message);
          if (a.after) s.guard(`after ${m.method}`, a.after);
          return;
        }
      }
      return modern.onRequest(req, res, body);
    };
    const server: Server = createServer((req, res) => {
      onRequest(req, res).catch((e) => {
        if (!res.headersSent)
          res
            .writeHead(500, { 'content-type': 'application/json' })
            .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32603, message: String(e) } }));
        else res.end();
      });
    });
    const { url, port: bound, closeServer } = await listenEndpoint(server, port, host);
    const handle = {
      close: async () => {
        this.listeners.delete(handle);
        modern.close();
        await legacy.close();
        await closeServer();
      },
    };
    this.listeners.add(handle);
    return { url, port: bound, close: handle.close };
  }

  async close(): Promise<void> {
    for (const l of [...this.listeners]) await l.close();
    for (const c of [...this.connections]) c.close();
    await this.modern.close();
    await this.legacy.close();
  }
}

export function createDualEraServer(options: DualEraOptions = {}): DualEraServer {
  return new DualEraServer(options);
}

/** The answer of a process that speaks 2025-11-25 only (latitude legacy-process-only) to a request of 2026-07-28. */
function unsupportedOnLegacyProcess(m: Json): Json {
  return {
    jsonrpc: '2.0',
    id: m.id,
    error: {
      code: ErrorCode.UnsupportedProtocolVersion,
      message: 'Unsupported protocol version: this process speaks 2025-11-25 since its initialize',
      data: { supported: [LEGACY_VERSION], requested: m.params._meta[Meta.ProtocolVersion] },
    },
  };
}

/** The body, at most `limit` bytes (the rest is not read: the caller answers 413). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer) => {
      size += c.length;
      chunks.push(c);
      if (size >= limit) {
        req.off('data', onData);
        req.pause();
        resolve(Buffer.concat(chunks));
      }
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
