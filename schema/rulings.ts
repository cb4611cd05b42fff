// The rulings of schema/RULINGS.md as data: each ruling's slug (its `### <slug>` heading), title and the
// catalog ids it names. Cited everywhere as `RULINGS.md#<slug>`.
import { readFileSync } from 'node:fs';
import { hasRequirement } from './catalog.ts';

export interface Ruling {
  slug: string;
  /** The bold first sentence. */
  title: string;
  /** Catalog ids the ruling names (in backticks). */
  ids: string[];
}

export const RULINGS_TEXT = readFileSync(new URL('./RULINGS.md', import.meta.url), 'utf8');

export function parseRulings(text: string): Ruling[] {
  const part = text.slice(text.indexOf('## Rulings'), text.indexOf('\n## ', text.indexOf('## Rulings') + 1) >>> 0 || undefined);
  return part
    .split(/\n### /)
    .slice(1)
    .map((section) => {
      const [slug = '', ...rest] = section.split('\n');
      const body = rest.join('\n');
      const title = /\*\*(.+?)\*\*/.exec(body)?.[1] ?? '';
      const ids = [...new Set([...body.matchAll(/`([a-z0-9-]+)`/g)].map((m) => m[1]!).filter(hasRequirement))];
      return { slug: slug.trim(), title, ids };
    });
}

export const rulings: Ruling[] = parseRulings(RULINGS_TEXT);

/** The rulings that name a requirement id. */
export function rulingsFor(id: string): Ruling[] {
  return rulings.filter((r) => r.ids.includes(id));
}
