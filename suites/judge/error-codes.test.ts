import { describe, expect, it } from 'vitest';
import { creationErrorKind, foreignRejection, isDeletion, isJsonRpcLevel, isStandardCode, jsonRpcTable, readLimit, retryAfterMs } from './error-codes.ts';
import { afterTerminalBoundMs, backoffMs, BUDGET_POLL_PACE_MS, budgetGrowth, MAX_BUDGET_GROWTH, pollDelayMs } from './pacing.ts';

const T = jsonRpcTable();

describe('error-codes', () => {
  it('reads a limit in any shape', () => {
    expect(readLimit({ code: -32000, message: 'Rate limit exceeded' })?.shown).toBeDefined();
    expect(readLimit({ code: -31029, message: 'Slow down' })).toBeDefined();
    expect(readLimit({ code: 429, message: 'x' })?.shown).toBe('code 429');
    expect(readLimit({ code: -32000, message: 'nope', data: { retryAfterMs: 1500 } })?.retryAfterMs).toBe(1500);
    expect(readLimit({ code: -32000, message: 'Too many requests', data: { retryAfter: 2 } })?.retryAfterMs).toBe(2000);
    expect(readLimit(undefined, { httpStatus: 429, retryAfter: '3' })).toEqual({ shown: 'HTTP 429', retryAfterMs: 3000 });
    expect(readLimit({ code: -32602, message: 'Task not found' })).toBeUndefined();
    expect(readLimit({ code: -32603, message: 'Internal error' })).toBeUndefined();
  });
  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterMs('5')).toBe(5000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });
  it('takes only the not-found code for a deletion', () => {
    expect(isDeletion({ code: -32602, message: 'Task not found' }, T)).toBe(true);
    expect(isDeletion({ code: -32603, message: 'Internal error' }, T)).toBe(false);
    expect(isDeletion({ code: -32000, message: 'Rate limited' }, T)).toBe(false);
    expect(isDeletion({ code: -32602, message: 'Too many requests' }, T)).toBe(false);
  });
  it('reads a creation error: -32603 is no refusal', () => {
    expect(creationErrorKind({ code: -32601, message: 'Method not found' }, T)).toBe('refused');
    expect(creationErrorKind({ code: -32603, message: 'Internal error' }, T)).toBe('internal');
    expect(creationErrorKind({ code: -1, message: 'declined' }, T)).toBe('outcome');
    expect(creationErrorKind({ code: -32000, message: 'too many tasks' }, T)).toBe('limit');
  });
  it('reads foreign rejections, JSON-RPC-level answers and standard codes', () => {
    expect(foreignRejection(undefined, T)).toBe('accepted');
    expect(foreignRejection({ code: -32602 }, T)).toBe('expected-code');
    expect(foreignRejection({ code: -32001 }, T)).toBe('other-code');
    expect(isJsonRpcLevel({ code: -32601 }, T)).toBe(true);
    expect(isJsonRpcLevel({ code: -32602 }, T)).toBe(false);
    expect(isStandardCode(-32603, T)).toBe(true);
    expect(isStandardCode(-32021, T)).toBe(false);
    expect(isStandardCode(-32021, jsonRpcTable([-32021]))).toBe(true);
  });
});

describe('pacing', () => {
  it('polls at the interval asked, never sooner, with no upper clamp', () => {
    expect(pollDelayMs(5000)).toBe(5000);
    expect(pollDelayMs(60_000)).toBe(60_000);
    expect(pollDelayMs(1)).toBe(20);
    expect(pollDelayMs(undefined)).toBe(100);
    expect(pollDelayMs(-5)).toBe(100);
  });
  it('backs off exponentially, honouring a retry hint and the poll delay', () => {
    expect(backoffMs(1)).toBe(250);
    expect(backoffMs(3)).toBe(1000);
    expect(backoffMs(20)).toBe(5000);
    expect(backoffMs(1, { retryAfterMs: 7000 })).toBe(7000);
    expect(backoffMs(1, { pollMs: 3000 })).toBe(3000);
  });
  it('grows a budget by the excess over its pace, up to a cap', () => {
    expect(budgetGrowth(500, 0, 30_000)).toEqual({ growMs: 0 });
    expect(budgetGrowth(5000, 0, 30_000)).toEqual({ growMs: 5000 - BUDGET_POLL_PACE_MS });
    expect(budgetGrowth(5000, MAX_BUDGET_GROWTH * 30_000 - 1000, 30_000).exceeds).toMatch(/do not fit/);
  });
  it('bounds an answer after terminal by the answer time and two pollIntervals', () => {
    expect(afterTerminalBoundMs(5000, undefined)).toBe(5000);
    expect(afterTerminalBoundMs(5000, 8000)).toBe(21_000);
  });
});
