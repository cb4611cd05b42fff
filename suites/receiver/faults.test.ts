// The kill matrix, computed from the facts on the checks: every named fault of the reference receiver
// (mocks/receiver/faults.ts) makes exactly the checks that name it in `killedBy` fail (MUST) or warn
// (SHOULD), and no other check fails or warns except as the fault's `alsoFails` allows; every MUST check names a
// fault. Each fault runs with the receiver options it names (`args`), in process — or over Streamable
// HTTP (an in-process HTTP listener) for faults that show only there (`transport: 'http'`).
import { describe, expect, it } from 'vitest';
import { receiverChecks2025 } from '../index.ts';
import { runAllChecksOnReference } from './test-helpers.ts';
import { expectKilledExactly } from '../test-helpers.ts';
import type { CheckDef, CheckResult } from '../engine/check.ts';
import { FAULTS as ALL_FAULTS, type FaultInfo, type FaultName } from '../../mocks/receiver/faults.ts';
import { primaryId, hasRequirement } from '../../schema/catalog.ts';

/** Faults of the receiver as requestor are killed by the requestor checks (suites/requestor-server.test.ts). */
const FAULTS = ALL_FAULTS.filter((f: FaultInfo) => !f.asRequestor);

const citing = (c: CheckDef, req: string) => c.requirements.some((r) => primaryId(r) === primaryId(req));
const killedBy = (fault: FaultName) => receiverChecks2025.filter((c) => c.killedBy.includes(fault));

function runWith(fault: FaultInfo): Promise<CheckResult[]> {
  return runAllChecksOnReference(['--fault', fault.name, ...(fault.args ?? [])], fault.transport === 'http', {
    checkTimeoutMs: 20_000,
    requestTimeoutMs: 5_000,
  });
}

describe('the kill facts', () => {
  it('every fault names a catalog requirement; alsoFails name known checks', () => {
    const unknown = FAULTS.filter((f) => !hasRequirement(f.requirement)).map((f) => `${f.name} → ${f.requirement}`);
    expect(unknown).toEqual([]);
    const ids = new Set(receiverChecks2025.map((c) => c.id));
    const bad = FAULTS.flatMap((f: FaultInfo) =>
      (f.alsoFails ?? []).flatMap((a) => (a.checks ?? []).filter((id) => !ids.has(id)).map((id) => `${f.name}: alsoFails names unknown check ${id}`)),
    );
    expect(bad).toEqual([]);
  });

  it('every MUST check names a fault that kills it; every fault kills a check citing its requirement', () => {
    const unkilled = receiverChecks2025.filter((c) => c.level === 'MUST' && c.killedBy.length === 0);
    expect(
      unkilled.map(
        (c) => `${c.id} [${c.requirements.join(', ')}]: add the fault that breaks it to killedBy (a new one in mocks/receiver/faults.ts if none does)`,
      ),
    ).toEqual([]);
    const uncaught = FAULTS.filter((f) => !killedBy(f.name).some((c) => citing(c, f.requirement)));
    expect(uncaught.map((f) => `${f.name}: no check citing ${f.requirement} names it in killedBy`)).toEqual([]);
  });

  it("a check killed by a fault of another requirement is listed in that fault's alsoFails (with the reason)", () => {
    const unexplained = receiverChecks2025.flatMap((c) =>
      c.killedBy
        .map((n) => FAULTS.find((f) => f.name === n) as FaultInfo)
        .filter((f) => !citing(c, f.requirement) && !(f.alsoFails ?? []).some((a) => a.checks?.includes(c.id)))
        .map((f) => `${c.id} is killed by ${f.name} (${f.requirement}), which it does not cite`),
    );
    expect(unexplained).toEqual([]);
  });
});

describe('every fault kills exactly the checks that name it', () => {
  it.concurrent.each(FAULTS.map((f) => [f.name, f as FaultInfo] as const))('%s', { timeout: 120_000 }, async (name, fault) => {
    // One rule for every revision (suites/test-helpers.ts): no other check fails or warns unless alsoFails allows it.
    expectKilledExactly(name, await runWith(fault), receiverChecks2025, fault.alsoFails);
  });
});
