// The one poll loop of the checks: tasks/get following the target's pollInterval (never sooner; the check's
// budget grows to fit a long one), backing off on rate limits, bounded, recording every status. Whether a failed wait is a violation or a precondition that
// did not hold is the caller's choice (`onFailure`): the same loop judges and arranges.
import { NotExercised, Violation, type CheckContext } from '../engine/check.ts';
import type { JsonRpcError, Response, Scope } from '../wire/peer.ts';
import { isTaskStatus, isTerminal, type TaskStatus } from '../../schema/protocol.ts';
import { timeLeft } from './budget.ts';
import { short } from '../engine/text.ts';
import { backoffMs, BUDGET_POLL_PACE_MS, pollDelayMs } from '../judge/pacing.ts';
import { isDeletion, jsonRpcTable, readLimit, type ErrorCodeTable } from '../judge/error-codes.ts';

export function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export function getTask(ctx: CheckContext, taskId: unknown, peer: Scope = ctx.peer): Promise<Response> {
  return peer.request('tasks/get', { taskId });
}

/** The delay before the next poll: the target's pollInterval, never sooner (poll-respect-interval; suites/judge/pacing.ts). */
export function pollDelay(_ctx: unknown, task: any): number {
  return pollDelayMs(task?.pollInterval);
}

/** The error codes of 2025-11-25 as suites/judge reads them (tasks.md "Error Handling": JSON-RPC's own codes only). */
export const CODES: ErrorCodeTable = jsonRpcTable();

/**
 * Waits `waitMs`, a wait the target asked for (its pollInterval, a Retry-After), after announcing it to the check
 * (ctx.pace: the budget grows to fit, or the check is not exercised); returns how much the budget grew.
 */
export async function pacedDelay(
  ctx: Partial<Pick<CheckContext, 'pace'>>,
  waitMs: number,
  what: string,
  wake?: Promise<unknown>,
): Promise<{ grownMs: number; woken: boolean }> {
  const grownMs = ctx.pace?.(waitMs, what) ?? 0;
  if (!wake) {
    await delay(waitMs);
    return { grownMs, woken: false };
  }
  return { grownMs, woken: await Promise.race([delay(waitMs).then(() => false), wake.then(() => true)]) };
}

/** A status sequence for messages, runs folded: "working ×12 → failed". */
export function seqText(seq: readonly unknown[]): string {
  const parts: string[] = [];
  for (let i = 0; i < seq.length;) {
    let j = i;
    while (j + 1 < seq.length && seq[j + 1] === seq[i]) j++;
    parts.push(j > i ? `${String(seq[i])} ×${j - i + 1}` : String(seq[i]));
    i = j + 1;
  }
  return parts.join(' → ');
}

export interface Observation {
  /** Statuses in the order seen (including `into`'s earlier ones when given). */
  statuses: TaskStatus[];
  /** Every tasks/get result of this observation. */
  tasks: any[];
  /** Every tasks/get response of this observation. */
  responses: Response[];
  last: any;
  /** Set when the task stopped being retrievable (the not-found code, -32602) and `allowGone` was given. */
  gone?: JsonRpcError;
  /** The bound passed before `done` held. */
  timedOut: boolean;
  polls: number;
  elapsedMs: number;
}

export interface ObserveOptions {
  /** Longest wait (ms); default: the time left in the check less a margin (arrange/budget.ts). */
  boundMs?: number;
  peer?: Scope;
  /** Statuses seen before (appended to). */
  into?: TaskStatus[];
  /** A -32602 answer ends the observation as `gone` (deletion after cancel/expiry is allowed, RULINGS.md#delete-vs-sticky). */
  allowGone?: boolean;
  /** What the polling is for, in messages. */
  label?: string;
  /** Poll at once when this settles (e.g. tasks/result answered: the task has just become terminal). */
  wake?: Promise<unknown>;
  /**
   * How a tasks/get error or a status outside the five ends the observation: 'violation' when the check
   * judges tasks/get itself, 'not-exercised' (the default) when polling only arranges the check's
   * precondition; then `judgedBy` names the check that judges tasks/get.
   */
  onFailure?: 'violation' | 'not-exercised';
  /** Awaited after each poll that did not end the observation, before the next (e.g. a second task polled in step). */
  between?: () => Promise<void>;
}

