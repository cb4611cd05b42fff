// Proof that the suite works: every named fault of the reference receiver makes the checks of the
// requirement it breaks fail (MUST) or warn (SHOULD), and no unrelated MUST check fails; and every
// MUST check is killed by at least one fault. The table is the fault registry itself (faults.ts).
import { describe, expect, it } from 'vitest';
import { allChecks } from './index.ts';
import { openTargetSession, runChecks } from './session.ts';
import { loadProfile } from './target.ts';
import type { CheckDef, CheckResult } from './engine.ts';
import { FAULTS } from '../mocks/receiver/faults.ts';
import { primaryId, hasRequirement } from '../fixtures/catalog.ts';

const profile = loadProfile('fixtures/reference.profile.json');

/** Receiver options a fault needs to be observable (e.g. several list pages). */
const FAULT_ARGS: Record<string, string[]> = {
  'no-next-cursor': ['--page-size', '2'],
  'list-omits-task': ['--page-size', '2'],
  'bad-cursor-ignored': ['--page-size', '2'],
};

/**
 * Checks a fault may break besides those citing its requirement, each with the reason it must.
 * Keep this short: collateral damage is a sign that a fault breaks more than one requirement.
 */
const COLLATERAL: Record<string, string[]> = {
  // Untimely timestamps are also schema violations of every message that carries the task.
  'missing-created-at': ['schema.messages-valid'],
  'bad-timestamp': ['schema.messages-valid'],
  'ttl-missing': ['schema.messages-valid'],
};

const citing = (c: CheckDef, req: string) => c.requirements.some((r) => primaryId(r) === primaryId(req));
const failing = (r: CheckResult) => r.status === 'fail' || r.status === 'warn';
const killedBy = new Map<string, string[]>();

async function runWith(args: string[]): Promise<CheckResult[]> {
  const session = await openTargetSession({ target: { kind: 'reference', args }, profile, options: { checkTimeoutMs: 20_000, requestTimeoutMs: 5_000 } });
  try {
    return await runChecks(allChecks, session, 16);
  } finally {
    await session.close();
  }
}

describe('every fault is caught by the checks of its requirement, and only by them', () => {
  it('every fault names a catalog requirement', () => {
    const unknown = FAULTS.filter((f) => !hasRequirement(f.requirement)).map((f) => `${f.name} → ${f.requirement}`);
    expect(unknown).toEqual([]);
  });

  it.concurrent.each(FAULTS.map((f) => [f.name, f] as const))('%s', { timeout: 120_000 }, async (name, fault) => {
    const results = await runWith(['--fault', name, ...(FAULT_ARGS[name] ?? [])]);
    const targeted = results.filter((r) => citing(allChecks.find((c) => c.id === r.id)!, fault.requirement));
    expect(targeted.map((r) => r.id), `no check cites ${fault.requirement}`).not.toEqual([]);
    const caught = targeted.filter(failing);
    expect(caught.map((r) => r.id), `fault ${name} went unnoticed:\n${targeted.map((r) => `${r.id}: ${r.status} ${r.message}`).join('\n')}`).not.toEqual([]);
    const allowed = new Set([...targeted.map((r) => r.id), ...(COLLATERAL[name] ?? [])]);
    for (const r of results.filter((x) => failing(x) && allowed.has(x.id))) killedBy.set(r.id, [...(killedBy.get(r.id) ?? []), name]);
    const unrelated = results.filter((r) => r.status === 'fail' && !allowed.has(r.id));
    expect(unrelated.map((r) => `${r.id}: ${r.message}`), `fault ${name} also failed unrelated MUST checks`).toEqual([]);
  });
});

// Runs after the fault runs above (describe blocks run in order).
describe('kill matrix', () => {
  it('every MUST check was failed by at least one fault', () => {
    const unkilled = allChecks.filter((c) => c.level === 'MUST' && !killedBy.has(c.id));
    expect(unkilled.map((c) => `${c.id} [${c.requirements.join(', ')}]`)).toEqual([]);
  });
});
