// The reference extension client: a spec-exact requestor of MCP 2026-07-28 with the Tasks extension
// (io.modelcontextprotocol/tasks), on raw JSON-RPC, implementing the scenario contract of
// `mcp-tasks-conformance client --revision 2026-07-28` (docs/CLIENTS.md):
//
//   tsx mocks/2026-07-28/client/reference-client.ts [--fault NAME]… [--latitude NAME]… <server URL | server command line>
//   env: MCP_CONFORMANCE_SCENARIO=<scenario>   CLIENT_FAULT=…   CLIENT_LATITUDE=…
//
// Stateless: every request carries its own `_meta` (version, capabilities declaring the extension and
// form elicitation); over Streamable HTTP one POST per message with the standard headers (MCP-Protocol-Version,
// Mcp-Method, Mcp-Name = params.name / params.taskId). Exit code 0 when the scenario ran to its end.
// Faults and latitudes: faults.ts beside this file.
import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { runClientWhenMain, type ReferenceClientOptions } from '../../command.ts';
import {
  BASE64_SENTINEL,
  ErrorCode,
  Header,
  isTerminal,
  Meta,
  Method,
  PROTOCOL_VERSION,
  ResultType,
  TASKS_EXTENSION,
} from '../../../schema/2026-07-28/protocol.ts';
import { splitCommand } from '../../../suites/wire/connect.ts';
import { LineReader } from '../../../suites/wire/line-reader.ts';
import { CLIENT_FAULTS, CLIENT_LATITUDES, isClientFault, isClientLatitude, type ClientFaultName, type ClientLatitudeName } from './faults.ts';

export const CLIENT_NAME = 'mcp-tasks-reference-extension-client';
export const CLIENT_VERSION = '0.1.0';

type Json = Record<string, any>;
interface RpcAnswer {
  id?: unknown;
  result?: Json;
  error?: { code: number; message: string; data?: unknown };
}

const REQUEST_TIMEOUT_MS = 15_000;
/** When a task shows no pollIntervalMs. */
const DEFAULT_POLL_MS = 500;
/** Polls of one task at most (a bound: the scenarios end long before). */
const MAX_POLLS = 400;
/** How long an acknowledgement of subscriptions/listen, and then a terminal notifications/tasks, is waited for. */
const ACK_WAIT_MS = 5_000;
const NOTIFY_WAIT_MS = 3_000;
/** The protocol versions this client speaks (the retry after -32022 picks one the server lists). */
const VERSIONS: readonly string[] = [PROTOCOL_VERSION];
/** The legacy version this client falls back to (basic-transports-stdio.md "Backward Compatibility"), and the fault initialize-first probes with. */
const LEGACY_VERSION = '2025-11-25';
/** JSON-RPC errors of a modern server: an answer to server/discover with one of these is no reason to fall back. */
const MODERN_ERRORS: readonly number[] = [ErrorCode.UnsupportedProtocolVersion, ErrorCode.HeaderMismatch, ErrorCode.MissingRequiredClientCapability];
/** The key the fault stray-keys adds: no server issues it. */
export const STRAY_KEY = 'reference-client-stray-key';

const CAPABILITIES = { extensions: { [TASKS_EXTENSION]: {} }, elicitation: { form: {} } };
const MCP_NAME_SOURCE: Readonly<Record<string, string>> = {
  [Method.ToolsCall]: 'name',
  [Method.TasksGet]: 'taskId',
  [Method.TasksUpdate]: 'taskId',
  [Method.TasksCancel]: 'taskId',
};

/** A header value as the core's "Value Encoding" says: as is when it is safe ASCII, else the Base64 sentinel. */
export function headerValue(v: string): string {
  if (/^[\x21-\x7e]([\x20-\x7e\t]*[\x21-\x7e])?$/.test(v)) return v;
  const encoded = `=?base64?${Buffer.from(v, 'utf8').toString('base64')}?=`;
  return BASE64_SENTINEL.test(encoded) ? encoded : '';
}

