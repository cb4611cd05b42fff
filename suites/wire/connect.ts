// Connections of the wire layer: a Peer over stdio (a spawned target), Streamable HTTP, a given client
// Transport or an in-memory pair, and the split of a command line.
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ChildProcess } from 'node:child_process';
import { trackChild } from './children.ts';
import { backoffMs } from '../judge/pacing.ts';
import { retryAfterMs } from '../judge/error-codes.ts';
import { DROPPED_RESPONSE, idKey, Peer, STARTUP_MS, WireClosedError, type PeerOptions } from './peer.ts';

export interface StdioTarget {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
}

/** Splits a shell-like command line ("node server.js --flag 'a b'") into command and args. */
export function splitCommand(line: string): { command: string; args: string[] } {
  const parts: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(line))) parts.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : (m[2] ?? m[3]!));
  if (parts.length === 0) throw new Error('empty command');
  return { command: parts[0]!, args: parts.slice(1) };
}

/** Spawns a target and connects over stdio (the SDK's StdioClientTransport). Stderr is captured. */
export async function connectStdio(target: StdioTarget, opts: PeerOptions = {}): Promise<Peer> {
  const transport = new StdioClientTransport({
    command: target.command,
    args: target.args ?? [],
    env: { ...(process.env as Record<string, string>), ...(target.env ?? {}) },
    cwd: target.cwd,
    stderr: 'pipe',
  });
  // The SDK forgets its process on 'close' before it calls onclose: kept here, so the close names the exit code.
  let spawned: ChildProcess | undefined;
  const live = () => (transport as unknown as { _process?: ChildProcess })._process;
  const child = () => live() ?? spawned;
  const peer = new Peer(transport, {
    label: opts.label ?? target.command,
    startupMs: STARTUP_MS,
    ...opts,
    child,
    rawWriter: (text, signal) =>
      new Promise<void>((resolve, reject) => {
        const stdin = live()?.stdin;
        if (!stdin) return reject(new WireClosedError('process not running'));
        // A process that never reads its stdin leaves the write pending once the pipe is full: the caller's bound aborts.
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        stdin.write(text.endsWith('\n') ? text : text + '\n', (err) => (err ? reject(err) : resolve()));
      }),
  });
  transport.stderr?.on('data', (chunk: Buffer) => peer.appendStderr(chunk.toString('utf8')));
  await transport.start();
  spawned = live();
  trackChild(spawned);
  peer.record({ dir: 'event', note: `spawned ${[target.command, ...(target.args ?? [])].join(' ')}` });
  return peer;
}

export interface HttpTarget {
  url: string;
  headers?: Record<string, string>;
}

/** Connects over Streamable HTTP (the SDK's client transport); records each POST's response content type. */
export async function connectHttp(target: HttpTarget, opts: PeerOptions = {}): Promise<Peer> {
  let peerRef: Peer | undefined;
  // One abort controller per POST that carries requests, by request id: dropping one closes that HTTP
  // response (its SSE stream) alone, as a client that disconnects does (tasks.md:188, :234).
  const responses = new Map<string, AbortController>();
  const recordingFetch = async (url: string | URL, init?: RequestInit): Promise<globalThis.Response> => {
    const ids = init?.method === 'POST' && typeof init.body === 'string' ? requestIds(init.body) : [];
    let signal = init?.signal ?? undefined;
    if (ids.length > 0) {
      const own = new AbortController();
      for (const id of ids) responses.set(id, own);
      while (responses.size > MAX_DROPPABLE) responses.delete(responses.keys().next().value!);
      signal = signal ? AbortSignal.any([signal, own.signal]) : own.signal;
    }
    const res = await fetchPaced(url, { ...init, ...(signal ? { signal } : {}) }, (note) => peerRef?.record({ dir: 'event', note }));
    const ct = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
    for (const id of ids) {
      peerRef?.httpContentTypes.set(id, ct);
      peerRef?.record({ dir: 'event', note: `http ${res.status} ${ct || '(no content type)'} for id=${id} ` });
    }
    return res;
  };
  const transport = new StreamableHTTPClientTransport(new URL(target.url), {
    requestInit: { headers: target.headers ?? {} },
    fetch: recordingFetch,
    reconnectionOptions: { maxReconnectionDelay: 1000, initialReconnectionDelay: 200, reconnectionDelayGrowFactor: 1.5, maxRetries: 1 },
  });
  const peer = new Peer(transport, {
    label: opts.label ?? target.url,
    ...opts,
    dropResponse: (key) => {
      const c = responses.get(key);
      if (!c) return false;
      responses.delete(key);
      c.abort(new Error(DROPPED_RESPONSE));
      return true;
    },
    rawWriter: async (text, signal) => {
      // Raw POST with this session's headers; any JSON-RPC answer in the body is fed back in.
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(target.headers ?? {}),
      };
      if (transport.sessionId) headers['mcp-session-id'] = transport.sessionId;
      const pv = (transport as unknown as { _protocolVersion?: string })._protocolVersion;
      if (pv) headers['mcp-protocol-version'] = pv;
      // The caller's bound (Peer.sendBytes) aborts a POST the target never answers, or an answer that never ends.
      const res = await fetchPaced(target.url, { method: 'POST', headers, body: text, signal }, (note) => peer.record({ dir: 'event', note }));
      const bodyText = await res.text();
      peer.record({ dir: 'event', note: `http ${res.status} for raw POST`, raw: bodyText.slice(0, 4096) });
      for (const m of parseHttpBody(bodyText)) transport.onmessage?.(m as JSONRPCMessage);
    },
  });
  peerRef = peer;
  await transport.start();
  return peer;
}

