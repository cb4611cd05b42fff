// The Markdown report (--markdown; the GitHub Action writes it to the job summary): the verdict and
// counts, one table per spec section, then every failed or warned check with its requirement text
// (schema/requirements.json), a Mermaid sequence diagram of the exchange (GitHub renders ```mermaid)
// and the messages exchanged in a collapsible <details>. Sizes are bounded: a job summary holds 1 MiB.
import { exitCode, type Report, type ReportCheck } from './model.ts';
import { healthBanner, printableText, requirementLines, rootCauseLines } from './lines.ts';
import type { Status } from '../engine/check.ts';
import type { TranscriptEntry } from '../wire/peer.ts';
import { formatTranscript } from '../wire/transcript.ts';
import { formatCoverage } from '../coverage.ts';
import type { PropertyCheckResult } from '../properties/run.ts';
import { replayCommands } from './replay.ts';

export interface MarkdownOptions {
  strict?: boolean;
  /** The run's exit code when more than the checks decide it (--require-coverage); default exitCode(report, strict). */
  exitCode?: number;
  /** Arrows in one sequence diagram (the first and the last are kept). */
  maxDiagramMessages?: number;
  /** Lines of one transcript in <details>. */
  maxTranscriptLines?: number;
  /** Soft bound on the whole document (characters); details past it are left to the JSON report. */
  maxChars?: number;
}

const STATUS: Record<Status, string> = { pass: '✅ pass', fail: '❌ fail', warn: '⚠️ warn', info: 'ℹ️ info', skip: '⏭️ not exercised' };

/** A table cell: one line, no pipes, no HTML. */
function cell(s: string, max = 160): string {
  const t = s.replace(/\s+/g, ' ').trim();
  const cut = t.length > max ? t.slice(0, max - 1) + '…' : t;
  return cut.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\|/g, '\\|');
}

