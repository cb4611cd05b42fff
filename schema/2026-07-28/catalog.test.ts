// The 2026-07-28 catalog (schema/2026-07-28/requirements.json) against its vendored pages: every
// normative line of the extension's tasks.md is an entry, the SEP's cross-version table and the reviewed
// core lines too, and every entry quotes its page. Conventions: RULINGS.md "Catalog conventions (2026-07-28)".
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catalogFor, ID_PREFIX, KEYWORDS, levelOf, requirement, sourcePath, type Keyword, type Requirement } from '../catalog.ts';
import { bareKeywords, boldKeywords, paragraphAt, sectionAt } from '../spec-text.ts';
import { rulings } from '../rulings.ts';

const REPO = new URL('../../', import.meta.url);
const catalog = catalogFor('2026-07-28');
const cache = new Map<string, string[]>();
const linesOf = (source: string): string[] => {
  let ls = cache.get(source);
  if (!ls) cache.set(source, (ls = readFileSync(new URL(`schema/spec/${source}`, REPO), 'utf8').split('\n')));
  return ls;
};
const TASKS = 'ext-tasks/tasks.md';
const SEP = 'ext-tasks/sep-2663-tasks-extension.md';

const zero = (): Record<Keyword, number> => Object.fromEntries(KEYWORDS.map((k) => [k, 0])) as Record<Keyword, number>;
const countBy = <T>(xs: readonly T[], key: (x: T) => string): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const x of xs) out[key(x)] = (out[key(x)] ?? 0) + 1;
  return out;
};
/** Keywords per line as the catalog has them: plain entries on their line, one per expanded list head. */
function catalogedByLine(entries: readonly Requirement[]): Record<number, string[]> {
  const out: Record<number, string[]> = {};
  const add = (line: number, level: Keyword) => (out[line] = [...(out[line] ?? []), level].sort());
  const heads = new Map<number, Keyword>();
  for (const r of entries) {
    if (r.expandedFrom === undefined) add(r.line, r.level);
    else heads.set(r.expandedFrom, r.level);
  }
  for (const [line, level] of heads) add(line, level);
  return out;
}
/** Keywords per line of a page (bold, and the uppercase ones of code comments), restricted to `only` if given. */
function pageByLine(source: string, only?: readonly number[]): Record<number, string[]> {
  const out: Record<number, string[]> = {};
  linesOf(source).forEach((l, i) => {
    const ks = [...boldKeywords(l), ...bareKeywords(l)];
    if (ks.length && (!only || only.includes(i + 1))) out[i + 1] = ks.sort();
  });
  return out;
}
const of = (source: string) => catalog.filter((r) => r.source === source);

// Keywords on the extension's tasks.md, counted once by hand and re-counted from the file below: bold in
// the prose, and uppercase without bold in the comments of its code blocks (lines 125, 137, 143, 144, 363).
const TASKS_BOLD: Partial<Record<Keyword, number>> = { MUST: 32, 'MUST NOT': 9, SHOULD: 15, MAY: 15 };
const TASKS_BARE: Partial<Record<Keyword, number>> = { MUST: 1, SHOULD: 1, MAY: 3 };

// The core 2026-07-28 lines the Tasks flows depend on (reviewed selection; RULINGS.md "Catalog conventions (2026-07-28)").
const CORE_LINES: Record<string, number[]> = {
  '2026-07-28/basic-index.md': [73, 83, 84, 85, 119, 125, 126, 138, 191, 201, 368, 380, 381, 387, 389, 392, 413],
  '2026-07-28/basic-versioning.md': [50, 69, 73, 75, 122, 123, 130, 154],
  '2026-07-28/server-discover.md': [8, 78],
  '2026-07-28/basic-transports-streamable-http.md': [78, 252, 257, 259, 265, 271, 293, 296, 574, 582, 597, 598, 628],
  '2026-07-28/basic-patterns-cancellation.md': [8, 11, 13, 68],
  '2026-07-28/basic-patterns-subscriptions.md': [15, 54, 56, 80],
  '2026-07-28/basic-patterns-mrtr.md': [10, 20, 229, 246],
};
// SEP-2663: its "Backward Compatibility" table (952, 953) states the cross-version rules tasks.md lacks.
// Its other keyword lines repeat tasks.md word for word, or are the reviewed lines below (rationale and
// paraphrases of tasks.md that tasks.md, the normative text, governs).
const SEP_LINES = [952, 953];
const SEP_NOT_CATALOGED = [29, 130, 184, 385, 410, 519, 922, 934, 940, 955];

describe("the extension's tasks.md: every normative line is an entry", () => {
  it('the hand counts are what the page contains', () => {
    const bold = zero();
    const bare = zero();
    for (const l of linesOf(TASKS)) {
      for (const k of boldKeywords(l)) bold[k]++;
      for (const k of bareKeywords(l)) bare[k]++;
    }
    expect(bold).toEqual({ ...zero(), ...TASKS_BOLD });
    expect(bare).toEqual({ ...zero(), ...TASKS_BARE });
  });

  it('line by line: the keywords of each line are exactly its entries', () => {
    expect(catalogedByLine(of(TASKS))).toEqual(pageByLine(TASKS));
  });
});

