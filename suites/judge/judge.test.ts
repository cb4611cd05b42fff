// The revision-neutral judging helpers: determinism-first comparison and timestamp reading.
import { describe, expect, it } from 'vitest';
import { callTwice, fieldDifferences, notRepeatedReason, outcomeDifference, type Outcome } from './compare.ts';
import { instantOf, maySameInstant, orderOfText, readTimestamp } from './timestamps.ts';

describe('outcomeDifference', () => {
  const ok = (text: string, extra: Record<string, unknown> = {}): Outcome => ({ result: { content: [{ type: 'text', text }], ...extra } });
  it('the same result modulo _meta and isError: false', () => {
    expect(outcomeDifference(ok('a'), ok('a', { _meta: { x: 1 }, isError: false }))).toBeUndefined();
    expect(outcomeDifference(ok('a'), ok('b'))).toMatch(/different results \(content differ\)/);
  });
  it('errors by code, message and data', () => {
    const e = (code: number, message = 'm'): Outcome => ({ error: { code, message } });
    expect(outcomeDifference(e(-32603), e(-32603))).toBeUndefined();
    expect(outcomeDifference(e(-32603), e(-32000))).toMatch(/different JSON-RPC errors/);
    expect(outcomeDifference(e(-32603), ok('a'))).toMatch(/JSON-RPC error/);
  });
  it('a projection and names', () => {
    const project = (r: any) => ({ content: r?.content });
    expect(outcomeDifference(ok('a', { resultType: 'complete' }), ok('a'), { project })).toBeUndefined();
    expect(outcomeDifference(ok('a'), ok('b'), { project, names: ['plain', 'inlined'] })).toMatch(/plain .*; inlined /);
  });
  it('fieldDifferences lists the differing members', () => {
    expect(fieldDifferences({ a: 1, b: { x: 1, y: 2 } }, { a: 2, b: { y: 2, x: 1 }, c: 3 }).map((d) => d.field)).toEqual(['a', 'c']);
  });
});

describe('callTwice (determinism first)', () => {
  it('the second answer when both are the same', async () => {
    let n = 0;
    const r = await callTwice(async () => ({ result: { content: [{ type: 'text', text: 'x' }] }, n: n++ }));
    expect(r).toMatchObject({ repeats: true, answer: { n: 1 } });
  });
  it('the difference when they are not, and the reason to give', async () => {
    let n = 0;
    const r = await callTwice(async () => ({ result: { content: [{ type: 'text', text: `call ${n++}` }] } }));
    expect(r.repeats).toBe(false);
    if (!r.repeats) expect(notRepeatedReason('t', 'completes', r.difference)).toMatch(/does not repeat itself.*call 0.*call 1/);
  });
  it('`first` may stop before the second call', async () => {
    let calls = 0;
    const stop = new Error('stop');
    await expect(
      callTwice(async () => (calls++, {}), {
        first: () => {
          throw stop;
        },
      }),
    ).rejects.toBe(stop);
    expect(calls).toBe(1);
  });
});

describe('timestamps', () => {
  it.each([
    ['2026-07-28T10:30:00.123456', 'iso8601', 1000 / 1e6, false],
    ['2026-07-28T10:30:00Z', 'iso8601', 1000, true],
    ['2026-07-28T10:30', 'iso8601', 60_000, false],
    ['20260728T103000,5+0200', 'iso8601', 100, true],
    ['2026-07-28T10:30:00+01:00', 'rfc3339', 1000, true],
  ] as const)('%s read as %s', (s, reading, precisionMs, zone) => {
    const t = readTimestamp(s, reading);
    expect(t).toMatchObject({ zone });
    expect(t!.precisionMs).toBeCloseTo(precisionMs, 9);
  });
  it.each([
    ['2026-07-28T10:30:00.123456', 'rfc3339'],
    ['2026-07-28', 'iso8601'],
    ['2026-02-29T10:30:00Z', 'iso8601'],
    ['2026-07-28 10:30:00Z', 'iso8601'],
    ['2026-07-28T24:00:00Z', 'iso8601'],
    ['yesterday', 'iso8601'],
  ] as const)('%j is no %s timestamp', (s, reading) => expect(readTimestamp(s, reading)).toBeUndefined());
  it('the instant: offsets applied, zone-less read as UTC', () => {
    expect(instantOf('2026-07-28T10:30:00+02:00', 'iso8601')).toBe(Date.parse('2026-07-28T08:30:00Z'));
    expect(instantOf('2026-07-28T10:30:00.5', 'iso8601')).toBe(Date.parse('2026-07-28T10:30:00.500Z'));
    expect(instantOf('bad', 'iso8601')).toBeNaN();
  });
  it('compared by instant within the precision each shows', () => {
    expect(orderOfText('2026-07-28T10:30:00.123Z', '2026-07-28T10:30:00Z', 'iso8601')).toBe(0);
    expect(orderOfText('2026-07-28T10:30:00.123Z', '2026-07-28T10:30:00.126Z', 'iso8601')).toBe(-1);
    expect(orderOfText('2026-07-28T10:30:05Z', '2026-07-28T10:30:00Z', 'iso8601')).toBe(1);
    expect(orderOfText('2026-07-28T10:30:00Z', '2026-07-28T12:30:00+02:00', 'iso8601')).toBe(0);
    expect(orderOfText('2026-07-28T10:30:00Z', '2026-07-28T10:30:00', 'iso8601')).toBeUndefined();
    expect(maySameInstant('2026-07-28T10:30:00.999Z', '2026-07-28T10:30:01Z', 'iso8601')).toBe(true);
    expect(maySameInstant('2026-07-28T10:30:00Z', '2026-07-28T10:30:03Z', 'iso8601')).toBe(false);
  });
});
