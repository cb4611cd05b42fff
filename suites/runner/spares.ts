// Connections opened ahead: a stdio target is a process per connection, and its start-up (loading a runtime,
// an `npx` download check, an interpreter) is paid before it answers initialize. A few connections are
// started and initialized ahead, while the checks run, so that a check asking for a connection of its own
// takes one that is ready instead of waiting for a start-up.

/**
 * Keeps up to `size` connections made by `make` ready; `take` hands one out and starts the next. After a failed
 * make, no more are made ahead. Once told how many connections are still to be asked for (`expect`), no more
 * than that are made ahead: a run does not end with started connections nobody takes.
 */
export class Spares<T> {
  private readonly ready: Promise<T>[] = [];
  private readonly settled = new WeakSet<Promise<T>>();
  private closed = false;
  private failed = false;
  /** Connections still to be asked for (undefined: not known, `size` are kept ready). */
  private expected: number | undefined;
  constructor(
    private readonly size: number,
    private readonly make: () => Promise<T>,
    private readonly discard: (t: T) => Promise<void>,
  ) {}

  /** Starts making connections until `size` are ready or on their way. */
  fill(): void {
    while (!this.closed && !this.failed && this.ready.length < Math.min(this.size, this.expected ?? Infinity)) {
      const p = this.make();
      // A failed spare surfaces to the caller that takes it.
      p.then(
        () => this.settled.add(p),
        () => {
          this.settled.add(p);
          this.failed = true;
        },
      );
      this.ready.push(p);
    }
  }

  /**
   * `n` more connections will be asked for (negative: fewer than said before, e.g. a check ended without opening
   * all it might have). The first call makes the count known; a hint for starting ahead, never a bound.
   */
  expect(n: number): void {
    this.expected = Math.max(0, (this.expected ?? 0) + n);
    this.fill();
  }

  /**
   * A connection is asked for: one made ahead (then the next one is started), or undefined when none is on its
   * way or it cannot serve (`usable` false: the caller makes one of another kind; it still counts as asked for).
   */
  take(usable = true): Promise<T> | undefined {
    if (this.expected !== undefined) this.expected = Math.max(0, this.expected - 1);
    const p = usable ? this.ready.shift() : undefined;
    if (p) this.fill();
    return p;
  }

  /**
   * No more connections made; the ones made and not taken are discarded. Waits for those that are ready;
   * one still starting (a target slow to answer initialize) is discarded once its start ends, without
   * holding up the caller.
   */
  async close(): Promise<void> {
    this.closed = true;
    const left = this.ready.splice(0);
    const waited: Promise<void>[] = [];
    for (const p of left) {
      const discarded = p.then(this.discard, () => undefined);
      if (this.settled.has(p)) waited.push(discarded);
    }
    await Promise.all(waited);
  }
}
