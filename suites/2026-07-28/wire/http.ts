// The Streamable HTTP client side of 2026-07-28 as the judge needs it: every JSON-RPC message its own POST,
// no session, the answer a JSON body or an SSE stream scoped to that request (basic-transports-streamable-http.md).
//
// Our own transport over fetch, not the SDK's: `StreamableHTTPClientTransport` of @modelcontextprotocol/client
// 2.x derives MCP-Protocol-Version / Mcp-Method / Mcp-Name from the body and refuses to let a caller set or
// leave out these headers ("reserved" names), turns 4xx answers into its own errors, and retries streams; a
// judge must send the headers a check asks for (missing, mismatched, base64-encoded) and see every status
// and body as the target sent them. (Likewise for stdio: stdio.ts.)
import { createParser } from 'eventsource-parser';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { BASE64_SENTINEL, Header, Meta, Method, PROTOCOL_VERSION } from '../../../schema/2026-07-28/protocol.ts';
import { errorText, idKey, type Message } from '../../wire/peer.ts';

/** Most bytes read from one HTTP answer (a JSON body, or everything an SSE stream sends). */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** Headers a request sets over (a string) or leaves out of (null) the standard ones derived from its body. */
export type HeaderOverrides = Record<string, string | null>;

/** What one POST did, as far as the judge saw it. */
export interface HttpExchange {
  /** The request id (idKey form) or `notification`. */
  key: string;
  method: string;
  /** Headers as sent (names as written). */
  headers: Record<string, string>;
  status?: number;
  contentType?: string;
  /** The JSON-RPC response to the request arrived on this exchange. */
  answered: boolean;
  /** Text of a body that held no JSON-RPC message (bounded), for the evidence. */
  unreadBody?: string;
  /** Why the exchange ended without a response (set when it ends so). */
  endedWithout?: string;
  /** Resolves when the exchange's answer is read to its end (or it failed, or was aborted). */
  done: Promise<void>;
}

/** The request of a POST ended without a JSON-RPC response for it (an empty 4xx, garbage, a stream that closed). */
export class HttpNoAnswerError extends Error {
  constructor(
    readonly exchange: HttpExchange,
    why: string,
  ) {
    super(`no JSON-RPC response to ${exchange.method}: ${why}`);
    this.name = 'HttpNoAnswerError';
  }
}

/** The method's `Mcp-Name` source (the standard header table, and tasks.md "Streamable HTTP: Routing Headers"). */
export function mcpNameSource(method: string, params: unknown): unknown {
  const p = params && typeof params === 'object' ? (params as Record<string, unknown>) : {};
  switch (method) {
    case Method.ToolsCall:
    case 'prompts/get':
      return p.name;
    case 'resources/read':
      return p.uri;
    case Method.TasksGet:
    case Method.TasksUpdate:
    case Method.TasksCancel:
      return p.taskId;
    default:
      return undefined;
  }
}

