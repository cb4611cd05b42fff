// The dual-era target's command line (which peer a --fault/--latitude name goes to) and its stdio routing
// (initialize selects 2025-11-25 for the connection, the per-request _meta 2026-07-28, bad lines are answered
// by the connection's era). Its HTTP routing and faults are exercised by the checks (compat.test.ts, faults.test.ts).
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseDualEraArgs, runDualEra } from './cli.ts';
import { createDualEraServer } from './index.ts';

describe('mock --revision dual-era: options', () => {
  it('a name goes to the peer that has it; one both peers have takes its revision', () => {
    const o = parseDualEraArgs(['--stdio', '--fault', 'extension-under-2025', '--fault', 'task-to-undeclared', '--latitude', '2025-11-25:lazy-expiry']).options;
    expect(o.faults).toEqual(['extension-under-2025']);
    expect(o.modern?.faults).toEqual(['task-to-undeclared']);
    expect(o.legacy?.latitudes).toEqual(['lazy-expiry']);
    expect(parseDualEraArgs(['--stdio', '--latitude', 'ambiguous-as-legacy', '--latitude', 'sync-results']).options).toMatchObject({
      latitudes: ['ambiguous-as-legacy'],
      modern: { latitudes: ['sync-results'] },
    });
    expect(() => parseDualEraArgs(['--stdio', '--latitude', 'lazy-expiry'])).toThrow(/both peers: say 2025-11-25:lazy-expiry or 2026-07-28:lazy-expiry/);
    expect(() => parseDualEraArgs(['--stdio', '--fault', 'no-such-fault'])).toThrow(/unknown fault/);
    expect(() => parseDualEraArgs(['--stdio', '--fault', '2026-07-28:no-such-fault'])).toThrow(/unknown fault of revision 2026-07-28/);
    expect(() => parseDualEraArgs(['--stdio', '--page-size', '2'])).toThrow();
  });

  it('--help and the listings exit 0; a usage error 2', async () => {
    const write = process.stderr.write;
    const writeOut = process.stdout.write;
    const out: string[] = [];
    process.stderr.write = ((s: string) => (out.push(s), true)) as never;
    process.stdout.write = ((s: string) => (out.push(s), true)) as never;
    try {
      expect(await runDualEra(['--help'])).toBe(0);
      expect(await runDualEra(['--list-faults'])).toBe(0);
      expect(await runDualEra(['--fault', 'nope'])).toBe(2);
      expect(await runDualEra([])).toBe(2);
    } finally {
      process.stderr.write = write;
      process.stdout.write = writeOut;
    }
    const text = out.join('');
    expect(text).toMatch(/^extension-under-2025\t2026-compat-not-under-2025\t/m);
    expect(text).toMatch(/^2025-11-25:cancelled-resurrects\t/m);
    expect(text).toMatch(/^2026-07-28:task-to-undeclared\t/m);
  });
});

describe('mock --revision dual-era: stdio routing', () => {
  it('initialize selects 2025-11-25 for the connection; modern _meta goes to 2026-07-28; bad lines are answered by the era', async () => {
    const d = createDualEraServer();
    const input = new PassThrough();
    const output = new PassThrough();
    const conn = d.stdio(input, output);
    const lines: any[] = [];
    const waiters = new Set<() => void>();
    let buf = '';
    output.on('data', (c: Buffer) => {
      buf += c.toString();
      for (let i = buf.indexOf('\n'); i !== -1; i = buf.indexOf('\n')) {
        lines.push(JSON.parse(buf.slice(0, i)));
        buf = buf.slice(i + 1);
      }
      for (const w of [...waiters]) w();
    });
    /** Resolves once `pred` holds over the lines read (checked as each chunk arrives), bounded. */
    const until = (pred: () => boolean) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => (waiters.delete(check), reject(new Error(`not within 5000 ms; lines: ${JSON.stringify(lines)}`))), 5000);
        const check = () => void (pred() && (waiters.delete(check), clearTimeout(timer), resolve()));
        waiters.add(check);
        check();
      });
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 't', version: '0' },
    };
    const send = (m: unknown) => input.write((typeof m === 'string' ? m : JSON.stringify(m)) + '\n');
    send('not json');
    await until(() => lines.length === 1);
    expect(lines[0].error.code).toBe(-32700); // the extension server: no initialize yet
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } } });
    await until(() => lines.some((l) => l.id === 1));
    expect(lines.find((l) => l.id === 1).result.protocolVersion).toBe('2025-11-25');
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tasks/list', params: {} });
    send({ jsonrpc: '2.0', id: 3, method: 'server/discover', params: { _meta: meta } });
    await until(() => lines.some((l) => l.id === 2) && lines.some((l) => l.id === 3));
    expect(lines.find((l) => l.id === 2).result.tasks).toEqual([]); // 2025-11-25: tasks/list is a method there
    expect(lines.find((l) => l.id === 3).result.supportedVersions).toEqual(['2026-07-28']);
    input.end();
    await conn.closed;
    await d.close();
  });
});
