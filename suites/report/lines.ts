// Lines every writer shares: the target-health banner, root causes, requirement statements, printable text.
import type { Report } from './model.ts';
import { hasRequirement, requirement } from '../../schema/catalog.ts';
import { oneLine } from '../judge/text.ts';
export { oneLine };

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
      ...(d.afterDisconnect
        ? [
            `  it stopped serving after ${d.afterDisconnect.check} disconnected from a stream at ${d.afterDisconnect.at} (${d.afterDisconnect.what}; its last answer ${d.afterDisconnect.msBeforeLastAnswer} ms later)`,
          ]
        : []),
      ...(d.recentActions?.length
        ? [`  the last action of every check within ${d.windowMs} ms before its last answer:`, ...d.recentActions.map((a) => `    ${a}`)]
        : []),
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
