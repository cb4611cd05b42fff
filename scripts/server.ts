// `mcp-tasks-conformance server …` (dispatched by scripts/cli.ts): grade a task receiver (stdio command
// or Streamable HTTP URL); the checks run concurrently in this process, on the pre-flight's session per revision
// (runSession, suites/api.ts: the engine of the library's runConformance; vitest is not loaded).
// Exit codes: 0 no check failed; 1 a check failed (or with --strict a warning, or the baseline is stale); 2 usage or connection error.
import { parseArgs } from 'node:util';
import { mkdirSync, writeFileSync } from 'node:fs';
import { checkRevisions, checksFor, checksToRun, inCheckOrder, receiverChecks, unmatchedSelectors } from '../suites/index.ts';
import { type AnyDiscovery, type RunConfig, type SessionHooks, type TargetSession } from '../suites/runner/session.ts';
import { matches, selected } from '../suites/engine/select.ts';
import { serverRequestorChecks } from '../suites/requestor/server-requestor.ts';
import { describeTarget, loadProfile } from '../suites/runner/target.ts';
import { limitsText, profileFor } from '../suites/engine/profile.ts';
import type { TargetInfo } from '../suites/engine/check.ts';
import { REVISION as MODERN_REVISION } from '../schema/2026-07-28/protocol.ts';
import { MODERN_PROPERTY_IDS, modernPropertyCatalog } from '../suites/2026-07-28/properties/report.ts';
import { DISCOVER_MODES, formatPlan, type DiscoverMode } from '../suites/runner/discovery.ts';
import { computeCoverage, mergeCoverage } from '../suites/coverage.ts';
import { DEFAULT_RUN_OPTIONS, REVISION_CHOICES, type RevisionChoice, type RunEvents, type RunOptions } from '../suites/engine/options.ts';
import type { RevisionDecision } from '../suites/runner/revision.ts';
import { requireProfileToolsListed, requireSelectorsMatch, rerunnable, runConfig, UsageError, writeProfileFile, type Target } from '../suites/api.ts';
import { buildReport, gateReport, loadBaseline } from '../suites/report/model.ts';
import { runSession } from '../suites/api.ts';
import type { CheckResult } from '../suites/engine/check.ts';
import { RunProgress, progressWanted } from '../suites/report/progress.ts';
import { errorText } from '../suites/wire/peer.ts';
import { formatConsole } from '../suites/report/console.ts';
import { writeReports } from '../suites/report/write.ts';
import { addReproductions, invocationOf, type PassedOption } from '../suites/report/reproduce.ts';
import { addReplays, replayFileName } from '../suites/report/replay.ts';
import { join } from 'node:path';
import { REPORT_OPTIONS } from './report-options.ts';
import { PROPERTY_NAMES, formatPropertyFailure, parsePropertyArgs, propertyCatalog } from '../suites/properties/run.ts';
import { requestorChecks } from '../suites/requestor/checks.ts';
import { REVISIONS, SPEC_REVISION, isRevision, type Revision } from '../schema/spec.ts';
import { extensionRequestorChecks } from '../suites/2026-07-28/requestor/checks.ts';
import { hasRequirement } from '../schema/catalog.ts';
import { rulingsFor } from '../schema/rulings.ts';
import { formatListing, listRun } from '../suites/runner/list.ts';
import { formatRequestorPlan } from '../suites/runner/requestor-discovery.ts';

import { HELP } from './help.ts';
import { interruptedResult, Interrupted, onInterrupt, type Interrupt } from './interrupt.ts';
import { endChildren } from '../suites/wire/children.ts';
import { adapterFor, chooseRevisions, openTargetSession, PROPERTY_TOKENS } from '../suites/revisions.ts';

export { HELP };

export { UsageError };