/** One way to the server: a request gets its answer; a notification gets none. */
interface Channel {
  request(message: Json, headers: Record<string, string>): Promise<RpcAnswer>;
  notify(message: Json, headers: Record<string, string>): Promise<void>;
  /** A long-lived request (subscriptions/listen): every message of its stream to `onMessage`; `end()` stops listening (HTTP: closes the stream). */
  listen(message: Json, headers: Record<string, string>, onMessage: (m: Json) => void): { end(): Promise<void> };
  close(): Promise<void>;
}

/** A JSON-RPC message from its text; undefined for what is not JSON or not an object (skipped, never thrown on). */
function parseMessage(text: string): Json | undefined {
  try {
    const m: unknown = JSON.parse(text);
    return typeof m === 'object' && m !== null && !Array.isArray(m) ? (m as Json) : undefined;
  } catch {
    return undefined;
  }
}

/** The JSON-RPC messages of SSE `data:` blocks (a block that is not one is skipped). */
function sseMessages(blocks: string[]): Json[] {
  const out: Json[] = [];
  for (const block of blocks) {
    const data = block
      .split(/\r?\n/)
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).trimStart())
      .join('\n');
    const m = data ? parseMessage(data) : undefined;
    if (m) out.push(m);
  }
  return out;
}

/**
 * Streamable HTTP (2026-07-28): one POST per message, no session, JSON or an SSE stream scoped to the request. A legacy
 * server's session (2025-11-25, after the fallback to initialize) is kept: its Mcp-Session-Id goes on every later POST.
 */
function httpChannel(url: string, signal?: AbortSignal): Channel {
  let session: string | undefined;
  const post = async (message: Json, headers: Record<string, string>) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(session ? { 'mcp-session-id': session } : {}),
        ...headers,
      },
      body: JSON.stringify(message),
      signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]) : AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    session = res.headers.get('mcp-session-id') ?? session;
    return res;
  };
  return {
    async request(message, headers) {
      const res = await post(message, headers);
      const text = await res.text();
      const type = res.headers.get('content-type') ?? '';
      const messages: Json[] = type.includes('text/event-stream') ? sseMessages(text.split(/\r?\n\r?\n/)) : [parseMessage(text)].filter((m) => m !== undefined);
      const answer = messages.find((m) => m.id === message.id && ('result' in m || 'error' in m));
      if (!answer) throw new Error(`no answer to ${message.method} (HTTP ${res.status})`);
      return answer;
    },
    async notify(message, headers) {
      const res = await post(message, headers);
      await res.text();
    },
    listen(message, headers, onMessage) {
      const stop = new AbortController();
      const done = (async () => {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
          body: JSON.stringify(message),
          signal: signal ? AbortSignal.any([signal, stop.signal]) : stop.signal,
        });
        if (!(res.headers.get('content-type') ?? '').includes('text/event-stream') || !res.body) {
          const text = await res.text();
          const m = parseMessage(text);
          if (m) onMessage(m);
          return;
        }
        const decoder = new TextDecoder();
        let buffer = '';
        for await (const chunk of res.body) {
          buffer += decoder.decode(chunk, { stream: true });
          const blocks: string[] = [];
          for (let m = /\r?\n\r?\n/.exec(buffer); m; m = /\r?\n\r?\n/.exec(buffer)) {
            blocks.push(buffer.slice(0, m.index));
            buffer = buffer.slice(m.index + m[0].length);
          }
          for (const m of sseMessages(blocks)) onMessage(m);
        }
      })().catch(() => undefined);
      return {
        async end() {
          stop.abort();
          await done;
        },
      };
    },
    async close() {},
  };
}

