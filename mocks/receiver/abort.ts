// Aborting the receiver's own controllers, and the waits that end with them. A leaf module (the store and
// core.ts use it).

// Waits that end when their signal aborts. An 'abort' listener on an AbortSignal costs ~7–15 µs in Node 20
// (a task's whole hot path is ~50 µs), so a wait registers here instead, and the receiver aborts its
// controllers through abortWith(), which runs these wake-ups right after the signal's own listeners.
const WAKE_UPS = Symbol('wake-ups');
/** What a wait watches: an AbortSignal, or a TaskAbort (whose signal may never be made). */
export interface Abortable {
  readonly aborted: boolean;
  readonly reason: unknown;
}
type Wakeable = Abortable & { [WAKE_UPS]?: (() => void)[] };

function onAbort(signal: Abortable, wake: () => void): () => void {
  const list = ((signal as Wakeable)[WAKE_UPS] ??= []);
  list.push(wake);
  return () => {
    const i = list.indexOf(wake);
    if (i >= 0) list.splice(i, 1);
  };
}

function wakeAll(w: Wakeable): void {
  const list = w[WAKE_UPS];
  if (!list) return;
  w[WAKE_UPS] = undefined;
  for (const wake of list) wake();
}

/**
 * A task's abort: an AbortController made only when its signal is asked for (a tool that hands it on). Most
 * tasks only sleep or end, and an AbortController with its signal and abort event costs ~8 µs of a task's
 * ~70 µs over stdio; waits watch the TaskAbort itself instead.
 */
export class TaskAbort implements Abortable {
  private controller: AbortController | undefined;
  private abortReason: { reason: unknown } | undefined;

  get aborted(): boolean {
    return this.abortReason !== undefined;
  }
  get reason(): unknown {
    return this.abortReason?.reason;
  }
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.abortReason) this.controller.abort(this.abortReason.reason);
    }
    return this.controller.signal;
  }

  /** As AbortController.abort (the first reason stays), waking the waits on this TaskAbort and on its signal. */
  abort(reason: unknown): void {
    if (this.abortReason) return;
    this.abortReason = { reason };
    if (this.controller) abortWith(this.controller, reason);
    wakeAll(this);
  }
}

/** Aborts `c` with `reason` and wakes the waits on its signal (abortableSleep, raceAbort); every abort of the receiver's own controllers goes through here. */
export function abortWith(c: AbortController | TaskAbort, reason: unknown): void {
  if (c instanceof TaskAbort) return c.abort(reason);
  if (c.signal.aborted) return;
  c.abort(reason);
  wakeAll(c.signal);
}

export function abortableSleep(ms: number, signal: Abortable): Promise<void> {
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

export function raceAbort<T>(p: Promise<T>, signal: Abortable): Promise<T> {
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
