// One run against one target: the connector, the shared connection, what the probe learnt.
import type { Peer } from '../wire/peer.ts';
import type { Profile } from '../engine/profile.ts';
import type { CheckDef, CheckResult, RunBarrier, RunState, TargetConnector, TargetInfo } from '../engine/check.ts';
import { runOptions, type RunOptions } from '../engine/options.ts';
import { afterDisconnectFinding, runCheck } from '../engine/run-check.ts';
import { taskSlots } from './task-slots.ts';
import { deferred } from '../wire/deferred.ts';
import { connectorFor, initializeResultOf, listTools, probe, rolesLeftOut, type TargetSpec } from './target.ts';
import { SPEC_REVISION, type Revision } from '../../schema/spec.ts';
import { DEFAULT_DISCOVERY, discover, planDiscovery, type DiscoveryPlan, type DiscoveryResult, type DiscoverySettings } from './discovery.ts';
import { discoverRequestorRoles, type RequestorPlan } from './requestor-discovery.ts';
import { profileFor, profileSettles, REQUESTOR_ROLES } from '../engine/profile.ts';

/** A discovery of any revision (each but 2025-11-25's says which in `revision`; its observations are its own: `any`). */
export type AnyDiscovery = DiscoveryResult<any>;

export interface RunConfig {
  target: TargetSpec;
  profile?: Profile;
  /** Discover the roles the profile leaves out (runner/discovery.ts); absent or mode off: the profile alone. */
  discover?: DiscoverySettings;
  /** Discovery already done (the CLI discovers once, before the checks run): its roles complete the profile (a discovery of the other revision is not used). */
  discovered?: AnyDiscovery;
  /** Check ids, requirement ids or section names to run (empty: all). */
  only?: string[];
  /** Check ids, requirement ids or section names not to run (the mirror of `only`). */
  exclude?: string[];
  /** The run's options (engine/options.ts); what is left out takes the defaults of runOptions(). */
  options?: Partial<RunOptions>;
}

export interface TargetSession {
  /** The revision the session speaks and judges (options.revision resolved: never `auto`). */
  revision: Revision;
  /** How `auto` chose it (suites/runner/revision.ts), or that it was asked for. */
  revisionWhy: string[];
  connector: TargetConnector;
  shared: Peer;
  info: TargetInfo;
  /** What discovery did, when it ran (or was given in the config), in the session's revision. */
  discovery?: AnyDiscovery;
  options: RunOptions;
  /** Results so far, in completion order. */
  results: CheckResult[];
  /** Target health, the live-task bound and the limit seen, shared by the session's checks. */
  run: RunState;
  close(): Promise<void>;
}

export interface SessionHooks {
  /** Called with discovery's plan (either revision's) before it calls any tool (the CLI prints it). */
  onDiscoveryPlan?: (plan: DiscoveryPlan, budgetMs: number) => void;
  /** Called with the requestor roles' plan before any of its tools is called. */
  onRequestorPlan?: (plan: RequestorPlan) => void;
}

/** What opening a session in one revision gives: the revision's connect, probe and discovery (RevisionAdapter.open). */
export interface OpenedSession {
  connector: TargetConnector;
  shared: Peer;
  info: TargetInfo;
  discovery?: AnyDiscovery;
  close(): Promise<void>;
}

/** A revision's way to open a session (connect, probe, discover); a discovery in `config.discovered` of another revision it leaves unused. */
export interface SessionOpener {
  id: Revision;
  open(config: RunConfig, options: RunOptions, hooks: SessionHooks): Promise<OpenedSession>;
}

/** Discovery that looked for requestor roles only (the profile names every receiver role). */
function noReceiverDiscovery(mode: DiscoveryResult['mode'], budgetMs: number): DiscoveryResult {
  return {
    mode,
    budgetMs,
    elapsedMs: 0,
    budgetExhausted: false,
    plan: { mode, roles: [], calls: [], notCalled: [], noCalls: 'the profile names every receiver role' },
    observations: [],
    roles: {},
    missing: {},
  };
}

/**
 * Opens a session in `revision` (its adapter's `open`: connect, probe, discovery) with the run's options;
 * throws (a connection error) when the target cannot be reached. The faces pick the revision
 * (suites/revisions.ts openTargetSession: `auto` resolved by chooseRevisions).
 */
