import { describe, expect, test } from 'vitest';
import { Spares } from './spares.ts';

describe('Spares: connections started ahead', () => {
  test('fill starts size connections; take hands them out in order and starts the next', async () => {
    let made = 0;
    const discarded: number[] = [];
    const spares = new Spares(
      2,
      async () => ++made,
      async (n) => void discarded.push(n),
    );
    expect(spares.take()).toBeUndefined(); // nothing started yet
    spares.fill();
    expect(made).toBe(2);
    expect(await spares.take()).toBe(1);
    expect(made).toBe(3); // refilled
    expect(await spares.take()).toBe(2);
    await spares.close();
    expect(discarded.sort()).toEqual([3, 4]);
    spares.fill();
    expect(made).toBe(4); // closed: no more
    expect(spares.take()).toBeUndefined();
  });

  test('a failed start reaches the caller that takes it; close does not wait for a start still under way', async () => {
    let release!: (n: number) => void;
    const pending = new Promise<number>((r) => (release = r));
    const makes = [() => Promise.reject(new Error('exited with 1')), () => pending];
    const discarded: number[] = [];
    const spares = new Spares(
      2,
      () => makes.shift()?.() ?? new Promise<number>(() => undefined),
      async (n) => void discarded.push(n),
    );
    spares.fill();
    await expect(spares.take()).rejects.toThrow('exited with 1');
    await spares.close(); // returns although the second start has not ended
    expect(discarded).toEqual([]);
    release(7);
    await pending;
    await new Promise((r) => setImmediate(r));
    expect(discarded).toEqual([7]); // discarded once started
  });
});

test('after a failed start no more are made ahead', async () => {
  let made = 0;
  const spares = new Spares(
    2,
    async () => {
      made++;
      throw new Error('exited with 1');
    },
    async () => undefined,
  );
  spares.fill();
  await expect(spares.take()).rejects.toThrow('exited with 1'); // take refilled once before the failure was known
  await expect(spares.take()).rejects.toThrow();
  await expect(spares.take()).rejects.toThrow();
  expect(spares.take()).toBeUndefined();
  expect(made).toBe(3);
});

test('once the connections still to be asked for are known, no more than those are made ahead', async () => {
  let made = 0;
  const discarded: number[] = [];
  const spares = new Spares(
    2,
    async () => ++made,
    async (n) => void discarded.push(n),
  );
  spares.fill();
  expect(made).toBe(2); // not known yet: size
  spares.expect(3);
  expect(await spares.take()).toBe(1); // 2 left to ask for, 1 ready: one more made
  expect(made).toBe(3);
  expect(spares.take(false)).toBeUndefined(); // asked for one of another kind: it counts, none made
  expect(made).toBe(3);
  expect(await spares.take()).toBe(2);
  expect(made).toBe(3); // none left to ask for
  spares.expect(-1); // never below zero
  spares.expect(1);
  expect(made).toBe(3); // one ready already covers it
  expect(await spares.take()).toBe(3);
  expect(spares.take()).toBeUndefined();
  await spares.close();
  expect(made).toBe(3);
  expect(discarded).toEqual([]);
});
