import { describe, expect, it } from 'vitest';
import { judgeSightings, reachableFrom, type Sighting } from './transitions.ts';
import { TASK_MACHINE as M2025 } from '../../schema/protocol.ts';
import { TASK_MACHINE as M2026 } from '../../schema/2026-07-28/protocol.ts';

const s = (status: string, at: number, sentAt?: number, task = 't'): Sighting => ({
  task,
  status,
  where: `#${at}`,
  at,
  ...(sentAt !== undefined ? { sentAt } : {}),
});

describe.each([
  ['2025-11-25', M2025],
  ['2026-07-28', M2026],
] as const)('judgeSightings (%s table)', (_rev, machine) => {
  it('reachableFrom follows the table', () => {
    expect([...reachableFrom(machine, 'completed')]).toEqual(['completed']);
    expect(reachableFrom(machine, 'working').has('cancelled')).toBe(true);
  });

  it('a legal history is silent', () => {
    expect(judgeSightings(machine, [s('working', 1, 0), s('input_required', 3, 2), s('working', 5, 4), s('completed', 7, 6), s('completed', 9, 8)])).toEqual(
      [],
    );
  });

  it('a terminal status re-reported as another terminal one is caught, whatever the order', () => {
    const [bad] = judgeSightings(machine, [s('completed', 2, 1), s('failed', 4, 3)]);
    expect(bad).toMatchObject({ task: 't', ordered: true, earlier: { status: 'completed' }, later: { status: 'failed' } });
    // overlapping requests: the order is not proven, still no run of the table explains both
    expect(judgeSightings(machine, [s('completed', 5, 1), s('failed', 4, 2)])[0]).toMatchObject({ ordered: false });
    // a notification (no request): produced any time before it arrived
    expect(judgeSightings(machine, [s('cancelled', 2, 1), s('completed', 9)])).toHaveLength(1);
  });

  it('a non-terminal status after a terminal one counts only when the order is proven', () => {
    expect(judgeSightings(machine, [s('completed', 2, 1), s('working', 4, 3)])[0]?.message).toMatch(/"completed" cannot become "working"/);
    expect(judgeSightings(machine, [s('completed', 5, 1), s('working', 4, 2)])).toEqual([]); // concurrent: working may have been produced first
    expect(judgeSightings(machine, [s('completed', 2, 1), s('working', 4)])).toEqual([]); // a notification sent before, arriving late
    expect(judgeSightings(machine, [s('completed', 4, 3), s('working', 2, 1)])).toEqual([]);
  });

  it('tasks are judged apart, and statuses the table does not know are left alone', () => {
    expect(judgeSightings(machine, [s('completed', 2, 1, 'a'), s('failed', 4, 3, 'b'), s('done', 6, 5, 'a')])).toEqual([]);
  });
});

describe('judgeSightings and the ttl', () => {
  it('a sighting past the task ttl is never judged', () => {
    expect(judgeSightings(M2026, [s('completed', 2, 1), { ...s('failed', 4, 3), afterExpiry: true }])).toEqual([]);
  });
});