/** A code fence that its content cannot close. */
function fenced(content: string, lang = ''): string {
  const longest = Math.max(2, ...[...content.matchAll(/`+/g)].map((m) => m[0].length));
  const f = '`'.repeat(longest + 1);
  return `${f}${lang}\n${content}\n${f}`;
}

/** Text Mermaid takes verbatim in a message or note: `#` and `;` end a message, `<`, `>`, `&`, quotes and backticks are markup; all become #code; entities. */
export function mermaidText(s: string, max = 80): string {
  const one = s.replace(/\s+/g, ' ').trim();
  const cut = [...one].length > max ? [...one].slice(0, max - 1).join('') + '…' : one;
  return cut.replace(/[#;<>&"'`|%{}\\]|[^\x20-\x7e]/gu, (ch) => `#${ch.codePointAt(0)};`);
}

const short = (id: unknown) => (typeof id === 'string' && id.length > 12 ? `${id.slice(0, 8)}…` : JSON.stringify(id));

function describeParams(method: string, params: any): string {
  if (!params || typeof params !== 'object') return '';
  const parts: string[] = [];
  if (typeof params.name === 'string') parts.push(params.name);
  if ('taskId' in params) parts.push(`taskId ${short(params.taskId)}`);
  if (params.task !== undefined) parts.push('as task');
  if (typeof params.status === 'string') parts.push(params.status);
  if (typeof params.cursor === 'string') parts.push('cursor');
  if ('requestId' in params) parts.push(`requestId ${short(params.requestId)}`);
  if (method === 'notifications/progress' && params.progress !== undefined)
    parts.push(`${params.progress}${params.total !== undefined ? `/${params.total}` : ''}`);
  return parts.join(', ');
}

function describeResult(result: any): string {
  if (!result || typeof result !== 'object') return `result ${JSON.stringify(result)}`;
  if (result.task && typeof result.task === 'object') return `CreateTaskResult ${short(result.task.taskId)} ${result.task.status ?? ''}`.trim();
  if (typeof result.status === 'string' && 'taskId' in result) return `task ${short(result.taskId)} ${result.status}`;
  if (Array.isArray(result.tasks)) return `${result.tasks.length} task(s)${result.nextCursor !== undefined ? ', nextCursor' : ''}`;
  if (Array.isArray(result.tools)) return `${result.tools.length} tool(s)`;
  if (result.protocolVersion) return `initialize result ${result.protocolVersion}`;
  if (Array.isArray(result.content)) return `CallToolResult${result.isError ? ' isError' : ''}`;
  const keys = Object.keys(result).filter((k) => k !== '_meta');
  return keys.length ? `result {${keys.join(', ')}}` : 'result {}';
}

/** A request id as short as it stays readable: the check's own ids (`<check id>-N`) as `#N`. */
function shortRequestId(id: unknown, checkId: string): string {
  const s = String(id);
  return s.startsWith(`${checkId}-`) ? `#${s.slice(checkId.length + 1)}` : s.length > 24 ? `${s.slice(0, 23)}…` : s;
}

/** One transcript entry as a Mermaid statement (S: the suite's side, T: the target). */
function diagramLine(e: TranscriptEntry, checkId: string): string {
  const [from, to] = e.dir === 'out' ? ['S', 'T'] : ['T', 'S'];
  const m = e.message as any;
  if (e.dir === 'event' || (m === undefined && e.raw === undefined)) return `  Note over S,T: ${mermaidText(e.note ?? 'event')}`;
  if (m === undefined || m === null || typeof m !== 'object' || Array.isArray(m))
    return `  ${from}-x${to}: ${mermaidText(`raw ${JSON.stringify(e.raw ?? m)}`)}`;
  if (typeof m.method === 'string') {
    const what = [m.method, describeParams(m.method, m.params)].filter(Boolean).join(' ');
    return m.id === undefined ? `  ${from}-)${to}: ${mermaidText(what)}` : `  ${from}->>${to}: ${mermaidText(`${what} (id ${shortRequestId(m.id, checkId)})`)}`;
  }
  if (m.error) return `  ${from}--x${to}: ${mermaidText(`error ${m.error.code} ${m.error.message ?? ''}`)}`;
  return `  ${from}-->>${to}: ${mermaidText(describeResult(m.result))}`;
}

/** A Mermaid sequence diagram of a check's exchange, bounded to `max` statements (first and last kept). */
export function sequenceDiagram(entries: readonly TranscriptEntry[], sides: { suite: string; target: string; checkId?: string }, max = 40): string {
  const lines = entries.map((e) => diagramLine(e, sides.checkId ?? ''));
  let body = lines;
  if (lines.length > max) {
    const head = Math.floor(max / 3);
    body = [...lines.slice(0, head), `  Note over S,T: ${mermaidText(`… ${lines.length - max} message(s) omitted …`)}`, ...lines.slice(-(max - head))];
  }
  return ['sequenceDiagram', `  participant S as ${mermaidText(sides.suite, 40)}`, `  participant T as ${mermaidText(sides.target, 40)}`, ...body].join('\n');
}

function sectionTable(checks: ReportCheck[]): string {
  const rows = checks.map((c) => {
    const status = STATUS[c.status] + (c.expectedFailure ? ' (expected)' : '');
    const note = c.status === 'pass' ? '' : cell(c.message);
    return `| \`${c.id}\` | ${c.requirements.map((r) => `\`${r}\``).join(', ')} | ${c.level} | ${status} | ${note} |`;
  });
  return ['| check | requirements | level | status | note |', '| --- | --- | --- | --- | --- |', ...rows].join('\n');
}

function checkDetails(c: ReportCheck, report: Report, o: Required<Omit<MarkdownOptions, 'exitCode'>>, withTranscript: boolean): string {
  const out: string[] = [];
  const mark = c.status === 'fail' ? '❌' : '⚠️';
  out.push(`### ${mark} \`${c.id}\` (${c.section})${c.expectedFailure ? ' — expected by the baseline' : ''}`, '');
  out.push(cell(c.title, 300), '');
  for (const line of requirementLines(c.requirements)) out.push(`> ${cell(line, 1000)}`, '>');
  if (out[out.length - 1] === '>') out.pop();
  out.push('');
  if (c.message) out.push(fenced(c.message, 'text'), '');
  if (c.reproduce) out.push('Reproduce with:', '', fenced(c.reproduce, 'sh'), '');
  if (c.replay)
    out.push(
      `<details><summary>Replay of the exchange (${c.replay.transport === 'http' ? 'curl' : 'lines to pipe'}; or \`mcp-tasks-conformance replay\` with --replay-dir's file, which fills the placeholders)</summary>`,
      '',
      fenced(replayCommands(c.replay, c.replay.url).join('\n'), 'sh'),
      '',
      '</details>',
      '',
    );
  const property = (c as Partial<PropertyCheckResult>).property;
  if (property?.replay) out.push(`Replay: ${fenced(property.replay, 'sh')}`, '');
  if (withTranscript && c.transcript.length) {
    const client = report.target.startsWith('client:');
    const sides = client ? { suite: 'reference receiver (suite)', target: 'client under test' } : { suite: 'conformance suite', target: 'target' };
    out.push(fenced(sequenceDiagram(c.transcript, { ...sides, checkId: c.id }, o.maxDiagramMessages), 'mermaid'), '');
    out.push(`<details><summary>Messages exchanged (${c.transcript.length}; → sent by the suite, ← by the target, · event)</summary>`, '');
    out.push(fenced(formatTranscript(c.transcript, o.maxTranscriptLines, 300).join('\n'), 'text'), '', '</details>', '');
  } else if (c.transcript.length) {
    out.push(`_${c.transcript.length} messages exchanged: left out for size, see the JSON report (--json)._`, '');
  }
  return out.join('\n');
}

/** The Markdown document for a report. */
export function formatMarkdown(report: Report, options: MarkdownOptions = {}): string {
  const o = { strict: false, maxDiagramMessages: 40, maxTranscriptLines: 60, maxChars: 800_000, ...options };
  const s = report.summary;
  const failed = (o.exitCode ?? exitCode(report, o.strict)) !== 0;
  const out: string[] = [];
  out.push(`## MCP Tasks conformance: ${failed ? '❌ failed' : '✅ passed'}`, '');
  out.push(
    `Target \`${cell(report.target, 300).replace(/`/g, "'")}\` · spec ${report.specVersion} · ${report.tool.name} ${report.tool.version} · ${(report.durationMs / 1000).toFixed(1)} s${o.strict ? ' · --strict (warnings fail)' : ''}`,
    '',
  );
  out.push(
    `**${s.total} checks:** ${s.pass} passed, ${s.fail} failed${s.expectedFailures ? ` (${s.expectedFailures} expected by the baseline)` : ''}, ${s.warn} warnings, ${s.info} info, ${s.skip} not exercised`,
    '',
  );
  if (report.interrupted) out.push(`**Interrupted** (${report.interrupted.signal}): the checks not finished are not exercised (interrupted).`, '');
  for (const n of report.revisionDecision?.notGraded ?? []) out.push(`**Not graded in ${n.revision}:** ${cell(n.why, 500)}`, '');
  if (s.staleBaseline.length)
    out.push(
      `**Stale baseline entries** (listed as expected to fail, but did not fail; remove them): ${s.staleBaseline.map((id) => `\`${id}\``).join(', ')}`,
      '',
    );
  if (report.coverage) out.push(...formatCoverage(report.coverage).map((l, i) => (i === 0 ? `**${cell(l, 2000)}**` : `- ${cell(l.trim(), 2000)}`)), '');
  if (report.errors.length) out.push('**Run errors:**', '', ...report.errors.map((e) => `- ${cell(e, 500)}`), '');
  if (report.targetDown.length)
    out.push('**The target stopped running** (a run-level finding):', '', fenced(healthBanner(report).join('\n').trimEnd(), 'text'), '');
  if (report.rootCauses.length) out.push(fenced(rootCauseLines(report).join('\n').trimEnd(), 'text'), '');
  for (const section of [...new Set(report.checks.map((c) => c.section))]) {
    out.push(`### ${section}`, '', sectionTable(report.checks.filter((c) => c.section === section)), '');
  }
  const flagged = report.checks.filter((c) => c.status === 'fail' || c.status === 'warn');
  if (flagged.length) {
    out.push(`## Failures and warnings (${flagged.length})`, '');
    let size = out.join('\n').length;
    for (const c of flagged) {
      let block = checkDetails(c, report, o, true);
      if (size + block.length > o.maxChars) block = checkDetails(c, report, o, false);
      out.push(block);
      size += block.length + 1;
    }
  }
  // Control characters (a garbage-speaking target's bytes) have no place in a job summary.
  return printableText(out.join('\n').trimEnd()) + '\n';
}
