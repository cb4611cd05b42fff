// The checks as vitest tests: one describe per spec section, one test per check, registered by registerChecks
// in a user's own vitest run with describeConformance (`import { describeConformance } from 'mcp-tasks-conformance/vitest'`).
import { afterAll, beforeAll, describe, test, type TestContext } from 'vitest';
import type { CheckDef, CheckResult } from './engine/check.ts';
import { runOptions } from './engine/options.ts';
import { checksFor, checksToRun } from './index.ts';
import type { RevisionDecision } from './runner/revision.ts';
import { chooseRevisions, openTargetSession } from './revisions.ts';
import { REVISIONS, SPEC_REVISION, type Revision } from '../schema/spec.ts';
import { runInSession, type RunConfig, type TargetSession } from './runner/session.ts';
import { selected } from './engine/select.ts';
import {
  gradeServerAsRequestor,
  receiverChecksRun,
  runServerAsRequestor,
  serverRequestorChecks,
  serverRequestorOptions,
  SERVER_REQUESTOR_SECTION_PREFIX,
  type ServerRequestorRuns,
} from './requestor/server-requestor.ts';
import { describeTarget } from './runner/target.ts';
import { limiter } from './runner/limiter.ts';
import {
  commandLineOf,
  CONFORMANCE_OPTION_NAMES,
  expectedFailuresOf,
  propertyOptions,
  requireProfileToolsListed,
  requireSelectorsMatch,
  rerunnable,
  runConfig,
  UsageError,
  writeProfileFile,
  type ConformanceOptions,
  type Target,
} from './api.ts';
import { reproduceCommand, type PassedOption } from './report/reproduce.ts';
import { computeCoverage, mergeCoverage } from './coverage.ts';
import { PROPERTY_NAMES, runProperties, splitReplayToken, type PropertyRunOptions } from './properties/run.ts';
import { MODERN_PROPERTY_SECTION, replayName, runModernProperties } from './2026-07-28/properties/report.ts';
import { MODERN_PROPERTY_NAMES } from './2026-07-28/properties/run.ts';
import { REVISION as MODERN_REVISION } from '../schema/2026-07-28/protocol.ts';
import { buildReport, gateReport } from './report/model.ts';
import { writeReports, type ReportFiles } from './report/write.ts';

declare module '@vitest/runner' {
  interface TaskMeta {
    check?: CheckResult;
  }
}

export interface RegisterOptions {
  /** Violated SHOULDs (`warn`) fail their test too. */
  strict?: boolean;
  /** Check ids expected to fail: their test passes while they fail, and fails once they pass (stale). */
  expectedFailures?: string[];
  /** Warnings, observations (`info`) and expected failures as test annotations (shown by vitest's reporters). */
  annotate?: boolean;
  /** Report files written after the run (the CLI's --json, --junit, --markdown). */
  reports?: ReportFiles;
  /** Save the roles in use, with what discovery observed, as a profile to keep (--write-profile). */
  writeProfile?: string;
  /** A last test fails when applicable MUST requirements were not exercised (--require-coverage). */
  requireCoverage?: boolean;
  /** The property-based tests as tests of their own, after the checks (--properties; with `path` they alone run). */
  properties?: PropertyRunOptions;
  /** A profile tool the target does not list, or a selector matching no check of the revisions graded, is allowed (--allow-unmatched). */
  allowUnmatched?: boolean;
  /** The run's options as `server` flags (commandLineOf): a failed test's message ends with the command line that reruns its check. */
  reproduce?: PassedOption[];
}

/** The revisions whose checks a run registers: the one asked for; with `auto` every revision (the reference receiver in process: 2025-11-25). */
export function registeredRevisions(config: RunConfig): readonly Revision[] {
  const revision = runOptions(config.options).revision;
  if (revision !== 'auto') return [revision];
  return config.target.kind === 'reference' ? [SPEC_REVISION] : REVISIONS;
}

/**
 * Registers the checks of a run at the current level: `fail` fails the test, `skip` (not exercised)
 * skips it with the reason, `warn` and `info` pass. Each test keeps its CheckResult in `task.meta.check`.
 * With requestor roles in the profile, the target is graded as requestor too (after the receiver checks).
 */
