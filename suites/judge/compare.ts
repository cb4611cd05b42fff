// Comparing outcomes, determinism first, for both revisions: a task's outcome (tasks/result, or the result or
// error a DetailedTask inlines) is judged against the same request answered without a task only when that
// plain answer repeats itself (called twice, the same both times); a tool whose plain answers differ (a time,
// an id, live data) has no one "result of the underlying request" and is not compared (result-exact,
// 2026-exec-result-exact, 2026-exec-error-exact). Pure functions over answers; calls are passed in.
import { short } from './text.ts';

/** A JSON-RPC answer: a result or an error. */
export interface Outcome {
  result?: any;
  error?: { code: number; message: string; data?: unknown };
}

/** JSON with object keys sorted, for order-insensitive comparison. */
export function canonical(v: unknown): string {
  const norm = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(norm);
    if (x && typeof x === 'object') {
      const o: Record<string, unknown> = {};
      for (const k of Object.keys(x as object).sort()) o[k] = norm((x as Record<string, unknown>)[k]);
      return o;
    }
    return x;
  };
  return JSON.stringify(norm(v)) ?? 'undefined';
}

/** A result without its top-level `_meta` (tasks/result adds related-task), `isError: false` ≡ absent. */
export function withoutMeta(r: unknown): unknown {
  if (!r || typeof r !== 'object' || Array.isArray(r)) return r;
  const { _meta: _ignored, ...rest } = r as Record<string, unknown>;
  if (rest.isError === false) delete rest.isError;
  return rest;
}

/** The top-level members of two objects whose values differ (order-insensitive), each with both values. */
export function fieldDifferences(a: unknown, b: unknown, fields?: readonly string[]): { field: string; a: unknown; b: unknown }[] {
  const oa = (a && typeof a === 'object' ? a : {}) as Record<string, unknown>;
  const ob = (b && typeof b === 'object' ? b : {}) as Record<string, unknown>;
  const keys = fields ?? [...new Set([...Object.keys(oa), ...Object.keys(ob)])].sort();
  return keys.filter((k) => canonical(oa[k]) !== canonical(ob[k])).map((field) => ({ field, a: oa[field], b: ob[field] }));
}

export interface CompareOptions {
  /** What two results are compared on (default: `withoutMeta`). */
  project?: (result: unknown) => unknown;
  /** How each side is named in the message (default: the call without a task, tasks/result). */
  names?: readonly [string, string];
}

/**
 * How `b` differs from `a`, or undefined when they are the same: the same JSON-RPC error (code, message,
 * data), or the same result as `project` sees it (default: without top-level `_meta`).
 */
export function outcomeDifference(a: Outcome, b: Outcome, opts: CompareOptions = {}): string | undefined {
  const project = opts.project ?? withoutMeta;
  const [na, nb] = opts.names ?? ['without a task', 'via tasks/result'];
  if (a.error) {
    if (!b.error) return `${na} the answer was JSON-RPC error ${short(a.error)}, but ${nb} a result ${short(b.result, 400)}`;
    const same = b.error.code === a.error.code && b.error.message === a.error.message && canonical(b.error.data) === canonical(a.error.data);
    return same ? undefined : `different JSON-RPC errors: ${na} ${short(a.error, 400)}; ${nb} ${short(b.error, 400)}`;
  }
  if (b.error) return `${na} the answer was a result ${short(project(a.result), 400)}, but ${nb} JSON-RPC error ${short(b.error)}`;
  const pa = project(a.result);
  const pb = project(b.result);
  if (canonical(pa) === canonical(pb)) return undefined;
  const fields = pa && pb && typeof pa === 'object' && typeof pb === 'object' ? fieldDifferences(pa, pb).map((d) => d.field) : [];
  return `different results${fields.length ? ` (${fields.join(', ')} differ)` : ''}: ${na} ${short(pa, 400)}; ${nb} ${short(pb, 400)}`;
}

/** The plain answer once it has repeated itself, or how its two answers differed. */
export type Repeated<T> = { repeats: true; answer: T } | { repeats: false; difference: string };

/**
 * Determinism first: `call` (the request without a task) is made twice; the second answer is the one to
 * compare with when both are the same (`differ`, default `outcomeDifference`), else the difference is returned
 * and the caller does not compare (not exercised, `notRepeatedReason`). `first` sees the first answer before
 * the second call (to stop early, e.g. a plain call answered with a task).
 */
export async function callTwice<T extends Outcome>(
  call: () => Promise<T>,
  opts: { differ?: (a: T, b: T) => string | undefined; first?: (answer: T) => void } = {},
): Promise<Repeated<T>> {
  const one = await call();
  opts.first?.(one);
  const two = await call();
  const difference = (opts.differ ?? ((a: T, b: T) => outcomeDifference(a, b, { names: ['the first call', 'the second'] })))(one, two);
  return difference === undefined ? { repeats: true, answer: two } : { repeats: false, difference };
}

/** The reason a comparison is not exercised when the plain answers differ. */
export function notRepeatedReason(tool: string, role: string, difference: string): string {
  return `tool "${tool}" (role ${role}) does not repeat itself: two calls without a task differ (${difference}), so there is no one result to compare`;
}

/** The cause of that skip (shared by the skips of a run). */
export const notRepeatedCause = (role: string) => `the ${role} tool's output differs from call to call`;
