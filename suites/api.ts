// The library API (`import { runConformance } from 'mcp-tasks-conformance'`): grade a task receiver
// from code — a command, a URL, or an in-process transport — and get the report the CLI writes as JSON.
// Checks run in this process (no vitest); `mcp-tasks-conformance/vitest` (suites/vitest.ts) runs them
// as tests of the caller's own vitest run instead.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { checkRevisions, checksFor, checksToRun, inCheckOrder, receiverChecks, unmatchedSelectors } from './index.ts';
import { runChecks, scheduled, type AnyDiscovery, type RunConfig, type TargetSession } from './runner/session.ts';
import { matches, selected } from './engine/select.ts';
import {
  gradeServerAsRequestor,
  receiverChecksRun,
  runServerAsRequestor,
  serverRequestorChecks,
  serverRequestorOptions,
  SERVER_REQUESTOR_SECTION_PREFIX,
} from './requestor/server-requestor.ts';
import { describeTarget, loadProfile, type TargetSpec } from './runner/target.ts';
import { profileFor, REQUESTOR_ROLES, type Profile } from './engine/profile.ts';
import { DEFAULT_DISCOVERY, DISCOVER_MODES, profileToWrite, type DiscoverMode } from './runner/discovery.ts';
import type { CheckResult } from './engine/check.ts';
import { SPEC_REVISION, type Revision } from '../schema/spec.ts';
import { computeCoverage, mergeCoverage, type RunCoverage } from './coverage.ts';
import { runOptions, type RunEvents, type RunOptions } from './engine/options.ts';
import { lowestLimits } from './engine/profile.ts';
import { buildReport, gateReport, loadBaseline, type Report } from './report/model.ts';
import { writeReports } from './report/write.ts';
import { addReproductions, type PassedOption } from './report/reproduce.ts';
import { addReplays } from './report/replay.ts';
import { writeFileSync } from 'node:fs';
import { errorText } from './wire/peer.ts';
import { parsePropertyArgs, type PropertyRunOptions } from './properties/run.ts';
import { adapterFor, chooseRevisions, openTargetSession, PROPERTY_TOKENS } from './revisions.ts';

/**
 * The receiver under test:
 * - a string: an http(s) URL of a Streamable HTTP endpoint, or else a command line spawned per
 *   connection and spoken to over stdio;
 * - `{ command }` / `{ url, headers, secondaryHeaders }`: the same, with options;
 * - a function returning a new client `Transport`, connected to the target and not yet started, for
 *   every connection the checks open (an in-process server: one end of the SDK's `InMemoryTransport`
 *   pair, the other end connected to a new `McpServer`).
 */
export type Target =
  | string
  | URL
  | { command: string; cwd?: string; env?: Record<string, string> }
  | { url: string | URL; headers?: Record<string, string>; secondaryHeaders?: Record<string, string> }
  | (() => Transport | Promise<Transport>);

