// Wire layer: a raw JSON-RPC peer on top of the SDK's transports (stdio, Streamable HTTP, in-memory: connect.ts).
// It sends exactly what a test asks (valid or not), records a timestamped transcript of every message
// both ways, and bounds every wait. It has no task logic: checks and reference peers bring that.
import { readLimit } from '../judge/error-codes.ts';
import { backoffMs } from '../judge/pacing.ts';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ChildProcess } from 'node:child_process';
import { PROTOCOL_VERSION } from '../../schema/protocol.ts';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
/** Any message as it travels; deliberately loose, since targets and tests may send anything. */
export type Message = Record<string, any>;

export interface TranscriptEntry {
  /** Order of recording on this connection. */
  seq: number;
  /** ISO time and milliseconds since the connection opened. */
  time: string;
  ms: number;
  /** out: we sent it; in: the target sent it; event: transport facts (HTTP content type, close, stderr, garbage). */
  dir: 'out' | 'in' | 'event';
  message?: unknown;
  /** Raw text sent or seen where it was not a JSON-RPC message. */
  raw?: string;
  note?: string;
  /** A connection of the check's own (its scope label, e.g. "<check id>#2"); unset: the run's shared connection. */
  connection?: string;
}

export interface JsonRpcError {
  code: number;
  message: string;
  data?: unknown;
}

/** A response to one of our requests: exactly one of result / error is set (unless the target broke JSON-RPC). */
export interface Response {
  id: string | number | null;
  result?: any;
  error?: JsonRpcError;
  /** The whole message as received. */
  message: Message;
  /** Milliseconds from sending to receiving. */
  elapsedMs: number;
  /** Streamable HTTP only: the content type of the POST's HTTP response ('application/json' or 'text/event-stream'). */
  httpContentType?: string;
}

export class WireTimeoutError extends Error {
  constructor(what: string, ms: number) {
    super(`no ${what} within ${ms} ms`);
    this.name = 'WireTimeoutError';
  }
}

/**
 * What `p` settles to, or WireTimeoutError("no `what` within `ms` ms") when it has not settled by then; `onTimeout`
 * then ends what is still going (aborts a fetch). Every wait on the wire goes through a bound like this one.
 */
export function within<T>(p: Promise<T>, ms: number, what: string, onTimeout?: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        onTimeout?.();
        reject(new WireTimeoutError(what, ms));
      }, ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** What `p` settles to, or undefined when it timed out (WireTimeoutError); any other error is thrown. */
export async function unlessTimedOut<T>(p: Promise<T>): Promise<T | undefined> {
  try {
    return await p;
  } catch (e) {
    if (e instanceof WireTimeoutError) return undefined;
    throw e;
  }
}

/** Error text with its cause chain (fetch failures put the socket error in `cause`: "fetch failed: connect ECONNREFUSED …"). */
export function errorText(e: unknown): string {
  const parts: string[] = [];
  for (let x: any = e, i = 0; x && i < 4; x = x.cause, i++) {
    const part = x instanceof Error ? x.message : typeof x === 'object' ? String(x.code ?? JSON.stringify(x)) : String(x);
    // A wrapper that already quotes its cause ("cannot connect to …: fetch failed") does not repeat it.
    if (!parts.some((p) => p.includes(part))) parts.push(part);
  }
  return parts.join(': ');
}

