// Every receiver check, by spec section (one file each), and which of them a run selects.
import type { CheckDef, CheckResult } from './engine/check.ts';
import { matches, selected } from './engine/select.ts';
import { SPEC_REVISION } from '../schema/spec.ts';
import { checks as capabilities } from './receiver/capabilities.ts';
import { checks as creation } from './receiver/creation.ts';
import { checks as lifecycle } from './receiver/lifecycle.ts';
import { checks as get } from './receiver/get.ts';
import { checks as result } from './receiver/result.ts';
import { checks as relatedTask } from './receiver/related-task.ts';
import { checks as list } from './receiver/list.ts';
import { checks as cancel } from './receiver/cancel.ts';
import { checks as ttl } from './receiver/ttl.ts';
import { checks as errors } from './receiver/errors.ts';
import { checks as progress } from './receiver/progress.ts';
import { checks as notifications } from './receiver/notifications.ts';
import { checks as security } from './receiver/security.ts';
import { checks as transport } from './receiver/transport.ts';
import { checks as schema } from './receiver/schema.ts';

export const allChecks: CheckDef[] = [
  ...capabilities,
  ...creation,
  ...lifecycle,
  ...get,
  ...result,
  ...relatedTask,
  ...list,
  ...cancel,
  ...ttl,
  ...errors,
  ...progress,
  ...notifications,
  ...security,
  ...transport,
  ...schema,
];

/** The spec revisions a check judges. */
export function checkRevisions(c: { revisions?: readonly string[] }): readonly string[] {
  return c.revisions ?? [SPEC_REVISION];
}

/** The receiver checks of one spec revision (a later revision adds checks, or widens `revisions`). */
export function checksFor(revision: string = SPEC_REVISION): CheckDef[] {
  return allChecks.filter((c) => checkRevisions(c).includes(revision));
}

/** The checks a run with these selectors runs (`runsLast` checks always: they read the others' transcripts). */
export function checksToRun(only: string[] | undefined, exclude: string[] = []): CheckDef[] {
  return allChecks.filter((c) => c.runsLast || selected(c, only, exclude));
}

/** Selectors (check ids, id prefixes, requirement ids, sections) that match no check. */
export function unmatchedSelectors(selectors: string[]): string[] {
  return selectors.filter((s) => !allChecks.some((c) => matches(c, s)));
}

/** Results in catalog order (sections as the spec has them), not completion order; others (properties) last. */
export function inCheckOrder<R extends CheckResult>(results: readonly R[]): R[] {
  const order = new Map(allChecks.map((c, i) => [c.id, i]));
  return [...results].sort((a, b) => (order.get(a.id) ?? 1e9) - (order.get(b.id) ?? 1e9));
}
