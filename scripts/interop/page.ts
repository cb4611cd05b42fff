// docs/IMPLEMENTATIONS.md: rows (implementation × role × transport × revision × run) and the page.
// Rows of runs that have a golden file are made from the golden (goldenRows), so the page and the
// goldens cannot disagree (scripts/interop.test.ts); the others from the JSON report of a live run.
import { readFileSync } from 'node:fs';
import type { CheckResult, Status, TargetInfo } from '../../suites/engine/check.ts';
import type { Revision } from '../../schema/spec.ts';
import { checksFor, receiverChecks } from '../../suites/index.ts';
import { requestorChecks } from '../../suites/requestor/checks.ts';
import { computeCoverage } from '../../suites/coverage.ts';
import type { Golden } from '../../fixtures/targets.ts';
import { IMPLEMENTATIONS, type Implementation, type Transport } from '../../fixtures/interop/implementations.ts';
import { FINDINGS } from '../../fixtures/interop/findings.ts';

export const STATUS_ORDER: Status[] = ['pass', 'fail', 'warn', 'info', 'skip'];

export type Role = 'receiver' | 'requestor';

/** A fail or warn of a row (status "a|b" where the golden allows both). */
export interface RowFinding {
  check: string;
  status: string;
  requirements: string[];
  finding: string;
}

export interface Row {
  impl: string;
  role: Role;
  transport: Transport | '—';
  revision: string;
  /** "profile", "no profile" (discovery), or the client command's "all scenarios". */
  run: string;
  /** Where the row comes from: a golden file, a live run (JSON report), or nothing (not graded: why). */
  source: { golden: string } | { live: true } | { notGraded: string };
  /** Per status: [lowest, highest] (they differ where a golden allows several statuses). */
  counts?: Record<Status, [number, number]>;
  /** "a/b MUST, c/d SHOULD", or why there is none. */
  coverage?: string;
  findings: RowFinding[];
  /** A line of what got in the way (target did not start, run timed out, …). */
  note?: string;
}

const defs = new Map<string, { requirements: readonly string[] }>([...receiverChecks, ...requestorChecks].map((c) => [c.id, c]));
/** The ids a check cites (a client receiver check is named `<check>@<request type>`). */
export function requirementsOf(check: string): string[] {
  return [...(defs.get(check.replace(/@.*$/, ''))?.requirements ?? [])];
}

/** The reviewed one-line finding of a fail/warn, or what the run said (marked as not reviewed). */
export function findingFor(impl: string, check: string, message?: string): string {
  const reviewed = FINDINGS[impl]?.checks[check.replace(/@.*$/, '')];
  if (reviewed) return reviewed;
  const said = (message ?? '').split('\n')[0]!.trim();
  return `not reviewed yet${said ? `: ${said.length > 200 ? said.slice(0, 199) + '…' : said}` : ''}`;
}

export function countStatuses(statuses: readonly string[]): Record<Status, [number, number]> {
  const counts = Object.fromEntries(STATUS_ORDER.map((s) => [s, [0, 0]])) as Record<Status, [number, number]>;
  for (const st of statuses) {
    const alts = st.split('|') as Status[];
    for (const s of new Set(alts)) {
      if (!counts[s]) continue;
      counts[s][1]++;
      if (alts.length === 1) counts[s][0]++;
    }
  }
  return counts;
}

