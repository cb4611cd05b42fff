// The cross-version checks (compat.ts) against the dual-era reference target (mocks/dual-era): they pass over
// Streamable HTTP and stdio, each fault of the target kills its check over stdio too (the kill matrix,
// faults.test.ts, runs them over HTTP with every check), no latitude of either peer makes them speak, and a
// server of one era leaves them not exercised with the reason.
import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../../engine/check.ts';
import { checks as COMPAT } from './compat.ts';
import { checks as VERSIONING } from './versioning.ts';
import { runChecks } from '../../runner/session.ts';
import { DUAL_ERA_FAULTS } from '../../../mocks/dual-era/faults.ts';
import { LATITUDES as LEGACY_LATITUDES } from '../../../mocks/receiver/latitudes.ts';
import { LATITUDES as MODERN_LATITUDES, type SwitchInfo } from '../../../mocks/2026-07-28/faults.ts';
import { createDualEraServer } from '../../../mocks/dual-era/index.ts';
import { REFERENCE_PROFILE, runAgainstDualEra, runAgainstReference } from './test-helpers.ts';
import { REVISION } from '../../../schema/2026-07-28/protocol.ts';
import { openTargetSession } from '../../revisions.ts';

const TSX = 'node_modules/.bin/tsx';
const failing = (r: CheckResult) => r.status === 'fail' || r.status === 'warn';
const line = (r: CheckResult) => `${r.id} ${r.status}: ${r.message}`;

/** The compat checks against `mock --revision dual-era --stdio` with `args`. */
async function overStdio(args: string[] = []): Promise<CheckResult[]> {
  const session = await openTargetSession({
    target: { kind: 'stdio', command: [TSX, 'scripts/cli.ts', 'mock', '--revision', 'dual-era', '--stdio', '--completes-ms', '50', ...args].join(' ') },
    profile: REFERENCE_PROFILE,
    options: { revision: REVISION, checkTimeoutMs: 40_000, requestTimeoutMs: 15_000 },
  });
  try {
    return await runChecks(COMPAT, session, 3);
  } finally {
    await session.close();
  }
}

describe('the cross-version checks against the dual-era reference target', () => {
  it('pass over Streamable HTTP (with a bearer token: one requestor in both eras)', { timeout: 60_000 }, async () => {
    const results = await runAgainstDualEra({}, COMPAT);
    expect(results.map(line)).toEqual(results.map((r) => `${r.id} pass: ${r.message}`));
  });

  it(
    'over Streamable HTTP without credentials, tasks of 2025-11-25 stay bound to their session: not exercised, with the reason',
    { timeout: 60_000 },
    async () => {
      const d = createDualEraServer({});
      const { url } = await d.listenHttp(0);
      try {
        const session = await openTargetSession({ target: { kind: 'http', url }, profile: REFERENCE_PROFILE, options: { revision: REVISION } });
        try {
          const r = (await runChecks(COMPAT, session, 3)).find((x) => x.id === '2026-compat.legacy-get-cancel-permitted')!;
          expect(r.status).toBe('skip');
          expect(r.message).toMatch(/without credentials/);
        } finally {
          await session.close();
        }
      } finally {
        await d.close();
      }
    },
  );

  it.concurrent.each(['', ...DUAL_ERA_FAULTS.map((f) => f.name as string)].map((f) => [f] as const))(
    'over stdio, fault %s',
    { timeout: 120_000 },
    async (fault) => {
      const results = await overStdio(fault ? ['--fault', fault] : []);
      const killed = COMPAT.filter((c) => c.killedBy.includes(fault)).map((c) => c.id);
      expect(results.filter(failing).map((r) => r.id)).toEqual(killed);
      // Without a fault every check is exercised and passes.
      if (!fault) expect(results.map(line)).toEqual(results.map((r) => `${r.id} pass: ${r.message}`));
    },
  );

  it('a server of one era: the checks that need 2025-11-25 are not exercised, with the reason', { timeout: 60_000 }, async () => {
    const results = await runAgainstReference([], COMPAT);
    const byId = new Map(results.map((r) => [r.id, r]));
    // The pre-flight's initialize was refused: the checks do not apply (nor count as unexercised in the coverage).
    for (const id of ['2026-compat.extension-not-under-2025', '2026-compat.legacy-get-cancel-permitted']) {
      expect(byId.get(id)!.status).toBe('skip');
      expect(byId.get(id)!.message).toMatch(/the target does not speak 2025-11-25 \(.*-32022/);
      expect(byId.get(id)!.message).not.toMatch(/could not open/);
    }
    expect(results.filter(failing).map(line)).toEqual([]);
    expect(byId.get('2026-compat.no-legacy-capabilities')!.status).toBe('pass');
  });
});

// The checks that send initialize to a modern server: the cross-version ones and 2026-version.initialize-names-versions.
const SENDS_INITIALIZE = [...COMPAT, ...VERSIONING.filter((c) => c.id === '2026-version.initialize-names-versions')];

describe('a modern server that never answers initialize (latitude initialize-unanswered)', () => {
  // Its initialize is waited for once, in the pre-flight, as long as the run's pace allows (startupAllowance), not STARTUP_MS.
  it.each(['stdio', 'http'] as const)(
    'over %s: not exercised (timed out), naming what did not answer and after how long',
    { timeout: 90_000 },
    async (transport) => {
      const started = Date.now();
      const results = await runAgainstReference(['--latitude', 'initialize-unanswered'], SENDS_INITIALIZE, { requestTimeoutMs: 5_000 }, transport);
      const elapsedMs = Date.now() - started;
      const byId = new Map(results.map((r) => [r.id, r]));
      const waited = ['2026-compat.extension-not-under-2025', '2026-version.initialize-names-versions'];
      // Over Streamable HTTP without credentials legacy-get-cancel-permitted is not exercised for that reason first.
      if (transport === 'stdio') waited.push('2026-compat.legacy-get-cancel-permitted');
      for (const id of waited) {
        const r = byId.get(id)!;
        expect(r.status, line(r)).toBe('skip');
        expect(r.timedOut, line(r)).toBe(true);
        expect(r.message).toMatch(/^not exercised \(timed out\): .*initialize .*no response to initialize \(id \d+\) within \d+ ms/);
        expect(r.message).not.toMatch(/does not speak/);
      }
      expect(results.filter(failing).map(line)).toEqual([]);
      expect(byId.get('2026-compat.no-legacy-capabilities')!.status).toBe('pass');
      // Well under the old 60 s (STARTUP_MS) per waiting check, on a loaded machine too.
      expect(elapsedMs).toBeLessThan(40_000);
    },
  );
});

describe('no latitude of either peer makes a cross-version check speak (the dual-era target)', () => {
  const cells = [
    ...LEGACY_LATITUDES.map((l) => ({ label: `2025-11-25 ${l.name}`, legacy: ['--latitude', l.name] })),
    // A latitude's --token pairs are the dual-era listener's own (DUAL_ERA_TOKENS): the peer's options take none.
    ...(MODERN_LATITUDES as readonly SwitchInfo[]).map((l) => ({
      label: `2026-07-28 ${l.name}`,
      modern: ['--latitude', l.name, ...(l.args ?? []).filter((a, i, all) => a !== '--token' && all[i - 1] !== '--token')],
    })),
  ];
  it.concurrent.each(cells.map((c) => [c.label, c] as const))('%s', { timeout: 120_000 }, async (_label, cell) => {
    const results = await runAgainstDualEra(cell, COMPAT);
    expect(results.filter(failing).map(line)).toEqual([]);
  });
});
