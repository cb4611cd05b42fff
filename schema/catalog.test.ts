// The requirement catalog (requirements.json via catalog.ts) against the spec pages.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  COMPLETENESS,
  KEYWORDS,
  catalogFor,
  coverage,
  severity,
  parseCatalog,
  primaryId,
  requirement,
  requirements,
  type Keyword,
  type Requirement,
  type Source,
} from './catalog.ts';
import { REVISIONS, VENDORED_SPEC_DIR } from './spec.ts';
import { boldKeywords, plain, sectionAt } from './spec-text.ts';

// The vendored upstream pages (schema/spec/, see schema/spec.ts); MCP_SPEC_DIR points elsewhere to try fresh copies.
const SPEC_DIR = process.env.MCP_SPEC_DIR ?? VENDORED_SPEC_DIR;

const FILE_OF: Record<Source, string> = {
  'tasks.md': 'tasks.md',
  'progress.md': 'progress.md',
  'cancellation.md': 'cancellation.md',
  'transports.md': 'transports.md',
  'errata:7b5513e1': 'errata-since-tag.diff',
};
const linesOf = (source: Source): string[] => readFileSync(`${SPEC_DIR}/${FILE_OF[source]}`, 'utf8').split('\n');

const countBy = <T>(xs: readonly T[], key: (x: T) => string): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const x of xs) out[key(x)] = (out[key(x)] ?? 0) + 1;
  return out;
};
const zeroLevels = (): Record<Keyword, number> => Object.fromEntries(KEYWORDS.map((k) => [k, 0])) as Record<Keyword, number>;

const fromTasks = requirements.filter((r) => r.source === 'tasks.md');

// Bold keywords on the Tasks page (tasks.md at tag 2025-11-25), counted once by hand and re-counted
// from the file below when it is present.
const PAGE_BOLD: Record<Keyword, number> = { ...zeroLevels(), MUST: 39, 'MUST NOT': 5, SHOULD: 21, 'SHOULD NOT': 7, MAY: 12 };

/*
 * The accounting, per level L:
 *
 *   bold **L** on tasks.md  =  entries of level L from tasks.md without `expandedFrom`
 *                            + distinct `expandedFrom` heads among entries of level L
 *
 * A plain entry stands for exactly one bold keyword (a sentence with two keywords is two entries on
 * the same line). A list whose keyword sits only on its head ("Receivers **SHOULD**:" at 885, 895,
 * 899; "Receivers **MUST** return ... the following protocol error cases:" at 768; "receivers **MAY**
 * return the following errors:" at 775) is expanded: the head gets no entry of its own, each item
 * gets one (carrying `expandedFrom: <head line>`), and the head's single keyword is counted once.
 * So SHOULD: 21 bold = 18 plain + 3 heads (885, 895, 899), which expand into 6 + 3 + 2 = 11 entries
 * → 29 SHOULD entries; MUST: 39 bold = 38 plain + 1 head (768, 4 items) → 42 MUST entries; MAY:
 * 12 bold = 11 plain + 1 head (775, 1 item) → 12 MAY entries.
 */
