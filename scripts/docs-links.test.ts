// The docs hold together: every relative Markdown link in our own docs names a file that exists (and, for a
// Markdown file, a heading it has), and the packed package ships every doc that a shipped doc links to (README is
// always shipped; package.json `files` lists the rest, the vendored spec pages COVERAGE.md cites included).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

/** Our own tracked Markdown files (the vendored upstream pages excluded). */
const docs = execFileSync('git', ['ls-files', '--', '*.md', ':!schema/spec/**'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

const anchorsOf = new Map<string, Set<string>>();
function anchors(file: string): Set<string> {
  const known = anchorsOf.get(file);
  if (known) return known;
  const text = readFileSync(join(ROOT, file), 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  const found = new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!)));
  anchorsOf.set(file, found);
  return found;
}

/** Relative links of a doc: [text](target#anchor), outside code blocks and spans. */
function links(file: string): { target: string; anchor?: string }[] {
  const text = readFileSync(join(ROOT, file), 'utf8')
    .replace(/^```[\s\S]*?^```/gm, '')
    .replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((t) => !/^[a-z]+:/i.test(t))
    .map((t) => {
      const [path, anchor] = t.split('#') as [string, string | undefined];
      return { target: path === '' ? file : normalize(join(dirname(file), path)), anchor };
    });
}

describe('docs', () => {
  it('every relative link names an existing file and heading', () => {
    const broken = docs.flatMap((file) =>
      links(file)
        .filter(
          ({ target, anchor }) =>
            !existsSync(join(ROOT, target)) || (anchor !== undefined && !/^L\d+$/.test(anchor) && target.endsWith('.md') && !anchors(target).has(anchor)),
        )
        .map(({ target, anchor }) => `${file} → ${target}${anchor === undefined ? '' : `#${anchor}`}`),
    );
    expect(broken).toEqual([]);
  });

  it('the package ships every doc a shipped doc links to', () => {
    // package.json `files` as npm reads it: a folder ships what is under it, a glob what it matches (`**/` any
    // folders, `*` within a name); README.md always ships. `npm pack --dry-run` lists the same.
    const entries = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] }).files;
    const pattern = (e: string) =>
      new RegExp(
        `^${e
          .replace(/[.+^${}()|[\]\\]/g, '\\$&')
          .replace(/\*\*\//g, '(?:.*/)?')
          .replace(/\*/g, '[^/]*')}(?:/.*)?$`,
      );
    const patterns = entries.map(pattern);
    const shipped = { has: (f: string) => f === 'README.md' || patterns.some((p) => p.test(f)) };
    const missing = new Set<string>();
    const seen = new Set<string>();
    const queue = ['README.md'];
    while (queue.length > 0) {
      const file = queue.shift()!;
      if (seen.has(file)) continue;
      seen.add(file);
      if (file.startsWith('schema/spec/')) continue; // upstream pages: shipped as vendored, their own links not ours
      for (const { target } of links(file)) {
        if (!target.endsWith('.md') || target === file) continue;
        if (!shipped.has(target)) missing.add(`${target} (linked from ${file})`);
        else queue.push(target);
      }
    }
    expect([...missing]).toEqual([]);
  });
});
