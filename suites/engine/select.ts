// Which checks a run selects: --only and --exclude selectors (check id, id prefix, requirement id, section).
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
