import { expect, test } from 'vitest';
import { taskSlots } from './task-slots.ts';
import { scheduled } from './session.ts';
import { checksFor, receiverChecks2025 } from '../index.ts';
import { loadProfile } from './target.ts';

const later = (ms = 5_000) => Date.now() + ms;

test('task slots: a freed slot goes to the waiter of the highest priority, first come first served among equals, never to a later caller', async () => {
  const slots = taskSlots(1);
  expect(await slots.acquire(later())).toBe(true);
  const order: string[] = [];
  const wait = (name: string, priority?: number) => slots.acquire(later(), priority).then((ok) => void order.push(`${name}:${ok}`));
  const low1 = wait('low1');
  const high = wait('high', 3_500);
  const low2 = wait('low2'); // each queued as it is called (acquire queues synchronously)
  slots.release();
  // A caller arriving after the release does not take the slot handed to the waiter.
  const barging = await slots.acquire(Date.now() + 50);
  expect(barging).toBe(false);
  await high;
  slots.release();
  await low1;
  slots.release();
  await low2;
  expect(order).toEqual(['high:true', 'low1:true', 'low2:true']);
  slots.release();
  expect(await slots.acquire(later())).toBe(true);
});

test('task slots: a waiter whose deadline passes gets false and leaves the queue (the next release frees the slot)', async () => {
  const slots = taskSlots(1);
  expect(await slots.acquire(later())).toBe(true);
  expect(await slots.acquire(Date.now() + 30, 10)).toBe(false);
  slots.release();
  expect(await slots.acquire(Date.now() + 30)).toBe(true);
});

test('schedule: the checks that wait longest on timers start first (for this profile), the rest in catalog order; loadsTarget, then runsLast after', () => {
  const profile = loadProfile('fixtures/reference.profile.json');
  const { first, last } = scheduled(receiverChecks2025, profile);
  const waits = first.map((c) => c.waitsMs?.(profile) ?? 0);
  expect(waits).toEqual([...waits].sort((a, b) => b - a));
  expect(first[0]!.id).toBe('cancel.stays-cancelled');
  const plain = first.filter((c) => !c.waitsMs);
  expect(plain.map((c) => c.id)).toEqual(receiverChecks2025.filter((c) => !c.waitsMs && !c.runsLast && !c.loadsTarget).map((c) => c.id));
  expect(last.map((c) => c.id)).toEqual(
    [...receiverChecks2025.filter((c) => c.loadsTarget && !c.runsLast), ...receiverChecks2025.filter((c) => c.runsLast)].map((c) => c.id),
  );
  // A profile whose slow tool runs longer moves its waits up with it.
  const slower = { tools: { ...profile.tools, slow: { name: 'slow', arguments: { ms: 10_000 } } } };
  expect(
    scheduled(receiverChecks2025, slower)
      .first.slice(0, 2)
      .map((c) => c.id),
  ).toEqual(['cancel.stays-cancelled', 'lifecycle.terminal-sticky-cancelled']);
});

test('schedule (2026-07-28): the subscription teardown watch, the sticky-terminal watch and the slow tasks run to their end start first', () => {
  const profile = loadProfile('fixtures/reference-2026-07-28.profile.json');
  const { first } = scheduled(checksFor('2026-07-28'), profile);
  expect(first.slice(0, 4).map((c) => c.id)).toEqual([
    '2026-cancellation.listen-teardown',
    '2026-lifecycle.terminal-sticky',
    '2026-get.last-updated-moves',
    '2026-notify.detailed-task',
  ]);
});

test('task slots learn a capacity limit: per connection when that connection holds tasks, in all when it holds none; throttling is not a bound', async () => {
  const slots = taskSlots(20);
  const a = {};
  const b = {};
  for (let i = 0; i < 4; i++) expect(await slots.acquire(later(), 0, a)).toBe(true);
  // The 4th creation on `a` refused at capacity: the target holds 3 of ours there.
  expect(slots.refused(a, '-32603 Maximum concurrent tasks exceeded')).toBe(true);
  slots.release(a);
  expect(slots.learned?.()).toEqual({ perConnection: 3, what: '-32603 Maximum concurrent tasks exceeded' });
  expect(slots.maxTasks).toBe(3);
  // `a` waits for one of its own; `b` is not held up by it.
  const waiting = slots.acquire(later(), 0, a);
  expect(await slots.acquire(later(), 0, b)).toBe(true);
  slots.release(a);
  expect(await waiting).toBe(true);
  // Refused on `c`, which holds none, while the run holds 4: at most 4 in all.
  const c = {};
  expect(await slots.acquire(later(), 0, c)).toBe(true);
  expect(slots.refused(c, '-32000 capacity reached')).toBe(true);
  slots.release(c);
  expect(slots.learned?.()).toMatchObject({ perConnection: 3, run: 4 });
  expect(await slots.acquire(Date.now() + 30, 0, c)).toBe(false);
  // A rate limit is waited out in time, never learned as a bound.
  const d = taskSlots(20);
  expect(await d.acquire(later(), 0, a)).toBe(true);
  expect(await d.acquire(later(), 0, a)).toBe(true);
  expect(d.refused(a, '-32000 Rate limit exceeded: at most 8 per second')).toBe(false);
  expect(d.learned?.()).toBeUndefined();
  // Refused with nothing of ours live: nothing to learn.
  const e = taskSlots(20);
  expect(await e.acquire(later(), 0, a)).toBe(true);
  expect(e.refused(a, 'too many tasks')).toBe(false);
  expect(e.learned?.()).toBeUndefined();
});

test('task slots start within the limits a profile kept', async () => {
  const slots = taskSlots(20, { perConnection: 2 });
  const a = {};
  expect(await slots.acquire(later(), 0, a)).toBe(true);
  expect(await slots.acquire(later(), 0, a)).toBe(true);
  expect(await slots.acquire(Date.now() + 30, 0, a)).toBe(false);
  expect(await slots.acquire(later(), 0, {})).toBe(true);
});
