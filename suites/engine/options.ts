// The options of a run (RunOptions): built once, by runOptions(), from the CLI's flags (scripts/server.ts) or
// the library's options (suites/api.ts) under the same names, and handed to the engine as they are. Each
// option is one name from the flag to the place it acts: --max-tasks is `maxTasks` in the flag parser, the
// library, the vitest helper, the run's live-task slots (suites/runner/task-slots.ts) and the skip message
// of a check that found no free slot.
import { isRevision, type Revision } from '../../schema/spec.ts';

/** What --revision takes: a revision, or `auto` (probe the target: suites/runner/revision.ts). */
export type RevisionChoice = Revision | 'auto';
export const REVISION_CHOICES: readonly RevisionChoice[] = ['2025-11-25', '2026-07-28', 'auto'];

export interface RunOptions {
  /**
   * The revision the run speaks and judges: --revision. `auto` (the default) probes the target with
   * server/discover and falls back to initialize (suites/runner/revision.ts); the CLI and the library grade
   * a target that speaks both in both, one session per revision, each with its revision here.
   */
  revision: RevisionChoice;
  /** Bound for one request/response (ms): --request-timeout. */
  requestTimeoutMs: number;
  /** Bound for a whole check (ms): --check-timeout; default the larger of 30000 and 3 × requestTimeoutMs. */
  checkTimeoutMs: number;
  /** Upper bound on a poll delay even when the target asks for more (ms). */
  maxPollIntervalMs: number;
  /** Most tasks the run keeps live at once (checks that load the target on purpose excepted): --max-tasks. */
  maxTasks: number;
  /** Checks run at once: --concurrency. */
  concurrency: number;
}

export const DEFAULT_RUN_OPTIONS: RunOptions = {
  revision: 'auto',
  requestTimeoutMs: 10_000,
  checkTimeoutMs: 30_000,
  maxPollIntervalMs: 1_000,
  maxTasks: 20,
  concurrency: 8,
};

/** The flag of each option (messages name the option the way the user gave it: flag or library name). */
export const RUN_OPTION_FLAGS: Record<keyof RunOptions, string | undefined> = {
  revision: 'revision',
  requestTimeoutMs: 'request-timeout',
  checkTimeoutMs: 'check-timeout',
  maxPollIntervalMs: undefined,
  maxTasks: 'max-tasks',
  concurrency: 'concurrency',
};

/** The run's options from the given ones and the defaults; throws on a revision it does not know, or a bound that is not a positive whole number. */
export function runOptions(given: Partial<RunOptions> = {}): RunOptions {
  for (const [k, v] of Object.entries(given) as [keyof RunOptions, unknown][]) {
    if (v === undefined) continue;
    if (!(k in DEFAULT_RUN_OPTIONS)) throw new Error(`unknown run option ${k}`);
    if (k === 'revision') {
      if (v !== 'auto' && !isRevision(v)) throw new Error(`revision takes ${REVISION_CHOICES.join(', ')}, got ${JSON.stringify(v)}`);
      continue;
    }
    if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0) throw new Error(`${k} takes a positive whole number, got ${JSON.stringify(v)}`);
  }
  const defined = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) as Partial<RunOptions>;
  const requestTimeoutMs = defined.requestTimeoutMs ?? DEFAULT_RUN_OPTIONS.requestTimeoutMs;
  return {
    ...DEFAULT_RUN_OPTIONS,
    checkTimeoutMs: Math.max(DEFAULT_RUN_OPTIONS.checkTimeoutMs, requestTimeoutMs * 3),
    ...defined,
  };
}
