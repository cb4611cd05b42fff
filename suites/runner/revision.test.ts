// --revision auto against real targets: both reference servers, server-everything, a dual-era stand-in, and
// targets that do not answer; an explicit revision is taken as asked, without a probe.
import { afterAll, describe, expect, it } from 'vitest';
import { EVERYTHING, startEverythingHttp, stopTargets } from '../../fixtures/targets.ts';
import { createExtensionServer } from '../../mocks/2026-07-28/index.ts';
import { STDIO_SILENT_SOURCE } from '../2026-07-28/wire/test-helpers.ts';
import type { TargetSpec } from './target.ts';
import { STARTUP_MS } from '../wire/peer.ts';
import { chooseRevisions } from '../revisions.ts';

const auto = (target: TargetSpec, requestTimeoutMs = 10_000) => chooseRevisions(target, { revision: 'auto', requestTimeoutMs });
const TSX = 'node_modules/.bin/tsx';

/** Answers server/discover (modern) and initialize (legacy): a dual-era server on stdio. */
const DUAL_ERA_SOURCE = String.raw`
const rl = require('node:readline').createInterface({ input: process.stdin });
const out = (m) => process.stdout.write(JSON.stringify(m) + '\n');
rl.on('line', (line) => {
  const m = JSON.parse(line);
  if (!('id' in m)) return;
  if (m.method === 'server/discover') return out({ jsonrpc: '2.0', id: m.id, result: { resultType: 'complete', supportedVersions: ['2026-07-28', '2025-11-25'], capabilities: {} } });
  if (m.method === 'initialize') return out({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'dual', version: '0' } } });
  out({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } });
});
`;
const node = (source: string): TargetSpec => ({ kind: 'stdio', command: `${process.execPath} -e "${source.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"` });

afterAll(async () => {
  await stopTargets();
});

describe('--revision auto', () => {
  it('the 2025-11-25 reference receiver over stdio: 2025-11-25 (server/discover is an unknown method there)', async () => {
    const d = await auto({ kind: 'stdio', command: `${TSX} scripts/mock.ts --stdio` });
    expect(d.revisions).toEqual(['2025-11-25']);
    expect(d.why.join(' ')).toMatch(/server\/discover answered error .*legacy server/);
  });

  it('server-everything over stdio and over Streamable HTTP: 2025-11-25', async () => {
    expect((await auto({ kind: 'stdio', command: `${process.execPath} ${EVERYTHING} stdio` })).revisions).toEqual(['2025-11-25']);
    const http = await auto({ kind: 'http', url: await startEverythingHttp() });
    expect(http.revisions).toEqual(['2025-11-25']);
    // The SDK answers HTTP 400 with a JSON-RPC error without the request's id: an answer, said as such (not "no answer").
    expect(http.why.join(' ')).toMatch(/server\/discover answered error -?\d+ .*\(HTTP 400, without the request's id\)/);
  });

  it('the reference extension server over stdio and Streamable HTTP: 2026-07-28 only (it refuses initialize)', async () => {
    const stdio = await auto({ kind: 'stdio', command: `${TSX} scripts/cli.ts mock --revision 2026-07-28 --stdio` });
    expect(stdio.revisions).toEqual(['2026-07-28']);
    expect(stdio.why.join(' ')).toMatch(/DiscoverResult.*initialize failed/);
    const server = createExtensionServer();
    const h = await server.listenHttp(0);
    try {
      expect((await auto({ kind: 'http', url: h.url })).revisions).toEqual(['2026-07-28']);
    } finally {
      await server.close();
    }
  });

  // Once server/discover has answered, initialize gets the request bound (and its process startupAllowance), not STARTUP_MS.
  it('a modern server that never answers initialize: 2026-07-28, saying initialize got no answer', { timeout: 60_000 }, async () => {
    const t0 = Date.now();
    const d = await auto({ kind: 'stdio', command: `${TSX} scripts/cli.ts mock --revision 2026-07-28 --stdio --latitude initialize-unanswered` }, 5_000);
    expect(d.revisions).toEqual(['2026-07-28']);
    expect(d.why.join(' ')).toMatch(/DiscoverResult.*initialize got no answer within 5000 ms after server\/discover settled: no 2025-11-25/);
    expect(Date.now() - t0).toBeLessThan(40_000);
  });

  it('a dual-era server is graded in both', async () => {
    const d = await auto(node(DUAL_ERA_SOURCE));
    expect(d.revisions).toEqual(['2025-11-25', '2026-07-28']);
    expect(d.why.join(' ')).toMatch(/dual-era/);
  });

  // A process that never writes gets the start-up allowance (STARTUP_MS) once: bounded, never a hang.
  it('a target that does not answer server/discover within the request bound is legacy (never a hang)', { timeout: STARTUP_MS + 60_000 }, async () => {
    const t0 = Date.now();
    const d = await auto(node(STDIO_SILENT_SOURCE), 500);
    expect(d.revisions).toEqual(['2025-11-25']);
    expect(d.why.join(' ')).toMatch(/no answer/);
    expect(Date.now() - t0).toBeLessThan(STARTUP_MS + 20_000);
  });

  it('an explicit revision and in-process targets need no probe', async () => {
    expect(await chooseRevisions({ kind: 'stdio', command: '/nonexistent' }, { revision: '2026-07-28', requestTimeoutMs: 1 })).toEqual({
      revisions: ['2026-07-28'],
      why: ['revision 2026-07-28: as asked (--revision)'],
    });
    expect((await auto({ kind: 'reference' })).revisions).toEqual(['2025-11-25']);
  });
});
