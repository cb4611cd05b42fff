// Pacing the suite as a requestor, once for both revisions: the delay before the next poll (the target's
// pollInterval, never less: poll-respect-interval, 2026-poll-respect-interval), the backoff after a limit
// (a throttling error, HTTP 429 with Retry-After), and how a check's budget grows to fit the waits the
// target asked for. Pure functions; callers read the interval from their revision's field.

/** The suite's own pace when the target names no interval (ms). */
export const DEFAULT_POLL_MS = 100;
/** The shortest poll delay, whatever the target says (a pollInterval of 0 or 1 ms is not a request to spin). */
export const MIN_POLL_MS = 20;
/**
 * The pace a check's budget is sized for: polls at most this far apart. A longer interval the target asks for
 * grows the budget by the excess (budgetGrowth), so that a check polls as asked instead of faster.
 */
export const BUDGET_POLL_PACE_MS = 1_000;
/** How many times its own budget a check may grow to by waits the target asked for, before it is not exercised. */
export const MAX_BUDGET_GROWTH = 4;

/** The delay before the next poll: the target's interval (a positive number), at least MIN_POLL_MS; DEFAULT_POLL_MS when it names none. No upper clamp. */
export function pollDelayMs(interval: unknown): number {
  const p = typeof interval === 'number' && Number.isFinite(interval) && interval > 0 ? interval : DEFAULT_POLL_MS;
  return Math.max(Math.round(p), MIN_POLL_MS);
}

/** First backoff after a limit error without a retry hint (ms), doubled per attempt up to BACKOFF_CAP_MS. */
export const BACKOFF_START_MS = 250;
export const BACKOFF_CAP_MS = 5_000;

/**
 * The wait before retrying after the `attempt`-th limit in a row (1 = the first): the target's retry hint when it
 * gave one (never shortened), else exponential from BACKOFF_START_MS; never less than the poll delay in force.
 */
export function backoffMs(attempt: number, opts: { retryAfterMs?: number; pollMs?: number } = {}): number {
  const exp = Math.min(BACKOFF_START_MS * 2 ** Math.max(0, attempt - 1), BACKOFF_CAP_MS);
  return Math.max(opts.retryAfterMs ?? exp, opts.pollMs ?? 0);
}

/**
 * How much a wait the target asked for (`waitMs`: a pollInterval, a Retry-After) grows the check's budget: the
 * part above BUDGET_POLL_PACE_MS. `grownMs` is what the check grew by so far, `budgetMs` its own budget. When the
 * growth would pass MAX_BUDGET_GROWTH × the budget, `exceeds` says why the check cannot fit it (not exercised).
 */
export function budgetGrowth(waitMs: number, grownMs: number, budgetMs: number): { growMs: number; exceeds?: string } {
  const growMs = Math.max(0, Math.round(waitMs) - BUDGET_POLL_PACE_MS);
  const most = MAX_BUDGET_GROWTH * budgetMs;
  if (growMs > 0 && grownMs + growMs > most)
    return {
      growMs: 0,
      exceeds: `the waits the target asks for (this one ${Math.round(waitMs)} ms, ${grownMs} ms of growth before it) do not fit ${MAX_BUDGET_GROWTH} × the check's budget of ${budgetMs} ms`,
    };
  return { growMs };
}

/**
 * How long after a task was seen terminal a blocked tasks/result may still take to answer before it counts as
 * unanswered: the bound of one answer (`answerMs`, already scaled to the run's latency), plus two of the task's
 * pollIntervals (a receiver may wake its blocked requests once per interval, as the SDKs' task stores do). Slow is
 * never a violation by itself (RULINGS.md#response-time): this bound only says when waiting longer tells nothing new.
 */
export function afterTerminalBoundMs(answerMs: number, pollIntervalMs: unknown): number {
  const p = typeof pollIntervalMs === 'number' && Number.isFinite(pollIntervalMs) && pollIntervalMs > 0 ? pollIntervalMs : 0;
  return Math.round(answerMs + 2 * p);
}