type Coverage = { must: { exercised: number; applicable: number }; should: { exercised: number; applicable: number } };
export function formatCoverage(c: Coverage): string {
  return formatCoverageRange(c, c);
}
/** "a/b MUST, c/d SHOULD", with "a–a'" where the lowest and highest exercised counts differ. */
export function formatCoverageRange(lo: Coverage, hi: Coverage): string {
  const one = (l: Coverage['must'], h: Coverage['must']) => `${l.exercised === h.exercised ? l.exercised : `${l.exercised}–${h.exercised}`}/${l.applicable}`;
  return `${one(lo.must, hi.must)} MUST, ${one(lo.should, hi.should)} SHOULD`;
}
/** Whether a coverage line (exact) is within a range line ("a–b/n"). */
export function coverageWithin(exact: string, range: string): boolean {
  const nums = (s: string) => [...s.matchAll(/(\d+)(?:–(\d+))?\/(\d+)/g)].map((m) => [Number(m[1]), Number(m[2] ?? m[1]), Number(m[3])]);
  const e = nums(exact);
  const r = nums(range);
  return e.length === r.length && e.every(([x, , n], i) => x! >= r[i]![0]! && x! <= r[i]![1]! && n === r[i]![2]);
}

function findingsOf(impl: string, checks: { id: string; status: string; message?: string }[]): RowFinding[] {
  return checks
    .filter((c) => c.status.split('|').some((s) => s === 'fail' || s === 'warn'))
    .map((c) => ({ check: c.id, status: c.status, requirements: requirementsOf(c.id), finding: findingFor(impl, c.id, c.message) }));
}

/** The rows of an implementation's golden-backed runs, made from its golden files alone (no run, no network). */
export function goldenRows(impl: Implementation, readGolden: (name: string) => unknown = readGoldenFile): Row[] {
  const rows: Row[] = [];
  for (const [transport, name] of Object.entries(impl.goldens ?? {}) as [Transport, string][]) {
    const source = { golden: `fixtures/golden/${name}.json` };
    const base = { impl: impl.id, transport, revision: impl.revision, source };
    if (impl.kind === 'server') {
      const golden = readGolden(name) as Golden;
      const checks = Object.entries(golden.checks).map(([id, status]) => ({ id, status }));
      // A check the golden allows to be skipped or not: coverage is given as the range between the two.
      const cov = (pick: 'skip' | 'ran') => {
        const results = checks.map((c) => {
          const alts = c.status.split('|');
          return {
            id: c.id,
            status: alts.length > 1 && alts.includes('skip') ? (pick === 'skip' ? 'skip' : alts.find((a) => a !== 'skip')!) : alts[0]!,
          } as CheckResult;
        });
        const info = { transport, serverCapabilities: impl.declares ?? {}, missingRoles: {} } as unknown as TargetInfo;
        return computeCoverage(results, checksFor(impl.revision as Revision), info);
      };
      const coverage = formatCoverageRange(cov('skip'), cov('ran'));
      rows.push({
        ...base,
        role: 'receiver',
        run: 'profile',
        counts: countStatuses(checks.map((c) => c.status)),
        coverage,
        findings: findingsOf(impl.id, checks),
      });
    } else {
      const golden = readGolden(name) as {
        checks: Record<string, { status: string; message: string }>;
        receiverChecks?: { checks: Record<string, { status: string; message: string }> };
      };
      // The same split as a live run's (roleOf): `requestor.*` judge the client as requestor; `receiving.*`
      // and the receiver checks (`receiverChecks`, the same statuses for both request types) as receiver.
      const all = [
        ...Object.entries(golden.checks).map(([id, c]) => ({ id, status: c.status, message: c.message })),
        ...Object.entries(golden.receiverChecks?.checks ?? {}).map(([id, c]) => ({ id, status: c.status, message: c.message })),
      ];
      for (const role of ['receiver', 'requestor'] as const) {
        const checks = all.filter((c) => roleOf(c.id) === role);
        if (!checks.length) continue;
        rows.push({
          ...base,
          role,
          run: 'all scenarios',
          counts: countStatuses(checks.map((c) => c.status)),
          coverage: CLIENT_COVERAGE,
          findings: findingsOf(impl.id, checks),
        });
      }
    }
  }
  return rows;
}

export const CLIENT_COVERAGE = 'not computed for clients';

function readGoldenFile(name: string): unknown {
  return JSON.parse(readFileSync(`fixtures/golden/${name}.json`, 'utf8'));
}

