// stdio binding of the reference extension server (basic-transports-stdio.md): newline-delimited JSON-RPC
// over a byte stream pair. Our own framing, not the SDK's StdioServerTransport: that one skips a line that
// is not JSON without answering and closes the connection when a line is too long, and the reference
// server must answer both (-32700, -32600) and keep serving. Stdout carries nothing but JSON-RPC messages.
import type { Readable, Writable } from 'node:stream';
import { ErrorCode, Method } from './protocol.ts';
import type { ExtensionServer, RequestCtx } from './server.ts';
import type { JsonObject } from './store.ts';
import { deferred } from '../../suites/wire/deferred.ts';

/** Longest line accepted (bytes); a longer one is answered -32600 and skipped. */
export const MAX_LINE_BYTES = 1024 * 1024;

export interface StdioConnection {
  /** Resolves when the input ended and every answer is written. */
  readonly closed: Promise<void>;
  close(): void;
}

/** Serves one connection (one client process) until `input` ends. `owner` binds its tasks (default: this connection). */
export function serveStream(
  server: ExtensionServer,
  input: Readable,
  output: Writable,
  owner = `stdio:${Math.random().toString(36).slice(2)}`,
): StdioConnection {
  const inflight = new Map<string, AbortController>();
  const subscriptions = { count: 0 };
  const connection = new AbortController();
  let buffer: Buffer = Buffer.alloc(0);
  let skipping = false;
  let ended = false;
  let pending = 0;
  const { promise: closed, resolve: resolveClosed } = deferred<void>();
  const maybeDone = () => {
    if (ended && pending === 0) resolveClosed();
  };

  const write = (m: JsonObject) => {
    if (output.writableEnded || output.destroyed) return;
    server.wire('out', 'stdio', m);
    output.write(JSON.stringify(m) + '\n');
  };

  const onMessage = (msg: unknown) => {
    server.wire('in', 'stdio', msg);
    // notifications/cancelled: stop the referenced in-flight request, which then gets no response (cancellation.md).
    if (typeof msg === 'object' && msg !== null && !Array.isArray(msg) && (msg as JsonObject).method === Method.Cancelled && !('id' in msg)) {
      const p = (msg as JsonObject).params as JsonObject | undefined;
      const rid = p && (typeof p.requestId === 'string' || typeof p.requestId === 'number') ? JSON.stringify(p.requestId) : undefined;
      if (rid) inflight.get(rid)?.abort();
      return;
    }
    const id = typeof msg === 'object' && msg !== null && 'id' in msg ? (msg as JsonObject).id : undefined;
    const key = typeof id === 'string' || typeof id === 'number' ? JSON.stringify(id) : undefined;
    if (key && inflight.has(key) && typeof (msg as JsonObject).method === 'string') {
      write(server.invalidRequest(`Invalid Request: id ${key} is already in use by a request in progress`, id).message);
      return;
    }
    const abort = new AbortController();
    const onConnAbort = () => abort.abort();
    connection.signal.addEventListener('abort', onConnAbort, { once: true });
    if (key) inflight.set(key, abort);
    const ctx: RequestCtx = { transport: 'stdio', owner, signal: abort.signal, notify: write, subscriptions };
    pending++;
    server
      .handle(msg, ctx)
      .then(
        (answer) => {
          if (!answer) return;
          write(answer.message);
        },
        (e) => write({ jsonrpc: '2.0', error: { code: ErrorCode.InternalError, message: `Internal error: ${e instanceof Error ? e.message : String(e)}` } }),
      )
      .finally(() => {
        if (key && inflight.get(key) === abort) inflight.delete(key);
        connection.signal.removeEventListener('abort', onConnAbort);
        pending--;
        maybeDone();
      });
  };

  const onLine = (line: Buffer) => {
    const text = line.toString('utf8').replace(/\r$/, '');
    if (text.trim() === '') return;
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch (e) {
      server.wire('in', 'stdio', text);
      write(server.parseError(e instanceof Error ? e.message : 'not JSON').message);
      return;
    }
    onMessage(msg);
  };

  const onData = (chunk: Buffer) => {
    buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
    for (;;) {
      const nl = buffer.indexOf(0x0a);
      if (nl === -1) break;
      const line = buffer.subarray(0, nl);
      buffer = buffer.subarray(nl + 1);
      if (skipping) skipping = false;
      else onLine(line);
    }
    if (buffer.length > MAX_LINE_BYTES) {
      if (!skipping) write(server.invalidRequest(`Invalid Request: message longer than ${MAX_LINE_BYTES} bytes`).message);
      skipping = true;
      buffer = Buffer.alloc(0);
    }
  };

  const onEnd = () => {
    if (ended) return;
    ended = true;
    if (buffer.length && !skipping) onLine(buffer);
    buffer = Buffer.alloc(0);
    // The client closed its end: in-flight requests (listen streams included) end unanswered.
    connection.abort();
    maybeDone();
  };

  input.on('data', onData);
  input.on('end', onEnd);
  input.on('close', onEnd);
  input.on('error', onEnd);
  return {
    closed,
    close() {
      input.off('data', onData);
      onEnd();
    },
  };
}
