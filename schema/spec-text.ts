// Reading the vendored pages the way the catalogs quote them: which keywords a line bolds, a line or
// paragraph as plain text, the heading path in force at a line. Shared by the catalog tests of every
// revision (and by anything that links an entry to its page).
import type { Keyword } from './catalog.ts';

/** Bold BCP 14 keywords on one line, in order (`**MUST NOT**` is its own keyword, never also a `**MUST**`). */
const BOLD_RE = /\*\*(MUST NOT|MUST|SHOULD NOT|SHOULD|MAY|REQUIRED|RECOMMENDED|OPTIONAL)\*\*/g;
export const boldKeywords = (line: string): Keyword[] => [...line.matchAll(BOLD_RE)].map((m) => m[1] as Keyword);

/** Uppercase keywords outside bold (the comments of the pages' code blocks use them so). */
const BARE_RE = /(?<![*\w])(MUST NOT|MUST|SHOULD NOT|SHOULD|MAY|REQUIRED|RECOMMENDED|OPTIONAL)(?![*\w])/g;
export const bareKeywords = (line: string): Keyword[] => [...line.replace(BOLD_RE, '').matchAll(BARE_RE)].map((m) => m[1] as Keyword);

/** Text as the catalog quotes it: bold markers dropped, `[text](url)` and `[text][ref]` → text. */
export const plain = (text: string): string =>
  text
    .replace(/\*\*/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1');

/** "Heading > Subheading" (## > ###) in force at a 1-based line; before the first ## heading, the page's `title:`. */
export function sectionAt(lines: readonly string[], lineNo: number): string {
  let h2 = '';
  let h3 = '';
  let fence = false;
  for (let i = 0; i < lineNo; i++) {
    const l = lines[i]!;
    if (l.startsWith('```')) fence = !fence;
    if (fence) continue;
    if (l.startsWith('## ')) {
      h2 = l.slice(3).trim();
      h3 = '';
    } else if (l.startsWith('### ')) h3 = l.slice(4).trim();
  }
  if (!h2) return /^title: (.+)$/m.exec(lines.slice(0, 5).join('\n'))?.[1]?.trim() ?? '';
  return h3 ? `${h2} > ${h3}` : h2;
}

const isItem = (l: string) => /^((\d+\.|-) |\|)/.test(l.trim());
const isHeading = (l: string) => l.trimStart().startsWith('#');

/**
 * The paragraph (or list item, or code comment) holding a 1-based line, as plain text on one line: the
 * run of non-blank lines around it that starts no other list item, each trimmed, a comment's leading `*`
 * and the item's own marker dropped, joined by a space (by nothing after a word-final hyphen, which
 * marks a compound wrapped at the hyphen). Quotes from wrapped pages are matched against it.
 */
export function paragraphAt(lines: readonly string[], lineNo: number): string {
  let a = lineNo;
  while (a > 1 && !isItem(lines[a - 1]!) && lines[a - 2]!.trim() !== '' && !isHeading(lines[a - 2]!)) a--;
  let b = lineNo;
  while (b < lines.length && lines[b]!.trim() !== '' && !isItem(lines[b]!) && !isHeading(lines[b]!)) b++;
  let out = '';
  lines.slice(a - 1, b).forEach((l, k) => {
    let t = l.trim().replace(/^\*(?!\*)\s?/, '');
    if (k === 0) t = t.replace(/^(\d+\.|-)\s+/, '');
    out = out === '' ? t : /[A-Za-z]-$/.test(out) ? out + t : `${out} ${t}`;
  });
  return plain(out);
}
