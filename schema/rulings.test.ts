// Comments and docs cite only what a reader of the repo can open: ruling slugs (RULINGS.md#<slug>, one
// spelling), requirement ids, spec lines — never positional ruling numbers, issue numbers or internal plans.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { rulings } from './rulings.ts';

/** Our own tracked text files (the vendored upstream pages excluded). */
function ownFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '--', '*.ts', '*.md', '*.mjs', '*.json', ':!schema/spec/**', ':!package-lock.json', ':!fixtures/golden/**'], {
    encoding: 'utf8',
  });
  return out.split('\n').filter(Boolean);
}

const lines = ownFiles().flatMap((f) => {
  let text = '';
  try {
    text = readFileSync(f, 'utf8');
  } catch {
    return []; // listed but deleted in the work tree
  }
  return text.split('\n').map((line, i) => ({ where: `${f}:${i + 1}`, line }));
});

describe('citations', () => {
  it('every ruling has a unique slug, a title and names catalog ids', () => {
    const slugs = rulings.map((r) => r.slug);
    expect(slugs.filter((s, i) => slugs.indexOf(s) !== i)).toEqual([]);
    expect(rulings.filter((r) => !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(r.slug) || !r.title || r.ids.length === 0).map((r) => r.slug)).toEqual([]);
  });

  it('every RULINGS.md#<slug> names an existing ruling', () => {
    const slugs = new Set(rulings.map((r) => r.slug));
    const bad = lines.flatMap(({ where, line }) =>
      [...line.matchAll(/RULINGS\.md#([a-z0-9-]+)/g)].filter((m) => !slugs.has(m[1]!)).map((m) => `${where}: ${m[0]}`),
    );
    expect(bad).toEqual([]);
  });

  it('no positional ruling references, issue numbers or internal plans', () => {
    const forbidden = [/RULINGS(\.md)?:? ?#?\d/, /\b[Rr]uling #?\d/, /\b[Ii]ssue #?\d+/, /Foundation[ ]item/, /\bthe brief\b|\bbrief:|\(brief\b/i];
    const bad = lines
      .filter(({ where, line }) => !where.startsWith('schema/rulings.test.ts') && forbidden.some((re) => re.test(line)))
      .map(({ where, line }) => `${where}: ${line.trim().slice(0, 120)}`);
    expect(bad, 'cite RULINGS.md#<slug>, requirement ids or spec lines instead').toEqual([]);
  });
});