export interface ConformanceOptions {
  /** Which of the target's tools plays which role: a profile or the path of a profile file (docs/SERVERS.md, "Profiles"). It wins for the roles it names; discovery finds the others. */
  profile?: Profile | string;
  /** Find the roles the profile leaves out by calling tools as tasks (as the CLI's --discover; default 'safe'). */
  discover?: DiscoverMode;
  /** Bound for discovery (ms; default 30000). */
  discoverBudgetMs?: number;
  /** Run only these: check ids, id prefixes, requirement ids or section names. */
  only?: string[];
  /** Leave these out (the same selectors; wins over `only`). */
  exclude?: string[];
  /** The revision to grade the target in (the CLI's --revision; default auto: probed, and a target that speaks both is graded in both). */
  revision?: RunOptions['revision'];
  /** Bound for one request (ms; default 10000; the CLI's --request-timeout). */
  requestTimeoutMs?: RunOptions['requestTimeoutMs'];
  /** Bound for one check (ms; default 30000, at least 3 × requestTimeoutMs; --check-timeout). */
  checkTimeoutMs?: RunOptions['checkTimeoutMs'];
  /** Most tasks the run keeps live at once (default 20; --max-tasks); checks that load the target on purpose run last. */
  maxTasks?: RunOptions['maxTasks'];
  /** Checks run at once (default 16; --concurrency). */
  concurrency?: RunOptions['concurrency'];
  /** Check ids expected to fail (a baseline): marked `expectedFailure` in the report. */
  expectedFailures?: string[];
  /** A baseline file (the CLI's --baseline: a JSON list, `{ "expectedFailures": [...] }` or YAML `- id` lines): its ids join `expectedFailures`. */
  baseline?: string;
  /** How the report names the target (default: its command, URL or "in-process transport"). */
  label?: string;
  /** Called before any check starts, with every check the run will grade (the CLI's progress hangs on these). */
  onRunStart?: RunEvents['onRunStart'];
  /** Called as each check starts. */
  onCheckStart?: RunEvents['onCheckStart'];
  /** Called with each check's result as it has one. */
  onCheckDone?: RunEvents['onCheckDone'];
  /** Write the JSON report to this file (--json). */
  json?: string;
  /** Write JUnit XML to this file (--junit). */
  junit?: string;
  /** Write the Markdown report to this file (--markdown). */
  markdown?: string;
  /** Warnings are JUnit failures too, and the Markdown verdict counts them (--strict). */
  strict?: boolean;
  /** Save the roles in use, with what discovery observed, as a profile to keep (--write-profile). */
  writeProfile?: string;
  /** Applicable MUST requirements not exercised fail the run (--require-coverage; the report's `requireCoverage`, exitCode 1). */
  requireCoverage?: boolean;
  /**
   * A profile tool the target does not list, or an `only`/`exclude` selector that matches no check of the revisions
   * the run grades, is a note instead of an error (--allow-unmatched). Without it the run refuses (UsageError, exit 2).
   */
  allowUnmatched?: boolean;
  /** `writeProfile` with `only`/`exclude` writes the roles those checks need only (--allow-partial-profile); without it, refused. */
  allowPartialProfile?: boolean;
  /** Also run the property-based tests (--properties; suites/properties/README.md); their results join the checks'. */
  properties?: boolean;
  /** Property runs (--runs; default 100; hostile inputs: runs × 10 per category). Needs `properties`. */
  runs?: number;
  /** fast-check seed of the properties (--seed; default random, in each property's message). Needs `properties`. */
  seed?: number;
  /** Replay one printed counterexample, `<property>/<path>[/<replayPath>]` (--path; needs `seed`; the checks do not run). */
  path?: string;
  /** Time limit per property (ms; --properties-timeout; default 60000); an interrupted property is a skip. */
  propertiesTimeoutMs?: number;
}

/**
 * The `server` command's options that rerun a check of this run against the same target (suites/report/reproduce.ts):
 * undefined where the run has no command line (an in-process transport, a profile object, a stdio command with its
 * own cwd or env), so no reproduction is printed that would grade something else.
 */