export function registerChecks(config: RunConfig, opts: RegisterOptions = {}): void {
  const options = runOptions(config.options);
  // The revisions whose checks are registered: the one asked for; with `auto` every revision the target may
  // speak, and the checks of a revision the probe did not choose skip (each test is under its revision's name).
  const registered = registeredRevisions(config);
  // With a replay path only that property counterexample runs (as the CLI's --path): no checks.
  const checksOf = (revision: Revision) => (opts.properties?.path ? [] : checksToRun(config.only, config.exclude, revision));
  /** Every verdict of the run, for the report files and the coverage gate. */
  const results: CheckResult[] = [];
  const started = new Date();
  const expected = new Set(opts.expectedFailures ?? []);
  const sessions = new Map<Revision, TargetSession>();
  let decision: RevisionDecision | undefined;
  let session: TargetSession | undefined;
  let openError: unknown;

  /** The target as requestor (below): its own connections, started at once so that they overlap the receiver checks. */
  let requestorRuns: Promise<ServerRequestorRuns> | undefined;
  const requestorChecks = registered.includes(SPEC_REVISION) ? serverRequestorChecks.filter((c) => selected(c, config.only, config.exclude)) : [];
  const requestorOptions = serverRequestorOptions(undefined, options.requestTimeoutMs);

  // Its bound: a few requests (initialize, tools/list, the shared connection) and discovery's budget.
  beforeAll(
    async () => {
      try {
        decision = await chooseRevisions(config.target, options);
        requireSelectorsMatch(decision.revisions, config, opts.allowUnmatched);
        for (const revision of decision.revisions) sessions.set(revision, await openTargetSession({ ...config, options: { ...options, revision } }));
        requireProfileToolsListed([...sessions.values()], opts.allowUnmatched);
        // The target as requestor is a 2025-11-25 flow (task-augmented sampling/elicitation requests).
        session = sessions.get(SPEC_REVISION);
        if (opts.writeProfile) writeProfileFile(opts.writeProfile, [...sessions.values()], config.profile, describeTarget(config.target));
        if (session && requestorChecks.length) requestorRuns = runServerAsRequestor(session.connector, session.info, requestorOptions);
      } catch (e) {
        openError = e;
      }
    },
    options.requestTimeoutMs * 3 + (config.discover?.mode === 'off' ? 0 : (config.discover?.budgetMs ?? 0)) + 10_000,
  );
  /** The coverage of the run's verdicts, per revision graded (suites/coverage.ts). */
  const coverage = () =>
    mergeCoverage(
      [...sessions].map(([revision, s]) =>
        computeCoverage(
          results.filter((r) => (r.revision ?? SPEC_REVISION) === revision),
          checksFor(revision),
          s.info,
        ),
      ),
    );
  afterAll(async () => {
    await Promise.all([...sessions.values()].map((s) => s.close()));
    const files = opts.reports ?? {};
    if (!files.json && !files.junit && !files.markdown) return;
    const report = buildReport(results, describeTarget(config.target), started, opts.expectedFailures ?? []);
    if (sessions.size) report.coverage = coverage();
    const discovery = Object.fromEntries([...sessions].flatMap(([revision, s]) => (s.discovery ? [[revision, s.discovery]] : [])));
    if (Object.keys(discovery).length) report.discovery = discovery;
    if (decision) report.revisionDecision = decision;
    if (opts.requireCoverage) report.requireCoverage = true;
    const strict = opts.strict ?? false;
    await writeReports(report, files, { strict, exitCode: gateReport(report, strict) });
  });

  // At most `concurrency` checks at once (vitest's maxConcurrency may allow more; the CLI sets it to the same).
  const running = limiter(options.concurrency);
  const reached = () => {
    if (openError instanceof UsageError) throw openError;
    if (!session) throw new Error(`could not reach the target: ${openError instanceof Error ? openError.message : String(openError)}`);
    return session;
  };
  /** The session of a check's revision; undefined when `auto` did not choose that revision. */
  const sessionFor = (revision: Revision): TargetSession | undefined => {
    if (openError !== undefined || !decision) {
      if (openError instanceof UsageError) throw openError;
      if (!decision) throw new Error(`could not reach the target: ${openError instanceof Error ? openError.message : String(openError)}`);
    }
    if (!decision!.revisions.includes(revision)) return undefined;
    const s = sessions.get(revision);
    if (!s) throw new Error(`could not reach the target: ${openError instanceof Error ? openError.message : String(openError)}`);
    return s;
  };
  /** The verdict of a check as the outcome of its test. */
  const settle = async (result: CheckResult, { task, skip, annotate }: TestContext) => {
    task.meta.check = result;
    results.push(result);
    const rerun = opts.reproduce && rerunnable(result.id) ? `\nreproduce with: ${reproduceCommand(opts.reproduce, result, SPEC_REVISION)}` : '';
    const what = `[${result.level}: ${result.requirements.join(', ')}] ${result.message}${rerun}`;
    if (expected.has(result.id)) {
      if (result.status !== 'fail') throw new Error(`listed as an expected failure, but ${result.status}: remove it from the list`);
      if (opts.annotate) await annotate(`expected failure: ${what}`, 'notice');
      return;
    }
    if (result.status === 'fail') throw new Error(what);
    if (result.status === 'skip') skip(result.message);
    if (result.status === 'warn' && opts.strict) throw new Error(`(warning, strict) ${what}`);
    if (opts.annotate && (result.status === 'warn' || result.status === 'info')) await annotate(what, result.status === 'warn' ? 'warning' : 'notice');
  };

  // Sections run concurrently with each other; then the checks that load the target (a huge ttl, floods,
  // many tasks), one at a time; then the checks marked runsLast (they read the others' evidence), under
  // their own section's name.
  const bySection = (list: CheckDef[]) =>
    [...new Set(list.map((c) => c.section))].map((section) => ({ section, inSection: list.filter((c) => c.section === section) }));
  const groups = registered.flatMap((revision) => {
    const checks = checksOf(revision);
    return [
      ...bySection(checks.filter((c) => !c.runsLast && !c.loadsTarget)).map((g) => ({ ...g, sequential: false })),
      { section: 'Checks that load the target', inSection: checks.filter((c) => c.loadsTarget && !c.runsLast), sequential: true },
      ...bySection(checks.filter((c) => c.runsLast)).map((g) => ({ ...g, sequential: true })),
    ].map((g) => ({ ...g, revision }));
  });
  // A describe per revision when more than one is registered: every test is titled with the revision it grades.
  const underRevision = (revision: Revision, body: () => void) => (registered.length > 1 ? describe(`(${revision})`, body) : body());
  for (const { section, inSection, sequential, revision } of groups) {
    if (!inSection.length) continue;
    underRevision(revision, () =>
      (sequential ? describe : describe.concurrent)(section, () => {
        for (const check of inSection) {
          const register = sequential ? test : test.concurrent;
          register(check.id, { timeout: (check.timeoutMs ?? options.checkTimeoutMs) + 5_000 }, async (ctx) => {
            const s = sessionFor(revision);
            if (!s) return ctx.skip(`not exercised: the target is not graded in ${revision} (${decision!.why.join('; ')})`);
            await settle(await running(() => runInSession(check, s)), ctx);
          });
        }
      }),
    );
  }

  // The target as requestor (suites/requestor/server-requestor.ts): these sections are not concurrent, so
  // they start once every receiver check above has finished; the requestor checks judge the requestor
  // roles' connections together with the receiver checks' messages.
  if (requestorChecks.length) {
    let graded: Promise<CheckResult[]> | undefined;
    const grade = (s: TargetSession) =>
      (graded ??= requestorRuns!.then((active) =>
        gradeServerAsRequestor({ runs: [...active.runs, receiverChecksRun(s.results, s.info.label)], notRun: active.notRun }),
      ));
    for (const section of [...new Set(requestorChecks.map((c) => c.section))]) {
      describe(SERVER_REQUESTOR_SECTION_PREFIX + section.replace(/^Requestor: /, ''), () => {
        for (const check of requestorChecks.filter((c) => c.section === section)) {
          test(check.id, { timeout: requestorOptions.callTimeoutMs + 30_000 }, async (ctx) => {
            const s = sessionFor(SPEC_REVISION);
            if (!s) return ctx.skip(`not exercised: the target is not graded in ${SPEC_REVISION} (${decision!.why.join('; ')})`);
            await settle(
              (await grade(s)).find((r) => r.id === check.id)!,
              ctx,
            );
          });
        }
      });
    }
  }

  // The property-based tests (2025-11-25's state machine), a test per property, after the checks; one run of them all.
  const properties = opts.properties;
  if (properties && registered.includes(SPEC_REVISION)) {
    let run: Promise<CheckResult[]> | undefined;
    const token = properties.path ? splitReplayToken(properties.path) : undefined;
    const names = token ? PROPERTY_NAMES.filter((n) => n === token.property) : (properties.only ?? PROPERTY_NAMES);
    describe('Properties', () => {
      for (const name of names)
        test(`properties.${name}`, { timeout: properties.timeoutMs * names.length + 30_000 }, async (ctx) => {
          const s = sessionFor(SPEC_REVISION);
          if (!s) return ctx.skip(`not exercised: the target is not graded in ${SPEC_REVISION} (${decision!.why.join('; ')})`);
          run ??= runProperties({ ...config, options: { ...options, revision: SPEC_REVISION }, discover: undefined, discovered: s.discovery }, properties);
          const result = (await run).find((r) => r.id === `properties.${name}`);
          if (!result) throw new Error(`properties.${name}: the property run gave no result`);
          await settle(result, ctx);
        });
    });
  }
  // 2026-07-28's property runs (the extension's model), likewise, for a target graded in that revision.
  if (properties && registered.includes(MODERN_REVISION)) {
    let run: Promise<CheckResult[]> | undefined;
    const token = properties.path ? splitReplayToken(properties.path) : undefined;
    const names = token ? MODERN_PROPERTY_NAMES.filter((n) => replayName(n) === token.property) : MODERN_PROPERTY_NAMES;
    describe(MODERN_PROPERTY_SECTION, () => {
      for (const name of names)
        test(`2026-properties.${name}`, { timeout: properties.timeoutMs * names.length + 30_000 }, async (ctx) => {
          const s = sessionFor(MODERN_REVISION);
          if (!s) return ctx.skip(`not exercised: the target is not graded in ${MODERN_REVISION} (${decision!.why.join('; ')})`);
          run ??= runModernProperties(
            { ...config, options: { ...options, revision: MODERN_REVISION }, discover: undefined, discovered: s.discovery },
            properties,
          );
          const result = (await run).find((r) => r.id === `2026-properties.${name}`);
          if (!result) throw new Error(`2026-properties.${name}: the property run gave no result`);
          await settle(result, ctx);
        });
    });
  }

  // --require-coverage: the last test, over every verdict above.
  if (opts.requireCoverage)
    describe('Coverage', () => {
      test('applicable MUST requirements exercised', () => {
        reached();
        const unexercised = coverage().must.unexercised;
        if (unexercised.length)
          throw new Error(`requireCoverage: ${unexercised.length} applicable MUST requirement(s) not exercised: ${unexercised.join(', ')}`);
      });
    });
}