/** The check that judges tasks/get answers and task statuses, cited when polling only arranges. */
export const GET_JUDGED_BY = 'lifecycle.paths-completes';

/**
 * Polls tasks/get until `done(last, polls, elapsedMs)` holds or the bound passes (`timedOut`; the caller
 * decides what that means).
 */
export async function observe(
  ctx: CheckContext,
  taskId: string,
  done: (last: any, polls: number, elapsedMs: number) => boolean,
  opts: ObserveOptions = {},
): Promise<Observation> {
  const started = Date.now();
  let boundMs = opts.boundMs ?? timeLeft(ctx);
  let wake = opts.wake;
  const statuses = opts.into ?? [];
  const tasks: any[] = [];
  const responses: Response[] = [];
  let last: any;
  let polls = 0;
  const fail = (message: string, cause: string): never => {
    if (opts.onFailure === 'violation') throw new Violation(message, { cause });
    throw new NotExercised(message, { cause, judgedBy: GET_JUDGED_BY });
  };
  let limits = 0;
  for (;;) {
    const r = await getTask(ctx, taskId, opts.peer);
    responses.push(r);
    polls++;
    if (r.error) {
      // A limit (throttling in any shape) is back-pressure: wait it out and poll again (RULINGS.md#poll-interval-frequency).
      const limit = readLimit(r.error);
      if (limit) {
        ctx.limitSeen?.(`${r.error.code} ${r.error.message}`);
        const wait = backoffMs(++limits, { retryAfterMs: limit.retryAfterMs, pollMs: pollDelay(ctx, last) });
        const sinceStart = Date.now() - started;
        if (pastBound(ctx, sinceStart, wait, boundMs)) return { statuses, tasks, responses, last, timedOut: true, polls, elapsedMs: sinceStart };
        boundMs += (await pacedDelay(ctx, wait, `tasks/get of task ${taskId} was rate-limited (${limit.shown})`)).grownMs;
        continue;
      }
      // Only the not-found code says the task is gone (RULINGS.md#delete-vs-sticky); any other error is not a deletion.
      const deleted = isDeletion(r.error, CODES);
      if (deleted) ctx.finished(taskId);
      if (opts.allowGone && deleted) return { statuses, tasks, responses, last, gone: r.error, timedOut: false, polls, elapsedMs: Date.now() - started };
      fail(
        `tasks/get for task ${taskId} answered error ${r.error.code} ${r.error.message} while ${opts.label ?? 'polling'} (statuses so far: ${seqText(statuses) || 'none'})`,
        `tasks/get of a live task answered ${r.error.code}`,
      );
    }
    limits = 0;
    last = r.result;
    if (!isTaskStatus(last?.status)) {
      fail(
        `tasks/get for task ${taskId} returned status ${short(last?.status)}, which is none of working, input_required, completed, failed, cancelled (statuses so far: ${seqText(statuses) || 'none'})`,
        `tasks/get returned status ${short(last?.status)}`,
      );
    }
    statuses.push(last.status);
    tasks.push(last);
    if (isTerminal(last.status)) ctx.finished(taskId);
    const elapsed = Date.now() - started;
    if (done(last, polls, elapsed)) return { statuses, tasks, responses, last, timedOut: false, polls, elapsedMs: elapsed };
    let sinceStart = elapsed;
    if (opts.between) {
      await opts.between();
      sinceStart = Date.now() - started;
    }
    const wait = pollDelay(ctx, last);
    if (pastBound(ctx, sinceStart, wait, boundMs)) return { statuses, tasks, responses, last, timedOut: true, polls, elapsedMs: sinceStart };
    const paced = await pacedDelay(ctx, wait, `polling task ${taskId} at its pollInterval (${wait} ms)`, wake);
    boundMs += paced.grownMs;
    if (paced.woken) wake = undefined;
  }
}

/**
 * Whether a wait the target asked for would end past the bound: judged at the pace the bound was sized for (waits up
 * to BUDGET_POLL_PACE_MS); what a longer wait asks beyond that is the budget's growth (ctx.pace), not the bound's.
 */
export function pastBound(ctx: Partial<Pick<CheckContext, 'pace'>>, sinceStartMs: number, waitMs: number, boundMs: number): boolean {
  return sinceStartMs + (ctx.pace ? Math.min(waitMs, BUDGET_POLL_PACE_MS) : waitMs) > boundMs;
}