/** The `server` command's flags (util.parseArgs); each is an option of the library and of the vitest helper (scripts/cli.test.ts). */
export const SERVER_OPTIONS = {
  stdio: { type: 'string' },
  url: { type: 'string' },
  header: { type: 'string', multiple: true },
  'secondary-header': { type: 'string', multiple: true },
  profile: { type: 'string' },
  discover: { type: 'string', default: 'safe' },
  'discover-budget': { type: 'string' },
  'write-profile': { type: 'string' },
  'require-coverage': { type: 'boolean', default: false },
  'allow-unmatched': { type: 'boolean', default: false },
  'allow-partial-profile': { type: 'boolean', default: false },
  revision: { type: 'string', default: DEFAULT_RUN_OPTIONS.revision },
  only: { type: 'string', multiple: true },
  exclude: { type: 'string', multiple: true },
  'max-tasks': { type: 'string' },
  ...REPORT_OPTIONS,
  'request-timeout': { type: 'string' },
  timeout: { type: 'string' },
  'check-timeout': { type: 'string' },
  concurrency: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
  list: { type: 'boolean', default: false },
  // --properties
  properties: { type: 'boolean', default: false },
  runs: { type: 'string' },
  seed: { type: 'string' },
  path: { type: 'string' },
  'properties-timeout': { type: 'string' },
  'replay-dir': { type: 'string' },
} as const;

/** Options a rerun of one check leaves out: the selection and revision (it names its own), the report files (they would overwrite the run's), commands other than a check run. */
const NOT_RERUN = new Set([
  'only',
  'exclude',
  'revision',
  'json',
  'junit',
  'markdown',
  'write-profile',
  'list',
  'help',
  'properties',
  'runs',
  'seed',
  'path',
  'properties-timeout',
  'replay-dir',
]);

