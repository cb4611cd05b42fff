// Freedoms come from the text, and each has its switch. A freedom is what a correct peer may do that a check must
// not read as a violation: a MAY line of the catalog, an allowing ruling, an optional field or stream. Each latitude
// of a reference peer (both revisions, receiver and client side) names the freedom it exercises (`allows`); this
// test holds the two together, as schema/catalog.test.ts holds the catalog to the pages:
//   - every latitude's `allows` resolves: a catalog id of its revision, a ruling, an optional schema field, or a
//     vendored spec line;
//   - every observable MAY line of the catalog has a latitude that exercises it (or is a known gap, with why);
//   - every latitude is in a no-false-verdict matrix (its cells are computed from the registry);
//   - every ruling is cited by a check (suites/), or is a known exception, with why.
// A known gap that gets its switch fails here until it is struck from the list: the lists only shrink.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogFor, hasRequirement, requirement } from '../schema/catalog.ts';
import { rulings } from '../schema/rulings.ts';
import type { Revision } from '../schema/spec.ts';
import { LATITUDES as RECEIVER_2025 } from '../mocks/receiver/latitudes.ts';
import { CLIENT_LATITUDES as CLIENT_2025 } from '../mocks/client/latitudes.ts';
import { LATITUDES as SERVER_2026, STDIO_LATITUDE_CELL } from '../mocks/2026-07-28/faults.ts';
import { CLIENT_LATITUDES as CLIENT_2026 } from '../mocks/2026-07-28/client/faults.ts';
import { DUAL_ERA_LATITUDES } from '../mocks/dual-era/faults.ts';
import { latitudeCells } from '../mocks/latitude-matrix.ts';

const ROOT = join(import.meta.dirname, '..');

interface Switch {
  name: string;
  allows?: string;
}
interface Registry {
  peer: string;
  revision: Revision;
  side: 'receiver' | 'requestor';
  switches: readonly Switch[];
  /** The test file whose matrix runs every switch of the registry (its cells computed from the registry). */
  matrix: string;
}

const REGISTRIES: readonly Registry[] = [
  { peer: 'reference receiver (2025-11-25)', revision: '2025-11-25', side: 'receiver', switches: RECEIVER_2025, matrix: 'suites/receiver/latitudes.test.ts' },
  { peer: 'reference client (2025-11-25)', revision: '2025-11-25', side: 'requestor', switches: CLIENT_2025, matrix: 'suites/requestor-latitudes.test.ts' },
  {
    peer: 'reference extension server',
    revision: '2026-07-28',
    side: 'receiver',
    switches: SERVER_2026,
    matrix: 'suites/2026-07-28/receiver/latitudes.test.ts',
  },
  {
    peer: 'reference extension client',
    revision: '2026-07-28',
    side: 'requestor',
    switches: CLIENT_2026,
    matrix: 'suites/2026-07-28/requestor/faults.test.ts',
  },
  { peer: 'dual-era target', revision: '2026-07-28', side: 'receiver', switches: DUAL_ERA_LATITUDES, matrix: 'suites/2026-07-28/receiver/latitudes.test.ts' },
];

/** Observable MAY lines with no switch yet, and why. */
const KNOWN_GAPS: Readonly<Record<string, string>> = {
  'sse-get-disconnect-may': 'a client disconnecting from an SSE stream: no reference-client switch yet',
  'sse-result-disconnect-may': 'a client disconnecting from an SSE stream: no reference-client switch yet',
  'support-declared-may-require': 'a receiver requiring task augmentation: no reference-receiver switch yet',
  'ttl-delete-after-expiry-may': 'exercised by lazy-expiry, which names RULINGS.md#expired-cleanup-promptly instead',
  'errors-task-required-may-32600': 'a receiver requiring task augmentation (-32600): no reference-receiver switch yet',
  '2026-ttl-client-backstop': 'a client treating the TTL as a backstop: no reference-client switch yet',
  '2026-ttl-client-consider-unusable': 'a client giving up on a task after createdAt + ttlMs: no reference-client switch yet',
  '2026-notify-client-may-poll': 'the reference client polls after a subscription that brought no terminal status (scenario subscribe); no switch of its own',
  '2026-security-ids-bearer': 'the reference server without bearer tokens uses task ids as the only key; no switch of its own',
  '2026-version-dual-era-may': 'exercised by the dual-era reference target as a whole (mocks/dual-era), not by a switch',
};

/** Rulings that no check cites, and why. */
const UNCITED_RULINGS: Readonly<Record<string, string>> = {
  'requestor-related-task-omit': 'read by the reference client and the requestor analysis, not by a receiver check',
  'ext-negotiated-per-request': 'read by the reference server and the catalog notes (every check sends its own capabilities)',
  'ext-examples-omit-request-meta': 'a reading of the examples: the catalog notes cite it',
  'ext-create-task-result-terminal-seed': 'read by the reference server (latitude seed-current-status) and the catalog notes',
  'ext-update-stray-keys': 'a reading the catalog notes cite; the stray-key check cites its requirement id',
  'ext-input-key-same-request': 'a reading the catalog notes cite; the key checks cite their requirement ids',
  'ext-32021-before-32602': 'the order of two errors: the catalog notes cite it',
};

