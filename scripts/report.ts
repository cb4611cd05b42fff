// Reports: the vitest reporter that collects check results, the console report, the JSON report
// (JUnit: report-junit.ts; Markdown: report-markdown.ts), and the expected-failures baseline.
// Exit codes: 0 no failure, 1 a failure (or, with --strict, a warning).
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import type { CheckResult, Status, TargetDown } from '../suites/engine.ts';
import { PROTOCOL_VERSION } from '../schema/protocol.ts';
import { OUTSIDE_TASKS } from '../schema/outside-tasks.ts';
import { formatCoverage, type RunCoverage } from '../suites/coverage.ts';
import type { DiscoveryResult } from '../suites/harness/discovery.ts';
import { hasRequirement, requirement } from '../schema/catalog.ts';

export const STATUSES: Status[] = ['pass', 'fail', 'warn', 'info', 'skip'];

/** Command-line options of the reports, the same for the `server` and `client` commands (util.parseArgs). */
export const REPORT_OPTIONS = {
  json: { type: 'string' },
  junit: { type: 'string' },
  markdown: { type: 'string' },
  baseline: { type: 'string' },
  strict: { type: 'boolean', default: false },
  'no-color': { type: 'boolean', default: false },
} as const;
const MARK: Record<Status, string> = { pass: 'PASS', fail: 'FAIL', warn: 'WARN', info: 'INFO', skip: 'SKIP' };

export interface ReportCheck extends CheckResult {
  /** Listed in the baseline as expected to fail. */
  expectedFailure?: boolean;
}

export interface Report {
  specVersion: string;
  tool: { name: string; version: string };
  target: string;
  startedAt: string;
  durationMs: number;
  checks: ReportCheck[];
  summary: Record<Status, number> & { total: number; expectedFailures: number; staleBaseline: string[] };
  /** Checks that could not run at all (e.g. vitest reported an error outside any check). */
  errors: string[];
  /** Requirements exercised out of those applicable, and the missing roles (suites/coverage.ts). */
  coverage?: RunCoverage;
  /** What discovery called, observed and chose (suites/harness/discovery.ts), when it ran. */
  discovery?: DiscoveryResult;
  /** The target stopped running (a run-level finding, exit code 1): where, why, its last messages and stderr. */
  targetDown: TargetDown[];
  /** Several checks failed, warned or were not exercised because of one observed behaviour. */
  rootCauses: RootCause[];
  /** Deviations from rules outside the Tasks page (base JSON-RPC, non-task schema, transport): reported, never a Tasks verdict. */
  outsideTasks: { id: string; rule: string; check: string; message: string }[];
  /** The receiver's resource-limit refusal, seen first in `check`: back-pressure the run waited on, reported once. */
  limitObserved?: { check: string; what: string };
}

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

/** Collects `task.meta.check` from the vitest run and prints progress. */
export class CheckCollector implements Reporter {
  readonly results: CheckResult[] = [];
  readonly errors: string[] = [];
  constructor(private readonly progress: (line: string) => void) {}

