// JUnit XML from the report object (Ant/Surefire format; valid against fixtures/junit/junit-10.xsd).
//   one <testsuite> per spec section (property runs: "Properties"), one <testcase> per check, named
//   "<check id> [<level>: <requirement ids>]", classname = the section;
//   fail → <failure type="fail">; warn → passes with "WARNING …" in <system-out>, or <failure type="warning">
//   under --strict; info → passes with "INFO …"; skip → <skipped message="<reason>"/>; a baseline's
//   expected failure → <skipped type="expected-failure">; the messages exchanged go to <system-out>.
//   Run errors, a target that stopped running and stale baseline entries get testsuites of their own,
//   so the file fails when the run does.
import { hostname } from 'node:os';
import type { Report, ReportCheck } from './model.ts';
import { healthBanner, printableText, requirementLines } from './lines.ts';
import { formatTranscript } from '../wire/transcript.ts';
import type { PropertyCheckResult } from '../properties/run.ts';

export interface JunitOptions {
  /** --strict: a warning is a failure. */
  strict?: boolean;
  /** Bounds of the transcript in <system-out> (lines, characters per line). */
  maxTranscriptLines?: number;
  maxLineChars?: number;
}

function text(s: string): string {
  return printableText(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function attr(s: string): string {
  return text(s).replace(/"/g, '&quot;').replace(/\r/g, '&#13;').replace(/\n/g, '&#10;').replace(/\t/g, '&#9;');
}

function attrs(a: Record<string, string | number | undefined>): string {
  return Object.entries(a)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${attr(String(v))}"`)
    .join('');
}

const seconds = (ms: number) => (Math.max(0, ms) / 1000).toFixed(3);

function firstLine(s: string, max = 500): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? t.slice(0, max - 1) + '…' : t;
}

/** Whether a check counts as a failure in JUnit terms. */
function isFailure(c: ReportCheck, strict: boolean): boolean {
  return (c.status === 'fail' && !c.expectedFailure) || (strict && c.status === 'warn');
}

function systemOut(c: ReportCheck, o: Required<JunitOptions>): string {
  const lines: string[] = [];
  const label = { pass: 'PASS', fail: 'FAIL', warn: 'WARNING', info: 'INFO', skip: 'NOT EXERCISED' }[c.status];
  const what = { pass: '', fail: ` (${c.level} violated)`, warn: ` (${c.level} violated)`, info: ` (${c.level}: observed)`, skip: '' }[c.status];
  lines.push(`${label}${what}: ${c.title}`);
  if (c.message) lines.push(c.message);
  lines.push('', 'Requirements:', ...requirementLines(c.requirements).map((l) => `  ${l}`));
  if (c.reproduce) lines.push('', `Reproduce with: ${c.reproduce}`);
  const property = (c as Partial<PropertyCheckResult>).property;
  if (property) {
    lines.push('', `Property ${property.name}: seed ${property.seed}, ${property.runs} runs${property.interrupted ? ' (interrupted)' : ''}`);
    if (property.replay) lines.push(`Replay: ${property.replay}`);
    if (property.steps?.length) lines.push('Steps:', ...property.steps.map((s) => `  ${s}`));
  }
  // A flagged check's exchange in full (bounded); a passing one's in brief.
  const flagged = c.status === 'fail' || c.status === 'warn';
  const [maxLines, maxChars] = flagged ? [o.maxTranscriptLines, o.maxLineChars] : [40, 400];
  if (c.transcript.length)
    lines.push(
      '',
      `Messages exchanged (${c.transcript.length}; → sent by the suite, ← sent by the target, · event):`,
      ...formatTranscript(c.transcript, maxLines, maxChars),
    );
  return lines.join('\n');
}

function testcase(c: ReportCheck, o: Required<JunitOptions>): string {
  const name = `${c.id} [${c.level}: ${c.requirements.join(', ')}]`;
  const open = `    <testcase${attrs({ name, classname: c.section, time: seconds(c.durationMs) })}>`;
  const body: string[] = [];
  const summary = `[${c.level}: ${c.requirements.join(', ')}] ${firstLine(c.message)}`;
  if (c.status === 'skip') body.push(`      <skipped${attrs({ message: firstLine(c.message) || 'not exercised' })}/>`);
  else if (c.expectedFailure) body.push(`      <skipped${attrs({ type: 'expected-failure', message: `expected failure (baseline): ${summary}` })}/>`);
  else if (isFailure(c, o.strict)) {
    const type = c.status === 'warn' ? 'warning' : 'fail';
    body.push(
      `      <failure${attrs({ type, message: summary })}>${text([c.message, '', ...requirementLines(c.requirements), ...(c.reproduce ? ['', `Reproduce with: ${c.reproduce}`] : [])].join('\n'))}</failure>`,
    );
  }
  body.push(`      <system-out>${text(systemOut(c, o))}</system-out>`);
  return [open, ...body, '    </testcase>'].join('\n');
}

function suite(
  name: string,
  cases: string[],
  counts: { tests: number; failures: number; errors: number; skipped: number; timeMs: number },
  properties: Record<string, string>,
  timestamp: string,
): string {
  const props = Object.entries(properties).map(([k, v]) => `      <property${attrs({ name: k, value: v })}/>`);
  return [
    `  <testsuite${attrs({ name, tests: counts.tests, failures: counts.failures, errors: counts.errors, skipped: counts.skipped, time: seconds(counts.timeMs), timestamp, hostname: hostname() })}>`,
    '    <properties>',
    ...props,
    '    </properties>',
    ...cases,
    '  </testsuite>',
  ].join('\n');
}

/** The JUnit XML document for a report. */
export function formatJunit(report: Report, options: JunitOptions = {}): string {
  const o: Required<JunitOptions> = { strict: false, maxTranscriptLines: 200, maxLineChars: 2000, ...options };
  const common = { spec: report.specVersion, target: report.target, tool: `${report.tool.name} ${report.tool.version}`, strict: String(o.strict) };
  const suites: string[] = [];
  let tests = 0;
  let failures = 0;
  let errors = 0;
  for (const section of [...new Set(report.checks.map((c) => c.section))]) {
    const checks = report.checks.filter((c) => c.section === section);
    const counts = {
      tests: checks.length,
      failures: checks.filter((c) => isFailure(c, o.strict)).length,
      errors: 0,
      skipped: checks.filter((c) => c.status === 'skip' || c.expectedFailure).length,
      timeMs: checks.reduce((t, c) => Math.max(t, c.durationMs), 0),
    };
    const byStatus = (s: ReportCheck['status']) => String(checks.filter((c) => c.status === s).length);
    suites.push(
      suite(
        section,
        checks.map((c) => testcase(c, o)),
        counts,
        { ...common, warnings: byStatus('warn'), info: byStatus('info') },
        report.startedAt,
      ),
    );
    tests += counts.tests;
    failures += counts.failures;
  }
  if (report.errors.length) {
    const cases = report.errors.map(
      (e, i) =>
        `    <testcase${attrs({ name: `run error ${i + 1}`, classname: 'Run errors', time: '0.000' })}>\n      <error${attrs({ type: 'run-error', message: firstLine(e) })}>${text(e)}</error>\n    </testcase>`,
    );
    suites.push(suite('Run errors', cases, { tests: cases.length, failures: 0, errors: cases.length, skipped: 0, timeMs: 0 }, common, report.startedAt));
    tests += cases.length;
    errors += cases.length;
  }
  if (report.targetDown.length) {
    // The target stopped running: a run-level finding (exit code 1), an error of its own.
    const banner = healthBanner(report).join('\n');
    const cases = report.targetDown.map(
      (d) =>
        `    <testcase${attrs({ name: `target stopped running during ${d.check}`, classname: 'Target health', time: '0.000' })}>\n      <error${attrs({ type: 'target-down', message: firstLine(d.reason) })}>${text(banner)}</error>\n    </testcase>`,
    );
    suites.push(suite('Target health', cases, { tests: cases.length, failures: 0, errors: cases.length, skipped: 0, timeMs: 0 }, common, report.startedAt));
    tests += cases.length;
    errors += cases.length;
  }
  const stale = report.summary.staleBaseline;
  if (stale.length) {
    const cases = stale.map(
      (id) =>
        `    <testcase${attrs({ name: `${id} (baseline)`, classname: 'Baseline', time: '0.000' })}>\n      <failure${attrs({ type: 'stale-baseline', message: `${id} is listed as expected to fail but did not fail: remove it from the baseline` })}/>\n    </testcase>`,
    );
    suites.push(suite('Baseline', cases, { tests: cases.length, failures: cases.length, errors: 0, skipped: 0, timeMs: 0 }, common, report.startedAt));
    tests += cases.length;
    failures += cases.length;
  }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attrs({ name: report.tool.name, tests, failures, errors, time: seconds(report.durationMs) })}>`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
