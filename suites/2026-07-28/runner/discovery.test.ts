// Zero-config runs of revision 2026-07-28 against the reference extension server (mocks/2026-07-28), over stdio
// and Streamable HTTP, as the CLI does them: discovery on the pre-flight session (no profile), then every check
// with the discovered roles. The roles found are those of fixtures/reference-2026-07-28.profile.json, and the
// verdicts those of a run with that profile; through the CLI (auto, --write-profile) too. A server without the
// extension: only `completes` (a plain result).
import { afterAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checksFor } from '../../index.ts';
import { runChecks } from '../../runner/session.ts';
import { loadProfile, type TargetSpec } from '../../runner/target.ts';
import { MODERN_PROFILE_ROLES, type Profile } from '../../engine/profile.ts';
import type { CheckResult } from '../../engine/check.ts';
import { createExtensionServer, type ServerOptions } from '../../../mocks/2026-07-28/index.ts';
import { isModernDiscovery, pickModernRoles, planModernDiscovery, type ModernCallObservation } from './discovery.ts';
import type { TaskStatus } from '../../../schema/2026-07-28/protocol.ts';
import { openTargetSession } from '../../revisions.ts';

const PROFILE = loadProfile('fixtures/reference-2026-07-28.profile.json');
const checks = checksFor('2026-07-28');
// Short tool runs; a slow tool that outlives discovery's slowAfterMs (2 s) and a cancel.
const FAST: ServerOptions = { timings: { completesMs: 50, slowMs: 3_000 }, pollIntervalMs: 50 };
const stops: (() => Promise<void>)[] = [];
afterAll(() => Promise.all(stops.map((s) => s())));

async function target(transport: 'stdio' | 'http', options: ServerOptions = {}): Promise<TargetSpec> {
  if (transport === 'http') {
    const server = createExtensionServer({ ...FAST, ...options });
    const h = await server.listenHttp(0);
    stops.push(() => server.close());
    return { kind: 'http', url: h.url };
  }
  const src = `import('./mocks/2026-07-28/index.ts').then((m) => m.createExtensionServer(${JSON.stringify({ ...FAST, ...options })}).stdio(process.stdin, process.stdout))`;
  return { kind: 'stdio', command: `node_modules/.bin/tsx -e "${src.replace(/"/g, '\\"')}"` };
}

// Over stdio the first answer waits for tsx to compile the server in the child: on a loaded machine that takes seconds.
const optionsFor = (t: 'stdio' | 'http') => ({ revision: '2026-07-28' as const, requestTimeoutMs: t === 'stdio' ? 20_000 : 10_000, checkTimeoutMs: 30_000 });

async function run(spec: TargetSpec, t: 'stdio' | 'http', how: { profile?: Profile; discover?: boolean }) {
  const session = await openTargetSession({
    target: spec,
    ...(how.profile ? { profile: how.profile } : {}),
    ...(how.discover ? { discover: { mode: 'safe' as const } } : {}),
    options: optionsFor(t),
  });
  try {
    return { session, results: await runChecks(checks, session, 8) };
  } finally {
    await session.close();
  }
}

const statuses = (results: CheckResult[]) => Object.fromEntries(results.map((r) => [r.id, r.status]));
const line = (r: CheckResult) => `${r.id}: ${r.status} ${r.message.slice(0, 200)}`;

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(process.execPath, ['--import', 'tsx', 'scripts/cli.ts', ...args], { timeout: 150_000, maxBuffer: 16 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr }),
    ),
  );
}