  onTestCaseResult(testCase: TestCase): void {
    const r = testCase.meta().check as CheckResult | undefined;
    if (r) {
      this.results.push(r);
      this.progress(`${MARK[r.status]} ${r.id}`);
    } else {
      const errs = testCase.result().errors ?? [];
      this.errors.push(`${testCase.fullName}: ${errs.map((e) => e.message).join('; ') || testCase.result().state}`);
      this.progress(`ERROR ${testCase.name}`);
    }
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<{ message?: string }>): void {
    for (const m of modules) for (const e of m.errors()) this.errors.push(`${m.moduleId}: ${e.message}`);
    for (const e of unhandled) this.errors.push(`unhandled: ${e.message ?? String(e)}`);
  }
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

export function buildReport(results: CheckResult[], target: string, startedAt: Date, baseline: string[] = [], errors: string[] = []): Report {
  const expected = new Set(baseline);
  const checks: ReportCheck[] = results.map((r) => (expected.has(r.id) && r.status === 'fail' ? { ...r, expectedFailure: true } : r));
  const counts = Object.fromEntries(STATUSES.map((s) => [s, checks.filter((c) => c.status === s).length])) as Record<Status, number>;
  const ran = new Map(checks.map((c) => [c.id, c.status]));
  // A listed check that now passes (or is gone) is stale: the baseline must be updated (as the official MCP suite does).
  const staleBaseline = baseline.filter((id) => ran.has(id) && ran.get(id) !== 'fail');
  return {
    specVersion: PROTOCOL_VERSION,
    tool: { name: 'mcp-tasks-conformance', version: '0.1.0' },
    target,
    startedAt: startedAt.toISOString(),
    durationMs: Date.now() - startedAt.getTime(),
    checks,
    summary: { ...counts, total: checks.length, expectedFailures: checks.filter((c) => c.expectedFailure).length, staleBaseline },
    errors,
    targetDown: checks.flatMap((c) => (c.targetDown ? [c.targetDown] : [])),
    rootCauses: rootCauses(checks),
    limitObserved: checks.filter((c) => c.limitObserved).map((c) => ({ check: c.id, what: c.limitObserved! }))[0],
    outsideTasks: checks.flatMap((c) => (c.outside ?? []).map((o) => ({ id: o.id, rule: OUTSIDE_TASKS[o.id], check: c.id, message: o.message }))),
  };
}

export function exitCode(report: Report, strict: boolean): 0 | 1 {
  const failing = report.checks.some((c) => c.status === 'fail' && !c.expectedFailure);
  const warning = strict && report.checks.some((c) => c.status === 'warn');
  return failing || warning || report.summary.staleBaseline.length > 0 || report.errors.length > 0 || report.targetDown.length > 0 ? 1 : 0;
}

/** The console report: grouped by section, a line per check, counts at the end. */
export function formatConsole(report: Report, color = false): string {
  const paint = (s: Status, t: string) => {
    if (!color) return t;
    const c = { pass: 32, fail: 31, warn: 33, info: 36, skip: 90 }[s];
    return `\x1b[${c}m${t}\x1b[0m`;
  };
  const lines: string[] = [`MCP Tasks conformance (spec ${report.specVersion}) — target: ${report.target}`, ''];
  lines.push(...healthBanner(report));
  if (report.limitObserved) {
    lines.push(
      `INFO  the receiver refused task creation at a resource limit (${report.limitObserved.what}; first in ${report.limitObserved.check}): the run waited and retried within each check's budget (limiting tasks is a SHOULD: resource-concurrency-limit)`,
      '',
    );
  }
  const sections = [...new Set(report.checks.map((c) => c.section))];
  for (const section of sections) {
    lines.push(section);
    for (const c of report.checks.filter((x) => x.section === section)) {
      const tag = c.expectedFailure ? `${MARK[c.status]}*` : MARK[c.status];
      const msg = c.message ? ` — ${oneLine(c.message)}` : '';
      lines.push(`  ${paint(c.status, tag.padEnd(5))} ${c.id} [${c.level}: ${c.requirements.join(', ')}]${msg}`);
    }
    lines.push('');
  }
  lines.push(...rootCauseLines(report));
  lines.push(...outsideTasksLines(report));
  for (const e of report.errors) lines.push(`ERROR ${e}`);
  const s = report.summary;
  if (s.expectedFailures) lines.push(`* ${s.expectedFailures} failure(s) expected by the baseline`);
  if (s.staleBaseline.length) lines.push(`stale baseline entries (now passing or not failing; remove them): ${s.staleBaseline.join(', ')}`);
  lines.push(
    `${s.total} checks: ${s.pass} passed, ${s.fail} failed, ${s.warn} warnings, ${s.info} info, ${s.skip} not exercised (${(report.durationMs / 1000).toFixed(1)} s)`,
  );
  if (report.coverage) lines.push(...formatCoverage(report.coverage));
  return lines.join('\n');
}

/** The target-health banner: the target stopped running (once, at the top). */
export function healthBanner(report: Report): string[] {
  const lines: string[] = [];
  for (const d of report.targetDown) {
    const later = report.checks.filter((c) => c.cause === `target not running since ${d.check}` && c.id !== d.check).length;
    lines.push(
      d.connectionOnly
        ? `ERROR the target crashed during ${d.check}: ${d.reason} (the connection of that check only)`
        : `ERROR the target stopped running during ${d.check}: ${d.reason}`,
      ...(d.connectionOnly ? [] : [`  ${later} later check(s) were not exercised ("target not running since ${d.check}")`]),
      '  last messages:',
      ...d.lastMessages.map((m) => `    ${m}`),
      ...(d.stderrTail
        ? [
            '  target stderr (tail):',
            ...d.stderrTail
              .split('\n')
              .slice(-10)
              .map((l) => `    ${l}`),
          ]
        : []),
      '',
    );
  }
  return lines;
}

/** Deviations outside the Tasks page, by their own ids (they do not fail the run). */
function outsideTasksLines(report: Report): string[] {
  if (!report.outsideTasks.length) return [];
  const lines = ['Outside Tasks (base JSON-RPC, schema of non-task messages, transport; not Tasks verdicts)'];
  for (const o of report.outsideTasks) lines.push(`  NOTE  ${o.id} (seen in ${o.check}) — ${oneLine(o.message)}`);
  lines.push('');
  return lines;
}

/** Root-cause groups: several checks, one observed behaviour. */
export function rootCauseLines(report: Report): string[] {
  if (!report.rootCauses.length) return [];
  const lines = ['Root causes (several checks, one observed behaviour)'];
  for (const g of report.rootCauses) {
    const st = Object.entries(g.statuses)
      .map(([s, n]) => `${n} ${s}`)
      .join(', ');
    lines.push(`  ${g.checks.length} checks, one cause: ${g.cause} (${st}): ${g.checks.join(', ')}`);
  }
  lines.push('');
  return lines;
}

function oneLine(s: string, max = 160): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? t.slice(0, max - 1) + '…' : t;
}

