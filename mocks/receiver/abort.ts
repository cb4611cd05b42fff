// Aborting the receiver's own controllers, and the waits that end with them. A leaf module (the store and
// core.ts use it).

// Waits that end when their signal aborts. An 'abort' listener on an AbortSignal costs ~7–15 µs in Node 20
// (a task's whole hot path is ~50 µs), so a wait registers here instead, and the receiver aborts its
// controllers through abortWith(), which runs these wake-ups right after the signal's own listeners.
const WAKE_UPS = Symbol('wake-ups');
type Wakeable = AbortSignal & { [WAKE_UPS]?: (() => void)[] };

function onAbort(signal: AbortSignal, wake: () => void): () => void {
  const list = ((signal as Wakeable)[WAKE_UPS] ??= []);
  list.push(wake);
  return () => {
    const i = list.indexOf(wake);
    if (i >= 0) list.splice(i, 1);
  };
}

/** Aborts `c` with `reason` and wakes the waits on its signal (abortableSleep, raceAbort); every abort of the receiver's own controllers goes through here. */
export function abortWith(c: AbortController, reason: unknown): void {
  if (c.signal.aborted) return;
  c.abort(reason);
  const list = (c.signal as Wakeable)[WAKE_UPS];
  if (!list) return;
  (c.signal as Wakeable)[WAKE_UPS] = undefined;
  for (const wake of list) wake();
}

export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason ?? new Error('aborted'));
    const timer = setTimeout(() => {
      off();
      resolve();
    }, ms);
    timer.unref?.();
    const off = onAbort(signal, () => {
      clearTimeout(timer);
      reject(signal.reason ?? new Error('aborted'));
    });
  });
}

export function raceAbort<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason ?? new Error('aborted'));
  return new Promise<T>((resolve, reject) => {
    const off = onAbort(signal, () => reject(signal.reason ?? new Error('aborted')));
    p.then(
      (v) => {
        off();
        resolve(v);
      },
      (e) => {
        off();
        reject(e);
      },
    );
  });
}