/** Most 429 answers in a row one POST waits out before the 429 stands (the engine then says not exercised). */
const MAX_429_RETRIES = 6;
/** The longest single Retry-After waited out (ms); a target asking for more has its 429 stand. */
const MAX_RETRY_AFTER_MS = 60_000;

/**
 * fetch, waiting out HTTP 429 (Too Many Requests) as a good client does: after the target's Retry-After, or
 * backing off (suites/judge/pacing.ts), then the same POST again. A rate limit is back-pressure, never a verdict.
 */
async function fetchPaced(url: string | URL, init: RequestInit, note: (text: string) => void): Promise<globalThis.Response> {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(url, init);
    if (res.status !== 429 || attempt > MAX_429_RETRIES || init.signal?.aborted) return res;
    const wait = backoffMs(attempt, { retryAfterMs: retryAfterMs(res.headers.get('retry-after')) });
    if (wait > MAX_RETRY_AFTER_MS) return res;
    note(`http 429 (rate limited; attempt ${attempt}): sent again after ${wait} ms`);
    await res.body?.cancel().catch(() => undefined);
    await new Promise((r) => setTimeout(r, wait));
    init.signal?.throwIfAborted();
  }
}

/** How many HTTP responses connectHttp keeps droppable (the latest requests'). */
const MAX_DROPPABLE = 256;

/** The ids (as idKey) of the requests in a POST body; none when it is not JSON (raw bytes sent by a test). */
function requestIds(body: string): string[] {
  try {
    const v = JSON.parse(body);
    return (Array.isArray(v) ? v : [v]).filter((m) => m && typeof m === 'object' && 'method' in m && 'id' in m).map((m) => idKey(m.id));
  } catch {
    return [];
  }
}

/** JSON or SSE body → JSON-RPC messages (best effort; garbage yields none). */
function parseHttpBody(text: string): unknown[] {
  const t = text.trim();
  if (!t) return [];
  try {
    const v = JSON.parse(t);
    return Array.isArray(v) ? v : [v];
  } catch {
    const out: unknown[] = [];
    for (const line of t.split(/\r?\n/)) {
      if (!line.startsWith('data:')) continue;
      try {
        out.push(JSON.parse(line.slice(5)));
      } catch {
        /* not JSON */
      }
    }
    return out;
  }
}

/** A Peer on a client transport that is connected to its target but not yet started (the Peer starts it). */
export async function connectTransport(transport: Transport, opts: PeerOptions = {}): Promise<Peer> {
  const peer = new Peer(transport, { label: opts.label ?? 'transport', ...opts });
  await transport.start();
  return peer;
}

/** An in-process pair: `serve` gets the server side (e.g. the reference receiver), the Peer the client side. */
export async function connectInMemory(serve: (serverTransport: Transport) => void | Promise<void>, opts: PeerOptions = {}): Promise<Peer> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await serve(serverTransport);
  return connectTransport(clientTransport, { label: opts.label ?? 'in-memory', ...opts });
}