describe('SEP-2663 and the core pages: the reviewed lines, all their keywords, nothing else', () => {
  it('SEP: the cross-version table is cataloged; every other keyword line repeats tasks.md or is reviewed', () => {
    expect(catalogedByLine(of(SEP))).toEqual(pageByLine(SEP, SEP_LINES));
    const tasksLines = new Set(linesOf(TASKS).map((l) => l.trim()));
    const others = Object.keys(pageByLine(SEP))
      .map(Number)
      .filter((n) => !SEP_LINES.includes(n) && !tasksLines.has(linesOf(SEP)[n - 1]!.trim()));
    expect(others).toEqual(SEP_NOT_CATALOGED);
  });

  it.each(Object.entries(CORE_LINES))('%s', (source, lines) => {
    expect(catalogedByLine(of(source))).toEqual(pageByLine(source, lines));
  });

  it('no entry quotes another file', () => {
    const sources = new Set([TASKS, SEP, ...Object.keys(CORE_LINES)]);
    expect(catalog.filter((r) => !sources.has(r.source)).map((r) => r.id)).toEqual([]);
  });
});

describe('every entry quotes its page', () => {
  it.each(catalog.map((r) => [r.id, r] as const))('%s', (_id, r: Requirement) => {
    const lines = linesOf(r.source);
    const text = lines[r.line - 1];
    expect(text, `line ${r.line} exists`).toBeDefined();
    expect(paragraphAt(lines, r.line)).toContain(r.statement);
    if (r.expandedFrom === undefined) {
      // The keyword stands on this very line, and the quoted clause carries it.
      expect(r.statement).toMatch(new RegExp(`\\b${r.level}\\b${r.level.endsWith('NOT') ? '' : '(?! NOT)'}`));
      expect([...boldKeywords(text!), ...bareKeywords(text!)]).toContain(r.level);
    } else {
      // A list item: the keyword is on the head, the item lies below it in the same list, unbolded.
      const head = lines[r.expandedFrom - 1]!;
      expect(boldKeywords(head)).toEqual([r.level]);
      expect(head.trimEnd()).toMatch(/:$/);
      expect(r.line - r.expandedFrom).toBeGreaterThan(0);
      expect(r.line - r.expandedFrom).toBeLessThanOrEqual(8);
      expect(text!.trim()).toMatch(/^(\d+\.|-) /);
      expect(boldKeywords(text!)).toEqual([]);
    }
    expect(r.section).toBe(sectionAt(lines, r.line));
    expect(sourcePath(r)).toBe(`schema/spec/${r.source}`);
  });
});

describe('catalog integrity (2026-07-28)', () => {
  it('ids name the revision and their area; every entry carries its revision', () => {
    const AREAS = [
      // the extension
      'caps',
      'support',
      'result',
      'status',
      'ttl',
      'poll',
      'create',
      'get',
      'input',
      'update',
      'cancel',
      'notify',
      'http',
      'errors',
      'exec',
      'security',
      'compat',
      // the core pages
      'core',
      'stateless',
      'meta',
      'codes',
      'version',
      'discover',
      'ext',
      'header',
      'cancellation',
      'subscribe',
      'mrtr',
    ];
    for (const r of catalog) {
      expect(r.id.startsWith(ID_PREFIX['2026-07-28']), r.id).toBe(true);
      expect(AREAS, r.id).toContain(r.id.split('-')[1]);
      expect(r.revision).toBe('2026-07-28');
      expect(requirement(r.id)).toBe(r);
    }
  });

  it('not-observable entries say why; repeats point at a primary of the same level', () => {
    for (const r of catalog) if (!r.disposition.observable) expect(r.disposition.why.length, r.id).toBeGreaterThan(20);
    expect(
      catalog
        .filter((r) => r.sameAs)
        .map((r) => `${r.id}→${r.sameAs}`)
        .sort(),
    ).toEqual([
      '2026-discover-implement-2→2026-discover-implement',
      '2026-errors-listen-non-declaring-32021→2026-notify-non-declaring-32021',
      '2026-exec-failed-error-field→2026-get-failed-error',
      '2026-meta-required-fields-2→2026-meta-required-fields',
      '2026-mrtr-no-undeclared-elicitation→2026-mrtr-no-undeclared-input-requests',
      '2026-poll-interval-may-change-2→2026-poll-interval-may-change',
      '2026-poll-respect-interval-2→2026-poll-respect-interval',
      '2026-security-input-trust-model→2026-input-same-trust-as-standalone',
      '2026-status-failed-only-jsonrpc→2026-exec-failed-not-for-tool-errors',
      '2026-ttl-may-change-2→2026-ttl-may-change',
    ]);
  });

  it('the rulings of 2026-07-28 name only its entries, and each entry they name cites them in its notes', () => {
    const mine = rulings.filter((r) => r.revision === '2026-07-28');
    expect(mine.length).toBeGreaterThan(0);
    for (const ruling of mine)
      for (const id of ruling.ids) {
        expect(requirement(id).revision, `${ruling.slug} names ${id}`).toBe('2026-07-28');
        expect(requirement(id).notes ?? '', `${id} cites RULINGS.md#${ruling.slug}`).toContain(`RULINGS.md#${ruling.slug}`);
      }
  });

  it('entry totals per level, strength and source (the numbers in the report)', () => {
    expect(countBy(catalog, (r) => r.level)).toEqual({ MUST: 72, 'MUST NOT': 20, SHOULD: 23, 'SHOULD NOT': 1, MAY: 21, REQUIRED: 1 });
    expect(countBy(catalog, (r) => levelOf(r.level))).toEqual({ MUST: 93, SHOULD: 24, MAY: 21 });
    expect(countBy(catalog, (r) => r.source.split('/')[0]!)).toEqual({ 'ext-tasks': 83, '2026-07-28': 55 });
    expect(of(TASKS)).toHaveLength(76);
    expect(catalog.filter((r) => !r.disposition.observable)).toHaveLength(10);
  });
});
