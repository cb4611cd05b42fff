// The rulings of schema/RULINGS.md as data: each ruling's slug (its `### <slug>` heading), title and the
// catalog ids it names. Cited everywhere as `RULINGS.md#<slug>`.
import { readFileSync } from 'node:fs';
import { hasRequirement } from './catalog.ts';
import { isRevision, SPEC_REVISION, type Revision } from './spec.ts';

export interface Ruling {
  slug: string;
  /** The revision whose "## Rulings" section holds it ("## Rulings (2026-07-28)"; plain "## Rulings" is 2025-11-25). */
  revision: Revision;
  /** The bold first sentence. */
  title: string;
  /** Catalog ids the ruling names (in backticks). */
  ids: string[];
}

export const RULINGS_TEXT = readFileSync(new URL('./RULINGS.md', import.meta.url), 'utf8');

export function parseRulings(text: string): Ruling[] {
  // Every "## Rulings" section (one per revision), each up to the next "## " heading.
  const parts = text.split(/\n(?=## )/).filter((p) => p.startsWith('## Rulings'));
  return parts.flatMap((part) => {
    const rev = /^## Rulings \(([^)]+)\)/.exec(part)?.[1];
    const revision: Revision = isRevision(rev) ? rev : SPEC_REVISION;
    return part
      .split(/\n### /)
      .slice(1)
      .map((section) => {
        const [slug = '', ...rest] = section.split('\n');
        const body = rest.join('\n');
        const title = /\*\*(.+?)\*\*/.exec(body)?.[1] ?? '';
        const ids = [...new Set([...body.matchAll(/`([a-z0-9-]+)`/g)].map((m) => m[1]!).filter(hasRequirement))];
        return { slug: slug.trim(), revision, title, ids };
      });
  });
}

export const rulings: Ruling[] = parseRulings(RULINGS_TEXT);

/** The rulings that name a requirement id. */
export function rulingsFor(id: string): Ruling[] {
  return rulings.filter((r) => r.ids.includes(id));
}