/** A header value as the Value Encoding rules say: plain visible ASCII as is, anything else `=?base64?…?=`. */
export function encodeHeaderValue(value: unknown): string {
  const text = typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
  const plain = /^[\x20-\x7e\t]*$/.test(text) && text.trim() === text && !BASE64_SENTINEL.test(text) && !/^=\?base64\?.*\?=$/.test(text);
  return plain ? text : `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;
}

/** The standard request headers for a message, derived from its body (what a conforming client sends). */
export function standardHeaders(message: Message): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof message.method !== 'string') return out;
  const v = message.params?._meta?.[Meta.ProtocolVersion];
  out[Header.ProtocolVersion] = typeof v === 'string' ? v : PROTOCOL_VERSION;
  out[Header.Method] = message.method;
  const name = mcpNameSource(message.method, message.params);
  if (name !== undefined && name !== null) out[Header.Name] = encodeHeaderValue(name);
  return out;
}

/** One parameter of a tool mirrored into a header: the `properties` chain to its value and the `{Name}` of `Mcp-Param-{Name}`. */
export interface MirroredParameter {
  path: readonly string[];
  name: string;
}

/** RFC 9110 token (`1*tchar`): what an `x-mcp-header` value must be (no empty value, no control characters). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PRIMITIVE = new Set(['string', 'integer', 'boolean']);
/** Keywords whose values are data, not subschemas (an `x-mcp-header` key in a default value annotates nothing). */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples']);

/**
 * The parameters a tool's inputSchema mirrors into `Mcp-Param-{Name}` headers (basic-transports-streamable-http.md
 * "Schema Extension"), or the reason its annotations are invalid: a value that is no token or not unique
 * (case-insensitively), on a parameter that is not an integer, string or boolean, or anywhere not reached from
 * the root by `properties` keys alone (items, composition, conditionals, $ref, $defs ...).
 */
export function mirroredParameters(inputSchema: unknown): { params: MirroredParameter[] } | { invalid: string } {
  const params: MirroredParameter[] = [];
  const problems: string[] = [];
  const visit = (node: unknown, path: string[] | undefined, where: string): void => {
    if (Array.isArray(node)) return node.forEach((n, i) => visit(n, undefined, `${where}/${i}`));
    if (!node || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    if (Object.hasOwn(o, 'x-mcp-header')) {
      const v = o['x-mcp-header'];
      const types = Array.isArray(o.type) ? o.type.filter((t) => t !== 'null') : [o.type];
      if (!path || path.length === 0) problems.push(`x-mcp-header at ${where || '/'} is not on a property reached through properties alone`);
      else if (typeof v !== 'string' || !TOKEN.test(v)) problems.push(`x-mcp-header ${JSON.stringify(v)} at ${where} is not an HTTP token`);
      else if (types.length !== 1 || !PRIMITIVE.has(types[0] as string))
        problems.push(`x-mcp-header at ${where} is on a parameter of type ${JSON.stringify(o.type)}`);
      else params.push({ path, name: v });
    }
    for (const [k, v] of Object.entries(o)) {
      if (k === 'x-mcp-header' || DATA_KEYWORDS.has(k)) continue;
      if (k === 'properties' && v && typeof v === 'object' && !Array.isArray(v))
        for (const [prop, sub] of Object.entries(v)) visit(sub, path ? [...path, prop] : undefined, `${where}/properties/${prop}`);
      else visit(v, undefined, `${where}/${k}`);
    }
  };
  visit(inputSchema, [], '');
  const seen = new Set<string>();
  for (const p of params) {
    if (seen.has(p.name.toLowerCase())) problems.push(`x-mcp-header ${JSON.stringify(p.name)} is not unique (case-insensitively)`);
    seen.add(p.name.toLowerCase());
  }
  return problems.length > 0 ? { invalid: problems.join('; ') } : { params };
}

/**
 * The `Mcp-Param-{Name}` headers of a tools/call with these arguments ("Client Behavior"): one per mirrored
 * parameter whose value is present (not absent, not null), encoded by the Value Encoding rules.
 */
export function parameterHeaders(params: readonly MirroredParameter[], args: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of params) {
    let v: unknown = args;
    for (const k of p.path) v = v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>)[k] : undefined;
    if (v !== undefined && v !== null) out[`${Header.ParamPrefix}${p.name}`] = encodeHeaderValue(v);
  }
  return out;
}

export interface ModernHttpOptions {
  url: string;
  /** Sent on every POST (e.g. Authorization). */
  headers?: Record<string, string>;
  /** Called for every transport fact worth the transcript (status, content type, headers sent, unread bodies). */
  note?: (text: string, raw?: string) => void;
}

/**
 * One POST per message. A request's answer (JSON or SSE) is fed to `onmessage` as it arrives; the POST of a
 * request that ends without its response is told through `exchangeOf(id).done` / `endedWithout`. Nothing is
 * retried, nothing is resumed (2026-07-28 streams are not resumable).
 */
export class ModernHttpTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  private readonly exchanges = new Map<string, HttpExchange & { abort: AbortController }>();
  /** The exchange each received message arrived on (request id key): a listen stream's messages are told apart by it. */
  private readonly arrivals = new WeakMap<object, string>();
  /** Per-message header overrides, set by the driver just before the message is sent. */
  private readonly overrides = new WeakMap<object, HeaderOverrides>();
  private closed = false;
  /** The mirrored parameters of each tool, from the tools/list answers read on this connection (invalid: none sent). */
  private readonly mirrored = new Map<string, ReturnType<typeof mirroredParameters>>();

  constructor(private readonly opts: ModernHttpOptions) {}

  /** Whether a tools/list answer on this connection listed the tool. */
  knowsTool(name: string): boolean {
    return this.mirrored.has(name);
  }

  /** The `Mcp-Param-*` headers a tools/call message is sent with, by the tool's inputSchema as listed. */
  parameterHeadersOf(m: Message): Record<string, string> {
    if (m.method !== Method.ToolsCall || typeof m.params?.name !== 'string') return {};
    const spec = this.mirrored.get(m.params.name);
    // A tool whose annotations are invalid is one a client MUST exclude: none sent, the server's answer is the check's.
    return spec && 'params' in spec ? parameterHeaders(spec.params, m.params.arguments) : {};
  }

  private learnTools(result: unknown): void {
    const tools = (result as { tools?: unknown } | undefined)?.tools;
    if (!Array.isArray(tools)) return;
    for (const t of tools) if (t && typeof t === 'object' && typeof t.name === 'string') this.mirrored.set(t.name, mirroredParameters(t.inputSchema));
  }

  async start(): Promise<void> {}

  /** The headers `message` is to be sent with, over the standard ones (called by the driver before send). */
  overrideHeaders(message: object, headers: HeaderOverrides): void {
    this.overrides.set(message, headers);
  }

  /** The last exchange of a request id. */
  exchangeOf(id: unknown): HttpExchange | undefined {
    return this.exchanges.get(idKey(id));
  }

  /** The request id key of the POST whose answer carried `message`. */
  arrivedOn(message: object): string | undefined {
    return this.arrivals.get(message);
  }

  /** Closes the answer stream of one request (on Streamable HTTP this is the request's cancellation). */
  abort(id: unknown): boolean {
    const x = this.exchanges.get(idKey(id));
    if (!x) return false;
    x.abort.abort();
    return true;
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error('transport closed');
    const m = message as Message;
    const isRequest = typeof m.method === 'string' && 'id' in m;
    if (!('method' in m)) {
      // Streamable HTTP: the client MUST NOT send JSON-RPC responses (the target asked us something it must not).
      this.opts.note?.(`not sent: a JSON-RPC response (id=${idKey(m.id)} ); clients send none over Streamable HTTP`);
      return;
    }
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(this.opts.headers ?? {}),
      ...standardHeaders(m),
      ...this.parameterHeadersOf(m),
    };
    for (const [k, v] of Object.entries(this.overrides.get(m) ?? {})) {
      for (const existing of Object.keys(headers)) if (existing.toLowerCase() === k.toLowerCase()) delete headers[existing];
      if (v !== null) headers[k] = v;
    }
    await this.post(JSON.stringify(m), headers, isRequest ? idKey(m.id) : 'notification', String(m.method));
  }

  /**
   * POSTs raw text (malformed JSON and the like) with the given headers; any JSON-RPC answer is fed back in.
   * Resolves once the answer is read to its end; `signal` (the caller's bound: Peer.boundedRaw) aborts the POST.
   */
  async sendRaw(text: string, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<void> {
    await this.post(
      text,
      { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(this.opts.headers ?? {}), ...headers },
      'raw',
      '(raw)',
      signal,
    );
    await this.exchanges.get('raw')?.done;
  }

  private async post(body: string, headers: Record<string, string>, key: string, method: string, signal?: AbortSignal): Promise<void> {
    const abort = new AbortController();
    signal?.addEventListener('abort', () => abort.abort(), { once: true });
    let finish!: () => void;
    const x: HttpExchange & { abort: AbortController } = { key, method, headers, answered: false, abort, done: new Promise<void>((r) => (finish = r)) };
    this.exchanges.set(key, x);
    const shown = Object.entries(headers)
      .filter(([k]) => /^mcp-/i.test(k))
      .map(([k, v]) => `${k}: ${v}`)
      .join(', ');
    this.opts.note?.(`http POST ${method} [${shown || 'no MCP headers'}] for id=${key} `);
    let res: globalThis.Response;
    try {
      res = await fetch(this.opts.url, { method: 'POST', headers, body, signal: abort.signal });
    } catch (e) {
      x.endedWithout = abort.signal.aborted ? 'the stream was closed by us' : `request failed: ${errorText(e)}`;
      finish();
      if (abort.signal.aborted) return;
      throw e;
    }
    x.status = res.status;
    x.contentType = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
    this.opts.note?.(`http ${res.status} ${x.contentType || '(no content type)'} for id=${key} `);
    // The body is read in the background: send() resolves once the status is in (a listen stream stays open).
    void this.read(res, x)
      .catch((e) => {
        if (!abort.signal.aborted) this.onerror?.(e instanceof Error ? e : new Error(String(e)));
      })
      .finally(() => {
        if (!x.answered && key !== 'notification' && !x.endedWithout)
          x.endedWithout = abort.signal.aborted
            ? 'the stream was closed by us'
            : x.unreadBody !== undefined
              ? `HTTP ${x.status} with a body that is no JSON-RPC response: ${JSON.stringify(x.unreadBody.slice(0, 200))}`
              : `HTTP ${x.status} ${x.contentType || '(no content type)'} ended without a response`;
        finish();
      });
  }

  private async read(res: globalThis.Response, x: HttpExchange & { abort: AbortController }): Promise<void> {
    if (!res.body) return;
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let total = 0;
    const sse = x.contentType === 'text/event-stream';
    let text = '';
    const parser = createParser({
      onEvent: (ev) => this.deliver(ev.data, x, true),
      onError: (e) => this.opts.note?.(`sse parse error for id=${x.key} : ${e.message}`),
    });
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        total += value.byteLength;
        if (total > MAX_ANSWER_BYTES) {
          this.opts.note?.(`http answer for id=${x.key} exceeded ${MAX_ANSWER_BYTES} bytes: stream closed by us`);
          x.endedWithout = `the answer exceeded ${MAX_ANSWER_BYTES} bytes`;
          x.abort.abort();
          break;
        }
        const chunk = decoder.decode(value, { stream: true });
        if (sse) parser.feed(chunk);
        else text += chunk;
      }
    } finally {
      reader.releaseLock();
    }
    if (!sse && text.trim()) this.deliver(text, x, false);
  }

  /** Feeds one JSON text (a body or an SSE event) to onmessage; what is no JSON-RPC message is recorded as unread. */
  private deliver(text: string, x: HttpExchange, fromStream: boolean): void {
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch {
      x.unreadBody = (x.unreadBody ?? '') + text.slice(0, 4096);
      this.opts.note?.(`http ${fromStream ? 'SSE event' : 'body'} for id=${x.key} is not JSON`, text.slice(0, 4096));
      return;
    }
    for (const m of Array.isArray(v) ? v : [v]) {
      if (!m || typeof m !== 'object' || (m as Message).jsonrpc !== '2.0') {
        x.unreadBody = (x.unreadBody ?? '') + JSON.stringify(m).slice(0, 4096);
        this.opts.note?.(`http ${fromStream ? 'SSE event' : 'body'} for id=${x.key} is not a JSON-RPC message`, JSON.stringify(m).slice(0, 4096));
        continue;
      }
      const msg = m as Message;
      if (!('method' in msg) && idKey(msg.id) === x.key) {
        x.answered = true;
        if (x.method === Method.ToolsList) this.learnTools(msg.result);
      }
      this.arrivals.set(msg, x.key);
      this.onmessage?.(msg as JSONRPCMessage);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // No onclose: the Peer that closes us records who closed (a target gone shows as a failed fetch instead).
    for (const x of this.exchanges.values()) x.abort.abort();
  }
}