/** A line of a process's stderr that states an error (not a stack frame): where an excerpt starts. */
const ERROR_LINE = /\b\w*(Error|Exception)\b|^error\b|\berror:|fatal|panic|Traceback|Uncaught|cannot|failed/i;
const STACK_FRAME = /^\s+(at |File "|\.\.\. \d+ more)/;

/**
 * An excerpt of a process's stderr of whole lines, at most about `maxChars`: from the last line that states an error
 * (the message itself, e.g. "Error: Cannot find module './config.json'"), with two stack frames at most; without
 * such a line, the last lines. Never a line cut in the middle, never the message lost behind its stack.
 */
export function stderrExcerpt(text: string, maxChars = 400): string {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trimEnd())
    .filter((l) => l.trim());
  if (!lines.length) return '';
  let from = -1;
  for (let i = lines.length - 1; i >= 0; i--)
    if (ERROR_LINE.test(lines[i]!) && !STACK_FRAME.test(lines[i]!)) {
      from = i;
      // The first line of that message (an error line right above it is its start: "Error: …" then "Require stack:").
      while (from > 0 && ERROR_LINE.test(lines[from - 1]!) && !STACK_FRAME.test(lines[from - 1]!)) from--;
      break;
    }
  const picked: string[] = [];
  let frames = 0;
  let size = 0;
  if (from >= 0) {
    for (const l of lines.slice(from)) {
      if (STACK_FRAME.test(l) && ++frames > 2) continue;
      if (picked.length && size + l.length > maxChars) break;
      picked.push(l);
      size += l.length + 1;
    }
    return picked.join('\n');
  }
  for (let i = lines.length - 1; i >= 0 && (picked.length === 0 || size + lines[i]!.length <= maxChars); i--) {
    picked.unshift(lines[i]!);
    size += lines[i]!.length + 1;
  }
  return picked.join('\n');
}

export class WireClosedError extends Error {
  constructor(reason: string) {
    super(`connection closed: ${reason}`);
    this.name = 'WireClosedError';
  }
}

/** Handles a request the target sends us (e.g. elicitation/create during tasks/result). */
export type IncomingRequestHandler = (
  request: Message,
  peer: Peer,
) => Promise<{ result?: unknown; error?: JsonRpcError } | undefined> | { result?: unknown; error?: JsonRpcError } | undefined;

export interface RequestOptions {
  timeoutMs?: number;
  /** Use this id instead of the next counter value (any JSON value: tests of odd ids). */
  id?: unknown;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
/** Until a spawned process writes its first message, a request waits at least this long: its start-up (tsx, a loaded machine) is not its answer time. */
export const STARTUP_MS = 60_000;
/** A fresh process of a target whose first process has started: how many times that start-up it is allowed, on top of the request bound. */
export const STARTUP_MULTIPLE = 3;

/**
 * The start-up allowance of the further processes of a target (PeerOptions.startupMs): once `first()` (its first
 * process, e.g. the run's shared connection) has been heard from, the request bound plus STARTUP_MULTIPLE times
 * how long that took, instead of STARTUP_MS: a process that never answers is given up on at the pace the target
 * showed, and that is time, never a verdict (RULINGS.md#response-time).
 */
export function startupAllowance(first: () => Peer | undefined, requestTimeoutMs: number): () => number {
  return () => {
    const ms = first()?.firstHeardMs;
    return ms === undefined ? STARTUP_MS : requestTimeoutMs + STARTUP_MULTIPLE * ms;
  };
}
/** The reason a dropped response is aborted with (dropResponse): the transport's error about that stream is our doing, not the target's output. */
/** The requests the suite sends on its own clock (polls) and sends again after a limit error (Peer.requestRaw). */
const PACED_METHODS: readonly string[] = ['tasks/get', 'tasks/list'];

export const DROPPED_RESPONSE = 'response dropped by the client';

type Waiter = { pred: (m: Message) => boolean; resolve: (m: Message) => void };

/** Something that can be recorded into: a connection or a scope of it. */
interface Recorder {
  record(e: Omit<TranscriptEntry, 'seq' | 'time' | 'ms'>): void;
}

export interface PeerOptions {
  label?: string;
  defaultTimeoutMs?: number;
  /**
   * Raw writers for bytes the SDK transports would refuse to frame (set by the connect helpers): resolves once
   * the bytes are taken (stdio: written; HTTP: the POST answered and its body read). `signal` aborts when the
   * caller's bound runs out (sendBytes).
   */
  rawWriter?: (text: string, signal: AbortSignal) => Promise<void>;
  child?: () => ChildProcess | undefined;
  /** Streamable HTTP: aborts the HTTP response carrying the request of this id (idKey); false when there is none (set by connectHttp). */
  dropResponse?: (key: string) => boolean;
  /** The protocol version initialize offers (default the 2025-11-25 revision's, schema/protocol.ts). */
  protocolVersion?: string;
  /**
   * Until the first message arrives, a request's bound is at least this (set for spawned processes: STARTUP_MS,
   * or what the run saw of the target's start-up: startupAllowance). A function is asked again when the bound
   * runs out, so an allowance that an observation shortened (or lengthened) meanwhile applies.
   */
  startupMs?: number | (() => number);
}

/**
 * One JSON-RPC connection. `request()` resolves with the response (result or error) or rejects with
 * WireTimeoutError / WireClosedError; it never hangs. Incoming requests go to `onRequest` handlers.
 */
export class Peer implements Recorder {
  readonly transcript: TranscriptEntry[] = [];
  readonly label: string;
  readonly defaultTimeoutMs: number;
  private readonly started = Date.now();
  private seq = 0;
  private nextId = 1;
  private readonly pending = new Map<string, { resolve: (r: Response) => void; reject: (e: Error) => void; sentAt: number; method: string }>();
  private readonly waiters = new Set<Waiter>();
  private readonly received: { seq: number; message: Message }[] = [];
  private readonly handlers: IncomingRequestHandler[] = [];
  private readonly scopes = new Set<Scope>();
  /** HTTP content type per request id (Streamable HTTP only). */
  readonly httpContentTypes = new Map<string, string>();
  /** The scope (a check's label) that sent each request id (idKey), the latest OWNERS_KEPT: who did what, when the target dies. */
  private readonly owners = new Map<string, string>();
  private stderrText = '';
  /** Whether any message has arrived (before that, requests get the start-up allowance). */
  private heard = false;
  private heardAtMs: number | undefined;
  closed: string | null = null;
  private closeWaiters: (() => void)[] = [];

