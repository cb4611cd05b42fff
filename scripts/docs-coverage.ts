// `npm run docs:coverage`: writes docs/COVERAGE.md, one section per revision: the requirement → checks → faults →
// rulings table, computed from the revision's catalog (schema/requirements.json, schema/2026-07-28/requirements.json),
// the facts on the checks (suites/engine/check.ts, the requestor engines) and the rulings (schema/RULINGS.md), then
// the kill matrix and the no-false-verdict matrix of its reference peers. scripts/docs-coverage.test.ts fails when
// the file is stale.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMPLETENESS, catalogFor, requirements, sourcePath, type Requirement } from '../schema/catalog.ts';
import { rulingsFor } from '../schema/rulings.ts';
import { SPEC_REVISION } from '../schema/spec.ts';
import { FAULTS } from '../mocks/receiver/faults.ts';
import { LATITUDES } from '../mocks/receiver/latitudes.ts';
import { latitudeCells, type LatitudeCell, type LatitudeInfo } from '../mocks/latitude-matrix.ts';
import { CLIENT_LATITUDES, clientLatitudeCells } from '../mocks/client/latitudes.ts';
import { receiverChecks2025 } from '../suites/index.ts';
import { propertyCatalog } from '../suites/properties/run.ts';
import { requestorChecks } from '../suites/requestor/checks.ts';
import { checksFor } from '../suites/index.ts';
import { extensionRequestorChecks } from '../suites/2026-07-28/requestor/checks.ts';
import { FAULTS as EXTENSION_FAULTS, LATITUDES as LATITUDES_2026, STDIO_LATITUDE_CELL } from '../mocks/2026-07-28/faults.ts';
import { DUAL_ERA_FAULTS, DUAL_ERA_LATITUDES } from '../mocks/dual-era/faults.ts';
import { CLIENT_FAULTS as CLIENT_FAULTS_2026, CLIENT_LATITUDES as CLIENT_LATITUDES_2026 } from '../mocks/2026-07-28/client/faults.ts';

const MODERN = '2026-07-28';
/** The faults of the 2026-07-28 receiver checks: the reference extension server's and the dual-era target's (the cross-version rules). */
const FAULTS_2026 = [...EXTENSION_FAULTS, ...DUAL_ERA_FAULTS];

export const COVERAGE_FILE = fileURLToPath(new URL('../docs/COVERAGE.md', import.meta.url));

interface Row {
  id: string;
  level: string;
  requirements: readonly string[];
  faults: string[];
}

function rows(): Row[] {
  return [
    ...receiverChecks2025.map((c) => ({ id: c.id, level: c.level, requirements: c.requirements, faults: [...c.killedBy] })),
    ...requestorChecks.map((c) => ({ id: c.id, level: c.level, requirements: c.requirements, faults: c.killedBy.map((f) => `client:${f}`) })),
    ...propertyCatalog().map((p) => ({ id: p.id, level: p.level, requirements: p.requirements, faults: [] })),
  ];
}

const code = (s: string) => `\`${s}\``;
const cell = (xs: readonly string[]) => (xs.length ? xs.join(', ') : '—');

function specLink(r: Requirement): string {
  if (r.source.startsWith('errata:')) return `[erratum ${r.source.slice('errata:'.length)}, diff line ${r.line}](../${sourcePath(r)}#L${r.line})`;
  return `[${r.source}:${r.line}](../${sourcePath(r)}#L${r.line})`;
}

/** A latitude as the coverage table names it: `client:` for a client's, and what it allows. */
interface Freedom {
  name: string;
  allows: string;
}

/**
 * The table rows of a catalog: each requirement with the checks citing it (or its primary), their faults, the
 * rulings, and the freedoms bearing on it: the latitudes whose `allows` is the entry (or its primary) or a ruling
 * that names it (suites/freedoms.test.ts holds every MAY line to one).
 */
function requirementRows(catalog: readonly Requirement[], all: readonly Row[], faultsOf: (id: string) => string[], freedoms: readonly Freedom[]): string[] {
  const primary = (id: string) => catalog.find((r) => r.id === id)?.sameAs ?? id;
  return catalog.map((r) => {
    const mine = all.filter((c) => c.requirements.some((id) => primary(id) === primary(r.id)));
    const faults = [...new Set([...mine.flatMap((c) => c.faults), ...faultsOf(r.id)])];
    const ruled = rulingsFor(r.id);
    const rulings = ruled.map((x) => `[${x.slug}](../schema/RULINGS.md#${x.slug})`);
    const bearing = freedoms.filter((f) => primary(f.allows) === primary(r.id) || ruled.some((x) => f.allows === `RULINGS.md#${x.slug}`));
    return `| ${code(r.id)} | ${r.level} | ${r.role} | ${specLink(r)} | ${cell(mine.map((c) => code(c.id)))} | ${cell(faults.map(code))} | ${cell(rulings)} | ${cell([...new Set(bearing.map((f) => code(f.name)))])} | ${status(r, mine).replace(/\|/g, '\\|')} |`;
  });
}

