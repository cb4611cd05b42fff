// One budget per check: every wait inside a check is bounded by the time left before the check's
// deadline (its `timeoutMs`, or the run's checkTimeoutMs), less a margin for the requests that follow.
import type { CheckContext } from '../engine/check.ts';

/** The check's whole budget (ms). */
export function checkBudget(ctx: Pick<CheckContext, 'def' | 'options'>): number {
  return ctx.def.timeoutMs ?? ctx.options.checkTimeoutMs;
}

/**
 * Milliseconds a wait may take now: the time left in the check less `marginMs` (room for what the check
 * does afterwards), never below `floorMs`, and at most `capMs` when given.
 */
export function timeLeft(ctx: Pick<CheckContext, 'deadline'>, opts: { marginMs?: number; floorMs?: number; capMs?: number } = {}): number {
  const left = ctx.deadline - Date.now() - (opts.marginMs ?? 3_000);
  const bounded = Math.max(opts.floorMs ?? 1_000, left);
  return opts.capMs === undefined ? bounded : Math.min(opts.capMs, bounded);
}

/**
 * The bound of a wait after which the check still sends a request or two (tasks/result, a last tasks/get):
 * the time left less 4 s, at least 2 s (at most `capMs` when given). The margins most waits use.
 */
export function waitBudget(ctx: Pick<CheckContext, 'deadline'>, capMs?: number): number {
  return timeLeft(ctx, { marginMs: 4_000, floorMs: 2_000, ...(capMs !== undefined ? { capMs } : {}) });
}