  constructor(
    readonly transport: Transport,
    private readonly opts: PeerOptions = {},
  ) {
    this.label = opts.label ?? 'peer';
    this.defaultTimeoutMs = opts.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS;
    transport.onmessage = (m) => this.onMessage(m as Message);
    transport.onerror = (e) => {
      const text = e?.message ?? String(e);
      // The stream of a response we dropped (dropResponse) breaks by our doing: not output of the target.
      if (text.includes(DROPPED_RESPONSE)) return this.record({ dir: 'event', note: `our disconnect: ${text}` });
      // Output the transport could not read still shows the process is up: its start-up allowance ends.
      this.hear();
      this.record({ dir: 'event', note: `transport error: ${text}` });
    };
    transport.onclose = () => this.markClosed('transport closed');
  }

  // --- recording ---------------------------------------------------------------------------
  record(e: Omit<TranscriptEntry, 'seq' | 'time' | 'ms'>): void {
    const now = Date.now();
    const entry: TranscriptEntry = { seq: this.seq++, time: new Date(now).toISOString(), ms: now - this.started, ...e };
    this.transcript.push(entry);
    for (const s of this.scopes) s.offer(entry);
  }

  /** Appends target stderr (bounded: the last 64 KiB are kept). */
  appendStderr(text: string): void {
    this.stderrText = (this.stderrText + text).slice(-65536);
  }
  get stderr(): string {
    return this.stderrText;
  }
  /** The last lines the process wrote to stderr (at most `lines`, 1000 characters), indented under a heading; '' when none. */
  stderrNote(lines = 12): string {
    const text = this.stderrText.trimEnd().slice(-1000);
    if (!text.trim()) return '';
    return `\n  its stderr ends:\n${text
      .split('\n')
      .slice(-lines)
      .map((l) => `    ${l}`)
      .join('\n')}`;
  }

  private hear(): void {
    if (this.heard) return;
    this.heard = true;
    this.heardAtMs = Date.now() - this.started;
  }
  /** Milliseconds from opening the connection to the first message (or unreadable output) from the target; undefined: none yet. */
  get firstHeardMs(): number | undefined {
    return this.heardAtMs;
  }
  private startupAllowanceMs(): number {
    const s = this.opts.startupMs;
    return typeof s === 'function' ? s() : (s ?? 0);
  }

