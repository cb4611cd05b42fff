// The registry of revisions the judge speaks: the one module that imports the dated folders' adapters
// (suites/<date>/revision.ts; suites/layers.test.ts holds every other file to that). The faces (suites/api.ts,
// suites/vitest.ts, scripts/) pick an adapter here and hand it down; a new revision is one more line below.
import type { Revision } from '../schema/spec.ts';
import { runOptions, type RunOptions } from './engine/options.ts';
import type { RevisionAdapter } from './runner/adapter.ts';
import { chooseRevisions as choose, type LegacyProbe, type RevisionDecision } from './runner/revision.ts';
import { openSessionIn, type RunConfig, type SessionHooks, type TargetSession } from './runner/session.ts';
import type { TargetSpec } from './runner/target.ts';
import { adapter as revision20251125 } from './2025-11-25/revision.ts';
import { adapter as revision20260728 } from './2026-07-28/revision.ts';

/** Every revision's adapter, oldest first (the order of reports and of checksFor's registry). */
export const ADAPTERS: readonly RevisionAdapter[] = [revision20251125, revision20260728];

/** The adapter of one revision (throws for a revision none is registered for). */
export function adapterFor(id: Revision): RevisionAdapter {
  const a = ADAPTERS.find((x) => x.id === id);
  if (!a) throw new Error(`no revision ${id} is registered (suites/revisions.ts)`);
  return a;
}

/** Every registered revision's properties as replay tokens name them (--path). */
export const PROPERTY_TOKENS: readonly string[] = ADAPTERS.flatMap((a) => a.propertyTokens);

/** The revisions to grade `target` in under `options.revision` (suites/runner/revision.ts, among the registered ones). */
export function chooseRevisions(
  target: TargetSpec,
  options: Pick<RunOptions, 'revision' | 'requestTimeoutMs'>,
  initialize?: () => Promise<LegacyProbe>,
): Promise<RevisionDecision> {
  return choose(ADAPTERS, target, options, initialize);
}

/**
 * Opens the shared connection, probes the target and runs discovery if asked. Throws (a connection error) when
 * the target cannot be reached. A session speaks one revision: `auto` takes the first the pre-flight chose (the
 * older of the two for a dual-era target: grading in both is for the caller, with chooseRevisions).
 */
export async function openTargetSession(config: RunConfig, hooks: SessionHooks = {}): Promise<TargetSession> {
  const decision = await chooseRevisions(config.target, runOptions(config.options));
  return openSessionIn(adapterFor(decision.revisions[0]!), config, hooks, decision.why);
}

export type { RevisionAdapter, RevisionDecision };