export async function openSessionIn(
  revision: SessionOpener,
  config: RunConfig,
  hooks: SessionHooks = {},
  revisionWhy: string[] = [`revision ${revision.id}: as asked (--revision)`],
): Promise<TargetSession> {
  const options = { ...runOptions(config.options), revision: revision.id };
  // The profile's roles for this revision (its `revisions` section over the roles of every revision).
  const profiled = { ...config, profile: profileFor(config.profile, revision.id) };
  const opened = await revision.open(profiled, options, hooks);
  opened.info.revision ??= revision.id;
  return {
    revision: revision.id,
    revisionWhy,
    ...opened,
    options,
    results: [],
    run: { health: {}, slots: taskSlots(options.maxTasks, profiled.profile?.limits) },
  };
}

/**
 * 2025-11-25's session (an `initialize` handshake): the shared connection, tools/list, discovery of the roles
 * the profile leaves out (receiver roles on the shared connection, requestor roles on one of their own), the probe.
 */
export async function openInitializeSession(config: RunConfig, options: RunOptions, hooks: SessionHooks): Promise<OpenedSession> {
  const connector = connectorFor(config.target, options.requestTimeoutMs, options.concurrency);
  const shared = await connector.open();
  try {
    const tools = await listTools(shared);
    let discovery = config.discovered?.revision === undefined ? (config.discovered as DiscoveryResult | undefined) : undefined;
    const leftOut = rolesLeftOut(config.profile).filter((r) => !config.discover?.roles || config.discover.roles.includes(r));
    const requestorLeftOut = REQUESTOR_ROLES.filter(
      (r) => !profileSettles(config.profile, r) && (!config.discover?.roles || config.discover.roles.includes(r)),
    );
    if (!discovery && config.discover && config.discover.mode !== 'off' && (leftOut.length > 0 || requestorLeftOut.length > 0)) {
      const started = Date.now();
      const capabilities = initializeResultOf(shared).capabilities ?? {};
      const settings = { requestTimeoutMs: options.requestTimeoutMs, ...config.discover };
      const budgetMs = settings.budgetMs ?? DEFAULT_DISCOVERY.budgetMs;
      if (leftOut.length > 0) {
        const plan = planDiscovery(tools, capabilities, settings, leftOut);
        hooks.onDiscoveryPlan?.(plan, budgetMs);
        discovery = await discover(shared, tools, plan, settings);
      } else discovery = noReceiverDiscovery(config.discover.mode, budgetMs);
      // The requestor roles, on a connection of their own, in what is left of the budget.
      if (requestorLeftOut.length > 0) {
        const found = await discoverRequestorRoles(connector, requestorLeftOut, new Set(tools.map((t) => t?.name)), {
          mode: config.discover.mode,
          budgetMs: Math.max(0, budgetMs - (Date.now() - started)),
          requestTimeoutMs: options.requestTimeoutMs,
          onPlan: (plan) => hooks.onRequestorPlan?.(plan),
        });
        discovery = {
          ...discovery,
          roles: { ...discovery.roles, ...found.roles },
          missing: { ...discovery.missing, ...found.missing },
          requestor: { plan: found.plan, observations: found.observations },
          elapsedMs: Date.now() - started,
        };
      }
    }
    const info = await probe(shared, connector, config.profile, discovery, tools);
    return {
      connector,
      shared,
      info,
      discovery,
      close: async () => {
        await shared.close();
        await connector.close?.();
      },
    };
  } catch (e) {
    await shared.close();
    await connector.close?.();
    throw e;
  }
}

/** How 2025-11-25 sessions open (openSessionIn). */
export const SESSIONS_2025: SessionOpener = { id: SPEC_REVISION, open: openInitializeSession };

/** Runs one check in a session and keeps its result in the session's history (onCheckStart, onCheckDone: the run's events). */
export async function runInSession(check: CheckDef, session: TargetSession): Promise<CheckResult> {
  session.options.onCheckStart?.({ id: check.id, section: check.section });
  const history = () => session.run.barrier?.history(session.results, check.id) ?? session.results;
  const r = await runCheck(check, session.shared, session.info, session.connector, session.options, history, session.run);
  r.revision = session.revision;
  session.results.push(r);
  session.options.onCheckDone?.(r);
  return r;
}

