// The reference receiver passes every check, over stdio, Streamable HTTP and in process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { allChecks } from './index.ts';
import { openTargetSession, runChecks } from './session.ts';
import { loadProfile, type TargetSpec } from './target.ts';

const profile = loadProfile('fixtures/reference.profile.json');
let http: ChildProcess | undefined;
let httpUrl = '';

beforeAll(async () => {
  // The standalone mock over HTTP on an ephemeral port; its URL is printed on stderr.
  http = spawn(process.execPath, ['--import', 'tsx', 'mocks/main.ts', '--http', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  httpUrl = await new Promise<string>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('mock did not print its URL within 20 s')), 20_000);
    let buf = '';
    http!.stderr!.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = /(http:\/\/\S+\/mcp)/.exec(buf);
      if (m) {
        clearTimeout(t);
        resolve(m[1]!);
      }
    });
  });
});
afterAll(() => {
  http?.kill();
});

const targets: [string, () => TargetSpec][] = [
  ['stdio', () => ({ kind: 'stdio', command: `${process.execPath} --import tsx mocks/main.ts --stdio` })],
  ['http', () => ({ kind: 'http', url: httpUrl })],
  ['in-process', () => ({ kind: 'reference', args: [] })],
];

describe.each(targets)('reference receiver over %s', (_name, target) => {
  it('passes every check (none fails, warns or is left unexercised)', { timeout: 120_000 }, async () => {
    const session = await openTargetSession({ target: target(), profile });
    try {
      const results = await runChecks(allChecks, session, 16);
      expect(results.length).toBe(allChecks.length);
      const bad = results.filter((r) => r.status === 'fail' || r.status === 'warn');
      expect(bad.map((r) => `${r.id} ${r.status}: ${r.message}`)).toEqual([]);
      // Not exercised is allowed only where the transport itself rules the check out.
      const skipped = results.filter((r) => r.status === 'skip');
      for (const r of skipped) expect(r.message, r.id).toMatch(/stdio|in.process|not HTTP|HTTP only|transport|no-tasks-capability|declares the tasks capability/i);
    } finally {
      await session.close();
    }
  });
});
