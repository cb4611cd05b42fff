// Which revision(s) a run grades a target in (--revision; RunOptions.revision). `auto` follows the dual-era
// client of basic-versioning.md "Backward Compatibility": probe with server/discover (our modern version in
// `_meta`); a DiscoverResult or a recognized modern error means a modern server, anything else (another
// error, no answer within the request bound, over HTTP a 4xx without a modern error body) a legacy one —
// never keyed to one error code. A modern server is also asked `initialize` on a connection of its own: a
// dual-era server is graded in both revisions, but not in one it speaks without Tasks while the other has them
// (initialize without `tasks`, a DiscoverResult without the extension). A transport target is probed the same
// way; the in-process reference receiver speaks 2025-11-25.
import { isObj } from '../engine/text.ts';
import type { Revision } from '../../schema/spec.ts';
import type { RunOptions } from '../engine/options.ts';
import { startupAllowance, type Peer } from '../wire/peer.ts';
import { connectorFor, initializeResultOf, type TargetSpec } from './target.ts';

export interface RevisionDecision {
  /** The revisions to grade the target in, oldest first (one session each). */
  revisions: Revision[];
  /** One line per step: what was asked, what came back, what follows (the CLI prints them). */
  why: string[];
  /** Revisions the target speaks but not with Tasks (`auto` only, when another revision has them): reported, not graded. */
  notGraded?: { revision: Revision; why: string }[];
}

/** What the legacy probe reports: the capabilities initialize answered with (their `tasks` says whether Tasks are supported). */
export interface LegacyProbe {
  capabilities?: Record<string, unknown>;
}

/**
 * What a revision's pre-flight (RevisionChoice.preflight: 2026-07-28's server/discover) learnt: `stateless`, the
 * target answered as a server of a per-request revision (`speaks`: this revision among its versions; `tasks`: its
 * answer declares Tasks, `withoutTasks` says what lacks when not); else not.
 */
export type PreflightOutcome =
  { stateless: true; speaks: boolean; tasks: boolean; withoutTasks: string; detail: string } | { stateless: false; detail: string };

/** The part of a revision's adapter chooseRevisions reads. */
export interface RevisionChoice {
  id: Revision;
  negotiation: 'initialize' | 'per-request';
  /**
   * Asks a target whether it speaks this revision, on a connection of its own (closed after), bounded by the
   * request timeout; `upBy`: the initialize probe's settling (from then on the request timeout holds), `opened`:
   * told the connection (its start-up paces the initialize probe's: startupAllowance).
   */
  preflight?(target: TargetSpec, requestTimeoutMs: number, upBy?: Promise<unknown>, opened?: (peer: Peer) => void): Promise<PreflightOutcome>;
}

/** initialize on a connection of its own (closed after): does the target speak 2025-11-25 too, with which capabilities? `startupMs`: its process's start-up allowance. */
async function probeInitialize(target: TargetSpec, requestTimeoutMs: number, startupMs: () => number): Promise<LegacyProbe> {
  // Closing the connector discards the connections it started ahead (left open, they kept a library caller's process alive).
  const connector = connectorFor(target, requestTimeoutMs, 1, startupMs);
  try {
    const peer = await connector.open();
    const capabilities = initializeResultOf(peer).capabilities;
    await peer.close();
    return { capabilities };
  } finally {
    await connector.close?.();
  }
}

/**
 * The revisions to grade `target` in under `options.revision`. Never throws: a target that cannot be reached
 * is the session's connection error. With `auto`, server/discover and the legacy probe run side by side (the
 * outcome is the probe-then-fall-back of the texts, in the time of one): `legacy` opens what the caller keeps
 * when it succeeds (the CLI: its 2025-11-25 pre-flight session), by default a bare initialize. Once server/discover
 * has settled, the legacy probe gets the request timeout (the mirror of probeDiscover's `upBy`): an initialize
 * unanswered by then is no 2025-11-25, said so (time, never a verdict).
 */
export async function chooseRevisions(
  revisions: readonly RevisionChoice[],
  target: TargetSpec,
  options: Pick<RunOptions, 'revision' | 'requestTimeoutMs'>,
  legacy?: () => Promise<LegacyProbe>,
): Promise<RevisionDecision> {
  if (options.revision !== 'auto') return { revisions: [options.revision], why: [`revision ${options.revision}: as asked (--revision)`] };
  // The dual-era probe of basic-versioning.md: the revision negotiated by initialize, and the per-request one asked first.
  const stateful = revisions.find((r) => r.negotiation === 'initialize');
  const stateless = revisions.find((r) => r.negotiation === 'per-request' && r.preflight);
  if (!stateful || !stateless) throw new Error('--revision auto needs a revision negotiated by initialize and one per request');
  if (target.kind === 'reference') return { revisions: [stateful.id], why: [`revision ${stateful.id}: the in-process reference receiver speaks it`] };
  let discovering: Peer | undefined;
  const startupMs = startupAllowance(() => discovering, options.requestTimeoutMs);
  const open = legacy ?? (() => probeInitialize(target, options.requestTimeoutMs, startupMs));
  const initialized = open().then(
    (probe) => ({ ok: true as const, tasks: isObj(probe.capabilities?.tasks), detail: 'initialize succeeded' }),
    (e: unknown) => {
      const why = e instanceof Error ? e.message : String(e);
      return { ok: false as const, detail: why.startsWith('initialize failed') ? why : `initialize failed (${why})` };
    },
  );
  const d = await stateless.preflight!(target, options.requestTimeoutMs, initialized, (p) => (discovering = p));
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<{ ok: false; detail: string }>(
    (resolve) =>
      (timer = setTimeout(
        () => resolve({ ok: false, detail: `initialize got no answer within ${options.requestTimeoutMs} ms after server/discover settled` }),
        options.requestTimeoutMs,
      )),
  );
  const init = await Promise.race([initialized, late]).finally(() => clearTimeout(timer));
  if (!d.stateless) return { revisions: [stateful.id], why: [`server/discover ${d.detail}: a legacy server, revision ${stateful.id} (initialize)`] };
  const why = [`server/discover ${d.detail}: a modern server${d.speaks ? `, revision ${stateless.id}` : ` that does not speak ${stateless.id}`}`];
  why.push(`${init.detail}: ${init.ok ? `it speaks ${stateful.id} too (dual-era)` : `no ${stateful.id}`}`);
  const spoken: { revision: Revision; tasks: boolean; without: string }[] = [];
  if (init.ok) spoken.push({ revision: stateful.id, tasks: init.tasks, without: 'initialize declares no tasks capability' });
  if (d.speaks) spoken.push({ revision: stateless.id, tasks: d.tasks, without: d.withoutTasks });
  // Neither: graded in the per-request revision, whose checks say what the server does not do.
  if (!spoken.length) return { revisions: [stateless.id], why };
  // A revision spoken without Tasks while another has them is reported, not graded; with Tasks in none, every
  // revision spoken is graded (its checks say the declaration is missing).
  const withTasks = spoken.some((s) => s.tasks);
  const notGraded = withTasks
    ? spoken.filter((s) => !s.tasks).map((s) => ({ revision: s.revision, why: `${s.without}: no Tasks in ${s.revision}, not graded` }))
    : [];
  for (const n of notGraded) why.push(n.why);
  return { revisions: spoken.filter((s) => !withTasks || s.tasks).map((s) => s.revision), why, ...(notGraded.length ? { notGraded } : {}) };
}