describe('counts per level match the Tasks page', () => {
  it('catalog accounting equals the page counts (plain entries + list heads)', () => {
    const got = zeroLevels();
    const heads = new Map<number, Keyword>();
    for (const r of fromTasks) {
      if (r.expandedFrom === undefined) got[r.level]++;
      else {
        const prev = heads.get(r.expandedFrom);
        expect(prev === undefined || prev === r.level, `${r.id}: items of head ${r.expandedFrom} differ in level`).toBe(true);
        heads.set(r.expandedFrom, r.level);
      }
    }
    for (const level of heads.values()) got[level]++;
    expect(got).toEqual(PAGE_BOLD);
  });

  it('entry totals per level and source (the numbers in the report)', () => {
    expect(countBy(fromTasks, (r) => r.level)).toEqual({ MUST: 42, 'MUST NOT': 5, SHOULD: 29, 'SHOULD NOT': 7, MAY: 12 });
    expect(countBy(requirements, (r) => r.source)).toEqual({
      'tasks.md': 95,
      'errata:7b5513e1': 1,
      'progress.md': 4,
      'cancellation.md': 1,
      'transports.md': 1,
    });
    expect(fromTasks.filter((r) => r.expandedFrom !== undefined)).toHaveLength(16);
    expect(requirements.filter((r) => r.expandedFrom !== undefined && r.source !== 'tasks.md')).toEqual([]);
  });

  it('PAGE_BOLD is what tasks.md really contains (regex count)', () => {
    const counted = zeroLevels();
    for (const line of linesOf('tasks.md')) for (const k of boldKeywords(line)) counted[k]++;
    expect(counted).toEqual(PAGE_BOLD);
  });

  it("line by line: each line's bold keywords are exactly its plain entries plus one per expanded head", () => {
    const lines = linesOf('tasks.md');
    const expected = new Map<number, string[]>();
    lines.forEach((l, i) => {
      const ks = boldKeywords(l);
      if (ks.length) expected.set(i + 1, ks.sort());
    });
    const actual = new Map<number, string[]>();
    const add = (line: number, level: Keyword) => actual.set(line, [...(actual.get(line) ?? []), level].sort());
    const heads = new Map<number, Keyword>();
    for (const r of fromTasks) {
      if (r.expandedFrom === undefined) add(r.line, r.level);
      else heads.set(r.expandedFrom, r.level);
    }
    for (const [line, level] of heads) add(line, level);
    expect(Object.fromEntries([...actual].sort((a, b) => a[0] - b[0]))).toEqual(Object.fromEntries(expected));
  });

  it('progress.md / cancellation.md: every task-related bold keyword is cataloged, nothing else', () => {
    for (const source of ['progress.md', 'cancellation.md'] as const) {
      const expected: Record<number, string[]> = {};
      linesOf(source).forEach((l, i) => {
        const ks = boldKeywords(l);
        // progress.md 55 (progress values increase) is not task-specific but governs task progress too.
        if (ks.length && (/task/i.test(l) || (source === 'progress.md' && i + 1 === 55))) expected[i + 1] = ks.sort();
      });
      const actual: Record<number, string[]> = {};
      for (const r of requirements.filter((x) => x.source === source)) actual[r.line] = [...(actual[r.line] ?? []), r.level].sort();
      expect(actual, source).toEqual(expected);
    }
  });

  it('errata: every bold keyword the diff adds to tasks.mdx is cataloged', () => {
    const diff = linesOf('errata:7b5513e1');
    let inTasks = false;
    const expected: Record<number, string[]> = {};
    diff.forEach((l, i) => {
      if (l.startsWith('diff --git')) inTasks = l.includes('/utilities/tasks.mdx');
      else if (inTasks && l.startsWith('+') && !l.startsWith('+++') && boldKeywords(l).length) expected[i + 1] = boldKeywords(l).sort();
    });
    const actual: Record<number, string[]> = {};
    for (const r of requirements.filter((x) => x.source === 'errata:7b5513e1')) actual[r.line] = [...(actual[r.line] ?? []), r.level].sort();
    expect(actual).toEqual(expected);
    expect(Object.keys(expected)).toHaveLength(1);
  });
});

describe('every entry quotes its source line', () => {
  const cache = new Map<Source, string[]>();
  const src = (s: Source) => cache.get(s) ?? (cache.set(s, linesOf(s)), cache.get(s)!);

  it.each(requirements.map((r) => [r.id, r] as const))('%s', (_id, r: Requirement) => {
    const lines = src(r.source);
    const text = lines[r.line - 1];
    expect(text, `line ${r.line} exists`).toBeDefined();
    // The statement is verbatim (so its first ~30 characters, and the rest, are on the line).
    expect(plain(text!)).toContain(r.statement);
    expect(plain(text!)).toContain(r.statement.slice(0, 30));
    if (r.expandedFrom === undefined) {
      // The keyword is bold on this very line, and the quoted clause carries it.
      expect(boldKeywords(text!)).toContain(r.level);
      expect(r.statement).toMatch(new RegExp(`\\b${r.level}\\b${r.level.endsWith('NOT') ? '' : '(?! NOT)'}`));
    } else {
      // A list item: the keyword is on the head, the item lies below it in the same list, unbolded.
      const head = lines[r.expandedFrom - 1]!;
      expect(boldKeywords(head)).toEqual([r.level]);
      expect(head.trimEnd()).toMatch(/:$/);
      expect(r.line).toBeGreaterThan(r.expandedFrom);
      expect(r.line - r.expandedFrom).toBeLessThanOrEqual(8);
      for (let i = r.expandedFrom; i < r.line; i++) expect(lines[i]!.trim(), `line ${i + 1} inside the list`).toMatch(/^((\d+\.|-) |$)/);
      expect(text!.trim()).toMatch(/^(\d+\.|-) /);
      expect(boldKeywords(text!)).toEqual([]);
    }
  });

  it('sections are the page heading paths', () => {
    for (const r of requirements) {
      if (r.source === 'errata:7b5513e1') continue;
      expect(r.section, r.id).toBe(sectionAt(src(r.source), r.line));
    }
  });

  it('the erratum sentence follows security-crypto-ids in the diff (hence its section)', () => {
    const diff = src('errata:7b5513e1');
    const crypto = requirement('security-crypto-ids');
    for (const r of requirements.filter((x) => x.source === 'errata:7b5513e1')) {
      expect(diff[r.line - 1]!.startsWith('+')).toBe(true);
      expect(diff[r.line - 2]!.slice(1)).toBe(src('tasks.md')[crypto.line - 1]);
      expect(r.section).toBe(crypto.section);
    }
  });
});