export function commandLineOf(target: Target, options: ConformanceOptions): PassedOption[] | undefined {
  const out: PassedOption[] = [];
  if (typeof target === 'function') return undefined;
  if (typeof target === 'string' || target instanceof URL) {
    const s = String(target);
    out.push(/^https?:\/\//i.test(s) ? { name: 'url', value: s } : { name: 'stdio', value: s });
  } else if ('command' in target) {
    if (target.cwd !== undefined || target.env !== undefined) return undefined;
    out.push({ name: 'stdio', value: target.command });
  } else {
    out.push({ name: 'url', value: String(target.url) });
    for (const [k, v] of Object.entries(target.headers ?? {})) out.push({ name: 'header', value: `${k}: ${v}` });
    for (const [k, v] of Object.entries(target.secondaryHeaders ?? {})) out.push({ name: 'secondary-header', value: `${k}: ${v}` });
  }
  if (typeof options.profile === 'object') return undefined;
  if (options.profile !== undefined) out.push({ name: 'profile', value: options.profile });
  const values: [string, unknown][] = [
    ['discover', options.discover],
    ['discover-budget', options.discoverBudgetMs],
    ['request-timeout', options.requestTimeoutMs],
    ['check-timeout', options.checkTimeoutMs],
    ['max-tasks', options.maxTasks],
    ['concurrency', options.concurrency],
    ['baseline', options.baseline],
  ];
  for (const [name, value] of values) if (value !== undefined) out.push({ name, value: String(value) });
  if (options.strict) out.push({ name: 'strict' });
  if (options.requireCoverage) out.push({ name: 'require-coverage' });
  if (options.allowUnmatched) out.push({ name: 'allow-unmatched' });
  return out;
}

/** Every option's name at run time (the CLI's flags are held against it: scripts/cli.test.ts); the type keeps it complete. */
export const CONFORMANCE_OPTION_NAMES = Object.keys({
  profile: true,
  discover: true,
  discoverBudgetMs: true,
  only: true,
  exclude: true,
  revision: true,
  requestTimeoutMs: true,
  checkTimeoutMs: true,
  maxTasks: true,
  concurrency: true,
  expectedFailures: true,
  baseline: true,
  label: true,
  json: true,
  junit: true,
  markdown: true,
  strict: true,
  writeProfile: true,
  requireCoverage: true,
  allowUnmatched: true,
  allowPartialProfile: true,
  properties: true,
  runs: true,
  seed: true,
  path: true,
  propertiesTimeoutMs: true,
  onRunStart: true,
  onCheckStart: true,
  onCheckDone: true,
} satisfies Record<keyof ConformanceOptions, true>) as (keyof ConformanceOptions)[];

/** The options of runConformance: the run's, and what the CLI does with the report, under the flags' names. */
export type RunConformanceOptions = ConformanceOptions;

/** The property runs the options ask for (undefined without `properties`); throws on values the CLI refuses. */
export function propertyOptions(options: ConformanceOptions, commandLine: string[] = []): PropertyRunOptions | undefined {
  const str = (v: number | undefined) => (v === undefined ? undefined : String(v));
  return parsePropertyArgs(
    {
      properties: options.properties,
      runs: str(options.runs),
      seed: str(options.seed),
      path: options.path,
      'properties-timeout': str(options.propertiesTimeoutMs),
    },
    commandLine,
    PROPERTY_TOKENS,
  );
}

/** The target as the harness takes it. */
export function targetSpec(target: Target, label?: string): TargetSpec {
  if (typeof target === 'function') return { kind: 'transport', connect: target, ...(label ? { label } : {}) };
  if (target instanceof URL) return { kind: 'http', url: target.href };
  if (typeof target === 'string') return /^https?:\/\//i.test(target) ? { kind: 'http', url: target } : { kind: 'stdio', command: target };
  if ('command' in target)
    return { kind: 'stdio', command: target.command, ...(target.cwd ? { cwd: target.cwd } : {}), ...(target.env ? { env: target.env } : {}) };
  return {
    kind: 'http',
    url: String(target.url),
    ...(target.headers ? { headers: target.headers } : {}),
    ...(target.secondaryHeaders ? { secondaryHeaders: target.secondaryHeaders } : {}),
  };
}

/** Writes --write-profile's file: every role of every revision graded (profileToWrite). */
export function writeProfileFile(path: string, sessions: readonly TargetSession[], given: Profile | undefined, label: string): void {
  const graded = sessions.map((s) => ({ revision: s.revision, info: s.info, discovery: s.discovery, given: profileFor(given, s.revision) }));
  // The live-task limits learned from the target's refusals (the lowest of the sessions'), or those the given profile kept.
  const limits = lowestLimits(sessions.flatMap((s) => s.run.slots?.learned?.() ?? [])) ?? given?.limits;
  writeFileSync(path, JSON.stringify({ ...profileToWrite(graded, label), ...(limits ? { limits } : {}) }, null, 2) + '\n');
}

/** The check ids a run expects to fail: `expectedFailures` and the ids of the `baseline` file. */
export function expectedFailuresOf(options: Pick<ConformanceOptions, 'expectedFailures' | 'baseline'>): string[] {
  return [...(options.expectedFailures ?? []), ...(options.baseline ? loadBaseline(options.baseline) : [])];
}

/** What the user asked for cannot mean what it says (an unknown selector, a profile tool the target does not list, …): the CLI's exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Can `--only <id>` select this check (a receiver check, or the target as requestor), so that a reproduce line reruns it? */
export function rerunnable(id: string): boolean {
  return receiverChecks.some((c) => c.id === id) || serverRequestorChecks.some((c) => c.id === id);
}

/** Selectors that match no check of the revisions graded (receiver checks, and the target as requestor in the revisions its checks have). */
export function selectorsUnmatchedIn(revisions: readonly Revision[], selectors: readonly string[]): string[] {
  const checks = [...receiverChecks, ...serverRequestorChecks].filter((c) => checkRevisions(c).some((r) => revisions.includes(r)));
  return selectors.filter((s) => !checks.some((c) => matches(c, s)));
}

/** Profile tools the target does not list, one line per role and revision ("role completes: tool "x" (2026-07-28)"). */
export function profileToolsUnlisted(sessions: readonly Pick<TargetSession, 'revision' | 'info'>[]): string[] {
  return sessions.flatMap((s) => Object.entries(s.info.unlistedProfileTools ?? {}).map(([role, name]) => `role ${role}: tool "${name}" (${s.revision})`));
}

/**
 * Refuses a run whose selectors match nothing in the revisions it grades (one valid only in the other revision
 * too), unless `allowUnmatched`; returns the note to print when allowed (empty: nothing to say).
 */
export function requireSelectorsMatch(revisions: readonly Revision[], config: Pick<RunConfig, 'only' | 'exclude'>, allowUnmatched = false): string[] {
  const unmatched = selectorsUnmatchedIn(revisions, [...(config.only ?? []), ...(config.exclude ?? [])]);
  if (!unmatched.length) return [];
  const what = `only/exclude (--only, --exclude): no check of revision ${revisions.join(' and ')} matches ${unmatched.join(', ')}`;
  if (!allowUnmatched) throw new UsageError(`${what} (allow it with allowUnmatched, --allow-unmatched)`);
  return [`${what}: allowed (--allow-unmatched)`];
}

/** Refuses a run whose profile names tools the target does not list (a typo would leave their checks silent), unless `allowUnmatched`; returns the note when allowed. */
export function requireProfileToolsListed(sessions: readonly Pick<TargetSession, 'revision' | 'info'>[], allowUnmatched = false): string[] {
  const unlisted = profileToolsUnlisted(sessions);
  if (!unlisted.length) return [];
  const what = `the profile names tools the target does not list: ${unlisted.join('; ')}`;
  if (!allowUnmatched) throw new UsageError(`${what} (their checks would not be exercised; allow it with allowUnmatched, --allow-unmatched)`);
  return [`${what}: their checks are not exercised (--allow-unmatched)`];
}

/**
 * The run configuration for a target and options, the one builder of the library, the vitest helper and the
 * `server` command; throws on selectors, baseline ids, profiles or values that cannot be used. Discovery looks
 * only for the roles the selected checks need, unless `everyRole` (the CLI's property runs use them all).
 */
export function runConfig(target: Target, options: ConformanceOptions = {}, how: { everyRole?: boolean } = {}): RunConfig & { options: RunOptions } {
  const only = options.only ?? [];
  const exclude = options.exclude ?? [];
  const unknown = unmatchedSelectors([...only, ...exclude]).filter((s) => !serverRequestorChecks.some((c) => matches(c, s)));
  if (unknown.length) throw new UsageError(`only/exclude: no check matches ${unknown.join(', ')}`);
  if (options.writeProfile && (only.length || exclude.length) && !how.everyRole && !options.allowPartialProfile)
    throw new UsageError(
      `writeProfile (--write-profile) with only/exclude would save only the roles the selected checks need; run it without a selection, or allow the partial profile (allowPartialProfile, --allow-partial-profile)`,
    );
  const unknownExpected = expectedFailuresOf(options).filter(
    (id) => !receiverChecks.some((c) => c.id === id) && !serverRequestorChecks.some((c) => c.id === id),
  );
  if (unknownExpected.length) throw new Error(`expectedFailures: unknown check ids ${unknownExpected.join(', ')}`);
  const mode = options.discover ?? 'safe';
  if (!DISCOVER_MODES.includes(mode)) throw new Error(`discover takes ${DISCOVER_MODES.join(', ')}, got "${String(mode)}"`);
  const roles =
    (only.length || exclude.length) && !how.everyRole
      ? [
          ...new Set([
            // Either revision's checks: a run may grade both (each revision's discovery looks for its own roles among these).
            ...receiverChecks.filter((c) => c.runsLast || selected(c, only, exclude)).flatMap((c) => c.needs ?? []),
            // The server-as-requestor checks need the requestor roles.
            ...(serverRequestorChecks.some((c) => selected(c, only, exclude)) ? REQUESTOR_ROLES : []),
          ]),
        ]
      : undefined;
  return {
    target: targetSpec(target, options.label),
    profile: typeof options.profile === 'string' ? loadProfile(options.profile) : options.profile,
    discover: { mode, budgetMs: options.discoverBudgetMs ?? DEFAULT_DISCOVERY.budgetMs, ...(roles ? { roles } : {}) },
    only,
    exclude,
    options: runOptions({
      revision: options.revision,
      requestTimeoutMs: options.requestTimeoutMs,
      checkTimeoutMs: options.checkTimeoutMs,
      maxTasks: options.maxTasks,
      concurrency: options.concurrency,
      onRunStart: options.onRunStart,
      onCheckStart: options.onCheckStart,
      onCheckDone: options.onCheckDone,
    }),
  };
}

/**
 * Runs the selected receiver checks on an open session, concurrently in this process; with requestor roles in
 * the profile the target is graded as requestor too, on connections of its own that overlap the receiver
 * checks (suites/requestor/server-requestor.ts). The CLI and runConformance run this; results in check order.
 */
export async function runSession(session: TargetSession, only: string[] = [], exclude: string[] = []): Promise<CheckResult[]> {
  const events = session.options;
  const checks = checksToRun(only, exclude, session.revision);
  // The target as requestor: a flow of the revisions whose adapter says so (2025-11-25: task-augmented sampling/elicitation requests).
  const requestorChecks = adapterFor(session.revision).gradesServerAsRequestor ? serverRequestorChecks.filter((c) => selected(c, only, exclude)) : [];
  const requestorRefs = requestorChecks.map((c) => ({ id: c.id, section: SERVER_REQUESTOR_SECTION_PREFIX + c.section.replace(/^Requestor: /, '') }));
  const { first, last } = scheduled(checks, session.info.profile);
  events.onRunStart?.([...[...first, ...last].map((c) => ({ id: c.id, section: c.section })), ...requestorRefs]);
  const requestorRuns = requestorChecks.length
    ? runServerAsRequestor(session.connector, session.info, serverRequestorOptions(undefined, session.options.requestTimeoutMs))
    : undefined;
  const receiverResults = await runChecks(checks, session);
  let requestorResults: CheckResult[] = [];
  if (requestorRuns) {
    for (const ref of requestorRefs) events.onCheckStart?.(ref);
    const active = await requestorRuns;
    requestorResults = gradeServerAsRequestor({ runs: [...active.runs, receiverChecksRun(session.results, session.info.label)], notRun: active.notRun }).filter(
      (r) => requestorChecks.some((c) => c.id === r.id),
    );
    for (const r of requestorResults) events.onCheckDone?.(r);
  }
  return [...inCheckOrder(receiverResults), ...requestorResults];
}

/**
 * Runs the receiver checks against a target and returns the report (the CLI's JSON report, with coverage and
 * discovery of every revision graded). Throws when the target cannot be reached at all, and a UsageError when the
 * run cannot mean what it asks (the CLI's exit code 2); every other problem of the target is a finding in the report.
 */
export async function runConformance(target: Target, options: RunConformanceOptions = {}): Promise<Report> {
  const config = runConfig(target, options, { everyRole: options.properties });
  const properties = propertyOptions(options);
  const label = describeTarget(config.target);
  const started = new Date();
  const given = runOptions(config.options);
  const decision = await chooseRevisions(config.target, given);
  const { revisions } = decision;
  requireSelectorsMatch(revisions, config, options.allowUnmatched);
  const results: CheckResult[] = [];
  const coverage: RunCoverage[] = [];
  const discovery: Partial<Record<Revision, AnyDiscovery>> = {};
  // One session per revision (a dual-era target is graded in both), opened before any check runs, as the CLI does.
  const sessions: TargetSession[] = [];
  try {
    for (const revision of revisions) {
      try {
        sessions.push(await openTargetSession({ ...config, options: { ...given, revision } }));
      } catch (e) {
        throw new Error(`cannot connect to ${label}: ${errorText(e)}`, { cause: e });
      }
    }
    requireProfileToolsListed(sessions, options.allowUnmatched);
    if (options.writeProfile) writeProfileFile(options.writeProfile, sessions, config.profile, label);
    for (const session of sessions) {
      // With `path` only the one property counterexample is replayed (as the CLI's --path): no checks.
      const runResults = properties?.path ? [] : await runSession(session, config.only, config.exclude);
      // The live-task limits the run learned join the profile kept (the next run starts within them).
      if (options.writeProfile && session.run.slots?.learned?.()) writeProfileFile(options.writeProfile, sessions, config.profile, label);
      results.push(...runResults);
      coverage.push(computeCoverage(runResults, checksFor(session.revision), session.info));
      if (session.discovery) discovery[session.revision] = session.discovery;
    }
  } finally {
    await Promise.all(sessions.map((s) => s.close()));
  }
  // The properties of each revision the target is graded in, after the checks (as the CLI runs them).
  if (properties)
    for (const revision of revisions) {
      const c = { ...config, options: { ...given, revision }, discover: undefined, discovered: discovery[revision] };
      results.push(...(await adapterFor(revision).runProperties(c, properties)));
    }
  const report = buildReport(results, label, started, expectedFailuresOf(options));
  report.coverage = mergeCoverage(coverage);
  if (Object.keys(discovery).length) report.discovery = discovery;
  report.revisionDecision = decision;
  if (options.requireCoverage) report.requireCoverage = true;
  // "Reproduce with" and the replay of each fail and warn, as the CLI's report has them (where the run has a command line).
  const passed = commandLineOf(target, options);
  if (passed) {
    addReproductions(report, passed, SPEC_REVISION, rerunnable);
    const spec = config.target;
    if (spec.kind === 'http' || spec.kind === 'stdio') addReplays(report, spec);
  }
  const strict = options.strict ?? false;
  const code = gateReport(report, strict);
  await writeReports(report, { json: options.json, junit: options.junit, markdown: options.markdown }, { strict, exitCode: code });
  return report;
}
