// Every receiver check of every registered revision (each revision's adapter lists its own: suites/revisions.ts), and which of them a run selects.
import type { CheckDef, CheckResult } from './engine/check.ts';
import { checkRevisions, matches, toRun } from './engine/select.ts';
import { SPEC_REVISION, type Revision } from '../schema/spec.ts';
import { ADAPTERS } from './revisions.ts';

/** Every receiver check of every revision, in report order (a run takes those of its revision: checksFor): each registered revision's (suites/revisions.ts). */
export const receiverChecks: CheckDef[] = ADAPTERS.flatMap((a) => a.checks);

/** The receiver checks of one spec revision (a later revision adds checks, or widens `revisions`). */
export function checksFor(revision: Revision = SPEC_REVISION): CheckDef[] {
  return receiverChecks.filter((c) => checkRevisions(c).includes(revision));
}

/** The receiver checks of 2025-11-25 (SPEC_REVISION, what `npm start` judges); every revision's: receiverChecks. */
export const receiverChecks2025: CheckDef[] = checksFor(SPEC_REVISION);

/** The checks a run of `revision` with these selectors runs (`runsLast` checks always: they read the others' transcripts). */
export function checksToRun(only: string[] | undefined, exclude: string[] = [], revision: Revision = SPEC_REVISION): CheckDef[] {
  return toRun(checksFor(revision), only, exclude);
}

export { checkRevisions };

/** Selectors (check ids, id prefixes, requirement ids, sections) that match no check. */
export function unmatchedSelectors(selectors: string[]): string[] {
  return selectors.filter((s) => !receiverChecks.some((c) => matches(c, s)));
}

/** Results in catalog order (sections as the spec has them), not completion order; others (properties) last. */
export function inCheckOrder<R extends CheckResult>(results: readonly R[]): R[] {
  const order = new Map(receiverChecks.map((c, i) => [c.id, i]));
  return [...results].sort((a, b) => (order.get(a.id) ?? 1e9) - (order.get(b.id) ?? 1e9));
}
