// The kill matrix of revision 2026-07-28, computed from the facts on the checks (as suites/receiver/faults.test.ts
// for 2025-11-25): every named fault of the reference extension server (mocks/2026-07-28/faults.ts) that a check
// names in `killedBy` makes exactly the checks naming it fail (MUST) or warn (SHOULD), and no other check fails;
// every MUST check names a fault. A fault names a catalog id (then a check citing it names the fault) or what the
// schema or the transition table states without a keyword line (`schema:…`). Each fault runs in its own
// reference server in this process over Streamable HTTP, with the options it needs (`args`); a fault of the
// dual-era target (mocks/dual-era/faults.ts: the cross-version rules) runs in that target, with every check too;
// the stdio cell runs a few of them again with the server spawned over stdio (STDIO_CELL below).
import { describe, expect, it } from 'vitest';
import type { CheckDef } from '../../engine/check.ts';
import { FAULTS, type SwitchInfo } from '../../../mocks/2026-07-28/faults.ts';
import { hasRequirement, primaryId } from '../../../schema/catalog.ts';
import { DUAL_ERA_FAULTS } from '../../../mocks/dual-era/faults.ts';
import { modernChecks, runAgainstDualEra, runAgainstReference } from './test-helpers.ts';
import { expectKilledExactly } from '../../test-helpers.ts';

const CHECKS = modernChecks();
const ALL: readonly SwitchInfo[] = [...FAULTS, ...DUAL_ERA_FAULTS];
const DUAL_ERA = new Set<string>(DUAL_ERA_FAULTS.map((f) => f.name));
const named = new Set(CHECKS.flatMap((c) => c.killedBy));
/** Faults no check names yet (checks still to come): at most this many. Lower it as checks land. */
const KNOWN_UNKILLED = 0;

const citing = (c: CheckDef, req: string) => c.requirements.some((r) => primaryId(r) === primaryId(req));
const killedBy = (fault: string) => CHECKS.filter((c) => c.killedBy.includes(fault));

describe('the kill facts (2026-07-28)', () => {
  it('checks name only faults of the reference extension server or the dual-era target', () => {
    const names = new Set(ALL.map((f) => f.name));
    expect(CHECKS.flatMap((c) => c.killedBy.filter((n) => !names.has(n)).map((n) => `${c.id}: ${n}`))).toEqual([]);
  });

  it('every MUST check names a fault; a fault of a catalog requirement is named by a check citing it', () => {
    expect(CHECKS.filter((c) => c.level === 'MUST' && c.killedBy.length === 0).map((c) => c.id)).toEqual([]);
    const uncited = ALL.filter((f) => named.has(f.name) && hasRequirement(f.requirement) && !killedBy(f.name).some((c) => citing(c, f.requirement)));
    expect(uncited.map((f) => `${f.name}: no check naming it cites ${f.requirement}`)).toEqual([]);
    const bad = ALL.filter((f) => !hasRequirement(f.requirement) && !f.requirement.startsWith('schema:'));
    expect(bad.map((f) => `${f.name}: ${f.requirement} is neither a catalog id nor schema:…`)).toEqual([]);
  });

  it(`faults no check names yet: at most ${KNOWN_UNKILLED} (the ratchet)`, () => {
    const unkilled = ALL.filter((f) => !named.has(f.name)).map((f) => f.name);
    expect(unkilled.length, unkilled.join(', ')).toBeLessThanOrEqual(KNOWN_UNKILLED);
  });
});

/**
 * The stdio cell: faults whose checks read their evidence where stdio frames it otherwise than Streamable HTTP,
 * the server spawned over stdio: a subscription's notifications are told apart by their subscriptionId (over
 * HTTP by the stream), its acknowledgement and end likewise; a connection is a process (the statelessness
 * rules); a request without _meta is one raw line; a server's own request or notifications/cancelled comes on
 * the one channel (over HTTP on a request's stream), and a subscription's end is its response line.
 */
const STDIO_CELL = [
  'notification-no-subscription-id',
  'notification-before-ack',
  'unrequested-task-notifications',
  'version-from-prior-request',
  'missing-meta-served',
  'listen-teardown-not-cancelled',
  'task-cancel-notified',
  'input-as-server-request',
];

describe('every fault kills exactly the checks that name it (2026-07-28)', () => {
  it('the stdio cell names faults the checks name, none of them shown over Streamable HTTP only', () => {
    for (const f of STDIO_CELL) {
      expect(named.has(f), f).toBe(true);
      expect(ALL.find((x) => x.name === f)?.transport, f).toBeUndefined();
    }
  });

  const cells = [
    ...ALL.filter((f) => named.has(f.name)).map((f) => [f.name, f, 'http'] as const),
    ...STDIO_CELL.map((n) => [`${n}, over stdio`, ALL.find((f) => f.name === n)!, 'stdio'] as const),
  ];
  it.concurrent.each(cells)('%s', { timeout: 150_000 }, async (_label, fault, transport) => {
    const name = fault.name;
    const results = DUAL_ERA.has(name)
      ? await runAgainstDualEra({ faults: [name] })
      : await runAgainstReference(['--fault', name, ...(fault.args ?? [])], CHECKS, {}, transport);
    // One rule for every revision (suites/test-helpers.ts): no other check fails or warns.
    expectKilledExactly(name, results, CHECKS);
  });
});