/** `schema:<Definition>.<path>` exists in the revision's schema (a property path through `properties`). */
function schemaFieldExists(revision: Revision, ref: string): boolean {
  const [def, ...path] = ref.slice('schema:'.length).split('.');
  const doc = JSON.parse(readFileSync(join(ROOT, `schema/tasks-${revision}.schema.json`), 'utf8')) as { $defs: Record<string, any> };
  let at: any = doc.$defs[def!];
  for (const p of path) {
    while (at?.$ref) at = doc.$defs[String(at.$ref).replace('#/$defs/', '')];
    at = at?.properties?.[p];
  }
  return at !== undefined;
}

/** Why `allows` does not resolve for a switch of `revision`, or undefined when it does. */
function unresolved(revision: Revision, allows: string | undefined): string | undefined {
  if (!allows) return 'no allows';
  if (allows.startsWith('RULINGS.md#')) return rulings.some((r) => r.slug === allows.slice('RULINGS.md#'.length)) ? undefined : 'no such ruling';
  if (allows.startsWith('schema:')) return schemaFieldExists(revision, allows) ? undefined : `no such field in schema/tasks-${revision}.schema.json`;
  if (allows.startsWith('spec:')) {
    const m = /^spec:([\w.-]+\/[\w.-]+):(\d+)$/.exec(allows);
    if (!m) return 'not spec:<folder>/<file>:<line>';
    const line = readFileSync(join(ROOT, 'schema/spec', m[1]!), 'utf8').split('\n')[Number(m[2]) - 1];
    return line?.trim() ? undefined : 'no such line';
  }
  if (!hasRequirement(allows)) return 'no such catalog id';
  return requirement(allows).revision === revision ? undefined : `a catalog id of ${requirement(allows).revision}`;
}

describe('freedoms and their switches', () => {
  it('every latitude names the freedom it exercises, and the name resolves', () => {
    const bad = REGISTRIES.flatMap((reg) =>
      reg.switches.flatMap((s) => {
        const why = unresolved(reg.revision, s.allows);
        return why ? [`${reg.peer} ${s.name}: allows ${JSON.stringify(s.allows)}: ${why}`] : [];
      }),
    );
    expect(bad).toEqual([]);
  });

  it('every observable MAY line has a latitude that exercises it (or is a known gap)', () => {
    const missing: string[] = [];
    const stale: string[] = [];
    for (const revision of ['2025-11-25', '2026-07-28'] as const) {
      const allowed = new Set(REGISTRIES.filter((r) => r.revision === revision).flatMap((r) => r.switches.map((s) => s.allows)));
      for (const r of catalogFor(revision)) {
        if (r.level !== 'MAY' || r.disposition?.observable === false) continue;
        const primary = r.sameAs ?? r.id;
        const has =
          allowed.has(r.id) || allowed.has(primary) || [...allowed].some((a) => a !== undefined && hasRequirement(a) && requirement(a).sameAs === primary);
        if (!has && !KNOWN_GAPS[r.id]) missing.push(`${r.id} (${r.role}): ${r.statement.slice(0, 100)}`);
        if (has && KNOWN_GAPS[r.id]) stale.push(`${r.id} has a switch now: strike it from KNOWN_GAPS`);
      }
    }
    expect(missing, 'give each a latitude switch of the reference peer of its side, or a KNOWN_GAPS entry saying why not').toEqual([]);
    expect(stale).toEqual([]);
  });

  it('every latitude is in a no-false-verdict matrix', () => {
    for (const reg of REGISTRIES) {
      const text = readFileSync(join(ROOT, reg.matrix), 'utf8');
      // The matrix runs the registry as a whole: each switch alone (latitudeCells), or a loop over the registry.
      expect(
        /latitudeCells|clientLatitudeCells|for \(const l of CLIENT_LATITUDES\)|DUAL_ERA_LATITUDES/.test(text),
        `${reg.matrix} runs ${reg.peer}'s registry`,
      ).toBe(true);
    }
    const infos = SERVER_2026.map((l) => ({ name: l.name, allows: l.allows ?? '', description: l.description }));
    const inCells = new Set(latitudeCells(infos).flatMap((c) => c.latitudes));
    expect(SERVER_2026.map((l) => l.name).filter((n) => !inCells.has(n))).toEqual([]);
    expect(STDIO_LATITUDE_CELL.every((n) => inCells.has(n))).toBe(true);
  });

  it('every ruling is cited by a check (or is a known exception)', () => {
    const cited = new Set<string>();
    for (const e of readdirSync(join(ROOT, 'suites'), { recursive: true, withFileTypes: true })) {
      if (!e.isFile() || !e.name.endsWith('.ts') || e.name.endsWith('.test.ts')) continue;
      for (const m of readFileSync(join(e.parentPath, e.name), 'utf8').matchAll(/RULINGS\.md#([a-z0-9-]+)/g)) cited.add(m[1]!);
    }
    expect(rulings.filter((r) => !cited.has(r.slug) && !UNCITED_RULINGS[r.slug]).map((r) => r.slug)).toEqual([]);
    expect(
      Object.keys(UNCITED_RULINGS).filter((s) => cited.has(s)),
      'cited now: strike from UNCITED_RULINGS',
    ).toEqual([]);
  });
});
