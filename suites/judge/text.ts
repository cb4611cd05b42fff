// Small text helpers for verdict messages (one copy: suites/engine/text.ts re-exports them).

/** JSON of a value, cut at `max` characters. */
export function short(v: unknown, max = 200): string {
  let s: string | undefined;
  try {
    s = JSON.stringify(v);
  } catch {
    s = String(v); // cycles, BigInt
  }
  return s === undefined ? 'undefined' : s.length > max ? s.slice(0, max) + '…' : s;
}

export { isObj } from '../../schema/json.ts';

/** Text on one line (each run of white space one space), cut at `max` characters (the last one '…'). */
export function oneLine(text: unknown, max = 160): string {
  const t = String(text).replace(/\s+/g, ' ').trim();
  return t.length > max ? t.slice(0, max - 1) + '…' : t;
}
