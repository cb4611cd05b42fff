// The report model (the library's `Report`): check results, summary, root causes, the expected-failures
// baseline and the exit code. Writers stand on it: console.ts, write.ts (JSON), junit.ts, markdown.ts.
// Exit codes: 0 no failure, 1 a failure (or, with --strict, a warning).
import { readFileSync } from 'node:fs';
import type { CheckResult, LearnedLimits, Status, TargetDown } from '../engine/check.ts';
import { lowestLimits } from '../engine/profile.ts';
import { REVISIONS, SPEC_REVISION, type Revision } from '../../schema/spec.ts';
import { OUTSIDE_TASKS } from '../../schema/outside-tasks.ts';
import type { RunCoverage } from '../coverage.ts';
import type { AnyDiscovery } from '../runner/session.ts';
import type { RevisionDecision } from '../runner/revision.ts';
import type { Replay } from './replay.ts';

export const STATUSES: Status[] = ['pass', 'fail', 'warn', 'info', 'skip'];

/** The console's and the progress line's mark of each status. */
export const MARK: Record<Status, string> = { pass: 'PASS', fail: 'FAIL', warn: 'WARN', info: 'INFO', skip: 'SKIP' };

export interface ReportCheck extends CheckResult {
  /** Listed in the baseline as expected to fail. */
  expectedFailure?: boolean;
  /** Fail and warn: the command line that reruns just this check against the same target (reproduce.ts). */
  reproduce?: string;
  /** Fail and warn: the messages the suite sent, to replay against a fixed build (replay.ts; `mcp-tasks-conformance replay`). */
  replay?: Replay;
}

export interface Report {
  /** The revision(s) the checks judged, e.g. "2025-11-25" or "2025-11-25 + 2026-07-28" (each check names its own: `revision`). */
  specVersion: string;
  /** The revisions the checks judged, oldest first. */
  revisions: Revision[];
  tool: { name: string; version: string };
  target: string;
  startedAt: string;
  durationMs: number;
  checks: ReportCheck[];
  /** The counts and the gate's verdict (ReportSummary). */
  summary: ReportSummary;
  /** Checks that could not run at all (e.g. vitest reported an error outside any check). */
  errors: string[];
  /** Requirements exercised out of those applicable, and the missing roles (suites/coverage.ts). */
  coverage?: RunCoverage;
  /** What discovery called, observed and chose (suites/runner/discovery.ts), per revision graded, where it ran. */
  discovery?: Partial<Record<Revision, AnyDiscovery>>;
  /** Which revisions were graded and why (suites/runner/revision.ts); `notGraded`: spoken without Tasks, reported instead. */
  revisionDecision?: RevisionDecision;
  /** The target stopped running (a run-level finding, exit code 1): where, why, its last messages and stderr. */
  targetDown: TargetDown[];
  /** Several checks failed, warned or were not exercised because of one observed behaviour. */
  rootCauses: RootCause[];
  /** Deviations from rules outside the Tasks page (base JSON-RPC, non-task schema, transport): reported, never a Tasks verdict. */
  outsideTasks: { id: string; rule: string; check: string; message: string }[];
  /** --strict (`strict`): warnings fail the run too. */
  strict?: boolean;
  /** The run was interrupted (SIGINT, SIGTERM): the checks it had not finished are not exercised (interrupted); exit code 130. */
  interrupted?: { signal: string };
  /** --require-coverage (`requireCoverage`): applicable MUST requirements not exercised fail the run (exitCode 1). */
  requireCoverage?: boolean;
  /** The receiver's resource-limit refusal, seen first in `check`: back-pressure the run waited on, reported once. */
  limitObserved?: { check: string; what: string };
  /** The live-task bounds the run learned from the target's refusals (the lowest of each), when it learned any. */
  limitLearned?: LearnedLimits;
}

/**
 * The counts of a run and its verdict as a CI gate. A gate reads `exitCode` (the CLI's exit code; it honours the
 * baseline, --strict and --require-coverage), never `fail` alone: a baselined failure counts in `fail` but not in
 * `failing`, and does not fail the run.
 */
export type ReportSummary = Record<Status, number> & {
  total: number;
  /** Of the not exercised, those because time ran out (never a verdict: RULINGS.md#response-time). */
  timedOut: number;
  /** Failures listed in the baseline (expected failures): they do not fail the run. */
  expectedFailures: number;
  /** Baseline ids whose check ran and did not fail: the baseline must be updated; they fail the run. */
  staleBaseline: string[];
  /** Failures not listed in the baseline: each fails the run. */
  failing: number;
  /**
   * The run's verdict, as the CLI exits: 0 passed; 1 a failure not in the baseline, a stale baseline entry, a
   * warning under `strict`, a MUST not exercised under `requireCoverage`, the target stopped or an error; 130
   * the run was interrupted (its reports hold what it had). Set by gateReport (buildReport: from the checks alone).
   */
  exitCode: number;
};

export interface RootCause {
  cause: string;
  checks: string[];
  statuses: Partial<Record<Status, number>>;
}

