/**
 * The reference requestor: the SERVER end of a connection to a client under test that acts as a task
 * receiver (tasks.requests.sampling.createMessage / tasks.requests.elicitation.create). It answers
 * the client's `initialize`, waits until the client is ready to receive server requests, and hands
 * out a raw JSON-RPC Peer (suites/wire/peer.ts) on which the receiver checks send task-augmented
 * sampling/createMessage or elicitation/create, tasks/get, tasks/result, tasks/list, tasks/cancel.
 *
 *   const ep = await listenForClient('http');       // or 'stdio'
 *   // start the client with ep.serverArg as its last argument …
 *   const { peer, clientCapabilities } = await ep.connection(10_000);
 *   await ep.close();
 *
 * One endpoint per client process: Streamable HTTP on a loopback port of its own (POST/GET/DELETE
 * /mcp), or stdio through suites/wire/stdio-bridge.mjs (the client spawns the bridge, the bridge
 * pipes its stdio to a loopback port of its own). Over HTTP the server can only send requests on the
 * standalone GET stream, so the connection is ready once the client has opened it.
 */
import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type Socket } from 'node:net';
import type { AddressInfo, Server as NetServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { PROTOCOL_VERSION } from '../../schema/protocol.ts';
import { Peer, WireTimeoutError, type Message } from './peer.ts';
import { deferred } from './deferred.ts';

export const REQUESTOR_NAME = 'mcp-tasks-reference-requestor';
export const REQUESTOR_VERSION = '0.1.0';
export const BRIDGE_PATH = fileURLToPath(new URL('./stdio-bridge.mjs', import.meta.url));

export interface ClientConnection {
  /** Server side of the connection: requests sent here go to the client. */
  peer: Peer;
  initializeParams: any;
  clientCapabilities: any;
  clientInfo: any;
}

export interface RequestorEndpoint {
  transport: 'http' | 'stdio';
  /** The client's last argument: the URL (http) or the server command line (stdio). */
  serverArg: string;
  /** The first client connection, once initialized (HTTP: and its GET stream is open); rejects after timeoutMs. */
  connection(timeoutMs: number): Promise<ClientConnection>;
  close(): Promise<void>;
}

function quote(s: string): string {
  return /[\s"'\\]/.test(s) ? `"${s.replace(/(["\\])/g, '\\$1')}"` : s;
}

/** Answers initialize on a fresh server-side peer; resolves with the client's initialize params once notifications/initialized arrived. */
function handshake(peer: Peer, timeoutMs: number, protocolVersion: string): Promise<any> {
  let params: any;
  peer.onRequest((req: Message) => {
    // tools/list as every scenario serves it (an ordinary client lists tools first): this requestor has none.
    if (req.method === 'tools/list') return { result: { tools: [] } };
    if (req.method !== 'initialize') return undefined;
    params = req.params ?? {};
    return {
      result: {
        protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: REQUESTOR_NAME, version: REQUESTOR_VERSION },
        instructions: 'Reference requestor of mcp-tasks-conformance: sends task-augmented sampling/createMessage and elicitation/create.',
      },
    };
  });
  return peer.waitFor((m) => m.method === 'notifications/initialized', timeoutMs, 'notifications/initialized from the client', true).then(() => params);
}

export interface ListenOptions {
  /** The protocol version the endpoint answers initialize with (default the 2025-11-25 revision's, schema/protocol.ts). */
  protocolVersion?: string;
  /** Default bound for requests on the connection (ms). */
  requestTimeoutMs?: number;
}

export async function listenForClient(transport: 'http' | 'stdio', opts: ListenOptions = {}): Promise<RequestorEndpoint> {
  const defaultTimeoutMs = opts.requestTimeoutMs ?? 10_000;
  const { promise: conn, resolve: resolveConn, reject: rejectConn } = deferred<ClientConnection>();
  const peers: Peer[] = [];
  const accept = async (peer: Peer, ready: (timeoutMs: number) => Promise<void>) => {
    peers.push(peer);
    try {
      const params = await handshake(peer, 30_000, opts.protocolVersion ?? PROTOCOL_VERSION);
      await ready(30_000);
      resolveConn({ peer, initializeParams: params, clientCapabilities: params?.capabilities ?? {}, clientInfo: params?.clientInfo ?? {} });
    } catch (e) {
      rejectConn(e instanceof Error ? e : new Error(String(e)));
    }
  };

  if (transport === 'stdio') {
    const sockets = new Set<Socket>();
    const server = createNetServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      const t = new StdioServerTransport(socket, socket);
      const peer = new Peer(t, { label: 'client (stdio)', defaultTimeoutMs });
      socket.on('close', () => void t.close());
      socket.on('error', () => void t.close());
      void t.start().then(() => accept(peer, async () => undefined));
    });
    const port = await listenLoopback(server);
    return {
      transport,
      serverArg: `${quote(process.execPath)} ${quote(BRIDGE_PATH)} ${port}`,
      connection: (timeoutMs) => withTimeout(conn, timeoutMs, 'the client did not connect and initialize'),
      close: async () => {
        await Promise.all(peers.map((p) => p.close()));
        for (const s of sockets) s.destroy();
        await new Promise<void>((r) => server.close(() => r()));
      },
    };
  }

  const transports = new Map<string, { t: StreamableHTTPServerTransport; getSeen: () => void }>();
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/mcp') {
      res.writeHead(404).end();
      return;
    }
    const sid = req.headers['mcp-session-id'];
    const id = Array.isArray(sid) ? sid[0] : sid;
    if (id !== undefined) {
      const s = transports.get(id);
      if (!s) {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
        return;
      }
      if (req.method === 'GET') s.getSeen();
      await s.t.handleRequest(req, res);
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(400).end();
      return;
    }
    let getSeen!: () => void;
    const gotGet = new Promise<void>((r) => (getSeen = r));
    const t: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        transports.set(sessionId, { t, getSeen });
      },
    });
    const peer = new Peer(t, { label: 'client (http)', defaultTimeoutMs });
    await t.start();
    void accept(peer, async (timeoutMs) => {
      // Server requests travel on the standalone GET stream: wait until the client opened it.
      await withTimeout(gotGet, timeoutMs, 'the client opened no standalone GET SSE stream, so the server cannot send it requests');
      await new Promise((r) => setTimeout(r, 100)); // let the transport register the stream
    });
    await t.handleRequest(req, res);
  };
  const server = createHttpServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
      else res.end();
    });
  });
  const port = await listenLoopback(server);
  return {
    transport,
    serverArg: `http://127.0.0.1:${port}/mcp`,
    connection: (timeoutMs) => withTimeout(conn, timeoutMs, 'the client did not connect and initialize'),
    close: async () => {
      await Promise.all(peers.map((p) => p.close()));
      for (const { t } of transports.values()) await t.close().catch(() => undefined);
      server.closeAllConnections?.();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** Listens on a free loopback port (127.0.0.1 only: the client under test runs on this machine) and gives the port. */
async function listenLoopback(server: NetServer): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new WireTimeoutError(what, ms)), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e) => {
        clearTimeout(t);
        reject(e);
      },
    );
  });
}
