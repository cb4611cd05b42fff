// Which checks a run selects: --only and --exclude selectors (check id, id prefix, requirement id, section).
import { SPEC_REVISION, type Revision } from '../../schema/spec.ts';
import type { CheckDef } from './check.ts';

/** Does a check match a selector (check id, id prefix, requirement id, section)? */
export function matches(check: Pick<CheckDef, 'id' | 'requirements' | 'section'>, selector: string): boolean {
  return check.id === selector || check.id.startsWith(selector + '.') || check.requirements.includes(selector) || check.section === selector;
}

/** Is a check selected by --only (empty: all) and not removed by --exclude? */
export function selected(check: Pick<CheckDef, 'id' | 'requirements' | 'section'>, only: string[] | undefined, exclude: string[] = []): boolean {
  if (exclude.some((s) => matches(check, s))) return false;
  return !only || only.length === 0 || only.some((s) => matches(check, s));
}

/** The spec revisions a check judges (absent: SPEC_REVISION's, the first revision's checks). */
export function checkRevisions(c: { revisions?: readonly Revision[] }): readonly Revision[] {
  return c.revisions ?? [SPEC_REVISION];
}

/** The checks of `checks` a run with these selectors runs (`runsLast` checks always: they read the others' transcripts). */
export function toRun<C extends CheckDef>(checks: readonly C[], only: string[] | undefined, exclude: string[] = []): C[] {
  return checks.filter((c) => c.runsLast || selected(c, only, exclude));
}