export interface DescribeConformanceOptions extends ConformanceOptions {
  /** Name of the enclosing describe (default: "MCP Tasks conformance (<revision>): <target>"; with `auto`, a describe per revision inside it). */
  name?: string;
}

/** The option names describeConformance takes: the library's (under the CLI's flags' names) and `name`. */
export const DESCRIBE_OPTION_NAMES = [...CONFORMANCE_OPTION_NAMES, 'name'] as const satisfies readonly (keyof DescribeConformanceOptions)[];

/**
 * Registers the receiver checks against a target as tests of the calling vitest file: a describe per
 * spec section, a test per check. A failed check fails its test with its requirement ids, a check not
 * exercised is skipped with the reason, a warning passes with a `warning` annotation (fails with
 * `strict`), an expected failure passes until it stops failing.
 */
export function describeConformance(target: Target, options: DescribeConformanceOptions = {}): void {
  const config = runConfig(target, options, { everyRole: options.properties });
  const properties = propertyOptions(options);
  const revisions = registeredRevisions(config);
  const revision = revisions.length === 1 ? ` (${revisions[0]})` : '';
  const reproduce = commandLineOf(target, options);
  describe(options.name ?? `MCP Tasks conformance${revision}: ${describeTarget(config.target)}`, () => {
    registerChecks(config, {
      ...(options.allowUnmatched ? { allowUnmatched: true } : {}),
      ...(reproduce ? { reproduce } : {}),
      strict: options.strict,
      expectedFailures: expectedFailuresOf(options),
      annotate: true,
      reports: { json: options.json, junit: options.junit, markdown: options.markdown },
      ...(options.writeProfile ? { writeProfile: options.writeProfile } : {}),
      ...(options.requireCoverage ? { requireCoverage: true } : {}),
      ...(properties ? { properties } : {}),
    });
  });
}