/** stdio: spawn the server, newline-delimited JSON-RPC on its stdin/stdout. */
function stdioChannel(commandLine: string, log: (l: string) => void): Channel {
  const { command, args } = splitCommand(commandLine);
  const child: ChildProcess = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  const waiting = new Map<string, (a: RpcAnswer) => void>();
  /** Open subscriptions by their request id: their notifications (by _meta subscriptionId) and their final answer. */
  const listeners = new Map<string, (m: Json) => void>();
  let gone: Error | undefined;
  const fail = (e: Error) => {
    gone ??= e;
    for (const [, resolve] of waiting) resolve({ error: { code: -32000, message: e.message } });
    waiting.clear();
  };
  child.on('error', (e) => fail(e));
  child.on('close', () => fail(new Error('the server closed stdio')));
  child.stderr?.on('data', (c: Buffer) => log(`server stderr: ${c.toString('utf8').trim()}`));
  const lines = new LineReader((text) => {
    const line = text.trim();
    const m = parseMessage(line);
    if (!m) {
      log(`not a JSON-RPC message on the server's stdout: ${line.slice(0, 200)}`);
      return;
    }
    const resolve = waiting.get(JSON.stringify(m.id));
    if (resolve && ('result' in m || 'error' in m)) {
      waiting.delete(JSON.stringify(m.id));
      resolve(m);
      return;
    }
    const sub = typeof m.method === 'string' ? m.params?._meta?.[Meta.SubscriptionId] : m.id;
    listeners.get(JSON.stringify(sub))?.(m);
  });
  child.stdout?.on('data', (c: Buffer) => lines.push(c));
  const write = (m: Json) => child.stdin?.write(JSON.stringify(m) + '\n');
  return {
    request(message) {
      if (gone) return Promise.reject(gone);
      return new Promise<RpcAnswer>((resolve) => {
        const key = JSON.stringify(message.id);
        const timer = setTimeout(() => {
          waiting.delete(key);
          resolve({ error: { code: -32001, message: `no answer to ${message.method} within ${REQUEST_TIMEOUT_MS} ms` } });
        }, REQUEST_TIMEOUT_MS);
        waiting.set(key, (a) => {
          clearTimeout(timer);
          resolve(a);
        });
        write(message);
      });
    },
    async notify(message) {
      if (!gone) write(message);
    },
    listen(message, _headers, onMessage) {
      const key = JSON.stringify(message.id);
      listeners.set(key, onMessage);
      if (!gone) write(message);
      // On stdio the requestor ends the subscription with notifications/cancelled (subscriptions.md "Cancellation").
      return {
        async end() {
          listeners.delete(key);
        },
      };
    },
    async close() {
      child.stdin?.end();
      if (child.exitCode === null && child.signalCode === null) {
        const t = setTimeout(() => child.kill('SIGTERM'), 1000);
        await new Promise((r) => child.once('close', r));
        clearTimeout(t);
      }
    },
  };
}

