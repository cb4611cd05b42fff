// Every receiver check of every revision, by spec section (one file each), and which of them a run selects.
import type { CheckDef, CheckResult } from './engine/check.ts';
import { matches, selected } from './engine/select.ts';
import { SPEC_REVISION, type Revision } from '../schema/spec.ts';
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
import { checks as negotiation2026 } from './2026-07-28/receiver/negotiation.ts';
import { checks as results2026 } from './2026-07-28/receiver/results.ts';
import { checks as removed2026 } from './2026-07-28/receiver/removed.ts';
import { checks as errors2026 } from './2026-07-28/receiver/errors.ts';
import { checks as creation2026 } from './2026-07-28/receiver/creation.ts';
import { checks as get2026 } from './2026-07-28/receiver/get.ts';
import { checks as input2026 } from './2026-07-28/receiver/input.ts';
import { checks as cancel2026 } from './2026-07-28/receiver/cancel.ts';
import { checks as notifications2026 } from './2026-07-28/receiver/notifications.ts';
import { checks as routing2026 } from './2026-07-28/receiver/routing.ts';
import { checks as ttl2026 } from './2026-07-28/receiver/ttl.ts';
import { checks as security2026 } from './2026-07-28/receiver/security.ts';
import { checks as meta2026 } from './2026-07-28/receiver/meta.ts';
import { checks as versioning2026 } from './2026-07-28/receiver/versioning.ts';
import { checks as headers2026 } from './2026-07-28/receiver/headers.ts';
import { checks as compat2026 } from './2026-07-28/receiver/compat.ts';
import { checks as codes2026 } from './2026-07-28/receiver/codes.ts';
import { checks as mrtr2026 } from './2026-07-28/receiver/mrtr.ts';

/** Every receiver check of every revision, in report order (a run takes those of its revision: checksFor). */
export const receiverChecks: CheckDef[] = [
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
  // 2026-07-28 + io.modelcontextprotocol/tasks (suites/2026-07-28/engine/check.ts: how to write one)
  ...negotiation2026,
  ...results2026,
  ...creation2026,
  ...get2026,
  ...ttl2026,
  ...input2026,
  ...cancel2026,
  ...notifications2026,
  ...routing2026,
  ...security2026,
  ...meta2026,
  ...versioning2026,
  ...headers2026,
  ...compat2026,
  ...codes2026,
  ...mrtr2026,
  ...removed2026,
  ...errors2026,
];

/** The spec revisions a check judges. */
export function checkRevisions(c: { revisions?: readonly Revision[] }): readonly Revision[] {
  return c.revisions ?? [SPEC_REVISION];
}

/** The receiver checks of one spec revision (a later revision adds checks, or widens `revisions`). */
export function checksFor(revision: Revision = SPEC_REVISION): CheckDef[] {
  return receiverChecks.filter((c) => checkRevisions(c).includes(revision));
}

/** The receiver checks of 2025-11-25 (SPEC_REVISION, what `npm start` judges); every revision's: receiverChecks. */
export const receiverChecks2025: CheckDef[] = checksFor(SPEC_REVISION);

/** The checks a run of `revision` with these selectors runs (`runsLast` checks always: they read the others' transcripts). */
export function checksToRun(only: string[] | undefined, exclude: string[] = [], revision: Revision = SPEC_REVISION): CheckDef[] {
  return checksFor(revision).filter((c) => c.runsLast || selected(c, only, exclude));
}

/** Selectors (check ids, id prefixes, requirement ids, sections) that match no check. */
export function unmatchedSelectors(selectors: string[]): string[] {
  return selectors.filter((s) => !receiverChecks.some((c) => matches(c, s)));
}

/** Results in catalog order (sections as the spec has them), not completion order; others (properties) last. */
export function inCheckOrder<R extends CheckResult>(results: readonly R[]): R[] {
  const order = new Map(receiverChecks.map((c, i) => [c.id, i]));
  return [...results].sort((a, b) => (order.get(a.id) ?? 1e9) - (order.get(b.id) ?? 1e9));
}
