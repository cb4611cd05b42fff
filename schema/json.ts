// JSON values as they come off the wire (one copy of each small reading; suites/judge/text.ts re-exports it).

/** A JSON object: not null, not an array. */
export function isObj(v: unknown): v is Record<string, any> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
