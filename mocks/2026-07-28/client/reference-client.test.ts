// The reference extension client keeps serving through a server's garbage (DEVELOPERS.md "Bad input"): JSON
// that is not a JSON-RPC message (null, a number, a string, an array) or not JSON at all is logged and skipped.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runExtensionClient } from './reference-client.ts';

// Before each answer: lines that are JSON but no message, and one that is not JSON. Answers every request with
// a result that lists no tools, so the scenario ends after tools/list.
const SERVER = `
let buf = '';
process.stdin.on('data', (c) => {
  buf += c;
  let i;
  while ((i = buf.indexOf('\\n')) >= 0) {
    const line = buf.slice(0, i); buf = buf.slice(i + 1);
    const m = JSON.parse(line);
    if (m.id === undefined) continue;
    process.stdout.write('null\\n42\\n"text"\\n[1,2]\\n{not json\\n');
    process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { resultType: 'complete', tools: [] } }) + '\\n');
  }
});
`;

describe("reference extension client: garbage on a stdio server's stdout", () => {
  it('logs each line that is no message, skips it and runs the scenario to its end', { timeout: 30_000 }, async () => {
    const server = join(mkdtempSync(join(tmpdir(), 'garbage-server-')), 'server.cjs');
    writeFileSync(server, SERVER);
    const lines: string[] = [];
    const code = await runExtensionClient({
      scenario: 'tasks',
      serverArg: `${process.execPath} ${server}`,
      log: (l) => lines.push(l),
    });
    const skipped = lines.filter((l) => l.startsWith("not a JSON-RPC message on the server's stdout"));
    expect(skipped.map((l) => l.slice(l.indexOf(': ') + 2))).toEqual(expect.arrayContaining(['null', '42', '"text"', '[1,2]', '{not json']));
    expect(code).toBe(0);
  });
});