export function parseServerArgs(argv: string[]) {
  const { values, positionals, tokens } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    tokens: true,
    options: SERVER_OPTIONS,
  });
  void positionals;
  if (values.help) return { help: true as const };
  if (values.list) {
    // --list runs nothing: the options that only shape a run's results would be silently ignored.
    const noEffect = [
      'json',
      'junit',
      'markdown',
      'baseline',
      'strict',
      'require-coverage',
      'write-profile',
      'properties',
      'runs',
      'seed',
      'path',
      'properties-timeout',
    ]
      .filter((k) => values[k as keyof typeof values] !== undefined && values[k as keyof typeof values] !== false)
      .map((k) => `--${k}`);
    if (noEffect.length) throw new UsageError(`--list runs no check, so ${noEffect.join(', ')} would have no effect`);
  }
  if (!values.stdio === !values.url) throw new UsageError('give exactly one target: --stdio "<command>" or --url <http-url>');
  if (values.stdio && (values.header || values['secondary-header'])) throw new UsageError('--header and --secondary-header apply to --url targets only');
  if (!(REVISION_CHOICES as readonly string[]).includes(values.revision!))
    throw new UsageError(`--revision takes ${REVISION_CHOICES.join(', ')}, got "${values.revision}"`);
  const num = (name: string, v: string | undefined, def: number) => {
    if (v === undefined) return def;
    const n = Number(v);
    if (!Number.isInteger(n) || n <= 0) throw new UsageError(`--${name} takes a positive whole number, got "${v}"`);
    return n;
  };
  let target: Target;
  if (values.url) {
    try {
      const u = new URL(values.url);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
    } catch {
      throw new UsageError(`--url: not an http(s) URL: ${values.url}`);
    }
    target = {
      url: values.url,
      headers: parseHeaders(values.header ?? []),
      ...(values['secondary-header'] ? { secondaryHeaders: parseHeaders(values['secondary-header']) } : {}),
    };
  } else {
    if (!values.stdio!.trim()) throw new UsageError('--stdio needs a command');
    target = { command: values.stdio! };
  }
  const selectors = (list: string[] | undefined, name: string) => {
    const ids = (list ?? [])
      .flatMap((s) => s.split(','))
      .map((s) => s.trim())
      .filter(Boolean);
    const unknown = unmatchedSelectors(ids).filter((s) => !serverRequestorChecks.some((c) => matches(c, s)));
    if (unknown.length) throw new UsageError(`--${name}: no check matches ${unknown.join(', ')} (see "mcp-tasks-conformance checks")`);
    return ids;
  };
  const only = selectors(values.only, 'only');
  const exclude = selectors(values.exclude, 'exclude');
  let profile;
  try {
    profile = values.profile ? loadProfile(values.profile) : undefined;
  } catch (e) {
    throw new UsageError(`--profile: ${e instanceof Error ? e.message : String(e)}`);
  }
  let baseline: string[] = [];
  try {
    baseline = values.baseline ? loadBaseline(values.baseline) : [];
  } catch (e) {
    throw new UsageError(`--baseline: ${e instanceof Error ? e.message : String(e)}`);
  }
  // Property results (--properties) are checks too, named properties.<name> (2026-07-28: 2026-properties.<name>).
  const unknownBaseline = baseline.filter(
    (id) =>
      !receiverChecks.some((c) => c.id === id) &&
      !serverRequestorChecks.some((c) => c.id === id) &&
      !PROPERTY_NAMES.some((p) => id === `properties.${p}`) &&
      !MODERN_PROPERTY_IDS.includes(id),
  );
  if (unknownBaseline.length) throw new UsageError(`--baseline lists unknown check ids: ${unknownBaseline.join(', ')}`);
  if (values.timeout !== undefined && values['request-timeout'] !== undefined)
    throw new UsageError('give --request-timeout or its older name --timeout, not both');
  const requestTimeoutFlag = values.timeout !== undefined ? 'timeout' : 'request-timeout';
  const opt = (name: string, v: string | undefined) => (v === undefined ? undefined : num(name, v, 0));
  if (!(DISCOVER_MODES as readonly string[]).includes(values.discover!))
    throw new UsageError(`--discover takes ${DISCOVER_MODES.join(', ')}, got "${values.discover}"`);
  const discoverMode = values.discover as DiscoverMode;
  if (discoverMode === 'off' && values['discover-budget'] !== undefined) throw new UsageError('--discover-budget has no effect with --discover off');
  // The one builder of the library (suites/api.ts): the flags under the library's names, the same defaults.
  let config;
  try {
    config = runConfig(
      target,
      {
        revision: values.revision as RevisionChoice,
        profile,
        discover: discoverMode,
        discoverBudgetMs: opt('discover-budget', values['discover-budget']),
        only,
        exclude,
        requestTimeoutMs: opt(requestTimeoutFlag, values['request-timeout'] ?? values.timeout),
        checkTimeoutMs: opt('check-timeout', values['check-timeout']),
        maxTasks: opt('max-tasks', values['max-tasks']),
        concurrency: opt('concurrency', values.concurrency),
        ...(values['write-profile'] ? { writeProfile: values['write-profile'] } : {}),
        allowPartialProfile: values['allow-partial-profile'],
      },
      { everyRole: values.properties },
    );
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
  let properties; // --properties
  try {
    properties = parsePropertyArgs(values, argv, PROPERTY_TOKENS);
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
  return {
    help: false as const,
    config,
    properties,
    json: values.json,
    junit: values.junit,
    markdown: values.markdown,
    replayDir: values['replay-dir'],
    baseline,
    strict: values.strict!,
    requireCoverage: values['require-coverage']!,
    allowUnmatched: values['allow-unmatched']!,
    list: values.list!,
    // "Reproduce with" (suites/report/reproduce.ts): the options as given, but those a rerun of one check leaves out;
    // the profile this run writes (every role settled) in place of the one given, so that the rerun discovers nothing.
    passed: rerunOptions(tokens, values['write-profile']),
    writeProfile: values['write-profile'],
    color: !values['no-color'] && process.stdout.isTTY === true,
    // A status line on a terminal; in CI, with --json or --no-color only the final report (suites/report/progress.ts).
    progress: progressWanted({ isTTY: process.stderr.isTTY === true, env: process.env, json: values.json !== undefined, noColor: values['no-color']! }),
  };
}

/** The options a rerun of one check takes: those given but NOT_RERUN; `--profile <written>` for --write-profile (and no discovery options). */
function rerunOptions(tokens: ReturnType<typeof parseArgs>['tokens'] & object, written: string | undefined): PassedOption[] {
  const out: PassedOption[] = [];
  for (const t of tokens) {
    if (t.kind !== 'option' || NOT_RERUN.has(t.name)) continue;
    if (written && ['profile', 'discover', 'discover-budget'].includes(t.name)) continue;
    out.push({ name: t.name, ...(t.value !== undefined ? { value: t.value } : {}) });
  }
  if (written) out.push({ name: 'profile', value: written });
  return out;
}

function parseHeaders(list: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of list) {
    const i = h.indexOf(':');
    if (i <= 0) throw new UsageError(`--header: expected "Name: value", got "${h}"`);
    out[h.slice(0, i).trim()] = h.slice(i + 1).trim();
  }
  return out;
}