describe('catalog integrity', () => {
  it('ids are unique and kebab-case', () => {
    const ids = requirements.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
  });

  it('ids start with their area prefix', () => {
    const AREAS = [
      'caps',
      'tool',
      'create',
      'sse',
      'poll',
      'notify',
      'support',
      'id',
      'lifecycle',
      'input',
      'ttl',
      'result',
      'related',
      'list',
      'cancel',
      'errors',
      'exec',
      'security',
      'resource',
      'audit',
      'progress',
      'cancellation',
    ];
    for (const r of requirements) expect(AREAS, r.id).toContain(r.id.split('-')[0]);
  });

  it('fields are well-formed; not-observable entries say why', () => {
    expect(() => parseCatalog(JSON.parse(readFileSync(new URL('./requirements.json', import.meta.url), 'utf8')))).not.toThrow();
    for (const r of requirements) {
      expect(KEYWORDS).toContain(r.level);
      expect(r.statement).not.toMatch(/\*\*|\]\(/);
      if (!r.disposition.observable) expect(r.disposition.why.length, r.id).toBeGreaterThan(20);
    }
  });

  it('repeats point at a primary of the same level (no chains)', () => {
    const repeats = requirements.filter((r) => r.sameAs);
    for (const r of repeats) {
      const p = requirement(r.sameAs!);
      expect(p.sameAs, r.id).toBeUndefined();
      expect(p.level, r.id).toBe(r.level);
      expect(primaryId(r.id)).toBe(p.id);
    }
    expect(repeats.map((r) => `${r.id}→${r.sameAs}`).sort()).toEqual([
      'errors-cancel-terminal-32602→cancel-terminal-32602',
      'notify-no-reliance-2→notify-no-reliance',
      'notify-status-may-2→notify-status-may',
      'poll-respect-interval-2→poll-respect-interval',
      'poll-until-terminal-2→poll-until-terminal',
      'progress-same-token-2→progress-same-token',
      'related-task-all-messages-2→related-task-all-messages',
      'related-task-get-list-cancel-should-not-2→related-task-get-list-cancel-should-not',
      'result-exact-error→result-exact',
      'result-exact-success→result-exact',
      'sse-transport-compliance-2→sse-transport-compliance',
      'sse-transport-compliance-3→sse-transport-compliance',
    ]);
  });

  it('the -32601/-32600 conflict ruling is stated where check authors look', () => {
    const ruling =
      'for tools/call of a `required` tool, -32601 is the MUST (tool-level rule is more specific); a -32600 warns (never fails) with a note citing the conflict (RULINGS.md#required-tool-32601)';
    expect(requirement('tool-required-must-32601').notes).toContain(ruling);
    expect(requirement('errors-task-required-may-32600').notes).toContain(ruling);
    expect(requirement('ttl-actual-in-get').notes).toContain('357adac4');
  });

  it('requirement() throws on an unknown id; severity maps levels', () => {
    expect(requirement('cancel-sticky').level).toBe('MUST');
    expect(() => requirement('no-such-requirement')).toThrow(/unknown requirement id/);
    expect(KEYWORDS.map(severity)).toEqual(['fail', 'fail', 'warn', 'warn', 'info', 'fail', 'warn', 'info']);
  });
});