/** Text fit for XML and Markdown: C0 controls (but tab, LF, CR), DEL, lone surrogates and U+FFFE/U+FFFF become U+FFFD. */
export function printableText(s: string): string {
  return s.replace(/[\x00-\x08\x0B\x0C\x0E-\x1F\x7F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/** One line per requirement id: `id (LEVEL, source:line): statement` from the catalog. */
export function requirementLines(ids: readonly string[]): string[] {
  return ids.map((id) => {
    if (!hasRequirement(id)) return id;
    const r = requirement(id);
    return `${id} (${r.level}, ${r.source}:${r.line}): ${r.statement}`;
  });
}

function writeText(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

export function writeJson(path: string, report: Report): void {
  writeText(path, JSON.stringify(report, null, 2) + '\n');
}

export interface ReportFiles {
  json?: string;
  junit?: string;
  markdown?: string;
}

/** Writes the requested report files (--json, --junit, --markdown). `strict`: warnings are JUnit failures; `exitCode`: the run's verdict when more than the checks decide it (--require-coverage). */
export async function writeReports(report: Report, files: ReportFiles, verdict: { strict: boolean; exitCode?: number }): Promise<void> {
  if (files.json) writeJson(files.json, report);
  if (files.junit) {
    const { formatJunit } = await import('./report-junit.ts');
    writeText(files.junit, formatJunit(report, { strict: verdict.strict }));
  }
  if (files.markdown) {
    const { formatMarkdown } = await import('./report-markdown.ts');
    writeText(files.markdown, formatMarkdown(report, verdict));
  }
}
