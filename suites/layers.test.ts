// The layout, drawn from the imports of the repository's .ts/.mjs files (tests excepted: a test may put
// any layers together, and so may its test-helpers.ts). Each file sits on a floor; a file imports only files on its own floor or below:
//   schema/ → suites/judge/ (revision-neutral judging and readings: pure functions taking a revision's tables) →
//   suites/wire/ (the driver) → suites/engine/ (the check object, running a check) →
//   suites/arrange/ (arrangers) → the receiver checks → mocks/ → the runner, the requestor suite and the
//   property runs (they start or play the reference peers) → reports and the library API → fixtures/ →
//   scripts/ (command line, developer tools).
// A revision folder (suites/2026-07-28/…, mocks/2026-07-28/…) sits on the floor of what it holds, and only
// the registry (suites/revisions.ts) and the faces reach into one from outside: the shared floors get the
// revision handed down as a value (suites/runner/adapter.ts) and compare no revision strings. No check file
// imports another (they share arrangers), and no ring of files remains anywhere.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(new URL(import.meta.url).pathname), '..');
const TOP = ['schema', 'suites', 'mocks', 'fixtures', 'scripts'];

/** Floors, lowest first: a file's floor is the first whose test matches its path (revision folders skipped). */
const FLOORS: [string, (p: string) => boolean][] = [
  ['schema', (p) => p.startsWith('schema/')],
  ['suites/judge', (p) => p.startsWith('suites/judge/')],
  ['suites/wire', (p) => p.startsWith('suites/wire/')],
  ['suites/engine', (p) => p.startsWith('suites/engine/')],
  ['suites/arrange', (p) => p.startsWith('suites/arrange/')],
  ['checks', (p) => p.startsWith('suites/receiver/') || p === 'suites/coverage.ts'],
  ['mocks', (p) => p.startsWith('mocks/')],
  ['runner', (p) => p.startsWith('suites/runner/') || p.startsWith('suites/requestor/') || p.startsWith('suites/properties/')],
  ['report, library API', (p) => p.startsWith('suites/report/') || /^suites\/[^/]+\.ts$/.test(p)],
  ['fixtures', (p) => p.startsWith('fixtures/')],
  ['scripts', (p) => p.startsWith('scripts/') || !p.includes('/')],
];

/** A file in a revision folder (schema/2026-07-28/…, suites/2026-07-28/…, mocks/2026-07-28/…). */
const dated = (p: string) => /^[^/]+\/\d{4}-\d{2}-\d{2}\//.test(p);

/** The one module that imports the revisions' adapters. */
const REGISTRY = 'suites/revisions.ts';

/**
 * The faces, which pick a revision for the user and may reach into its folder: the command line and developer
 * tools (scripts/), the fixtures, the package entry, the vitest helper (its 2026-07-28 property tests are
 * still named there), and the dual-era reference peer (it composes both revisions' peers).
 */
const FACES: ((p: string) => boolean)[] = [
  (p) => p.startsWith('scripts/'),
  (p) => p.startsWith('fixtures/'),
  (p) => !p.includes('/'),
  (p) => p === 'suites/vitest.ts',
  (p) => p.startsWith('mocks/dual-era/'),
];