/**
 * The order a run schedules checks in: the others concurrently, those that wait longest (CheckDef.waitsMs, for
 * this profile) first and the rest in catalog order, then the checks that load the target one at a time, then
 * those marked `runsLast`. `actingFirst`: the runsLast checks act among the others, in catalog order (their
 * reading waits: runChecks), and `last` is the checks that load the target.
 */
export function scheduled(checks: readonly CheckDef[], profile?: Profile, actingFirst = false): { first: CheckDef[]; last: CheckDef[] } {
  const waits = new Map(checks.map((c) => [c, profile && c.waitsMs ? c.waitsMs(profile) : 0]));
  const loads = checks.filter((c) => c.loadsTarget && !c.runsLast);
  return {
    first: checks.filter((c) => (actingFirst ? c.runsLast || !c.loadsTarget : !c.runsLast && !c.loadsTarget)).sort((a, b) => waits.get(b)! - waits.get(a)!),
    last: actingFirst ? loads : [...loads, ...checks.filter((c) => c.runsLast)],
  };
}

/**
 * Runs checks in this process with bounded concurrency (the CLI, runConformance, tests and benchmarks;
 * the vitest helper runs the same checks as tests). Checks that load the target run after the others, one
 * at a time. Checks marked `runsLast` act among the others and wait (without holding a place among the
 * `concurrency`) until the rest is done before they read the run; then they judge together. With concurrency
 * 1, one check at a time: the others, those that load the target, then each runsLast check whole. Results in
 * the order of `checks`.
 */
export async function runChecks(checks: CheckDef[], session: TargetSession, concurrency = session.options.concurrency): Promise<CheckResult[]> {
  const actingFirst = concurrency > 1 && checks.some((c) => c.runsLast);
  const { first, last } = scheduled(checks, session.info.profile, actingFirst);
  // How many connections of their own the checks open (each check gives back what it did not use when it ends).
  session.connector.expect?.(checks.reduce((n, c) => n + (c.opensConnections ?? 0), 0));
  const results = new Map<CheckDef, CheckResult>();
  const running = new Map<CheckDef, Promise<void>>();
  const barrier = actingFirst ? runBarrier(checks.filter((c) => c.runsLast)) : undefined;
  const start = (c: CheckDef) => {
    const p = runInSession(c, session).then((r) => void results.set(c, r));
    running.set(c, p);
    return p;
  };
  let next = 0;
  // A runsLast check frees its place once it has acted.
  const worker = async () => {
    while (next < first.length) {
      const c = first[next++]!;
      await (c.runsLast && barrier ? Promise.race([start(c), barrier.acted(c.id)]) : start(c));
    }
  };
  if (barrier) session.run.barrier = barrier;
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, first.length) }, worker));
    for (const c of last) await start(c);
    barrier?.open();
    await Promise.all(running.values());
  } finally {
    if (barrier && session.run.barrier === barrier) session.run.barrier = undefined;
  }
  // A target that died after a check disconnected from a stream: the finding is that check's (run-check.ts afterDisconnectFinding).
  const down = session.run.health.down;
  if (down?.afterDisconnect)
    for (const [c, r] of results) {
      const finding = afterDisconnectFinding(r, down);
      if (finding) results.set(c, finding);
    }
  return checks.map((c) => results.get(c)!);
}

/** The barrier of runChecks for these runsLast checks: `acted(id)` resolves when that one has, `open()` lets them read. */
function runBarrier(judges: readonly CheckDef[]): RunBarrier & { acted(id: string): Promise<void>; open(): void } {
  const acted = new Map(judges.map((c) => [c.id, deferred<void>()]));
  const opened = deferred<void>();
  const allJudged = deferred<void>();
  const evidence = new Map<string, () => CheckResult>();
  let judged = 0;
  return {
    acted: (id) => acted.get(id)!.promise,
    open: () => {
      opened.resolve();
      if (evidence.size === 0) allJudged.resolve();
    },
    reached(id, what) {
      evidence.set(id, what);
      acted.get(id)?.resolve();
      return opened.promise;
    },
    judged() {
      if (++judged === evidence.size) allJudged.resolve();
      return allJudged.promise;
    },
    history(results, id) {
      const done = new Set(results.map((r) => r.id));
      return [...results, ...[...evidence].filter(([other]) => other !== id && !done.has(other)).map(([, what]) => what())];
    },
  };
}