const TABLE_HEAD = [
  '| requirement | level | role | spec | checks | faults | rulings | freedoms (latitudes) | status |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
];

function status(r: Requirement, checks: Row[]): string {
  if (!r.disposition.observable) return `not observable: ${r.disposition.why}`;
  if (r.sameAs) return `repeat of ${code(r.sameAs)}`;
  if (checks.length === 0) return r.level === 'MAY' ? 'MAY: not checked' : '**uncovered**';
  if (r.level === 'MAY') return 'reported (MAY)';
  return checks.some((c) => c.faults.length > 0) ? 'checked, killed by a fault' : 'checked';
}

/** The whole of docs/COVERAGE.md. */
export function renderCoverage(): string {
  const out: string[] = [
    '# Coverage: requirement → checks → faults → rulings',
    '',
    "Generated by `npm run docs:coverage` from the catalogs, the facts on the checks, the reference peers' faults and latitudes and schema/RULINGS.md; do not edit by hand. One section per revision.",
    '',
    `## Revision ${SPEC_REVISION}`,
    '',
    `From schema/requirements.json (spec ${SPEC_REVISION}).`,
    "Checks: `mcp-tasks-conformance checks` lists each with its title. Faults: the reference receiver's (mocks/receiver/faults.ts; `client:` the reference client's, mocks/client/faults.ts) that make the check fail or warn.",
    'On the reference peers every check passes (MAY checks report): suites/receiver/conformance.test.ts, suites/requestor-clients.test.ts.',
    '',
    ...TABLE_HEAD,
    ...requirementRows(requirements, rows(), (id) => FAULTS.filter((f) => f.requirement === id).map((f) => f.name as string), [
      ...LATITUDES.map((l) => ({ name: l.name, allows: l.allows })),
      ...CLIENT_LATITUDES.map((l) => ({ name: `client:${l.name}`, allows: l.allows })),
    ]),
  ];
  out.push('', ...latitudeSection('the reference receiver', LATITUDES, 'suites/receiver/latitudes.test.ts'));
  out.push('', ...latitudeSection('the reference client', CLIENT_LATITUDES, 'suites/requestor-latitudes.test.ts', clientLatitudeCells()));
  out.push('', ...modernSection());
  return `${out.join('\n')}\n`;
}

/** The checks of 2026-07-28: the receiver checks (the reference extension server's faults) and the requestor checks (`client:` the reference extension client's). */
function modernRows(): Row[] {
  return [
    ...checksFor(MODERN).map((c) => ({ id: c.id, level: c.level, requirements: c.requirements, faults: [...c.killedBy] })),
    ...extensionRequestorChecks.map((c) => ({ id: c.id, level: c.level, requirements: c.requirements, faults: c.killedBy.map((f) => `client:${f}`) })),
  ];
}

