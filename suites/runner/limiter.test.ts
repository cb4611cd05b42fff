import { expect, test } from 'vitest';
import { limiter } from './limiter.ts';

test('limiter: at most n at once; work done ahead waits while anything else waits', async () => {
  const limit = limiter(1);
  const order: string[] = [];
  let release!: () => void;
  const first = limit(() => new Promise<void>((r) => (release = r)).then(() => void order.push('first')));
  const ahead = limit(async () => void order.push('ahead'), { ahead: true });
  const asked = limit(async () => void order.push('asked'));
  release();
  await Promise.all([first, ahead, asked]);
  expect(order).toEqual(['first', 'asked', 'ahead']);
});