/** Groups checks that name the same observed cause (two or more). */
export function rootCauses(checks: readonly CheckResult[]): RootCause[] {
  const groups = new Map<string, CheckResult[]>();
  // A target that stopped running has its own banner (targetDown), not a group.
  for (const c of checks)
    if (c.cause && c.status !== 'pass' && !c.cause.startsWith('target not running since')) groups.set(c.cause, [...(groups.get(c.cause) ?? []), c]);
  return [...groups]
    .filter(([, cs]) => cs.length > 1)
    .map(([cause, cs]) => ({
      cause,
      checks: cs.map((c) => c.id),
      statuses: Object.fromEntries(STATUSES.map((s) => [s, cs.filter((c) => c.status === s).length]).filter(([, n]) => n)),
    }))
    .sort((a, b) => b.checks.length - a.checks.length);
}

/** Reads a baseline: a JSON array of check ids, `{ "expectedFailures": [...] }`, or a YAML list (`- id` lines). */
export function loadBaseline(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  const t = text.trim();
  if (t.startsWith('[') || t.startsWith('{')) {
    const v = JSON.parse(t);
    const list = Array.isArray(v) ? v : v.expectedFailures;
    if (!Array.isArray(list) || !list.every((x) => typeof x === 'string')) throw new Error(`${path}: expected a list of check ids`);
    return list;
  }
  const ids: string[] = [];
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.replace(/#.*$/, '').trim();
    if (!line || line === 'expectedFailures:') continue;
    const m = /^-\s+["']?([^"'\s]+)["']?$/.exec(line);
    if (!m) throw new Error(`${path}:${i + 1}: expected "- <check id>"`);
    ids.push(m[1]!);
  }
  return ids;
}

/** The report of a run; `specVersion`: what the run judged (default: the revisions of its results, "2025-11-25 + 2026-07-28" for both). */
export function buildReport(
  results: CheckResult[],
  target: string,
  startedAt: Date,
  baseline: string[] = [],
  errors: string[] = [],
  specVersion?: string,
): Report {
  const expected = new Set(baseline);
  const checks: ReportCheck[] = results.map((r) => (expected.has(r.id) && r.status === 'fail' ? { ...r, expectedFailure: true } : r));
  const counts = Object.fromEntries(STATUSES.map((s) => [s, checks.filter((c) => c.status === s).length])) as Record<Status, number>;
  const ran = new Map(checks.map((c) => [c.id, c.status]));
  // A listed check that now passes (or is gone) is stale: the baseline must be updated (as the official MCP suite does).
  const staleBaseline = baseline.filter((id) => ran.has(id) && ran.get(id) !== 'fail');
  // Results without a revision (property runs, the target as requestor) are 2025-11-25's.
  const seen = new Set(results.map((r) => r.revision ?? SPEC_REVISION));
  const revisions = REVISIONS.filter((r) => seen.has(r));
  const report: Report = {
    specVersion: specVersion ?? (revisions.length ? revisions.join(' + ') : SPEC_REVISION),
    revisions,
    tool: { name: 'mcp-tasks-conformance', version: '0.1.0' },
    target,
    startedAt: startedAt.toISOString(),
    durationMs: Date.now() - startedAt.getTime(),
    checks,
    summary: {
      ...counts,
      total: checks.length,
      timedOut: checks.filter((c) => c.timedOut).length,
      expectedFailures: checks.filter((c) => c.expectedFailure).length,
      staleBaseline,
      failing: checks.filter((c) => c.status === 'fail' && !c.expectedFailure).length,
      exitCode: 0,
    },
    errors,
    targetDown: checks.flatMap((c) => (c.targetDown ? [c.targetDown] : [])),
    rootCauses: rootCauses(checks),
    limitObserved: checks.filter((c) => c.limitObserved).map((c) => ({ check: c.id, what: c.limitObserved! }))[0],
    ...learnedIn(checks),
    outsideTasks: checks.flatMap((c) => (c.outside ?? []).map((o) => ({ id: o.id, rule: OUTSIDE_TASKS[o.id], check: c.id, message: o.message }))),
  };
  report.summary.exitCode = exitCode(report, false);
  return report;
}

/**
 * Settles the report's verdict once everything that decides it is in (coverage, `requireCoverage`, the run being
 * interrupted): sets `strict` and `summary.exitCode`, and returns the exit code.
 */
export function gateReport(report: Report, strict: boolean): number {
  if (strict) report.strict = true;
  report.summary.exitCode = report.interrupted ? 130 : exitCode(report, strict);
  return report.summary.exitCode;
}

/** The exit code of a report's checks (0 or 1; gateReport adds 130 for an interrupted run): see ReportSummary.exitCode. */
export function exitCode(report: Report, strict: boolean = report.strict ?? false): 0 | 1 {
  const failing = report.checks.some((c) => c.status === 'fail' && !c.expectedFailure);
  const warning = strict && report.checks.some((c) => c.status === 'warn');
  const uncovered = report.requireCoverage === true && (report.coverage?.must.unexercised.length ?? 0) > 0;
  return failing || warning || uncovered || report.summary.staleBaseline.length > 0 || report.errors.length > 0 || report.targetDown.length > 0 ? 1 : 0;
}

/** The lowest bounds learned in the run (each check result carries what was learned by its end). */
function learnedIn(checks: readonly CheckResult[]): { limitLearned?: LearnedLimits } {
  const limits = lowestLimits(checks.flatMap((c) => (c.limitLearned ? [c.limitLearned] : [])));
  return limits ? { limitLearned: limits } : {};
}
