// A bound on work at once: process start-ups of a stdio target (target.ts), checks of a vitest run (suites/vitest.ts).

/** Runs at most `n` of the given functions at once; work marked `ahead` (done before anyone asks for it) waits until nothing else does. */
export function limiter(n: number): <T>(f: () => Promise<T>, opts?: { ahead?: boolean }) => Promise<T> {
  let active = 0;
  const queue: (() => void)[] = [];
  const later: (() => void)[] = [];
  return async (f, opts) => {
    while (active >= n || (opts?.ahead && queue.length > 0)) await new Promise<void>((r) => (opts?.ahead ? later : queue).push(r));
    active++;
    try {
      return await f();
    } finally {
      active--;
      (queue.shift() ?? later.shift())?.();
    }
  };
}
