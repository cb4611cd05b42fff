// A minimal raw JSON-RPC client for the reference extension server's own tests: stdio (a stream pair, in
// process or a child process) and Streamable HTTP (node:http, so every header can be set or left out).
// It judges nothing; tests assert on what it returns.
import { request as httpRequest } from 'node:http';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { Header, Meta, Method, PROTOCOL_VERSION, requestMeta, TASKS_EXTENSION } from './protocol.ts';
import type { JsonObject } from './store.ts';

export type Msg = JsonObject & { id?: string | number; result?: JsonObject; error?: { code: number; message: string; data?: any } };

/** Client capabilities of a client that declares the extension and form elicitation. */
export const DECLARING = { extensions: { [TASKS_EXTENSION]: {} }, elicitation: {} };
/** Only elicitation: no extension. */
export const NON_DECLARING = { elicitation: {} };

export function meta(caps: JsonObject = DECLARING, version = PROTOCOL_VERSION): JsonObject {
  return { ...requestMeta(caps, { [Meta.ClientInfo]: { name: 'reference-test-client', version: '0' } }), [Meta.ProtocolVersion]: version };
}

/** params with the per-request _meta added (unless `_meta` is given, even as undefined). */
export function withMeta(params: JsonObject = {}, caps: JsonObject = DECLARING): JsonObject {
  return '_meta' in params ? params : { ...params, _meta: meta(caps) };
}

/** Waits for `pred` over the values `next` produces (each call is one observation), bounded by `timeoutMs`. */
export async function until<T>(next: () => Promise<T>, pred: (v: T) => boolean, timeoutMs = 10_000, everyMs = 20): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await next();
    if (pred(v)) return v;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms; last: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export interface Client {
  /** Sends a request (params get the per-request _meta unless they carry `_meta`); resolves with the response message. */
  request(method: string, params?: JsonObject, opts?: { caps?: JsonObject; headers?: Record<string, string | undefined> }): Promise<Msg>;
  close(): Promise<void>;
}

// --- stdio ----------------------------------------------------------------------------------------------

export class StreamClient implements Client {
  private nextId = 1;
  private buf = '';
  readonly received: Msg[] = [];
  readonly lines: string[] = [];
  private readonly waiters = new Set<() => void>();

  constructor(
    private readonly input: Writable,
    output: Readable,
  ) {
    output.setEncoding('utf8');
    output.on('data', (chunk: string) => {
      this.buf += chunk;
      for (let nl = this.buf.indexOf('\n'); nl !== -1; nl = this.buf.indexOf('\n')) {
        const line = this.buf.slice(0, nl);
        this.buf = this.buf.slice(nl + 1);
        this.lines.push(line);
        this.received.push(JSON.parse(line));
        for (const w of this.waiters) w();
      }
    });
  }

  /** A pair of streams for serveStream(server, toServer, fromServer) and a client on them. */
  static pair(): { client: StreamClient; toServer: PassThrough; fromServer: PassThrough } {
    const toServer = new PassThrough();
    const fromServer = new PassThrough();
    return { client: new StreamClient(toServer, fromServer), toServer, fromServer };
  }

  /** Writes raw text (a line is not added). */
  raw(text: string): void {
    this.input.write(text);
  }

  send(message: JsonObject): void {
    this.raw(JSON.stringify(message) + '\n');
  }

  /** The first message received (from `from` on) matching `pred`. */
  waitFor(pred: (m: Msg) => boolean, timeoutMs = 10_000, from = 0): Promise<Msg> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const hit = this.received.slice(from).find(pred);
        if (!hit) return false;
        this.waiters.delete(check);
        clearTimeout(timer);
        resolve(hit);
        return true;
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`no matching message within ${timeoutMs} ms; received: ${JSON.stringify(this.received.slice(from)).slice(0, 2000)}`));
      }, timeoutMs);
      if (!check()) this.waiters.add(check);
    });
  }

  id(): number {
    return this.nextId++;
  }

  request(method: string, params: JsonObject = {}, opts: { caps?: JsonObject; id?: string | number } = {}): Promise<Msg> {
    const id = opts.id ?? this.id();
    const from = this.received.length;
    this.send({ jsonrpc: '2.0', id, method, params: withMeta(params, opts.caps) });
    return this.waitFor((m) => m.id === id && ('result' in m || 'error' in m), 15_000, from);
  }

  async close(): Promise<void> {
    this.input.end();
  }
}

// --- Streamable HTTP ------------------------------------------------------------------------------------

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The JSON body, or for an SSE answer the last JSON-RPC response in the stream. */
  body: Msg | undefined;
  /** SSE answers: every message of the stream, in order. */
  events: Msg[];
  text: string;
}

