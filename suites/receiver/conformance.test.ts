// The reference receiver passes every check, over stdio, Streamable HTTP and in process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { receiverChecks2025 } from '../index.ts';
import { openTargetSession, runChecks } from '../runner/session.ts';
import { loadProfile, type TargetSpec } from '../runner/target.ts';

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

// What each transport legitimately leaves unexercised (covered elsewhere: the capability case below, HTTP).
const UNDECLARED = 'capabilities.undeclared-processed-normally';
const HTTP_ONLY = ['transport.get-no-sse-upgrade', 'transport.disconnect-not-cancel'];
const NOT_HTTP = (id: string) => HTTP_ONLY.includes(id);
// The reference keeps cancelled tasks (deleting them is a MAY): the answers for a deleted one are not observed.
const KEEPS_CANCELLED = 'cancel.deleted-answers-32602';
const targets: [string, () => TargetSpec, (id: string) => boolean][] = [
  // A second stdio session is another process with its own tasks: isolation says nothing there.
  [
    'stdio',
    () => ({ kind: 'stdio', command: `${process.execPath} --import tsx scripts/mock.ts --stdio --status-notifications` }),
    (id) => id === UNDECLARED || NOT_HTTP(id) || id === KEEPS_CANCELLED || id.startsWith('security.'),
  ],
  ['http', () => ({ kind: 'http', url: httpUrl }), (id) => id === UNDECLARED || id === KEEPS_CANCELLED],
  ['in-process', () => ({ kind: 'reference', args: ['--status-notifications'] }), (id) => id === UNDECLARED || NOT_HTTP(id) || id === KEEPS_CANCELLED],
];

describe.each(targets)('reference receiver over %s', (_name, target, maySkip) => {
  it('passes every check (none fails or warns; only transport-bound checks are not exercised)', { timeout: 120_000 }, async () => {
    const session = await openTargetSession({ target: target(), profile });
    try {
      const results = await runChecks(receiverChecks2025, session, 16);
      expect(results.length).toBe(receiverChecks2025.length);
      const bad = results.filter((r) => r.status === 'fail' || r.status === 'warn');
      expect(bad.map((r) => `${r.id} ${r.status}: ${r.message}`)).toEqual([]);
      const skipped = results.filter((r) => r.status === 'skip' && !maySkip(r.id));
      expect(skipped.map((r) => `${r.id}: ${r.message}`)).toEqual([]);
      // No check opens more connections of its own than its opensConnections says (the processes a stdio run
      // starts ahead are sized by it).
      const opened = (id: string) => new Set(results.find((r) => r.id === id)!.transcript.flatMap((e) => (e.connection ? [e.connection] : []))).size;
      const over = receiverChecks2025.filter((c) => opened(c.id) > (c.opensConnections ?? 0));
      expect(over.map((c) => `${c.id}: opened ${opened(c.id)}, declares ${c.opensConnections ?? 0}`)).toEqual([]);
    } finally {
      await session.close();
    }
  });
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
