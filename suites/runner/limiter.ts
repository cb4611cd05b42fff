// A bound on work at once: process start-ups of a stdio target (target.ts), checks of a vitest run (suites/vitest.ts).

/** Runs at most `n` of the given functions at once. */
export function limiter(n: number): <T>(f: () => Promise<T>) => Promise<T> {
  let active = 0;
  const queue: (() => void)[] = [];
  return async (f) => {
    while (active >= n) await new Promise<void>((r) => queue.push(r));
    active++;
    try {
      return await f();
    } finally {
      active--;
      queue.shift()?.();
    }
  };
}