/** Which role a check judges: `requestor.*` (`2026-requestor.*`) the target as requestor; every other check (receiver, `receiving.*`) as receiver. */
export const roleOf = (check: string): Role => (/^(2026-)?requestor\./.test(check) ? 'requestor' : 'receiver');

/** A live run's checks split into rows by role (roleOf). */
export function liveRows(
  impl: Implementation,
  transport: Transport,
  run: string,
  checks: { id: string; status: Status; message: string }[],
  coverage: string | undefined,
  note?: string,
): Row[] {
  const byRole: Record<Role, typeof checks> = { receiver: [], requestor: [] };
  for (const c of checks) byRole[roleOf(c.id)].push(c);
  const roles = (Object.keys(byRole) as Role[]).filter((r) => byRole[r].length);
  if (!roles.length)
    return [
      {
        impl: impl.id,
        role: impl.kind === 'client' ? 'requestor' : 'receiver',
        transport,
        revision: impl.revision,
        run,
        source: { live: true },
        findings: [],
        note: note ?? 'no checks ran',
      },
    ];
  return roles.map((role) => ({
    impl: impl.id,
    role,
    transport,
    revision: impl.revision,
    run,
    source: { live: true },
    counts: countStatuses(byRole[role].map((c) => c.status)),
    // The report's coverage is that of the receiver checks (suites/coverage.ts); the requestor checks have none.
    coverage: impl.kind === 'client' ? CLIENT_COVERAGE : role === 'receiver' ? coverage : 'not computed for the requestor checks',
    findings: findingsOf(impl.id, byRole[role]),
    ...(note ? { note } : {}),
  }));
}

const implOf = (id: string) => IMPLEMENTATIONS.find((i) => i.id === id)!;
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const range = ([lo, hi]: [number, number]) => (lo === hi ? String(lo) : `${lo}–${hi}`);
export const rowTitle = (r: Row) => `${implOf(r.impl).name} · ${r.role} · ${r.transport} · ${r.revision} · ${r.run}`;
const sourceCell = (r: Row) => ('golden' in r.source ? `golden \`${r.source.golden}\`` : 'live' in r.source ? 'live run' : 'not graded');

/** The summary table line of a row. */
export function summaryLine(r: Row): string {
  const impl = implOf(r.impl);
  const counts = r.counts ? STATUS_ORDER.map((s) => range(r.counts![s])) : STATUS_ORDER.map(() => '—');
  const coverage = r.coverage ?? ('notGraded' in r.source ? r.source.notGraded : (r.note ?? '—'));
  return `| ${cell(impl.name)} | ${impl.version} | ${r.role} | ${r.transport} | ${r.revision} | ${r.run} | ${counts.join(' | ')} | ${cell(coverage)} | ${sourceCell(r)} |`;
}