/** The section of 2026-07-28 + io.modelcontextprotocol/tasks: catalog table, kill matrix, no-false-verdict matrices. */
function modernSection(): string[] {
  const catalog = catalogFor(MODERN);
  const all = modernRows();
  const gate = COMPLETENESS[MODERN];
  const faultsOf = (id: string) => [
    ...FAULTS_2026.filter((f) => f.requirement === id).map((f) => f.name as string),
    ...CLIENT_FAULTS_2026.filter((f) => f.requirement === id).map((f) => `client:${f.name}`),
  ];
  const out = [
    `## Revision ${MODERN} + io.modelcontextprotocol/tasks`,
    '',
    `From schema/2026-07-28/requirements.json (${catalog.length} entries: the extension's tasks.md, SEP-2663's cross-version table, the core ${MODERN} lines the Tasks flows depend on).`,
    `Checks: \`mcp-tasks-conformance checks --revision ${MODERN}\` lists each with its requirement ids and faults (receiver checks, and the \`2026-requestor.*\` checks of \`client --revision ${MODERN}\`). Faults: the reference extension server's (mocks/2026-07-28/faults.ts), the dual-era target's for the cross-version rules (mocks/dual-era/faults.ts: \`mock --revision dual-era\`), \`client:\` the reference extension client's (mocks/2026-07-28/client/faults.ts).`,
    gate === 'required'
      ? 'Every observable MUST and SHOULD entry is cited by a check (schema/2026-07-28/catalog.test.ts).'
      : `Completeness is a ratchet (schema/catalog.ts COMPLETENESS): at most ${gate.knownGaps} observable MUST/SHOULD entries are still **uncovered**; each check that lands lowers it.`,
    '',
    ...TABLE_HEAD,
    ...requirementRows(catalog, all, faultsOf, [
      ...LATITUDES_2026.map((l) => ({ name: l.name, allows: l.allows })),
      ...DUAL_ERA_LATITUDES.map((l) => ({ name: `dual-era:${l.name}`, allows: l.allows })),
      ...CLIENT_LATITUDES_2026.map((l) => ({ name: `client:${l.name}`, allows: l.allows })),
    ]),
    '',
    '### Kill matrix: checks × faults',
    '',
    'Each check with the faults that make it fail (MUST) or warn (SHOULD); under each fault exactly the checks naming it fail or warn: suites/2026-07-28/receiver/faults.test.ts (the reference extension server, or for a dual-era fault the dual-era target, over Streamable HTTP; the faults whose evidence stdio frames otherwise again over stdio; suites/2026-07-28/receiver/compat.test.ts over stdio too) and suites/2026-07-28/requestor/faults.test.ts (the reference extension client).',
    '',
    '| check | level | requirements | killed by |',
    '| --- | --- | --- | --- |',
    ...all.map((c) => `| ${code(c.id)} | ${c.level} | ${cell(c.requirements.map(code))} | ${cell(c.faults.map(code))} |`),
  ];
  const named = new Set(all.flatMap((c) => c.faults));
  const unnamed = [...FAULTS_2026.map((f) => f.name as string), ...CLIENT_FAULTS_2026.map((f) => `client:${f.name}`)].filter((f) => !named.has(f));
  if (unnamed.length) out.push('', `Faults no check names yet (their requirements' checks are still to come): ${unnamed.map(code).join(', ')}.`);
  const alone = (all: readonly LatitudeInfo[]): LatitudeCell[] => all.map((l) => ({ label: l.name, latitudes: [l.name], transport: 'http' }));
  const asInfo = (xs: readonly { name: string; allows?: string; requirement: string; description: string; args?: readonly string[] }[]): LatitudeInfo[] =>
    xs.map((x) => ({ name: x.name, allows: x.allows ?? x.requirement, description: x.description, args: x.args }));
  const server = asInfo(LATITUDES_2026);
  const client = asInfo(CLIENT_LATITUDES_2026);
  const serverCells: LatitudeCell[] = [...alone(server), { label: 'together', latitudes: STDIO_LATITUDE_CELL, transport: 'stdio' }];
  out.push('', ...latitudeSection('the reference extension server', server, 'suites/2026-07-28/receiver/latitudes.test.ts', serverCells, '###'));
  out.push('', ...latitudeSection('the reference extension client', client, 'suites/2026-07-28/requestor/faults.test.ts', alone(client), '###'));
  return out;
}

/** The no-false-verdict matrix of one peer: each latitude, what allows it, and the cells it runs in. */
function latitudeSection(
  peer: string,
  all: readonly LatitudeInfo[],
  test: string,
  cells: readonly LatitudeCell[] = latitudeCells(all),
  heading = '###',
): string[] {
  const allows = (a: string) =>
    a.startsWith('RULINGS.md#')
      ? `[${a.slice(11)}](../schema/RULINGS.md#${a.slice(11)})`
      : a.startsWith('schema:')
        ? `optional ${code(a.slice(7))}`
        : /^[a-z0-9-]+$/.test(a)
          ? code(a)
          : a.replace(/\|/g, '\\|');
  const out = [
    `${heading} No false verdict: the latitudes of ${peer}`,
    '',
    `Beside the kill matrix (every check fails under its fault), the latitudes: each freedom the spec leaves, a switch of ${peer}. ${test} runs the whole suite in each cell below and requires zero fail and zero warn. A check is done when its fault kills it and every latitude leaves it silent.`,
    '',
    `| latitude | allowed by | what it does | cells |`,
    '| --- | --- | --- | --- |',
  ];
  for (const l of all) {
    const mine = cells.filter((c) => c.latitudes.includes(l.name)).map((c) => `${c.label === l.name ? 'alone' : c.label} (${c.transport})`);
    out.push(
      `| ${code(l.name)} | ${allows(l.allows)} | ${l.description.replace(/\|/g, '\\|')}${l.args?.length ? ` (${code(l.args.join(' '))})` : ''} | ${mine.join(', ')} |`,
    );
  }
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(COVERAGE_FILE, renderCoverage());
  process.stdout.write(`wrote ${COVERAGE_FILE}\n`);
}
