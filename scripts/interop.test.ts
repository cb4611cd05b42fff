// docs/IMPLEMENTATIONS.md (written by `npm run interop`) against the goldens: every golden-backed row of
// the page is exactly what its golden file says, no row claims a golden that does not say so, and every
// fail and warn on the page has a reviewed finding. Reads files only: no network, no process.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { IMPLEMENTATIONS } from '../fixtures/interop/implementations.ts';
import { FINDINGS } from '../fixtures/interop/findings.ts';
import { countStatuses, coverageWithin, detailsBlock, goldenRows, refreshGoldenRows, summaryLine } from './interop/page.ts';

const page = readFileSync('docs/IMPLEMENTATIONS.md', 'utf8');
const rows = IMPLEMENTATIONS.flatMap((impl) => goldenRows(impl));

describe('docs/IMPLEMENTATIONS.md', () => {
  it('every golden file has its rows in the matrix', () => {
    const goldens = readdirSync('fixtures/golden').filter((f) => f.endsWith('.json'));
    const named = IMPLEMENTATIONS.flatMap((i) => Object.values(i.goldens ?? {}).map((g) => `${g}.json`));
    expect(named.sort()).toEqual(goldens.sort());
    expect(rows.length).toBeGreaterThanOrEqual(goldens.length);
  });

  it.each(rows.map((r) => [`${r.impl} ${r.role} ${r.transport}`, r] as const))(
    'the %s row is the golden’s (counts, coverage, every fail and warn)',
    (_, row) => {
      expect(page).toContain(summaryLine(row) + '\n');
      expect(page).toContain(detailsBlock(row));
    },
  );

  it('no other row claims a golden', () => {
    const claimed = page.split('\n').filter((l) => l.startsWith('|') && /\| golden `fixtures\/golden\//.test(l));
    expect(claimed.sort()).toEqual(rows.map(summaryLine).sort());
  });

  it('every fail and warn on the page has a reviewed finding', () => {
    expect(page).not.toMatch(/not reviewed yet/);
    for (const r of rows) for (const f of r.findings) expect(FINDINGS[r.impl]?.checks[f.check.replace(/@.*$/, '')], `${r.impl}: ${f.check}`).toBeTruthy();
  });
});

describe('matrix helpers', () => {
  it("--refresh puts the goldens' rows back and leaves the rest of the page", () => {
    const r = rows[0]!;
    const title = detailsBlock(r).split('\n')[0]!;
    const stale = page.replace(summaryLine(r), summaryLine({ ...r, counts: countStatuses(['pass']) })).replace(detailsBlock(r), `${title}\n\nstale\n`);
    expect(stale).not.toBe(page);
    expect(refreshGoldenRows(stale, rows)).toBe(page);
  });

  it('counts a status the golden allows among others as a range', () => {
    const c = countStatuses(['pass', 'warn|skip', 'skip', 'fail']);
    expect(c.pass).toEqual([1, 1]);
    expect(c.warn).toEqual([0, 1]);
    expect(c.skip).toEqual([1, 2]);
    expect(c.fail).toEqual([1, 1]);
  });
  it('reads a live coverage against a golden range', () => {
    expect(coverageWithin('36/36 MUST, 13/13 SHOULD', '36/36 MUST, 12–13/13 SHOULD')).toBe(true);
    expect(coverageWithin('35/36 MUST, 13/13 SHOULD', '36/36 MUST, 12–13/13 SHOULD')).toBe(false);
    expect(coverageWithin('36/36 MUST, 13/14 SHOULD', '36/36 MUST, 12–13/13 SHOULD')).toBe(false);
  });
});
