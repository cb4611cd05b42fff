// The requestor checks on live traffic (`mock --judge`): a client we did not start talks to a reference peer;
// every message the peer's tap sees becomes a transcript entry, and the checks (the same ones `client` runs on
// recorded scenario runs, graded by the same gradeCheck) judge the transcript so far after each burst of
// messages. A verdict is printed once it is a fail or warn, for the checks whose evidence is a message the client
// sent; a check about what the client did not do (yet) is judged at the end only (a person may take minutes to
// answer an elicitation while the client polls on).
// At the end the client counts as done once it was quiet for longer than it takes to act.
import type { CheckResult, Status } from '../engine/check.ts';
import type { TranscriptEntry } from '../wire/peer.ts';
import type { GradedRun } from './engine.ts';
import type { ClientExit } from './harness.ts';

/** One message (or session event) the reference peer saw: `in` = from the client, `out` = to it. */
export interface LiveEvent {
  dir: 'in' | 'out' | 'event';
  session: string;
  time: number;
  message?: unknown;
  note?: string;
  raw?: string;
  headers?: Record<string, string>;
}

export interface LiveJudgeOptions<R extends GradedRun> {
  /** The scenario name the transcript is graded as (the checks are those judging it). */
  scenario: string;
  transport: string;
  /** The checks to judge (each names `scenario` among its scenarios). */
  checks: readonly { id: string }[];
  /** The revision's reading of a transcript. */
  analyse(run: GradedRun & { startedAt: number; serverArg: string }): R;
  /** The revision's grading of one check over the run. */
  grade(checkIndex: number, runs: R[]): CheckResult;
  /** A verdict as soon as it is a fail or warn (and when it changes after that), of the checks `printedLive` names. */
  onVerdict?(result: CheckResult): void;
  /**
   * The checks whose fail or warn is printed while the client runs: those whose evidence is a message the client sent,
   * which nothing later can undo. A check about what the client has not done (yet) is judged at the end only.
   */
  printedLive?(checkId: string): boolean;
  /** How long after a message the transcript is graded again (default 200 ms: a burst is graded once). */
  settleMs?: number;
}

const LOUD: readonly Status[] = ['fail', 'warn'];

/** Silence after which the client counts as done: four times its longest pause between messages, at least 5 s. */
export function quietMs(clientTimes: readonly number[]): number {
  let gap = 0;
  for (let i = 1; i < clientTimes.length; i++) gap = Math.max(gap, clientTimes[i]! - clientTimes[i - 1]!);
  return Math.max(5_000, 4 * gap);
}

export class LiveJudge<R extends GradedRun> {
  readonly startedAt = Date.now();
  readonly entries: (TranscriptEntry & { session: string; headers?: Record<string, string> })[] = [];
  private readonly clientTimes: number[] = [];
  private readonly printed = new Map<string, Status>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private finished = false;

  constructor(private readonly opts: LiveJudgeOptions<R>) {}

  /** Records one event of the peer's tap; the transcript is graded again once the burst settles. */
  record(e: LiveEvent): void {
    if (this.finished) return;
    if (e.dir === 'in') this.clientTimes.push(e.time);
    this.entries.push({
      seq: this.entries.length,
      time: new Date(e.time).toISOString(),
      ms: e.time - this.startedAt,
      dir: e.dir,
      session: e.session,
      ...(e.message !== undefined ? { message: e.message } : {}),
      ...(e.raw !== undefined ? { raw: e.raw } : {}),
      ...(e.note !== undefined ? { note: e.note } : {}),
      ...(e.headers ? { headers: e.headers } : {}),
    });
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.announce(this.grade('live'));
    }, this.opts.settleMs ?? 200);
    this.timer.unref?.();
  }

  /** Has any client message arrived? */
  get reached(): boolean {
    return this.clientTimes.length > 0;
  }

  /**
   * Every check's verdict on the transcript so far. `live`: the client may still be acting (cut off now);
   * `final`: it counts as done if it ended its connection (`clientEnded`) or has been quiet for longer than it
   * takes to act, else as cut off.
   */
  grade(mode: 'live' | 'final', clientEnded = false): CheckResult[] {
    const now = Date.now();
    const last = this.clientTimes.at(-1);
    const done = mode === 'final' && (clientEnded || last === undefined || now - last > quietMs(this.clientTimes));
    const exit: ClientExit = done
      ? { code: 0, signal: null, timedOut: false, durationMs: now - this.startedAt, stdout: '', stderr: '' }
      : { code: null, signal: null, timedOut: true, durationMs: now - this.startedAt, stdout: '', stderr: '' };
    const problem = done
      ? undefined
      : `graded live: the client may still be acting (${mode === 'live' ? 'so far' : 'when the judge stopped'}; what it did not do yet is not judged)`;
    const run = this.opts.analyse({
      scenario: { name: this.opts.scenario },
      transport: this.opts.transport,
      timeoutMs: now - this.startedAt,
      startedAt: this.startedAt,
      serverArg: '',
      exit,
      entries: [...this.entries],
      ...(problem ? { problem } : {}),
    });
    return this.opts.checks.map((_, i) => this.opts.grade(i, [run]));
  }

  /** The final verdicts; later events are ignored. */
  finish(clientEnded = false): CheckResult[] {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.finished = true;
    return this.grade('final', clientEnded);
  }

  private announce(results: CheckResult[]): void {
    for (const r of results) {
      if (this.opts.printedLive && !this.opts.printedLive(r.id)) continue;
      const before = this.printed.get(r.id);
      if (!LOUD.includes(r.status) && before === undefined) continue;
      if (before === r.status) continue;
      this.printed.set(r.id, r.status);
      this.opts.onVerdict?.(r);
    }
  }
}
