// The one harness of the matrices of every revision: the kill matrix (each fault of a reference peer makes
// exactly the checks naming it speak) and the no-false-verdict matrix (each latitude leaves every check silent),
// with one rule, CONTRIBUTING.md's: a check speaks (fail, or warn for a SHOULD) only for its own requirement.
// A warn for a fault of another requirement is a false verdict like a fail; a fault that breaks another
// check's precondition says so in its `alsoFails` (checks, or the not-exercised message), with the reason.
import { expect } from 'vitest';
import type { CheckDef, CheckResult } from './engine/check.ts';

/** A check speaks when it fails or warns. */
export const speaks = (r: CheckResult) => r.status === 'fail' || r.status === 'warn';

/** The results that speak, one line each (the no-false-verdict matrix requires none). */
export const spoken = (results: readonly CheckResult[]) => results.filter(speaks).map((r) => `${r.id} ${r.status}: ${r.message}`);

/** What a fault may make speak besides the checks naming it (mocks/receiver/faults.ts alsoFails). */
export interface AlsoFails {
  checks?: readonly string[];
  /** A result whose message matches is the fault breaking that check's precondition. */
  message?: RegExp;
}

/**
 * One cell of a kill matrix: every check naming `fault` in killedBy speaks (or, skipped, leaves the violation
 * it saw to the check that judged it first: one violation, one verdict), and no other check speaks unless the
 * fault's `alsoFails` allows it.
 */
export function expectKilledExactly(fault: string, results: readonly CheckResult[], checks: readonly CheckDef[], alsoFails: readonly AlsoFails[] = []): void {
  const byId = new Map(results.map((r) => [r.id, r]));
  const want = checks.filter((c) => c.killedBy.includes(fault));
  const survived = want.map((c) => byId.get(c.id)!).filter((r) => !speaks(r) && !(r.status === 'skip' && r.judgedBy && speaks(byId.get(r.judgedBy) ?? r)));
  expect(
    survived.map((r) => `${r.id}: ${r.status} ${r.message}`),
    `fault ${fault} went unnoticed by checks that name it in killedBy`,
  ).toEqual([]);
  const allowed = new Set([...want.map((c) => c.id), ...alsoFails.flatMap((a) => a.checks ?? [])]);
  const precondition = (r: CheckResult) => alsoFails.some((a) => a.message?.test(r.message));
  const unrelated = results.filter((r) => speaks(r) && !allowed.has(r.id) && !precondition(r));
  expect(
    unrelated.map((r) => `${r.id} ${r.status}: ${r.message}`),
    `fault ${fault} also made these checks speak: if it breaks their requirement, name '${fault}' in their killedBy (and, when they do not cite the fault's requirement, an alsoFails entry with the reason); else the check or the fault is wrong`,
  ).toEqual([]);
}
