// The Streamable HTTP endpoint of the reference peers: its path, and listening for it (mocks/receiver,
// mocks/dual-era) with the bound address as the endpoint's URL and the server's close.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The path of the MCP endpoint the reference peers serve. */
export const MCP_PATH = '/mcp';

/**
 * Listens on host:port (port 0: a free one): the endpoint's URL (`http://<address>:<port>/mcp`, an IPv6 address
 * in brackets), the port, and the server's close (open connections ended first). A listen error rejects.
 */
export async function listenEndpoint(server: Server, port: number, host: string): Promise<{ url: string; port: number; closeServer(): Promise<void> }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  const shown = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return {
    url: `http://${shown}:${addr.port}${MCP_PATH}`,
    port: addr.port,
    closeServer: async () => {
      server.closeAllConnections?.();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