describe('2026-07-28 discovery (no profile)', () => {
  it(
    'through the CLI: auto chooses 2026-07-28, discovery prints its plan and finds every role, no check fails, the written profile is the reviewed one',
    { timeout: 180_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'mtc-discovery-2026-'));
      const mock = `${process.execPath} --import tsx scripts/cli.ts mock --revision 2026-07-28 --stdio --completes-ms 50 --slow-ms 3000 --poll-interval-ms 50`;
      const r = await cli(['server', '--stdio', mock, '--json', join(dir, 'report.json'), '--write-profile', join(dir, 'profile.json'), '--no-color']);
      expect(r.code, r.stderr.slice(-3000)).toBe(0);
      expect(r.stderr).toMatch(/^revision: 2026-07-28 — /m);
      expect(r.stderr).toMatch(/will call complete \{\} as a client declaring the Tasks extension/);
      for (const role of MODERN_PROFILE_ROLES) expect(r.stderr).toMatch(new RegExp(`discovered ${role}: ${PROFILE.tools[role]!.name} `));
      const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
      expect(Object.keys(report.discovery)).toEqual(['2026-07-28']);
      expect(report.discovery['2026-07-28'].revision).toBe('2026-07-28');
      expect(report.checks.filter((c: any) => c.status === 'fail' || c.status === 'warn').map((c: any) => c.id)).toEqual([]);
      const kept = JSON.parse(readFileSync(join(dir, 'profile.json'), 'utf8'));
      expect(Object.keys(kept.revisions)).toEqual(['2026-07-28']);
      expect(Object.fromEntries(Object.entries(kept.revisions['2026-07-28'].tools).map(([k, v]: [string, any]) => [k, v.name]))).toEqual(
        Object.fromEntries(Object.entries(PROFILE.tools).map(([k, v]) => [k, v!.name])),
      );
    },
  );

  it.each(['stdio', 'http'] as const)(
    "the reference extension server over %s: the profile's roles are found, the verdicts are the profiled run's",
    { timeout: 180_000 },
    async (t) => {
      const spec = await target(t);
      const discovered = await run(spec, t, { discover: true });
      const d = discovered.session.discovery;
      expect(isModernDiscovery(d)).toBe(true);
      // Every tool the server lists is safe to call: each was called, and each role found is the profile's tool.
      expect(d!.plan.notCalled).toEqual([]);
      expect(Object.fromEntries(MODERN_PROFILE_ROLES.map((r) => [r, d!.roles[r]?.name]))).toEqual(
        Object.fromEntries(MODERN_PROFILE_ROLES.map((r) => [r, PROFILE.tools[r]?.name])),
      );
      expect(d!.missing).toEqual({});
      for (const r of MODERN_PROFILE_ROLES) expect(d!.roles[r]!.observed, r).toMatch(/^called with \{\} by a client declaring/);
      expect(discovered.session.info.missingRoles).toEqual({});
      // No task discovery started is left running (what did not end was cancelled).
      for (const o of d!.observations) expect(o.taskId ? ['completed', 'failed', 'cancelled'].includes(o.outcome) || o.cancelled : true, o.tool).toBe(true);

      const profiled = await run(spec, t, { profile: PROFILE });
      expect(
        statuses(discovered.results),
        discovered.results
          .filter((r) => r.status === 'fail' || r.status === 'warn')
          .map(line)
          .join('\n'),
      ).toEqual(statuses(profiled.results));
      expect(discovered.results.filter((r) => r.status === 'fail' || r.status === 'warn').map(line)).toEqual([]);
    },
  );

  it('a server without the extension: a plain result makes `completes`; the other roles say why they are missing', { timeout: 120_000 }, async () => {
    const spec = await target('http', { tasksExtension: false });
    const session = await openTargetSession({ target: spec, discover: { mode: 'safe' }, options: optionsFor('http') });
    try {
      const d = session.discovery!;
      expect(d.roles.completes?.name).toBe('complete');
      expect(d.roles.completes?.observed).toMatch(/plain result without isError/);
      for (const r of MODERN_PROFILE_ROLES.filter((x) => x !== 'completes')) {
        expect(d.roles[r], r).toBeUndefined();
        expect(session.info.missingRoles[r], r).toMatch(/does not advertise io\.modelcontextprotocol\/tasks/);
      }
    } finally {
      await session.close();
    }
  });

  it('on a stalled machine a quick tool seen working past slowAfterMs is not taken for the slow one', () => {
    const plan = planModernDiscovery([{ name: 'complete' }, { name: 'slow' }], { mode: 'safe' });
    const seen = (tool: string, statuses: [TaskStatus, number][]): ModernCallObservation => ({
      tool,
      arguments: {},
      label: 'required properties only',
      outcome: statuses.at(-1)![0],
      mrtrRounds: 0,
      taskId: `${tool}-1`,
      statuses: statuses.map(([status, atMs]) => ({ status, atMs })),
      inputRounds: [],
      isError: false,
      slow: true,
      cancelled: false,
      elapsedMs: statuses.at(-1)![1],
    });
    const { roles } = pickModernRoles(
      plan,
      [
        seen('complete', [
          ['working', 2_100],
          ['completed', 2_150],
        ]),
        seen('slow', [
          ['working', 2_900],
          ['completed', 3_000],
        ]),
      ],
      true,
      2_000,
    );
    expect(roles.slow?.name).toBe('slow');
    expect(roles.completes?.name).toBe('complete');
  });

  it('the profile wins for the roles it names; discovery looks only for the others', { timeout: 120_000 }, async () => {
    const spec = await target('http');
    const session = await openTargetSession({
      target: spec,
      profile: { tools: { completes: { name: 'task_only' } } },
      discover: { mode: 'safe', roles: ['completes', 'failsWithError'] },
      options: optionsFor('http'),
    });
    try {
      expect(session.discovery!.plan.roles).toEqual(['failsWithError']);
      expect(session.info.profile.tools.completes?.name).toBe('task_only');
      expect(session.info.profile.tools.failsWithError?.name).toBe('fail_rpc');
      expect(session.info.missingRoles.slow).toMatch(/discovery did not look for role slow/);
    } finally {
      await session.close();
    }
  });
});