  // --- sending -----------------------------------------------------------------------------
  /** Sends a request and waits (bounded) for its response. */
  request(method: string, params?: unknown, options: RequestOptions = {}): Promise<Response> {
    const id = options.id !== undefined ? options.id : this.nextId++;
    const message: Message = { jsonrpc: '2.0', id, method };
    if (params !== undefined) message.params = params;
    return this.requestRaw(message, options.timeoutMs);
  }

  /**
   * Sends any object as a request-shaped message and waits for a response carrying its id. A poll (tasks/get,
   * tasks/list) answered with a limit error (suites/judge/error-codes.ts readLimit) is sent again, with a new id,
   * after backing off (the target's retry hint, else backoffMs), while the waits stay within the request's own
   * bound: a rate limit is back-pressure, never a verdict (security-rate-limit, RULINGS.md#ext-rate-limit-error-open).
   */
  requestRaw(message: Message, requestedMs = this.defaultTimeoutMs, onResend?: (m: Message) => void): Promise<Response> {
    if (!PACED_METHODS.includes(String(message.method))) return this.requestOnce(message, requestedMs);
    const paced = async (): Promise<Response> => {
      let waited = 0;
      let m = message;
      for (let attempt = 1; ; attempt++) {
        const r = await this.requestOnce(m, requestedMs);
        const limit = r.error ? readLimit(r.error) : undefined;
        if (!limit || this.closed) return r;
        const wait = backoffMs(attempt, { retryAfterMs: limit.retryAfterMs });
        if (waited + wait > requestedMs) return r;
        waited += wait;
        this.record({ dir: 'event', note: `${String(message.method)} id=${idKey(m.id)} answered a limit (${limit.shown}): sent again after ${wait} ms` });
        await new Promise((res) => setTimeout(res, wait));
        m = { ...message, id: typeof message.id === 'string' ? `${message.id}~${attempt}` : this.nextId++ };
        onResend?.(m);
      }
    };
    const p = paced();
    p.catch(() => undefined);
    return p;
  }