/** The standard request headers of a body (streamable-http "Request Metadata"). */
export function standardHeaders(body: JsonObject): Record<string, string> {
  const params = (body.params ?? {}) as JsonObject;
  const m = (params._meta ?? {}) as JsonObject;
  const h: Record<string, string> = {};
  if (typeof m[Meta.ProtocolVersion] === 'string') h[Header.ProtocolVersion] = m[Meta.ProtocolVersion] as string;
  if (typeof body.method === 'string') h[Header.Method] = body.method;
  const name = body.method === Method.ToolsCall ? params.name : typeof body.method === 'string' && body.method.startsWith('tasks/') ? params.taskId : undefined;
  if (typeof name === 'string')
    h[Header.Name] =
      /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(name) && !name.startsWith('=?base64?') ? name : `=?base64?${Buffer.from(name).toString('base64')}?=`;
  return h;
}

export class HttpClient implements Client {
  private nextId = 1;
  constructor(
    readonly url: string,
    readonly defaultHeaders: Record<string, string> = {},
  ) {}

  /** One POST (or another method); `headers` values of undefined remove a header. */
  send(
    body: string | JsonObject | undefined,
    headers: Record<string, string | undefined> = {},
    method = 'POST',
    opts: { onEvent?: (m: Msg) => void; signal?: AbortSignal } = {},
  ): Promise<HttpAnswer> {
    const u = new URL(this.url);
    const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
    const auto = typeof body === 'object' && body !== null ? standardHeaders(body) : {};
    const all: Record<string, string> = {};
    for (const [k, v] of Object.entries({
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...this.defaultHeaders,
      ...auto,
      ...headers,
    })) {
      if (v === undefined) delete all[k.toLowerCase()];
      else all[k.toLowerCase()] = v;
    }
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: u.hostname, port: u.port, path: u.pathname, method, headers: all, signal: opts.signal }, (res) => {
        let acc = '';
        const events: Msg[] = [];
        let sseBuf = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          acc += c;
          if (!String(res.headers['content-type'] ?? '').startsWith('text/event-stream')) return;
          sseBuf += c;
          for (let i = sseBuf.indexOf('\n\n'); i !== -1; i = sseBuf.indexOf('\n\n')) {
            const block = sseBuf.slice(0, i);
            sseBuf = sseBuf.slice(i + 2);
            const data = block
              .split('\n')
              .filter((l) => l.startsWith('data:'))
              .map((l) => l.slice(5).trimStart())
              .join('\n');
            if (!data) continue;
            const m = JSON.parse(data) as Msg;
            events.push(m);
            opts.onEvent?.(m);
          }
        });
        res.on('end', () => {
          const sse = String(res.headers['content-type'] ?? '').startsWith('text/event-stream');
          let parsed: Msg | undefined;
          if (sse) parsed = [...events].reverse().find((e) => 'result' in e || 'error' in e);
          else if (acc) parsed = JSON.parse(acc);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed, events, text: acc });
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(text);
    });
  }

  async request(method: string, params: JsonObject = {}, opts: { caps?: JsonObject; headers?: Record<string, string | undefined> } = {}): Promise<Msg> {
    const r = await this.send({ jsonrpc: '2.0', id: this.nextId++, method, params: withMeta(params, opts.caps) }, opts.headers);
    if (!r.body) throw new Error(`HTTP ${r.status} without a JSON-RPC body: ${r.text}`);
    return r.body;
  }

  async close(): Promise<void> {}
}

// --- task helpers ---------------------------------------------------------------------------------------

export async function callTool(c: Client, name: string, args: JsonObject = {}, caps: JsonObject = DECLARING, extra: JsonObject = {}): Promise<Msg> {
  return c.request(Method.ToolsCall, { name, arguments: args, ...extra }, { caps });
}

export async function createTask(c: Client, name: string, args: JsonObject = {}): Promise<string> {
  const r = await callTool(c, name, args);
  if (r.result?.resultType !== 'task') throw new Error(`no CreateTaskResult: ${JSON.stringify(r)}`);
  return r.result.taskId as string;
}

export function getTask(c: Client, taskId: string, caps: JsonObject = DECLARING): Promise<Msg> {
  return c.request(Method.TasksGet, { taskId }, { caps });
}

/** Polls tasks/get until the task satisfies `pred` (bounded). */
export function pollTask(c: Client, taskId: string, pred: (t: JsonObject) => boolean, timeoutMs = 10_000): Promise<JsonObject> {
  return until(
    async () => (await getTask(c, taskId)).result ?? {},
    (t) => pred(t),
    timeoutMs,
  );
}
