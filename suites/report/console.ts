// The console report: grouped by section, a line per check, counts at the end.
import type { Status } from '../engine/check.ts';
import { formatCoverage } from '../coverage.ts';
import { MARK, type Report } from './model.ts';
import { healthBanner, oneLine, rootCauseLines } from './lines.ts';
import { limitsText } from '../engine/profile.ts';

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
      report.limitLearned
        ? `INFO  the receiver refused task creation at a resource limit (${report.limitObserved.what}; first in ${report.limitObserved.check}): the run learned it holds ${limitsText(report.limitLearned)}, kept to it and waited for a place (limiting tasks is a SHOULD: resource-concurrency-limit; --write-profile keeps the limit)`
        : `INFO  the receiver refused task creation at a resource limit (${report.limitObserved.what}; first in ${report.limitObserved.check}): the run waited and retried within each check's budget (limiting tasks is a SHOULD: resource-concurrency-limit)`,
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
      if (c.reproduce) lines.push(`        reproduce with: ${c.reproduce}`);
    }
    lines.push('');
  }
  lines.push(...rootCauseLines(report));
  lines.push(...outsideTasksLines(report));
  for (const e of report.errors) lines.push(`ERROR ${e}`);
  for (const n of report.revisionDecision?.notGraded ?? []) lines.push(`not graded in ${n.revision}: ${n.why}`);
  const s = report.summary;
  if (s.expectedFailures) lines.push(`* ${s.expectedFailures} failure(s) expected by the baseline`);
  if (s.staleBaseline.length) lines.push(`stale baseline entries (now passing or not failing; remove them): ${s.staleBaseline.join(', ')}`);
  lines.push(
    `${s.total} checks: ${s.pass} passed, ${s.fail} failed, ${s.warn} warnings, ${s.info} info, ${s.skip} not exercised${s.timedOut ? ` (${s.timedOut} of them timed out)` : ''} (${(report.durationMs / 1000).toFixed(1)} s)`,
  );
  if (report.coverage) lines.push(...formatCoverage(report.coverage));
  return lines.join('\n');
}

/** Deviations outside the Tasks page, by their own ids (they do not fail the run). */
function outsideTasksLines(report: Report): string[] {
  if (!report.outsideTasks.length) return [];
  const lines = ['Outside Tasks (base JSON-RPC, schema of non-task messages, transport; not Tasks verdicts)'];
  for (const o of report.outsideTasks) lines.push(`  NOTE  ${o.id} (seen in ${o.check}) — ${oneLine(o.message)}`);
  lines.push('');
  return lines;
}