/** Runs one scenario; resolves with the exit code (0: ran to its end; 1: it could not; 2: usage). */
export async function runExtensionClient(o: ReferenceClientOptions): Promise<number> {
  const log = o.log ?? (() => undefined);
  const badFaults = (o.faults ?? []).filter((f) => !isClientFault(f));
  const badLatitudes = (o.latitudes ?? []).filter((l) => !isClientLatitude(l));
  if (badFaults.length || badLatitudes.length) {
    log(
      `unknown ${[...badFaults.map((f) => `fault ${f}`), ...badLatitudes.map((l) => `latitude ${l}`)].join(', ')} (faults: ${CLIENT_FAULTS.map((f) => f.name).join(', ')}; latitudes: ${CLIENT_LATITUDES.map((l) => l.name).join(', ')})`,
    );
    return 2;
  }
  const http = /^https?:\/\//i.test(o.serverArg);
  let channel: Channel | undefined;
  try {
    channel = http ? httpChannel(o.serverArg, o.signal) : stdioChannel(o.serverArg, log);
  } catch (e) {
    log(`cannot reach ${o.serverArg}: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
  const faults = new Set(o.faults as ClientFaultName[]);
  const latitudes = new Set(o.latitudes as ClientLatitudeName[]);
  const client = new ExtensionRequestor(channel, http, faults, latitudes, o, log);
  try {
    await client.run();
    if (!http && latitudes.has('restart-remembers-era')) {
      // The same server command restarted: opened by the era found on the first connection (RULINGS.md#dual-era-client-remembers-era).
      await channel.close();
      channel = stdioChannel(o.serverArg, log);
      await new ExtensionRequestor(channel, http, faults, latitudes, o, log, client.era).run();
    }
    return 0;
  } catch (e) {
    if (!(e instanceof Error && e.name === 'AbortError')) log(`scenario ${o.scenario} failed: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  } finally {
    await channel?.close().catch(() => undefined);
  }
}

class ExtensionRequestor {
  private nextId = 1;
  /** The protocol version of every request (another one the server lists, after -32022). */
  private version = PROTOCOL_VERSION;
  /** Fallen back to a legacy server (2025-11-25): requests without `_meta`, its session's headers only. */
  private legacy = false;

  constructor(
    private readonly channel: Channel,
    private readonly http: boolean,
    private readonly faults: ReadonlySet<ClientFaultName>,
    private readonly latitudes: ReadonlySet<ClientLatitudeName>,
    private readonly o: ReferenceClientOptions,
    private readonly log: (line: string) => void,
    /** The era found on an earlier connection to the same server command (latitude restart-remembers-era). */
    private readonly remembered?: 'legacy' | 'modern',
  ) {}

  /** The era this connection found. */
  get era(): 'legacy' | 'modern' {
    return this.legacy ? 'legacy' : 'modern';
  }

  async run(): Promise<void> {
    if (this.remembered) return this.runRemembered(this.remembered);
    if (!this.http && this.faults.has('initialize-first')) {
      // A dual-era client probing legacy first: initialize, no _meta (basic-transports-stdio.md "Backward Compatibility" asks for server/discover first).
      const init = await this.channel.request(
        {
          jsonrpc: '2.0',
          id: this.nextId++,
          method: 'initialize',
          params: { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: { name: CLIENT_NAME, version: CLIENT_VERSION } },
        },
        {},
      );
      if (init.result) await this.legacyHandshake(init);
      else this.log(`initialize: error ${init.error?.code} (a modern server); going on modern`);
    }
    if (!this.legacy && !this.latitudes.has('no-discover')) {
      // The probe (basic-transports-stdio.md "Backward Compatibility"; on HTTP a 4xx without a modern error body, basic-versioning.md).
      const d = await this.request(Method.ServerDiscover, {}).catch((e: unknown) => ({
        error: { code: 0, message: e instanceof Error ? e.message : String(e) },
      }));
      if (d.error) this.log(`server/discover: error ${d.error.code} ${d.error.message}`);
      if (d.error && !MODERN_ERRORS.includes(d.error.code)) await this.legacyHandshake();
    }
    const tools = await this.listTools();
    for (const tool of tools) await this.callTool(tool);
  }

  /** A connection opened by the era remembered, no probe; a remembered legacy server whose initialize fails is probed after all. */
  private async runRemembered(era: 'legacy' | 'modern'): Promise<void> {
    if (era === 'legacy')
      await this.legacyHandshake().catch(async (e: unknown) => {
        this.log(`the remembered legacy server failed (${e instanceof Error ? e.message : String(e)}): probing again`);
        this.legacy = false;
        this.version = PROTOCOL_VERSION;
        const d = await this.request(Method.ServerDiscover, {});
        if (d.error && !MODERN_ERRORS.includes(d.error.code)) await this.legacyHandshake();
      });
    const tools = await this.listTools();
    for (const tool of tools) await this.callTool(tool);
  }

  /** The fallback to a legacy server: the initialize handshake of 2025-11-25 (or its answer, when the fault initialize-first sent it). */
  private async legacyHandshake(answered?: RpcAnswer): Promise<void> {
    this.legacy = true;
    this.log(`a legacy server: falling back to initialize (${LEGACY_VERSION})`);
    const init =
      answered ??
      (await this.request('initialize', { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: { name: CLIENT_NAME, version: CLIENT_VERSION } }));
    if (init.error || init.result?.protocolVersion !== LEGACY_VERSION)
      throw new Error(`initialize: ${init.error ? `error ${init.error.code} ${init.error.message}` : `version ${String(init.result?.protocolVersion)}`}`);
    this.version = LEGACY_VERSION;
    await this.notify('notifications/initialized', {});
  }

  // --- the wire ------------------------------------------------------------------------------------------

  private headers(method: string, params: Json): Record<string, string> {
    if (!this.http) return {};
    // 2025-11-25 over Streamable HTTP: the negotiated version after initialize; the session id comes from the channel.
    if (this.legacy) return this.version === LEGACY_VERSION ? { [Header.ProtocolVersion]: LEGACY_VERSION } : {};
    const h: Record<string, string> = { [Header.ProtocolVersion]: this.version };
    if (!this.faults.has('no-method-header')) h[Header.Method] = method;
    const source = MCP_NAME_SOURCE[method];
    const taskMethod = method.startsWith('tasks/');
    if (source && typeof params[source] === 'string' && !(taskMethod && this.faults.has('no-mcp-name')))
      h[Header.Name] = this.faults.has('raw-names') ? params[source] : headerValue(params[source]);
    return h;
  }

  /** A request message of this revision: its own `_meta` (2026-meta-required-fields). */
  private frame(id: number, method: string, params: Json): Json {
    const bare = this.legacy || (method.startsWith('tasks/') && this.faults.has('no-request-meta'));
    const full = bare ? params : { ...params, _meta: { [Meta.ProtocolVersion]: this.version, [Meta.ClientCapabilities]: CAPABILITIES } };
    return { jsonrpc: '2.0', id, method, params: full };
  }

  /** A request with the standard headers over HTTP; after -32022 it is sent again once in a version the server lists (2026-version-client-retry-supported). */
  private async request(method: string, params: Json, retried = false): Promise<RpcAnswer & { id: number }> {
    const id = this.nextId++;
    const answer = await this.channel.request(this.frame(id, method, params), this.headers(method, params));
    if (answer.error?.code === ErrorCode.UnsupportedProtocolVersion && !this.legacy && !retried && !this.faults.has('no-version-retry')) {
      const data = answer.error.data as { supported?: unknown } | undefined;
      let mutual = Array.isArray(data?.supported) ? VERSIONS.find((v) => (data.supported as unknown[]).includes(v)) : undefined;
      if (this.latitudes.has('discover-before-retry') && mutual !== undefined) {
        // The versions once more from server/discover (its supportedVersions), then the retry.
        const d = await this.request(Method.ServerDiscover, {}, true);
        const listed: unknown = d.result?.supportedVersions;
        if (Array.isArray(listed)) mutual = VERSIONS.find((v) => listed.includes(v)) ?? mutual;
      }
      if (mutual !== undefined) {
        this.log(`${method}: -32022, the server supports ${JSON.stringify(data?.supported)}; retrying in ${mutual}`);
        this.version = mutual;
        return this.request(method, params, true);
      }
      this.log(`${method}: -32022 and no version in common (server: ${JSON.stringify(data?.supported)}; this client: ${VERSIONS.join(', ')})`);
    }
    return { ...answer, id };
  }

  private async notify(method: string, params: Json): Promise<void> {
    await this.channel.notify({ jsonrpc: '2.0', method, params }, this.headers(method, params));
  }

  // --- the flows -----------------------------------------------------------------------------------------

  /** tools/list; an answer that is not a tools/list result (e.g. a CreateTaskResult) is invalid: asked once more. */
  private async listTools(): Promise<Json[]> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const r = await this.request(Method.ToolsList, {});
      if (r.error) throw new Error(`tools/list: error ${r.error.code} ${r.error.message}`);
      if (r.result?.resultType === ResultType.Task) {
        // 2026-caps-unsupported-request-invalid: tools/list does not support tasks; the answer is invalid.
        if (this.faults.has('follow-any-task')) await this.follow(r.result, r.id);
        else this.log('tools/list answered with a CreateTaskResult: an invalid answer, asking again');
        continue;
      }
      if (!this.complete(r.result)) {
        this.log(`tools/list: resultType ${String(r.result?.resultType)} is not one this client knows (invalid), asking again`);
        continue;
      }
      if (!Array.isArray(r.result?.tools)) throw new Error('tools/list: an invalid result');
      return r.result.tools;
    }
    throw new Error('tools/list: no valid answer');
  }

  /** resultType absent or "complete" (2026-core-result-type-absent-complete). */
  private complete(result: Json | undefined): boolean {
    if (result?.resultType === undefined) return !this.faults.has('result-type-required');
    return result.resultType === ResultType.Complete;
  }

  private async callTool(tool: Json): Promise<void> {
    const r = await this.request(Method.ToolsCall, { name: tool.name, arguments: {} });
    if (r.error) {
      this.log(`tools/call ${tool.name}: error ${r.error.code} ${r.error.message}`);
      return;
    }
    // 2026-caps-client-handle-both: a CallToolResult is final; a CreateTaskResult is followed to its end.
    const asTask = r.result?.resultType === ResultType.Task || (this.faults.has('task-by-shape') && !this.complete(r.result));
    if (asTask && typeof r.result?.taskId === 'string') {
      if (this.o.scenario === 'cancel') await this.cancel(r.result, r.id);
      else await this.follow(r.result, r.id);
    } else if (this.complete(r.result) && this.faults.has('expects-tasks')) {
      throw new Error(`tools/call ${tool.name}: a CallToolResult, not a CreateTaskResult`);
    } else if (!this.complete(r.result)) this.log(`tools/call ${tool.name}: resultType ${String(r.result?.resultType)} is not one this client knows (invalid)`);
  }

  private waitMs(task: Json, first: Json): number {
    if (this.faults.has('fast-poll')) return 10;
    const source = this.faults.has('ignore-interval-change') ? first : task;
    const p = source?.pollIntervalMs;
    const ms = typeof p === 'number' && Number.isFinite(p) && p >= 0 ? Math.min(p, 60_000) : DEFAULT_POLL_MS;
    return this.latitudes.has('poll-slower') ? 2 * ms : ms;
  }

  /** Polls tasks/get until terminal (2026-poll-until-terminal, 2026-poll-respect-interval); answers inputRequests once. */
  private async follow(created: Json, requestId: number): Promise<void> {
    void requestId;
    const taskId: string = created.taskId;
    const answered = new Set<string>(); // 2026-update-client-track-keys, 2026-input-client-dedupe
    let last: Json = created;
    if (this.faults.has('stop-polling')) return;
    if (this.o.scenario === 'subscribe' && !isTerminal(created.status) && (await this.followBySubscription(taskId))) return;
    for (let polls = 0; polls < MAX_POLLS; polls++) {
      if (isTerminal(last.status)) return;
      if (last.status === 'input_required' && last.inputRequests && typeof last.inputRequests === 'object') {
        if (this.faults.has('ignore-input')) {
          await this.request(Method.TasksCancel, { taskId });
          return;
        }
        const fresh = Object.keys(last.inputRequests).filter((k) => this.faults.has('no-dedupe') || !answered.has(k));
        if (fresh.length) {
          await this.answer(taskId, fresh, last.inputRequests);
          for (const k of fresh) answered.add(k);
          if (this.faults.has('stop-after-update')) return;
          // latitude notified-after-update: the task is observed through notifications (tasks.md "via polling or notifications").
          if (this.latitudes.has('notified-after-update') && (await this.followBySubscription(taskId))) return;
        }
      }
      await delay(this.waitMs(last, created), undefined, { signal: this.o.signal });
      const g = await this.request(Method.TasksGet, { taskId });
      if (g.error) {
        this.log(`tasks/get ${taskId}: error ${g.error.code} ${g.error.message}`);
        return;
      }
      last = g.result ?? {};
    }
  }

  /**
   * Scenario subscribe: subscriptions/listen for the task. When the acknowledgement agrees to it, a terminal
   * notifications/tasks ends the task (true); when it leaves the task out (2026-subscribe-client-check-ack), or no
   * terminal notification comes in time, the subscription ends and the task is polled (false).
   */
  private async followBySubscription(taskId: string): Promise<boolean> {
    const id = this.nextId++;
    const params = { notifications: { taskIds: [taskId] } };
    let ack: Json | undefined;
    let terminal: Json | undefined;
    let acked!: () => void;
    let ended!: () => void;
    const ackCame = new Promise<void>((r) => (acked = r));
    const terminalCame = new Promise<void>((r) => (ended = r));
    const sub = this.channel.listen(this.frame(id, Method.SubscriptionsListen, params), this.headers(Method.SubscriptionsListen, params), (m) => {
      if (m.method === Method.SubscriptionsAcknowledged) {
        ack = m.params;
        acked();
      } else if (m.method === Method.TasksNotification && m.params?.taskId === taskId && isTerminal(m.params?.status)) {
        terminal = m.params;
        ended();
      }
    });
    const bounded = (p: Promise<void>, ms: number) => Promise.race([p, delay(ms, undefined, { signal: this.o.signal })]);
    await bounded(ackCame, ACK_WAIT_MS);
    const agreed: unknown = ack?.notifications?.taskIds;
    const covered = Array.isArray(agreed) && agreed.includes(taskId);
    if (!covered)
      this.log(`subscriptions/listen: the acknowledgement ${ack ? `agreed to ${JSON.stringify(agreed ?? [])}` : 'did not come'}; polling ${taskId}`);
    if (covered || this.faults.has('ignore-ack')) await bounded(terminalCame, NOTIFY_WAIT_MS);
    await sub.end();
    // stdio: the subscription ends with notifications/cancelled for its request (HTTP: closing the stream did it).
    if (!this.http)
      await this.notify(Method.Cancelled, { requestId: this.faults.has('cancel-unissued') ? taskId : id, reason: 'subscription no longer needed' });
    return terminal !== undefined || this.faults.has('ignore-ack');
  }

  /** tasks/update with an answer for each key (latitude partial-answers: one key per request). */
  private async answer(taskId: string, keys: string[], requests: Json): Promise<void> {
    const groups = this.latitudes.has('partial-answers') ? keys.map((k) => [k]) : [keys];
    for (const group of groups) {
      const inputResponses: Json = Object.fromEntries(group.map((k) => [k, this.respond(requests[k])]));
      if (this.faults.has('stray-keys')) inputResponses[STRAY_KEY] = { action: 'accept', content: { answer: 'stray' } };
      const u = await this.request(Method.TasksUpdate, { taskId, inputResponses });
      if (u.error) this.log(`tasks/update ${taskId}: error ${u.error.code} ${u.error.message}`);
    }
  }

  /** The answer to one input request: an elicitation is accepted with a value for each string field of its form. */
  private respond(req: Json | undefined): Json {
    if (req?.method === Method.ElicitationCreate) {
      const props = req.params?.requestedSchema?.properties ?? {};
      const content = Object.fromEntries(Object.keys(props).map((k) => [k, `reference client: ${k}`]));
      return { action: 'accept', content };
    }
    if (req?.method === Method.RootsList) return { roots: [] };
    return { role: 'assistant', content: { type: 'text', text: 'reference client' }, model: 'reference', stopReason: 'endTurn' };
  }

  /** Scenario cancel: at most one poll, then tasks/cancel (2026-cancel-no-notifications-cancelled), one tasks/get to confirm. */
  private async cancel(created: Json, requestId: number): Promise<void> {
    const taskId: string = created.taskId;
    await delay(this.waitMs(created, created), undefined, { signal: this.o.signal });
    const g = await this.request(Method.TasksGet, { taskId });
    if (!g.error && isTerminal(g.result?.status)) return;
    if (this.faults.has('cancel-notification')) {
      await this.notify(Method.Cancelled, { requestId, reason: 'the user cancelled the task' });
      return;
    }
    const c = await this.request(Method.TasksCancel, { taskId });
    if (c.error) this.log(`tasks/cancel ${taskId}: error ${c.error.code} ${c.error.message}`);
    if (this.latitudes.has('cancel-no-confirm')) return;
    await delay(this.waitMs(g.result ?? created, created), undefined, { signal: this.o.signal });
    await this.request(Method.TasksGet, { taskId });
  }
}

runClientWhenMain(
  import.meta.url,
  'reference-extension-client',
  'usage: MCP_CONFORMANCE_SCENARIO=<scenario> reference-client.ts [--fault NAME]… [--latitude NAME]… <server URL | server command line>',
  runExtensionClient,
);
