// One budget per check: every wait inside a check is bounded by the time left before the check's
// deadline (checkBudgetMs: its `timeoutMs`, or the run's checkTimeoutMs, scaled to --timeout and to the
// target's latency), less a margin for the requests that follow.
import { checkBudgetMs, type CheckContext } from '../engine/check.ts';

/** The check's whole budget (ms). */
export function checkBudget(ctx: Pick<CheckContext, 'def' | 'options' | 'info'>): number {
  return checkBudgetMs(ctx.def, ctx.options, ctx.info);
}

/**
 * Milliseconds a wait may take now: the time left in the check less `marginMs` (room for what the check
 * does afterwards), never below `floorMs`, and at most `capMs` when given. Margin and floor are sized for a
 * quick target at the default --timeout and grow with the run (ctx.bound, when the context has it).
 */
export function timeLeft(
  ctx: Pick<CheckContext, 'deadline'> & Partial<Pick<CheckContext, 'bound'>>,
  opts: { marginMs?: number; floorMs?: number; capMs?: number } = {},
): number {
  const scaled = (ms: number) => (ctx.bound ? ctx.bound(ms) : ms);
  const left = ctx.deadline - Date.now() - scaled(opts.marginMs ?? 3_000);
  const bounded = Math.max(scaled(opts.floorMs ?? 1_000), left);
  return opts.capMs === undefined ? bounded : Math.min(scaled(opts.capMs), bounded);
}