  private requestOnce(message: Message, requestedMs: number): Promise<Response> {
    if (this.closed) return Promise.reject(new WireClosedError(this.closed));
    const beforeHeard = !this.heard;
    const boundMs = () => (beforeHeard ? Math.max(requestedMs, this.startupAllowanceMs()) : requestedMs);
    const key = idKey(message.id);
    const sentAt = Date.now();
    const p = new Promise<Response>((resolve, reject) => {
      let timeoutMs = boundMs();
      // An allowance that can change (a function) is asked again at least every request bound (1 s at the least).
      const step = (ms: number) => (beforeHeard && typeof this.opts.startupMs === 'function' ? Math.min(ms, Math.max(requestedMs, 1_000)) : ms);
      const expire = () => {
        timeoutMs = boundMs();
        const left = sentAt + timeoutMs - Date.now();
        if (left > 0) return void (timer = setTimeout(expire, step(left)));
        this.pending.delete(key);
        this.record({ dir: 'event', note: `timeout: no response to ${String(message.method)} id=${key} within ${timeoutMs} ms` });
        reject(new WireTimeoutError(`response to ${String(message.method)} (id ${key})`, timeoutMs));
      };
      let timer = setTimeout(expire, step(timeoutMs));
      this.pending.set(key, {
        sentAt,
        method: String(message.method),
        resolve: (r) => {
          clearTimeout(timer);
          resolve(r);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      const onClose = () => {
        if (this.pending.has(key)) {
          clearTimeout(timer);
          this.pending.delete(key);
          reject(new WireClosedError(this.closed ?? 'closed'));
        }
      };
      this.closeWaiters.push(onClose);
      // Bounded by the request's own timer above (an HTTP POST in JSON mode is taken only with its answer).
      this.transmit(message).catch((e) => {
        if (this.pending.delete(key)) {
          clearTimeout(timer);
          reject(e instanceof Error ? e : new Error(String(e)));
        }
      });
    });
    // A request abandoned by its caller (e.g. a check that ended early) must not become an unhandled
    // rejection when the connection closes: awaiting callers still get the error.
    p.catch(() => undefined);
    return p;
  }

  /**
   * Sends one message without waiting for an answer (notifications, responses, invalid shapes). Bounded: a
   * transport that does not take it within `timeoutMs` (an HTTP POST the target never answers, a stdin it never
   * reads) rejects with WireTimeoutError.
   */
  async send(message: Message, timeoutMs = this.defaultTimeoutMs): Promise<void> {
    const what = `end of sending ${typeof message.method === 'string' ? message.method : `a response (id ${idKey(message.id)})`}`;
    await within(this.transmit(message), timeoutMs, what, () => this.record({ dir: 'event', note: `timeout: no ${what} within ${timeoutMs} ms` }));
  }

  private async transmit(message: Message): Promise<void> {
    if (this.closed) throw new WireClosedError(this.closed);
    this.record({ dir: 'out', message });
    try {
      await this.transport.send(message as JSONRPCMessage);
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      this.record({ dir: 'event', note: `send failed: ${msg}` });
      throw e;
    }
  }

  notify(method: string, params?: unknown): Promise<void> {
    const message: Message = { jsonrpc: '2.0', method };
    if (params !== undefined) message.params = params;
    return this.send(message);
  }

  /**
   * Writes raw text (e.g. malformed JSON) as one message; stdio: one line, HTTP: one POST body (resolves once its
   * answer is read). Bounded like any request: WireTimeoutError after `timeoutMs` (the write or POST is aborted).
   */
  async sendBytes(text: string, timeoutMs = this.defaultTimeoutMs): Promise<void> {
    const writer = this.opts.rawWriter;
    if (!writer) throw new Error(`${this.label}: this transport cannot send raw bytes`);
    if (this.closed) throw new WireClosedError(this.closed);
    this.record({ dir: 'out', raw: text });
    await this.boundedRaw((signal) => writer(text, signal), timeoutMs);
  }

  /** A raw exchange (`run`) bounded by `timeoutMs`: aborted and WireTimeoutError when it has not ended by then. */
  async boundedRaw(run: (signal: AbortSignal) => Promise<void>, timeoutMs = this.defaultTimeoutMs): Promise<void> {
    const abort = new AbortController();
    const what = 'end of the raw write or POST (with its answer)';
    const p = run(abort.signal);
    p.catch(() => undefined);
    await within(p, timeoutMs, what, () => {
      this.record({ dir: 'event', note: `timeout: no ${what} within ${timeoutMs} ms` });
      abort.abort(new WireTimeoutError(what, timeoutMs));
    });
  }
  get canSendBytes(): boolean {
    return this.opts.rawWriter !== undefined;
  }

  /**
   * Streamable HTTP: closes the HTTP response (the SSE stream) that carries request `id` before it is
   * answered, as a client disconnecting from it does (tasks.md:188, :234); the connection and its session
   * stay. The request's waiter rejects with WireClosedError. False when the transport cannot drop one
   * response, or the request is not outstanding.
   */
  dropResponse(id: unknown): boolean {
    const key = idKey(id);
    const p = this.pending.get(key);
    if (!p || !this.opts.dropResponse?.(key)) return false;
    this.pending.delete(key);
    this.record({ dir: 'event', note: `dropped the HTTP response of ${p.method} id=${key} (disconnected from its stream)` });
    p.reject(new WireClosedError(`we disconnected from the response of ${p.method} (id ${key})`));
    return true;
  }
  get canDropResponses(): boolean {
    return this.opts.dropResponse !== undefined;
  }

  /** @internal a scope claims a request id (Scope.claim). */
  noteOwner(key: string, label: string): void {
    this.owners.set(key, label);
    if (this.owners.size > OWNERS_KEPT) this.owners.delete(this.owners.keys().next().value!);
  }
  /** The label of the scope that sent request `key` (idKey), if it was sent through one. */
  ownerOf(key: string): string | undefined {
    return this.owners.get(key);
  }

  // --- receiving ---------------------------------------------------------------------------
  private onMessage(message: Message): void {
    this.hear();
    this.record({ dir: 'in', message });
    const isResponse = !('method' in message) && ('result' in message || 'error' in message);
    if (isResponse) {
      const key = idKey(message.id);
      const p = this.pending.get(key);
      if (p) {
        this.pending.delete(key);
        const ct = this.httpContentTypes.get(key);
        p.resolve({
          id: message.id,
          result: message.result,
          error: message.error,
          message,
          elapsedMs: Date.now() - p.sentAt,
          ...(ct ? { httpContentType: ct } : {}),
        });
      }
    } else if ('method' in message && 'id' in message) {
      void this.answer(message);
    }
    this.received.push({ seq: this.seq - 1, message });
    if (this.received.length > 10_000) this.received.splice(0, 5_000);
    for (const w of [...this.waiters]) {
      if (w.pred(message)) {
        this.waiters.delete(w);
        w.resolve(message);
      }
    }
  }

  /** Adds a handler for requests from the target; the first handler returning an answer wins. Returns a remover. */
  onRequest(handler: IncomingRequestHandler): () => void {
    this.handlers.unshift(handler);
    return () => {
      const i = this.handlers.indexOf(handler);
      if (i >= 0) this.handlers.splice(i, 1);
    };
  }

  private async answer(request: Message): Promise<void> {
    let answer: { result?: unknown; error?: JsonRpcError } | undefined;
    try {
      for (const h of this.handlers) {
        answer = await h(request, this);
        if (answer) break;
      }
    } catch (e) {
      answer = { error: { code: -32603, message: e instanceof Error ? e.message : String(e) } };
    }
    if (!answer) {
      answer = request.method === 'ping' ? { result: {} } : { error: { code: -32601, message: `Method not found: ${String(request.method)}` } };
    }
    const reply: Message = { jsonrpc: '2.0', id: request.id };
    if (answer.error) reply.error = answer.error;
    else reply.result = answer.result ?? {};
    await this.send(reply).catch(() => undefined);
  }

  /** Messages received so far (bounded history), oldest first. */
  messages(pred: (m: Message) => boolean = () => true): Message[] {
    return this.received.filter((r) => pred(r.message)).map((r) => r.message);
  }

  /** Waits (bounded) for a message matching `pred`; with `includePast`, one already received also counts. */
  waitFor(pred: (m: Message) => boolean, timeoutMs = this.defaultTimeoutMs, what = 'matching message', includePast = false): Promise<Message> {
    if (includePast) {
      const hit = this.received.find((r) => pred(r.message));
      if (hit) return Promise.resolve(hit.message);
    }
    if (this.closed) return Promise.reject(new WireClosedError(this.closed));
    return new Promise<Message>((resolve, reject) => {
      const w: Waiter = {
        pred,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(w);
        reject(new WireTimeoutError(what, timeoutMs));
      }, timeoutMs);
      this.waiters.add(w);
    });
  }

  // --- lifecycle ---------------------------------------------------------------------------
  /** initialize + notifications/initialized; returns the initialize response (result or error). */
  async initialize(
    capabilities: Record<string, unknown> = {},
    clientInfo = { name: 'mcp-tasks-conformance', version: '0.1.0' },
    timeoutMs = this.defaultTimeoutMs,
  ): Promise<Response> {
    const r = await this.request('initialize', { protocolVersion: this.opts.protocolVersion ?? PROTOCOL_VERSION, capabilities, clientInfo }, { timeoutMs });
    if (r.result) {
      const v = r.result.protocolVersion;
      if (typeof v === 'string') this.transport.setProtocolVersion?.(v);
      // A notification needs no answer: a POST of it the target never answers is left behind (bounded, recorded).
      await this.notify('notifications/initialized').catch((e) => {
        if (!(e instanceof WireTimeoutError)) throw e;
      });
    }
    return r;
  }

  /** The other end is gone although the transport did not say so (e.g. a client process exited). */
  markGone(reason: string): void {
    this.markClosed(reason);
  }

  private markClosed(reason: string): void {
    if (this.closed) return;
    const child = this.opts.child?.();
    const detail = child && child.exitCode !== null ? ` (exit code ${child.exitCode})` : '';
    this.closed = reason + detail;
    this.record({ dir: 'event', note: `closed: ${this.closed}` });
    for (const w of this.closeWaiters.splice(0)) w();
    for (const w of this.waiters) w.resolve = () => undefined;
    this.waiters.clear();
  }

  /** Resolves once the connection is closed, or after timeoutMs (then returns false). */
  waitClosed(timeoutMs: number): Promise<boolean> {
    if (this.closed) return Promise.resolve(true);
    return new Promise((resolve) => {
      const t = setTimeout(() => resolve(false), timeoutMs);
      this.closeWaiters.push(() => {
        clearTimeout(t);
        resolve(true);
      });
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    try {
      await Promise.race([this.transport.close(), new Promise((r) => setTimeout(r, 2000))]);
    } catch {
      /* closing is best effort */
    }
    this.markClosed('closed by us');
    const child = this.opts.child?.();
    if (child && child.exitCode === null) child.kill('SIGKILL');
  }

  /** A view of this connection that records only its own exchanges (see Scope). */
  scope(label: string): Scope {
    const s = new Scope(this, label);
    this.scopes.add(s);
    return s;
  }
  /** @internal */
  dropScope(s: Scope): void {
    this.scopes.delete(s);
  }
}

/**
 * A check's view of a shared connection: same API for sending, but its transcript holds only what
 * it sent, the responses to it, and incoming messages about its tasks (taskId, related-task
 * `_meta`) or its progress tokens — so concurrent checks keep separate evidence.
 */
export class Scope {
  readonly transcript: TranscriptEntry[] = [];
  private readonly ids = new Set<string>();
  private readonly taskIds = new Set<string>();
  private readonly tokens = new Set<string>();
  private readonly incomingIds = new Set<string>();
  private idCounter = 0;
  private readonly mine = new WeakSet<object>();
  private rawPending = false;
  private rawOutstanding = 0;

  constructor(
    readonly peer: Peer,
    readonly label: string,
  ) {}

  /** @internal called by the peer for every entry. */
  offer(e: TranscriptEntry): void {
    const m = e.message as Message | undefined;
    if (e.dir === 'event') {
      if (this.rawPending || (e.note && [...this.ids].some((id) => e.note!.includes(`id=${id} `)))) this.transcript.push(e);
      else if (e.note?.startsWith('closed') || e.note?.startsWith('transport error')) this.transcript.push(e);
      return;
    }
    if (e.dir === 'out' && e.raw !== undefined && this.rawPending) {
      this.transcript.push(e);
      return;
    }
    if (!m || typeof m !== 'object') return;
    if (e.dir === 'out') {
      if (this.mine.has(m)) this.transcript.push(e);
      else if ('id' in m && this.ids.has(idKey(m.id)) && 'method' in m) this.transcript.push(e);
      else if ('id' in m && !('method' in m) && this.incomingIds.has(idKey(m.id))) this.transcript.push(e);
      else if ('method' in m && !('id' in m) && this.mentionsMine(m)) this.transcript.push(e);
      return;
    }
    if ('method' in m) {
      if (this.mentionsMine(m)) {
        if ('id' in m) this.incomingIds.add(idKey(m.id));
        this.transcript.push(e);
      }
    } else if ('id' in m && this.ids.has(idKey(m.id))) {
      this.transcript.push(e);
      this.learnTaskIds(m);
    } else if ('id' in m && m.id === null && this.rawOutstanding > 0) {
      this.rawOutstanding--;
      this.transcript.push(e); // error answer to a message of ours whose id could not be read
    }
  }

  private mentionsMine(m: Message): boolean {
    const p = m.params;
    if (!p || typeof p !== 'object') return false;
    if (typeof p.taskId === 'string' && this.taskIds.has(p.taskId)) return true;
    const rel = p._meta?.['io.modelcontextprotocol/related-task']?.taskId;
    if (typeof rel === 'string' && this.taskIds.has(rel)) return true;
    if (p.progressToken !== undefined && this.tokens.has(idKey(p.progressToken))) return true;
    // 2026-07-28: a notification of a subscriptions/listen stream names the listen request's id.
    const sub = p._meta?.['io.modelcontextprotocol/subscriptionId'];
    if (sub !== undefined && this.ids.has(idKey(sub))) return true;
    return false;
  }

  private learnTaskIds(m: Message): void {
    const r = m.result;
    if (!r || typeof r !== 'object') return;
    const add = (t: any) => {
      if (t && typeof t.taskId === 'string') this.taskIds.add(t.taskId);
    };
    add(r.task);
    add(r);
  }

  /** Claims a task id as this scope's (e.g. one created elsewhere that the check inspects). */
  adoptTask(taskId: string): void {
    this.taskIds.add(taskId);
  }

  private claim(message: Message): void {
    this.ids.add(idKey(message.id));
    this.peer.noteOwner(idKey(message.id), this.label);
    const tok = message.params?._meta?.progressToken;
    if (tok !== undefined) this.tokens.add(idKey(tok));
    const tid = message.params?.taskId;
    if (typeof tid === 'string') this.taskIds.add(tid);
  }

  request(method: string, params?: unknown, options: RequestOptions = {}): Promise<Response> {
    const id = options.id !== undefined ? options.id : `${this.label}-${++this.idCounter}`;
    const message: Message = { jsonrpc: '2.0', id, method };
    if (params !== undefined) message.params = params;
    this.claim(message);
    return this.peer.requestRaw(message, options.timeoutMs ?? this.peer.defaultTimeoutMs, (m) => this.claim(m));
  }

  requestRaw(message: Message, timeoutMs?: number): Promise<Response> {
    this.claim(message);
    return this.peer.requestRaw(message, timeoutMs ?? this.peer.defaultTimeoutMs, (m) => this.claim(m));
  }

  /** Sends any message (request, notification, response, invalid shape) as this scope's. Bounded (Peer.send). */
  send(message: Message, timeoutMs?: number): Promise<void> {
    if ('id' in message && 'method' in message) this.claim(message);
    this.mine.add(message);
    return this.peer.send(message, timeoutMs);
  }

  notify(method: string, params?: unknown): Promise<void> {
    const message: Message = { jsonrpc: '2.0', method };
    if (params !== undefined) message.params = params;
    return this.send(message);
  }

  /** Raw text (malformed JSON and the like); recorded in this scope's transcript. Bounded (Peer.sendBytes). */
  async sendBytes(text: string, timeoutMs?: number): Promise<void> {
    this.rawPending = true;
    this.rawOutstanding++;
    try {
      await this.peer.sendBytes(text, timeoutMs);
    } finally {
      this.rawPending = false;
    }
  }

  waitFor(pred: (m: Message) => boolean, timeoutMs?: number, what?: string, includePast = false): Promise<Message> {
    return this.peer.waitFor(pred, timeoutMs, what, includePast);
  }

  onRequest(handler: IncomingRequestHandler): () => void {
    return this.peer.onRequest(handler);
  }

  /** See Peer.dropResponse. */
  dropResponse(id: unknown): boolean {
    return this.peer.dropResponse(id);
  }
  get canDropResponses(): boolean {
    return this.peer.canDropResponses;
  }

  close(): void {
    this.peer.dropScope(this);
  }
}

/** How many request ids a Peer remembers the sending scope of (Peer.ownerOf). */
const OWNERS_KEPT = 4096;

/** A map key for a JSON-RPC id or progress token (strings apart from numbers). */
export function idKey(id: unknown): string {
  return typeof id === 'string' ? `s:${id}` : (JSON.stringify(id) ?? 'undefined');
}

/** How a connection's own requests go out when its revision frames them (per-request `_meta`, headers): set by that revision's wire. */
export type RequestFraming = (via: Peer | Scope, method: string, params: unknown, options: RequestOptions) => Promise<Response>;
const framings = new WeakMap<Peer, RequestFraming>();

/** Frames every request `requestOn` sends on `peer` (a revision's wire calls it when it opens the connection). */
export function frameRequests(peer: Peer, framing: RequestFraming): void {
  framings.set(peer, framing);
}

/**
 * A request on a connection of any revision, framed as its revision frames requests (frameRequests; none: as
 * is). For the engine's own requests (a task still live? cancel at the end of a check).
 */
export function requestOn(via: Peer | Scope, method: string, params: unknown, options: RequestOptions = {}): Promise<Response> {
  const framing = framings.get(via instanceof Peer ? via : via.peer);
  return framing ? framing(via, method, params, options) : via.request(method, params, options);
}