/** The details block of a row: every fail and warn with its requirement ids and one-line finding. */
export function detailsBlock(r: Row): string {
  const lines = [`### ${rowTitle(r)}`, ''];
  if (r.note) lines.push(`${r.note}`, '');
  if (!r.findings.length) {
    lines.push('No check failed or warned.', '');
    return lines.join('\n');
  }
  lines.push('| check | status | requirement | finding |', '| --- | --- | --- | --- |');
  for (const f of r.findings) lines.push(`| \`${f.check}\` | ${f.status} | ${f.requirements.map((id) => `\`${id}\``).join(', ')} | ${cell(f.finding)} |`);
  lines.push('');
  return lines.join('\n');
}

export const SUMMARY_HEADER = [
  '| implementation | version | role | transport | revision | run | pass | fail | warn | info | skip | coverage | source |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
];

export interface PageInput {
  rows: Row[];
  generatedAt: string;
  node: string;
  /** Per implementation: what the live run found beside the golden (differences), for its section. */
  liveNotes: Record<string, string[]>;
}

export function renderPage(p: PageInput): string {
  const out: string[] = [
    '# Implementations',
    '',
    `Generated by \`npm run interop\` (scripts/interop.ts) on ${p.generatedAt} with Node ${p.node} (golden-backed rows kept in step with \`--refresh\`); the reviewed findings are in`,
    '`fixtures/interop/findings.ts`. Every implementation is installed at the pinned version into a temporary folder and graded',
    'the way a user would run the suite: the `server` command (with the reviewed profile where there is one, and without, so',
    'discovery finds the roles) over each transport it offers, or the `client` command (every scenario). One target at a time,',
    'bounded, on loopback only. Rows whose source is a golden file are made from that file (`fixtures/golden/`), so this page',
    'and the goldens cannot disagree (`scripts/interop.test.ts`); the live run is compared with the golden and any difference',
    "is named in the implementation's section. A count `a–b` means the golden allows a check either status (the target itself",
    'varies between runs). Coverage is MUST and SHOULD requirements exercised out of those that apply (docs/SERVERS.md, "First run").',
    '',
    '## The matrix',
    '',
    ...SUMMARY_HEADER,
    ...p.rows.map(summaryLine),
    '',
    '## Every fail and warn, by row',
    '',
    ...p.rows.filter((r) => !('notGraded' in r.source)).map(detailsBlock),
    '## Reviewed findings',
    '',
  ];
  for (const impl of IMPLEMENTATIONS) {
    out.push(`### ${impl.name} ${impl.version}`, '', `${impl.what}.`, '');
    if (impl.notGraded) out.push(`${impl.notGraded}.`, '');
    const f = FINDINGS[impl.id];
    if (f?.summary) out.push(f.summary, '');
    for (const note of p.liveNotes[impl.id] ?? []) out.push(`- ${note}`);
    if (p.liveNotes[impl.id]?.length) out.push('');
  }
  return (
    out
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trimEnd() + '\n'
  );
}

/**
 * The page with its golden-backed rows made again from the goldens (after a golden changed) and the reviewed
 * findings filled in where a row said "not reviewed yet"; every other row and section stays as the last run
 * wrote it. A golden row is found by its summary line's first cells (implementation, version, role,
 * transport, revision, run) and its source, and by its details heading.
 */
export function refreshGoldenRows(page: string, rows: readonly Row[]): string {
  let out = page;
  for (const r of rows) {
    const fresh = summaryLine(r);
    const head = fresh.split(' | ').slice(0, 6).join(' | ') + ' | ';
    const source = ` | ${sourceCell(r)} |`;
    const lines = out.split('\n');
    const i = lines.findIndex((l) => l.startsWith(head) && l.endsWith(source));
    if (i < 0) throw new Error(`no row "${head}…${source}" on the page: run npm run interop`);
    lines[i] = fresh;
    out = lines.join('\n');
    const title = `### ${rowTitle(r)}\n`;
    const start = out.indexOf(title);
    if (start < 0) throw new Error(`no details block "${title.trim()}" on the page: run npm run interop`);
    const next = out.slice(start + title.length).search(/^#{2,3} /m);
    const end = next < 0 ? out.length : start + title.length + next;
    out = out.slice(0, start) + detailsBlock(r) + '\n' + out.slice(end);
  }
  return refreshFindings(out.replace(/\n{3,}/g, '\n\n'));
}

/** Every "not reviewed yet" finding of the page (live rows too) that now has a reviewed line: that line. */
export function refreshFindings(page: string): string {
  let impl: string | undefined;
  return page
    .split('\n')
    .map((line) => {
      if (line.startsWith('### ')) impl = IMPLEMENTATIONS.find((i) => line.startsWith(`### ${i.name} · `))?.id;
      const m = /^\| `([^`]+)` \| (.+) \| (.+) \| not reviewed yet.*\|$/.exec(line);
      const reviewed = m && impl ? FINDINGS[impl]?.checks[m[1]!.replace(/@.*$/, '')] : undefined;
      return m && reviewed ? `| \`${m[1]}\` | ${m[2]} | ${m[3]} | ${cell(reviewed)} |` : line;
    })
    .join('\n');
}
