// Stand-in targets for the driver's own tests: a tiny echoing 2026-07-28 peer over stdio and over HTTP
// (what the driver sent comes back in the result), and hostile ones (silent, garbage, empty 4xx).
// Not a reference peer: no task logic, no rules; the reference extension server is mocks/2026-07-28.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Behaviour by method: `echo` (and anything else) answers `{ resultType: 'complete', params, headers }`;
 * `silent` never answers; `garbage` writes a line that is no JSON; `subscriptions/listen` acknowledges with
 * the subscription id, sends one notifications/tasks, and ends the subscription when cancelled.
 */
export const STDIO_ECHO_SOURCE = String.raw`
const rl = require('node:readline').createInterface({ input: process.stdin });
const out = (m) => process.stdout.write(JSON.stringify(m) + '\n');
rl.on('line', (line) => {
  let m; try { m = JSON.parse(line); } catch { out({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }); return; }
  if (m.method === 'silent') return;
  if (m.method === 'garbage') { process.stdout.write('this is not json\n'); return; }
  if (m.method === 'notifications/cancelled') { out({ jsonrpc: '2.0', id: m.params.requestId, result: { resultType: 'complete', _meta: { 'io.modelcontextprotocol/subscriptionId': m.params.requestId } } }); return; }
  if (m.method === 'subscriptions/listen') {
    const sid = { 'io.modelcontextprotocol/subscriptionId': m.id };
    out({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { _meta: sid, notifications: m.params.notifications } });
    out({ jsonrpc: '2.0', method: 'notifications/tasks', params: { _meta: sid, taskId: 't1', status: 'working' } });
    return;
  }
  if (!('id' in m)) return;
  out({ jsonrpc: '2.0', id: m.id, result: { resultType: 'complete', params: m.params ?? null } });
});
`;

/** A process that reads stdin and never writes. */
export const STDIO_SILENT_SOURCE = `process.stdin.resume();`;
/** A process that writes garbage lines and no JSON-RPC: at start and for every line it reads. */
export const STDIO_GARBAGE_SOURCE = `const g = () => { for (let i = 0; i < 5; i++) process.stdout.write('garbage ' + i + '\\n'); }; g(); process.stdin.on('data', g);`;

export interface TestHttpServer {
  url: string;
  /** Headers of every POST, in order. */
  seen: { method?: string; headers: IncomingMessage['headers'] }[];
  close(): Promise<void>;
}

/** The echoing peer over HTTP (JSON answers; listen answers with an SSE stream); `silent` keeps the POST open, `empty400` answers 400 with no body, `garbage` 200 with text. */
export async function startEchoHttp(): Promise<TestHttpServer> {
  const seen: TestHttpServer['seen'] = [];
  const open = new Set<import('node:http').ServerResponse>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      let m: any;
      try {
        m = JSON.parse(body);
      } catch {
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }));
        return;
      }
      seen.push({ method: m.method, headers: req.headers });
      if (!('id' in m)) return void res.writeHead(202).end();
      if (m.method === 'silent') {
        open.add(res);
        return;
      }
      if (m.method === 'empty400') return void res.writeHead(400).end();
      if (m.method === 'garbage') return void res.writeHead(200, { 'content-type': 'application/json' }).end('<html>not json</html>');
      if (m.method === 'subscriptions/listen') {
        open.add(res);
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const sid = { 'io.modelcontextprotocol/subscriptionId': m.id };
        res.write(`: keep-alive\n\n`);
        res.write(
          `data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { _meta: sid, notifications: m.params.notifications } })}\n\n`,
        );
        res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/tasks', params: { _meta: sid, taskId: 't1', status: 'working' } })}\n\n`);
        return;
      }
      if (m.method === 'sse') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } })}\n\n`);
        res.end(`data: ${JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { resultType: 'complete' } })}\n\n`);
        return;
      }
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { resultType: 'complete', params: m.params ?? null } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        for (const res of open) res.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
