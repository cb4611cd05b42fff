// The layout, drawn from the imports of the repository's .ts/.mjs files (tests excepted: a test may put
// any layers together, and so may its test-helpers.ts). Each file sits on a floor; a file imports only files on its own floor or below:
//   schema/ → suites/judge/ (revision-neutral judging and readings: pure functions taking a revision's tables) →
//   suites/wire/ (the driver) → suites/engine/ (the check object, running a check) →
//   suites/arrange/ (arrangers) → the receiver checks → mocks/ → the runner, the requestor suite and the
//   property runs (they start or play the reference peers) → reports and the library API → fixtures/ →
//   scripts/ (command line, developer tools).
// A revision folder (suites/2026-07-28/…, mocks/2026-07-28/…) sits on the floor of what it holds. And no
// ring of files remains in mocks/receiver/.
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

  it('no ring of files in mocks/receiver/', () => {
    const inside = [...graph.keys()].filter((p) => p.startsWith('mocks/receiver/'));
    expect(inside.length).toBeGreaterThan(5);
    const edges = new Map(inside.map((p) => [p, graph.get(p)!.filter((to) => to.startsWith('mocks/receiver/'))]));
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

  it('the floors are drawn from real files', () => {
    // A floor nothing sits on is a rule that guards nothing (a folder renamed under the test).
    const used = new Set([...graph.keys()].map(floorOf));
    expect(FLOORS.map(([name], i) => (used.has(i) ? '' : name)).filter(Boolean)).toEqual([]);
  });
});