describe('coverage()', () => {
  it('reports per-requirement checks, uncovered MUST/SHOULD entries and unknown ids', () => {
    const cov = coverage([
      { id: 'cancel.sticky', requirements: ['cancel-sticky', 'no-such-id'] },
      { id: 'result.exact-error', requirements: ['result-exact-error'] }, // a repeat: covers its whole group
      { id: 'result.exact', requirements: ['result-exact', 'typo-id'] },
      { id: 'audit.nothing', requirements: ['audit-log-events'] },
    ]);
    expect(cov.unknownIds).toEqual(['no-such-id', 'typo-id']);
    expect(cov.byRequirement['cancel-sticky']).toEqual(['cancel.sticky']);
    for (const id of ['result-exact', 'result-exact-error', 'result-exact-success']) {
      expect(cov.byRequirement[id]).toEqual(['result.exact-error', 'result.exact']);
    }
    expect(cov.citedRepeats).toEqual(['result.exact-error → result-exact-error (primary: result-exact)']);
    expect(Object.keys(cov.byRequirement)).toHaveLength(requirements.length);

    expect(cov.uncovered).not.toContain('cancel-sticky');
    expect(cov.uncovered).not.toContain('result-exact-success');
    expect(cov.uncovered).toContain('id-string'); // observable MUST, no check
    expect(cov.uncovered).toContain('list-paginate'); // observable SHOULD
    expect(cov.uncovered).toContain('notify-status-no-related-task'); // observable SHOULD NOT
    expect(cov.uncovered).not.toContain('audit-monitor-suspicious'); // not observable
    expect(cov.uncovered).not.toContain('ttl-override-may'); // MAY: never required
    const expectedUncovered = requirements
      .filter((r) => r.level !== 'MAY' && r.disposition.observable)
      .filter((r) => !['cancel-sticky', 'result-exact', 'result-exact-error', 'result-exact-success'].includes(r.id))
      .map((r) => r.id);
    expect(cov.uncovered).toEqual(expectedUncovered);
  });

  it('with a synthetic catalog: a check citing the primary covers the repeat; empty check list covers nothing', () => {
    const base = { revision: '2025-11-25', section: 'S', source: 'tasks.md', line: 1, role: 'receiver', statement: 'x' } as const;
    const cat: Requirement[] = [
      { ...base, id: 'a-must', level: 'MUST', disposition: { observable: true } },
      { ...base, id: 'a-must-2', level: 'MUST', disposition: { observable: true }, sameAs: 'a-must' },
      { ...base, id: 'b-should-not', level: 'SHOULD NOT', disposition: { observable: true } },
      { ...base, id: 'c-doc', level: 'SHOULD', disposition: { observable: false, why: 'not on the wire' } },
      { ...base, id: 'd-may', level: 'MAY', disposition: { observable: true } },
    ];
    expect(coverage([], cat).uncovered).toEqual(['a-must', 'a-must-2', 'b-should-not']);
    const cov = coverage(
      [
        { id: 'k1', requirements: ['a-must'] },
        { id: 'k2', requirements: ['zz'] },
      ],
      cat,
    );
    expect(cov.uncovered).toEqual(['b-should-not']);
    expect(cov.byRequirement['a-must-2']).toEqual(['k1']);
    expect(cov.unknownIds).toEqual(['zz']);
  });

  it('a .ts module loads by file URL (the mechanism the completeness rule uses)', async () => {
    const mod = (await import(new URL('./catalog.ts', import.meta.url).href)) as typeof import('./catalog.ts');
    expect(mod.requirements.length).toBe(requirements.length);
  });
});

// The completeness rule, per revision: every observable MUST/MUST NOT/SHOULD/SHOULD NOT entry is cited by
// a check of that revision — receiver checks (suites/index.ts) or requestor checks (suites/requestor/checks.ts,
// suites/2026-07-28/requestor/checks.ts)
// — directly or through its sameAs group, and no check cites an id missing from that revision's catalog.
// COMPLETENESS (catalog.ts) says whether a revision requires it or still tolerates known gaps.
describe.each(REVISIONS)('completeness (%s)', (revision) => {
  it('every MUST/SHOULD entry is covered or not observable (or within the known gaps)', async () => {
    const { receiverChecks, checkRevisions } = await import('../suites/index.ts');
    const { requestorChecks } = await import('../suites/requestor/checks.ts');
    const { extensionRequestorChecks } = await import('../suites/2026-07-28/requestor/checks.ts');
    const requestors = [...requestorChecks, ...extensionRequestorChecks];
    const checks = [...receiverChecks, ...requestors].filter((c) => checkRevisions(c).includes(revision));
    const cov = coverage(checks, catalogFor(revision));
    expect(cov.unknownIds, `requirement ids cited by ${revision} checks but missing from its catalog`).toEqual([]);
    const describeUncovered = cov.uncovered.map((id) => {
      const r = requirement(id);
      return `${id} (${r.level}, ${r.role}, ${r.source}:${r.line})`;
    });
    const rule = COMPLETENESS[revision];
    if (rule === 'required') {
      expect(checks.filter((c) => receiverChecks.includes(c as never)).length, 'receiver checks').toBeGreaterThan(0);
      expect(checks.filter((c) => requestors.includes(c as never)).length, 'requestor checks').toBeGreaterThan(0);
      expect(describeUncovered, 'observable MUST/SHOULD entries no check cites (add a check, or mark the entry not observable with a why)').toEqual([]);
    } else {
      // A known gap, not a failure yet: lower knownGaps as checks land, switch to 'required' at 0.
      expect(cov.uncovered.length, `uncovered ${revision} entries:\n${describeUncovered.join('\n')}`).toBeLessThanOrEqual(rule.knownGaps);
    }
  });
});
