// Streamable HTTP binding of the reference extension server (basic-transports-streamable-http.md,
// revision 2026-07-28): one endpoint (/mcp) accepting POST, one JSON-RPC message per POST, no sessions
// (an Mcp-Session-Id is ignored, none is minted), no GET stream (GET/DELETE → 405), an answer as
// application/json or, for subscriptions/listen (and under the latitude sse-responses), an SSE stream
// scoped to the request. Closing a request's connection cancels that request. Our own node:http code:
// the SDK's PerRequestHTTPServerTransport runs only behind its own classification and validation ladder,
// which the named faults must be able to bend. Access (Host, Origin, bearer token) as for the 2025 mock.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MCP_PATH } from '../http-endpoint.ts';
import { createAccessGuard, type HttpAccessOptions } from '../receiver/http-access.ts';
import { ErrorCode, Method } from './protocol.ts';
import type { Answer, ExtensionServer, RequestCtx } from './server.ts';
import type { JsonObject } from './store.ts';

export type { HttpAccessOptions };

/** Largest request body accepted (bytes). */
export const MAX_BODY_BYTES = 1024 * 1024;
/** SSE keep-alive comment interval of long-lived streams (ms). */
export const KEEPALIVE_MS = 15_000;
export { MCP_PATH };

export interface HttpListener {
  url: string;
  port: number;
  close(): Promise<void>;
}

function ownerOf(req: IncomingMessage, tokens: boolean): string {
  if (!tokens) return 'http:anonymous';
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return `bearer:${createHash('sha256')
    .update(m?.[1] ?? '')
    .digest('hex')}`;
}

