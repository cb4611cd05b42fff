/**
 * The reference extension server: a spec-exact MCP 2026-07-28 server with the Tasks extension
 * (io.modelcontextprotocol/tasks), our own code. See mocks/2026-07-28/README.md.
 *
 *   const s = createExtensionServer({ faults: ['…'], latitudes: ['…'], ttlMs: 5000 });
 *   const conn = s.stdio(input, output);             // one stdio connection over a stream pair
 *   const { toServer, fromServer } = s.inProcess();  // the same over an in-memory pair: write lines to toServer, read fromServer
 *   const { url, close } = await s.listenHttp(0);     // Streamable HTTP on 127.0.0.1, path /mcp
 *   await s.listenHttp(0, '127.0.0.1', { tokens: ['a', 'b'] });
 *   await s.close();
 */
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { listenHttp, type HttpAccessOptions, type HttpListener } from './http.ts';
import { ExtensionServer, type ServerOptions } from './server.ts';
import { serveStream, type StdioConnection } from './stdio.ts';

export { FAULTS, LATITUDES, isFaultName, isLatitudeName, type FaultName, type LatitudeName, type SwitchInfo } from './faults.ts';
export { DEFAULTS, SERVER_NAME, SERVER_VERSION, ExtensionServer, type ServerOptions, type WireEvent } from './server.ts';
export { TOOLS, TOOL_ROLES, type Role } from './tools.ts';
export { MAX_BODY_BYTES, MCP_PATH } from './http.ts';
export { MAX_LINE_BYTES } from './stdio.ts';
export type { HttpAccessOptions, HttpListener, StdioConnection };

export interface ReferenceExtensionServer {
  readonly server: ExtensionServer;
  stdio(input: Readable, output: Writable, owner?: string): StdioConnection;
  /** A stdio connection over in-memory streams (newline-delimited JSON-RPC), for in-process clients. */
  inProcess(owner?: string): { toServer: Writable; fromServer: Readable; connection: StdioConnection };
  listenHttp(port?: number, host?: string, access?: HttpAccessOptions): Promise<HttpListener>;
  close(): Promise<void>;
}

export function createExtensionServer(options: ServerOptions = {}): ReferenceExtensionServer {
  const server = new ExtensionServer(options);
  const listeners: HttpListener[] = [];
  const connections: StdioConnection[] = [];
  return {
    server,
    stdio(input, output, owner) {
      const c = serveStream(server, input, output, owner);
      connections.push(c);
      return c;
    },
    inProcess(owner) {
      const toServer = new PassThrough();
      const fromServer = new PassThrough();
      const connection = this.stdio(toServer, fromServer, owner);
      void connection.closed.then(() => fromServer.end());
      return { toServer, fromServer, connection };
    },
    async listenHttp(port, host, access) {
      const l = await listenHttp(server, port, host, access);
      listeners.push(l);
      return l;
    },
    async close() {
      server.close();
      // let graceful subscription ends reach their streams before the transports go
      await new Promise((r) => setImmediate(r));
      for (const c of connections) c.close();
      await Promise.all(listeners.map((l) => l.close()));
    },
  };
}
