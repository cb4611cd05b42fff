// The reference receiver passes every check, over Streamable HTTP and in process (over stdio: conformance-stdio.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { receiverChecks2025 } from '../index.ts';
import { KEEPS_CANCELLED, NOT_HTTP, passesEveryCheck, UNDECLARED } from './test-helpers.ts';
import { runChecks } from '../runner/session.ts';
import { loadProfile, type TargetSpec } from '../runner/target.ts';
import { openTargetSession } from '../revisions.ts';

const profile = loadProfile('fixtures/reference.profile.json');
let http: ChildProcess | undefined;
let httpUrl = '';

beforeAll(async () => {
  // The standalone mock over HTTP on an ephemeral port; its URL is printed on stderr.
  http = spawn(process.execPath, ['--import', 'tsx', 'scripts/mock.ts', '--http', '0', '--status-notifications'], { stdio: ['ignore', 'ignore', 'pipe'] });
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

const targets: [string, () => TargetSpec, (id: string) => boolean][] = [
  ['http', () => ({ kind: 'http', url: httpUrl }), (id) => id === UNDECLARED || id === KEEPS_CANCELLED],
  ['in-process', () => ({ kind: 'reference', args: ['--status-notifications'] }), (id) => id === UNDECLARED || NOT_HTTP(id) || id === KEEPS_CANCELLED],
];

describe.each(targets)('reference receiver over %s', (_name, target, maySkip) => {
  it('passes every check (none fails or warns; only transport-bound checks are not exercised)', { timeout: 120_000 }, () =>
    passesEveryCheck(target(), maySkip),
  );
});

describe('reference receiver without the tasks capability', () => {
  it('processes task-augmented requests normally, and nothing fails', { timeout: 120_000 }, async () => {
    const session = await openTargetSession({ target: { kind: 'reference', args: ['--no-tasks-capability'] }, profile });
    try {
      const results = await runChecks(receiverChecks2025, session, 16);
      expect(results.filter((r) => r.status === 'fail' || r.status === 'warn').map((r) => `${r.id}: ${r.message}`)).toEqual([]);
      expect(results.find((r) => r.id === UNDECLARED)?.status).toBe('pass');
    } finally {
      await session.close();
    }
  });
});