function sendJson(res: ServerResponse, status: number, body: JsonObject | undefined, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  if (body === undefined) {
    res.writeHead(status, headers).end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

/** The endpoint's request handler, for a node:http server of its own (listenHttp) or one it shares (the dual-era target). */
export interface HttpHandler {
  /** Serves one request; `body`: the request body already read by the caller (then the stream is not read again). */
  onRequest(req: IncomingMessage, res: ServerResponse, body?: Buffer): Promise<void>;
  /** Ends the open streams. */
  close(): void;
}

export function httpHandler(server: ExtensionServer, host = '127.0.0.1', access: HttpAccessOptions = {}): HttpHandler {
  const refuse = createAccessGuard(host, access);
  const hasTokens = (access.tokens ?? []).filter(Boolean).length > 0;
  const subscriptions = { count: 0 };
  const open = new Set<ServerResponse>();

  const onRequest = async (req: IncomingMessage, res: ServerResponse, given?: Buffer) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== MCP_PATH)
      return sendJson(res, 404, { jsonrpc: '2.0', error: { code: ErrorCode.InvalidRequest, message: `Not found: the MCP endpoint is ${MCP_PATH}` } });
    const refusal = refuse(req);
    if (refusal) return sendJson(res, refusal.status, { jsonrpc: '2.0', error: { code: ErrorCode.InvalidRequest, message: refusal.message } }, refusal.headers);
    if (req.method !== 'POST') {
      // streamable-http "Earlier Streamable HTTP Revisions": GET and DELETE → 405.
      return sendJson(
        res,
        405,
        { jsonrpc: '2.0', error: { code: ErrorCode.InvalidRequest, message: 'Method Not Allowed: the MCP endpoint accepts POST only' } },
        { allow: 'POST' },
      );
    }
    const type = String(req.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim()
      .toLowerCase();
    if (type !== 'application/json')
      return sendJson(res, 415, {
        jsonrpc: '2.0',
        error: { code: ErrorCode.InvalidRequest, message: 'Unsupported Media Type: the body must be application/json' },
      });
    const chunks: Buffer[] = given ? [given] : [];
    let size = given?.length ?? 0;
    let tooBig = size > MAX_BODY_BYTES;
    if (!given)
      for await (const c of req as AsyncIterable<Buffer>) {
        size += c.length;
        if (size > MAX_BODY_BYTES) {
          tooBig = true;
          break;
        }
        chunks.push(c);
      }
    if (tooBig) {
      res.setHeader('connection', 'close');
      return sendJson(res, 413, { jsonrpc: '2.0', error: { code: ErrorCode.InvalidRequest, message: `Payload Too Large: at most ${MAX_BODY_BYTES} bytes` } });
    }
    const text = Buffer.concat(chunks).toString('utf8');
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch (e) {
      server.wire('in', 'http', text, req.headers);
      const a = server.parseError(e instanceof Error ? e.message : 'not JSON');
      return sendJson(res, a.httpStatus, a.message);
    }
    server.wire('in', 'http', msg, req.headers);
    const isRequest = typeof msg === 'object' && msg !== null && !Array.isArray(msg) && 'id' in msg && 'method' in msg;
    const abort = new AbortController();
    // A request's connection closing before its answer is the cancellation of that request.
    res.on('close', () => abort.abort());
    const isListen = isRequest && (msg as JsonObject).method === Method.SubscriptionsListen;
    const sse = isRequest && (isListen || server.switches.latitude('sse-responses'));
    let keepalive: NodeJS.Timeout | undefined;
    const startSse = () => {
      if (res.headersSent) return;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
      open.add(res);
      if (isListen) keepalive = setInterval(() => res.writableEnded || res.write(':\n\n'), KEEPALIVE_MS).unref();
    };
    const writeEvent = (m: JsonObject) => {
      if (res.writableEnded) return;
      server.wire('out', 'http', m);
      res.write(`event: message\ndata: ${JSON.stringify(m)}\n\n`);
    };
    const ctx: RequestCtx = {
      transport: 'http',
      owner: ownerOf(req, hasTokens),
      headers: req.headers,
      rawHeaders: req.rawHeaders,
      signal: abort.signal,
      subscriptions,
      notify: (m) => {
        if (res.writableEnded || abort.signal.aborted) return;
        startSse();
        writeEvent(m);
      },
    };
    let answer: Answer | undefined;
    try {
      answer = await server.handle(msg, ctx);
    } catch (e) {
      answer = {
        message: { jsonrpc: '2.0', error: { code: ErrorCode.InternalError, message: `Internal error: ${e instanceof Error ? e.message : String(e)}` } },
        httpStatus: 500,
      };
    }
    if (keepalive) clearInterval(keepalive);
    open.delete(res);
    if (abort.signal.aborted && !res.headersSent) return;
    // Ended meanwhile by close() (the server shutting down) or by the client: nothing more to write.
    if (res.writableEnded || res.destroyed) return;
    if (!isRequest) {
      // A notification (or a stray response) accepted: 202 with no body. An invalid message: its error.
      if (!answer) return sendJson(res, 202, undefined);
      return sendJson(res, answer.httpStatus, answer.message);
    }
    if (!answer) {
      if (!res.writableEnded) res.end();
      return;
    }
    if (answer.bare && !res.headersSent) return sendJson(res, answer.httpStatus, undefined);
    server.wire('out', 'http', answer.message);
    if (res.headersSent) {
      res.end(`event: message\ndata: ${JSON.stringify(answer.message)}\n\n`);
      return;
    }
    if (sse && answer.httpStatus === 200) {
      startSse();
      res.end(`event: message\ndata: ${JSON.stringify(answer.message)}\n\n`);
      return;
    }
    // latitude sse-responses: an error answer too is one event on a stream, with its HTTP status.
    if (sse && server.switches.latitude('sse-responses')) {
      res.writeHead(answer.httpStatus, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.end(`event: message\ndata: ${JSON.stringify(answer.message)}\n\n`);
      return;
    }
    sendJson(res, answer.httpStatus, answer.message);
  };

  return {
    onRequest: (req, res, body) =>
      onRequest(req, res, body).catch((e) => {
        if (!res.headersSent) sendJson(res, 500, { jsonrpc: '2.0', error: { code: ErrorCode.InternalError, message: `Internal error: ${String(e)}` } });
        else res.end();
      }),
    close() {
      for (const r of open) r.end();
    },
  };
}

export async function listenHttp(server: ExtensionServer, port = 0, host = '127.0.0.1', access: HttpAccessOptions = {}): Promise<HttpListener> {
  const handler = httpHandler(server, host, access);
  const http: Server = createServer((req, res) => void handler.onRequest(req, res));
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, host, () => resolve());
  });
  const addr = http.address() as AddressInfo;
  const shownHost = addr.address.includes(':') ? `[${addr.address}]` : addr.address;
  return {
    url: `http://${shownHost}:${addr.port}${MCP_PATH}`,
    port: addr.port,
    close: () =>
      new Promise<void>((resolve) => {
        handler.close();
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}
