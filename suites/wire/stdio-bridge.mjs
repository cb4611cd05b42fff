#!/usr/bin/env node
// stdio ↔ loopback TCP pipe: the "server command" a client under test spawns in
// `mcp-tasks-conformance client --transport stdio`. Usage: node stdio-bridge.mjs <port> [<run>]
// (<run> is ignored: it makes each run's command line one the client has not seen before).
// Everything the client writes to our stdin goes to the conformance harness's reference receiver
// (which records it); everything the receiver sends comes back on our stdout. Plain JavaScript, so
// that it starts fast and needs no TypeScript loader.
import { connect } from 'node:net';

const port = Number(process.argv[2]);
if (!Number.isInteger(port) || port <= 0 || port > 65535) {
  process.stderr.write('usage: stdio-bridge.mjs <port>\n');
  process.exit(2);
}
const socket = connect({ port, host: '127.0.0.1' });
process.stdin.pipe(socket);
socket.pipe(process.stdout);
process.stdin.on('end', () => socket.end());
socket.on('close', () => process.exit(0));
socket.on('error', (e) => {
  process.stderr.write(`stdio-bridge: ${e.message}\n`);
  process.exit(1);
});