/** Runs the `server` command; returns the exit code. */
export async function runServerCommand(argv: string[]): Promise<number> {
  let args: ReturnType<typeof parseServerArgs>;
  try {
    args = parseServerArgs(argv);
  } catch (e) {
    if (e instanceof UsageError || (e as { code?: string })?.code?.startsWith?.('ERR_PARSE_ARGS')) {
      process.stderr.write(`mcp-tasks-conformance: ${(e as Error).message}\n(see mcp-tasks-conformance --help)\n`);
      return 2;
    }
    throw e;
  }
  if (args.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (args.list) return listServerRun(args.config);
  const interrupt = onInterrupt();
  try {
    return await gradeTarget(args, interrupt);
  } finally {
    interrupt.dispose();
  }
}

/** The `server` command's run once its flags are read: pre-flight, checks, properties, reports (see runServerCommand). */
async function gradeTarget(args: Exclude<ReturnType<typeof parseServerArgs>, { help: true }>, interrupt: Interrupt): Promise<number> {
  const started = new Date();
  const target = describeTarget(args.config.target);
  const status = args.progress ? new RunProgress(process.stderr) : undefined;
  /** A line of its own on stderr (the status line is cleared first and redrawn by its next update). */
  const say = (text: string) => {
    status?.clear();
    process.stderr.write(text);
  };
  // Pre-flight: a target we cannot reach is a connection error (exit 2), not a list of failed checks.
  // The revision(s) first (--revision; auto probes and says why), then per revision a session of its own:
  // discovery runs there, once; the checks then run on that session (its shared connection), in this process.
  const preflights: {
    revision: Revision;
    config: RunConfig & { options: RunOptions };
    info: TargetInfo;
    discovery?: AnyDiscovery;
    session: TargetSession;
  }[] = [];
  let revisions: Revision[] = [];
  let revisionDecision: RevisionDecision | undefined;
  try {
    await interrupt.race(preflight());
  } catch (e) {
    status?.stop();
    if (!(e instanceof Interrupted)) {
      for (const p of preflights) await p.session.close();
      if (e instanceof UsageError) {
        say(`mcp-tasks-conformance: ${e.message}\n(see mcp-tasks-conformance --help)\n`);
        return 2;
      }
      say(`mcp-tasks-conformance: cannot connect to ${target}: ${errorText(e)}\n`);
      return 2;
    }
  }
  async function preflight(): Promise<void> {
    say(`target: ${target}\n`);
    status?.startTicking();
    status?.setPhase('connecting: server/discover, initialize, tools/list');
    const hooks: SessionHooks = {
      onDiscoveryPlan: (plan, budgetMs) => {
        say(
          formatPlan(plan, budgetMs)
            .map((l) => l + '\n')
            .join(''),
        );
        status?.setPhase(`discovery: ${plan.calls.length} call(s) as tasks, budget ${budgetMs} ms`);
      },
      onRequestorPlan: (plan) => {
        say(
          formatRequestorPlan(plan)
            .map((l) => l + '\n')
            .join(''),
        );
        status?.setPhase(`discovery of the requestor roles: ${plan.calls.length} plain call(s)`);
      },
    };
    // The run's events drive the status line (on a terminal).
    const events: RunEvents = {
      onRunStart: (checks) => status?.addChecks(checks.map((c) => c.section)),
      onCheckStart: (c) => status?.start(c.id, c.section),
      onCheckDone: (r) => status?.finish(r.id, r.section),
    };
    const configOf = (revision: Revision) => ({ ...args.config, options: { ...args.config.options, ...events, revision } });
    // With auto, the legacy probe is an initialize on a connection of its own: the session of a revision (with its
    // discovery) is opened once the revision is chosen, so that discovery's time is never taken for an unanswered initialize.
    const decision = await chooseRevisions(args.config.target, args.config.options);
    revisions = decision.revisions;
    revisionDecision = decision;
    say(`revision: ${revisions.join(' and ')} — ${decision.why.join('; ')}\n`);
    for (const note of requireSelectorsMatch(revisions, args.config, args.allowUnmatched)) say(`note: ${note}\n`);
    for (const revision of revisions) {
      const config = configOf(revision);
      const probe = await openTargetSession(config, hooks);
      const pre = { revision, config, info: probe.info, discovery: probe.discovery, session: probe };
      preflights.push(pre);
      const { serverInfo } = adapterFor(revision).listed(pre.info);
      const of = revisions.length > 1 ? ` (${revision})` : '';
      say(`server${of}: ${JSON.stringify(serverInfo ?? {})}; tools: ${pre.info.tools.length}\n`);
      for (const [role, found] of Object.entries(pre.discovery?.roles ?? {}))
        say(`  discovered ${role}: ${found.name} ${JSON.stringify(found.arguments)} — ${found.observed}\n`);
      const missing = Object.entries(pre.info.missingRoles).map(([r, why]) => `  ${r}: ${why}`);
      if (missing.length) say(`roles not available${of} (their checks are not exercised):\n${missing.join('\n')}\n`);
    }
    for (const note of requireProfileToolsListed(
      preflights.map((p) => p.session),
      args.allowUnmatched,
    ))
      say(`note: ${note}\n`);
    // The profile to keep: every role of every revision graded, the absent ones too (a run with it discovers nothing).
    if (args.writeProfile) {
      writeProfileFile(
        args.writeProfile,
        preflights.map((p) => p.session),
        args.config.profile,
        target,
      );
      say(`profile written to ${args.writeProfile} (the roles of ${revisions.join(' and ')})\n`);
    }
  }

  // A line per check is not printed: on a terminal the status line shows the run, elsewhere only the final report.
  status?.setPhase('starting the checks');
  let checked: CheckResult[] = [];
  try {
    // --path replays one property counterexample only: no checks. One run per revision, on its pre-flight's session.
    if (!args.properties?.path && !interrupt.signal)
      await interrupt.race(
        (async () => {
          for (const pre of preflights) checked.push(...(await runSession(pre.session, args.config.only, args.config.exclude)));
        })(),
      );
  } catch (e) {
    if (!(e instanceof Interrupted)) throw e;
  } finally {
    if (interrupt.signal) {
      // What finished is kept; every other scheduled check is not exercised (interrupted). Then every process ends.
      checked = preflights.flatMap((p) => p.session.results);
      const done = new Set(checked.map((r) => `${r.revision} ${r.id}`));
      const { only, exclude } = args.config;
      for (const revision of revisions) {
        const asRequestor = serverRequestorChecks.filter((c) => checkRevisions(c).includes(revision) && selected(c, only, exclude));
        for (const c of [...checksToRun(only, exclude, revision), ...asRequestor])
          if (!done.has(`${revision} ${c.id}`)) checked.push(interruptedResult(c, revision, interrupt.signal));
      }
      await Promise.race([Promise.all(preflights.map((p) => p.session.close().catch(() => undefined))), delay(3_000)]);
      await endChildren();
    } else for (const pre of preflights) await pre.session.close();
  }
  // --properties: the property-based tests of each revision the target is graded in (2025-11-25's state machine,
  // 2026-07-28's extension model) run after the checks, each on a session of its own; their results join the report.
  if (args.properties && !interrupt.signal)
    for (const pre of preflights) {
      const config = { ...pre.config, discover: undefined, discovered: pre.discovery };
      const propertyArgs = { ...args.properties, log: (l: string) => say(`  ${l}\n`) };
      const results = await adapterFor(pre.revision).runProperties(config, propertyArgs);
      for (const r of results) if (r.status === 'fail' || r.status === 'warn') process.stderr.write(`\n${formatPropertyFailure(r)}`);
      checked.push(...results);
    }
  status?.stop();
  const results = inCheckOrder(checked);
  const report = buildReport(results, target, started, args.baseline);
  if (interrupt.signal) report.interrupted = { signal: interrupt.signal };
  // The live-task limits the run learned join the profile written (the next run starts within them).
  if (args.writeProfile && report.limitLearned) {
    writeProfileFile(
      args.writeProfile,
      preflights.map((p) => p.session),
      args.config.profile,
      target,
    );
    say(`profile ${args.writeProfile}: the learned limit kept (${limitsText(report.limitLearned)})\n`);
  }
  const revisionOf = (r: { revision?: Revision }) => r.revision ?? SPEC_REVISION;
  report.coverage = mergeCoverage(
    preflights.map((p) =>
      computeCoverage(
        results.filter((r) => revisionOf(r) === p.revision),
        checksFor(p.revision),
        p.info,
      ),
    ),
  );
  // Every revision's discovery, and how the revisions were chosen.
  const discovered = Object.fromEntries(preflights.flatMap((p) => (p.discovery ? [[p.revision, p.discovery]] : [])));
  if (Object.keys(discovered).length) report.discovery = discovered;
  if (revisionDecision) report.revisionDecision = revisionDecision;
  addReproductions(report, args.passed, SPEC_REVISION, rerunnable, invocationOf(process.argv[1]));
  const spec = args.config.target;
  if (spec.kind === 'http' || spec.kind === 'stdio') addReplays(report, spec);
  if (args.replayDir) {
    mkdirSync(args.replayDir, { recursive: true });
    for (const c of report.checks) if (c.replay) writeFileSync(join(args.replayDir, replayFileName(c.id)), JSON.stringify(c.replay, null, 2) + '\n');
  }
  process.stdout.write(formatConsole(report, args.color) + '\n');
  // --require-coverage: a MUST that applies but was not exercised fails the run like a violated one (ids name their revision).
  if (args.requireCoverage) report.requireCoverage = true;
  const unexercised = report.coverage.must.unexercised;
  const inRevisions = revisions.some((r) => r !== SPEC_REVISION) ? ` (revision ${revisions.join(' and ')})` : '';
  if (args.requireCoverage && unexercised.length)
    process.stdout.write(`--require-coverage: ${unexercised.length} applicable MUST requirement(s) not exercised${inRevisions}\n`);
  const code = gateReport(report, args.strict);
  if (interrupt.signal)
    process.stdout.write(
      `interrupted (${interrupt.signal}): ${report.checks.filter((c) => c.cause === `run interrupted (${interrupt.signal})`).length} check(s) not exercised; exit code 130\n`,
    );
  await writeReports(report, { json: args.json, junit: args.junit, markdown: args.markdown }, { strict: args.strict, exitCode: code });
  return code;
}

const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

/** `checks [--revision <r>]`: every check of every role and every property run (of one revision), with the facts on it (tab-separated, one per line). */
export function listChecks(argv: string[] = []): number {
  let only: Revision | undefined;
  try {
    const { values } = parseArgs({ args: argv, strict: true, allowPositionals: false, options: { revision: { type: 'string' } } });
    if (values.revision !== undefined && !isRevision(values.revision))
      throw new UsageError(`--revision takes ${REVISIONS.join(', ')}, got "${values.revision}"`);
    only = values.revision as Revision | undefined;
  } catch (e) {
    process.stderr.write(`mcp-tasks-conformance: ${(e as Error).message}\n(see mcp-tasks-conformance --help)\n`);
    return 2;
  }
  const row = (cols: string[]) => process.stdout.write(`${cols.join('\t')}\n`);
  const rulings = (ids: readonly string[]) =>
    [...new Set(ids.flatMap((id) => (hasRequirement(id) ? rulingsFor(id).map((r) => `RULINGS.md#${r.slug}`) : [])))].join(',') || '-';
  const wanted = (c: { revisions?: readonly Revision[] }) => !only || checkRevisions(c).includes(only);
  const revs = (c: { revisions?: readonly Revision[] }) => checkRevisions(c).join(',');
  row(['id', 'revision', 'role', 'level', 'requirements', 'killed by (faults)', 'rulings', 'title']);
  for (const c of receiverChecks.filter(wanted)) {
    row([
      c.id,
      revs(c),
      c.clientReceiver === true ? 'receiver (server, client)' : 'receiver',
      c.level,
      c.requirements.join(','),
      c.killedBy.join(',') || '-',
      rulings(c.requirements),
      c.title,
    ]);
  }
  for (const c of [...requestorChecks, ...extensionRequestorChecks].filter(wanted))
    row([
      c.id,
      revs(c),
      serverRequestorChecks.includes(c as never) ? 'requestor (client, server)' : 'requestor',
      c.level,
      c.requirements.join(','),
      c.killedBy.map((f) => `client:${f}`).join(',') || '-',
      rulings(c.requirements),
      c.title,
    ]);
  if (!only || only === SPEC_REVISION)
    for (const p of propertyCatalog())
      row([p.id, SPEC_REVISION, 'receiver (property)', p.level, p.requirements.join(','), '-', rulings(p.requirements), p.title]);
  if (!only || only === MODERN_REVISION)
    for (const p of modernPropertyCatalog())
      row([p.id, MODERN_REVISION, 'receiver (property)', p.level, p.requirements.join(','), '-', rulings(p.requirements), p.title]);
  return 0;
}

/** `server --list`: initialize, tools/list (and the latency pings) on a session with discovery off, then the listing (suites/runner/list.ts). */
async function listServerRun(config: RunConfig): Promise<number> {
  const target = describeTarget(config.target);
  let session;
  try {
    session = await openTargetSession({ ...config, discover: undefined });
  } catch (e) {
    process.stderr.write(`mcp-tasks-conformance: cannot connect to ${target}: ${errorText(e)}\n`);
    return 2;
  }
  try {
    const listing = listRun(
      session.info,
      {
        // The profile as the session's revision reads it (a written profile holds a section per revision).
        ...(config.profile ? { profile: profileFor(config.profile, session.revision) } : {}),
        ...(config.discover ? { discover: config.discover } : {}),
        only: config.only ?? [],
        exclude: config.exclude ?? [],
        requestTimeoutMs: session.options.requestTimeoutMs,
      },
      adapterFor(session.revision),
    );
    process.stdout.write([`target: ${target}`, ...formatListing(listing, config.discover?.budgetMs)].join('\n') + '\n');
  } finally {
    await session.close();
  }
  return 0;
}
