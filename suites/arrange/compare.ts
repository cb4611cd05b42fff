// Comparing outcomes: a tool's answer without a task against its task's tasks/result (result-exact).
import type { Response } from '../wire/peer.ts';
import { short } from '../engine/text.ts';

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

/**
 * How the tasks/result answer differs from the plain call's answer (result-exact), or undefined when
 * they are the same: same JSON-RPC error (code, message, data), or same result modulo top-level `_meta`.
 */
export function outcomeDifference(plain: Response, viaTask: Response): string | undefined {
  if (plain.error) {
    if (!viaTask.error)
      return `the call without a task answered JSON-RPC error ${short(plain.error)}, but tasks/result answered a result ${short(viaTask.result, 400)}`;
    const same =
      viaTask.error.code === plain.error.code && viaTask.error.message === plain.error.message && canonical(viaTask.error.data) === canonical(plain.error.data);
    return same ? undefined : `different JSON-RPC errors: without a task ${short(plain.error, 400)}; via tasks/result ${short(viaTask.error, 400)}`;
  }
  if (viaTask.error)
    return `the call without a task answered a result ${short(withoutMeta(plain.result), 400)}, but tasks/result answered JSON-RPC error ${short(viaTask.error)}`;
  const a = canonical(withoutMeta(plain.result));
  const b = canonical(withoutMeta(viaTask.result));
  return a === b
    ? undefined
    : `different results (compared without _meta): without a task ${short(withoutMeta(plain.result), 400)}; via tasks/result ${short(withoutMeta(viaTask.result), 400)}`;
}
