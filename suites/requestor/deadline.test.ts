// When the client harness stops a client (clientDeadline): its bound counts from the client's first message, its start-up
// is allowed up to CLIENT_STARTUP_ALLOWANCE_MS, and a run still exchanging messages at the bound goes on (a quarter bound
// per message) up to CLIENT_BOUND_STRETCH bounds; and the receiver's probe of a client (mocks/receiver/client-probe.ts)
// waits longer for a client that reacts slowly in its session. Pure: the times are given.
import { describe, expect, it } from 'vitest';
import { PROBE_MAX_MS, PROBE_REACTION_FACTOR, PROBE_TIMEOUT_MS, probeBoundMs } from '../../mocks/receiver/client-probe.ts';
import { CLIENT_BOUND_STRETCH, CLIENT_STARTUP_ALLOWANCE_MS, clientDeadline, clientRunLimitMs, type ClientActivity } from './harness.ts';

const T = 20_000;
const seen = (first?: number, last?: number, startupMs?: number): ClientActivity => ({
  first: () => first,
  last: () => last ?? first,
  ...(startupMs !== undefined ? { startupMs } : {}),
});

describe('clientDeadline', () => {
  it('without an activity record: the bound from the start (as before)', () => {
    expect(clientDeadline(0, T, 5_000)).toBe(T);
  });

  it('before the first message: the start-up allowance (the bound has not started)', () => {
    expect(clientDeadline(0, T, 30_000, seen())).toBe(CLIENT_STARTUP_ALLOWANCE_MS);
    expect(clientDeadline(0, T, 100, seen(undefined, undefined, 800))).toBe(T);
    expect(clientDeadline(0, 800, 100, seen(undefined, undefined, 800))).toBe(800);
  });

  it('a client that took 15 s to start gets its whole bound from its first message', () => {
    expect(clientDeadline(0, T, 16_000, seen(15_000, 16_000))).toBe(15_000 + T);
  });

  it('past the bound: on while messages come at least every quarter bound, never past the stretch', () => {
    const first = 1_000;
    // Active 2 s ago: a quarter bound from that message.
    expect(clientDeadline(0, T, first + T + 1_000, seen(first, first + T - 1_000))).toBe(first + T - 1_000 + T / 4);
    // Silent since long before the bound: the bound itself (already past: stopped now).
    expect(clientDeadline(0, T, first + T + 1_000, seen(first, first + 2_000))).toBe(first + T);
    // Still busy at the stretch: the stretch.
    const atCap = first + CLIENT_BOUND_STRETCH * T;
    expect(clientDeadline(0, T, atCap - 10, seen(first, atCap - 20))).toBe(atCap);
    expect(clientRunLimitMs(T)).toBe(CLIENT_STARTUP_ALLOWANCE_MS + CLIENT_BOUND_STRETCH * T);
  });
});

describe('probeBoundMs', () => {
  it('at least PROBE_TIMEOUT_MS; a slow client reaction stretches it; capped', () => {
    expect(probeBoundMs(0)).toBe(PROBE_TIMEOUT_MS);
    expect(probeBoundMs(20)).toBe(PROBE_TIMEOUT_MS);
    expect(probeBoundMs(800)).toBe(PROBE_REACTION_FACTOR * 800);
    expect(probeBoundMs(1e6)).toBe(PROBE_MAX_MS);
  });
});
