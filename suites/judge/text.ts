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

export function isObj(v: unknown): v is Record<string, any> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