/** A comparison with a revision string: a dated literal or a revision constant on either side of === / !==, or a `case` of one. */
const REVISION_COMPARISON =
  /[!=]==\s*(['"`]\d{4}-\d{2}-\d{2}['"`]|[A-Z_]*REVISION\b|MODERN\b|LEGACY\b)|(['"`]\d{4}-\d{2}-\d{2}['"`]|[A-Z_]*REVISION|MODERN|LEGACY)\s*[!=]==|\bcase\s+['"`]\d{4}-\d{2}-\d{2}['"`]/;

/** Where check files live (a file there that defines `checks`; a revision's index.ts lists them). */
const CHECK_FILE = /^suites\/(\d{4}-\d{2}-\d{2}\/)?(receiver|requestor\/checks)\/(?!index\.ts$)[^/]+\.ts$/;

/** Check files that still import another check file (helpers to move into arrangers). */
const CHECK_IMPORTS_LEFT = ['suites/2026-07-28/receiver/errors.ts → suites/2026-07-28/receiver/codes.ts'];

/** The path with a revision folder (YYYY-MM-DD) after the top folder left out: suites/2026-07-28/wire/x.ts → suites/wire/x.ts. */
const unrevised = (p: string) => p.replace(/^([^/]+)\/\d{4}-\d{2}-\d{2}\//, '$1/');

function floorOf(p: string): number {
  const i = FLOORS.findIndex(([, test]) => test(unrevised(p)));
  if (i < 0) throw new Error(`${p}: on no floor`);
  return i;
}

function sources(): string[] {
  const out: string[] = ['index.ts'];
  for (const top of TOP)
    for (const e of readdirSync(join(ROOT, top), { recursive: true, withFileTypes: true })) {
      const p = relative(ROOT, join(e.parentPath, e.name)).split('\\').join('/');
      if (e.isFile() && /\.(ts|mjs)$/.test(p) && !/\.test\.ts$|(^|\/)test-helpers\.ts$/.test(p) && !p.startsWith('schema/spec/')) out.push(p);
    }
  return out;
}

/** Relative imports of a file (static, re-exports, dynamic), as repository paths. */
function importsOf(p: string): string[] {
  const text = readFileSync(join(ROOT, p), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
  const out = new Set<string>();
  for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g)) {
    let target = normalize(join(dirname(p), m[1]!))
      .split('\\')
      .join('/');
    if (target.endsWith('.js') && !existsSync(join(ROOT, target))) target = target.slice(0, -3) + '.ts';
    out.add(target);
  }
  return [...out];
}

const graph = new Map(sources().map((p) => [p, importsOf(p)]));

describe('layers', () => {
  it('every import points to the own floor or one below', () => {
    const up: string[] = [];
    for (const [from, tos] of graph)
      for (const to of tos) {
        if (to.endsWith('.json') || to.endsWith('.md')) continue;
        if (floorOf(to) > floorOf(from)) up.push(`${from} (${FLOORS[floorOf(from)]![0]}) → ${to} (${FLOORS[floorOf(to)]![0]})`);
      }
    expect(up).toEqual([]);
  });

  it('every import names a file that exists', () => {
    const missing = [...graph].flatMap(([from, tos]) => tos.filter((to) => !existsSync(join(ROOT, to))).map((to) => `${from} → ${to}`));
    expect(missing).toEqual([]);
  });

  it('no ring of files', () => {
    const inside = [...graph.keys()];
    const edges = new Map(inside.map((p) => [p, graph.get(p)!.filter((to) => graph.has(to))]));
    const rings: string[] = [];
    // Depth-first search; a back edge closes a ring.
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const visit = (p: string) => {
      state.set(p, 'open');
      stack.push(p);
      for (const q of edges.get(p) ?? []) {
        if (state.get(q) === 'open') rings.push([...stack.slice(stack.indexOf(q)), q].join(' → '));
        else if (!state.has(q)) visit(q);
      }
      stack.pop();
      state.set(p, 'done');
    };
    for (const p of inside) if (!state.has(p)) visit(p);
    expect(rings).toEqual([]);
  });

  it('no shared floor imports a revision folder: only the registry and the faces do', () => {
    const reaching = [...graph].flatMap(([from, tos]) =>
      dated(from) || from === REGISTRY || FACES.some((f) => f(from)) ? [] : tos.filter((to) => dated(to)).map((to) => `${from} → ${to}`),
    );
    expect(reaching).toEqual([]);
    // The rule guards something: the registry does import the revision folders.
    expect(graph.get(REGISTRY)!.filter(dated).length).toBeGreaterThan(1);
  });

  it('no shared floor compares revision strings (a revision is a value: its adapter answers)', () => {
    const comparing: string[] = [];
    for (const p of graph.keys()) {
      if (dated(p) || FACES.some((f) => f(p)) || p === REGISTRY || p === 'schema/revisions.ts') continue;
      if (!p.startsWith('suites/') && !p.startsWith('schema/')) continue;
      const lines = readFileSync(join(ROOT, p), 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (!/^\s*(\/\/|\*)/.test(line) && REVISION_COMPARISON.test(line)) comparing.push(`${p}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(comparing).toEqual([]);
    expect(REVISION_COMPARISON.test("if (revision === '2026-07-28')") && REVISION_COMPARISON.test('x.revision !== SPEC_REVISION')).toBe(true);
  });

  it('no check file imports another check file (they share arrangers)', () => {
    const isCheckFile = (p: string) => CHECK_FILE.test(p) && /\bexport const checks\b/.test(readFileSync(join(ROOT, p), 'utf8'));
    const found = [...graph].flatMap(([from, tos]) =>
      isCheckFile(from) ? tos.filter((to) => graph.has(to) && isCheckFile(to)).map((to) => `${from} → ${to}`) : [],
    );
    // Edges still to move into arrangers; the list only shrinks (a removed edge must leave it too).
    expect(found.sort()).toEqual([...CHECK_IMPORTS_LEFT].sort());
  });

  it('the floors are drawn from real files', () => {
    // A floor nothing sits on is a rule that guards nothing (a folder renamed under the test).
    const used = new Set([...graph.keys()].map(floorOf));
    expect(FLOORS.map(([name], i) => (used.has(i) ? '' : name)).filter(Boolean)).toEqual([]);
  });
});
