// Helpers for the reference peers' own tests (mocks/**/*.test.ts); not part of the package (tsconfig.build.json).
import { vi } from 'vitest';

/**
 * Runs `body` on a fake clock that also follows real time (vitest fake timers, `shouldAdvanceTime`): `pass(ms)` moves
 * it past a deadline at once (a ttl, a tool's run time), so "after X ms it still is …" neither sleeps nor depends on
 * the machine's load. Only timers and Date made inside `body` are fake: start the task there.
 */
export async function onFakeClock<T>(body: (pass: (ms: number) => Promise<void>) => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'], shouldAdvanceTime: true });
  try {
    return await body(async (ms) => void (await vi.advanceTimersByTimeAsync(ms)));
  } finally {
    vi.useRealTimers();
  }
}
