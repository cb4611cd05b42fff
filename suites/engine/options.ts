// The options of a run (RunOptions): built once, by runOptions(), from the CLI's flags (scripts/server.ts) or
// the library's options (suites/api.ts) under the same names, and handed to the engine as they are. Each
// option is one name from the flag to the place it acts: --max-tasks is `maxTasks` in the flag parser, the
// library, the vitest helper, the run's live-task slots (suites/runner/task-slots.ts) and the skip message
// of a check that found no free slot. The events (onRunStart, onCheckStart, onCheckDone) are how a caller
// follows a run as it goes (the CLI's progress); they are called the same by the CLI, runConformance and the
// vitest helper.
import { isRevision, type Revision } from '../../schema/spec.ts';
import type { CheckResult } from './result.ts';

/** Defaults of discovery (suites/runner/discovery.ts): --discover-budget and the bounds inside it. */
export const DEFAULT_DISCOVERY = { budgetMs: 30_000, concurrency: 4, slowAfterMs: 2_000, observeMs: 10_000, requestTimeoutMs: 10_000 };

/** What --revision takes: a revision, or `auto` (probe the target: suites/runner/revision.ts). */
export type RevisionChoice = Revision | 'auto';
export const REVISION_CHOICES: readonly RevisionChoice[] = ['2025-11-25', '2026-07-28', 'auto'];

/** A check as the events name it before it has a result. */
export interface CheckRef {
  id: string;
  section: string;
}

/** What a run tells its caller as it goes; a callback that throws is the caller's error and is not caught. */
export interface RunEvents {
  /** Once, before any check starts: every check the run will grade, in the order they are scheduled. */
  onRunStart?: (checks: readonly CheckRef[]) => void;
  /** A check starts (it may still wait for a live-task slot). */
  onCheckStart?: (check: CheckRef) => void;
  /** A check has its verdict. */
  onCheckDone?: (result: CheckResult) => void;
}

/** The options that are values (the revision, bounds and counts), each with its flag. */
export interface RunSettings {
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
  /** Most tasks the run keeps live at once (checks that load the target on purpose excepted): --max-tasks. */
  maxTasks: number;
  /** Checks run at once: --concurrency. */
  concurrency: number;
}

export interface RunOptions extends RunSettings, RunEvents {}

const EVENTS: readonly (keyof RunEvents)[] = ['onRunStart', 'onCheckStart', 'onCheckDone'];

export const DEFAULT_RUN_OPTIONS: RunSettings = {
  revision: 'auto',
  requestTimeoutMs: 10_000,
  checkTimeoutMs: 30_000,
  maxTasks: 20,
  concurrency: 16,
};

/** The flag of each option (messages name the option the way the user gave it: flag or library name). */
export const RUN_OPTION_FLAGS: Record<keyof RunSettings, string | undefined> = {
  revision: 'revision',
  requestTimeoutMs: 'request-timeout',
  checkTimeoutMs: 'check-timeout',
  maxTasks: 'max-tasks',
  concurrency: 'concurrency',
};

/** The run's options from the given ones and the defaults; throws on a revision it does not know, a bound that is not a positive whole number or an event that is not a function. */
export function runOptions(given: Partial<RunOptions> = {}): RunOptions {
  for (const [k, v] of Object.entries(given) as [keyof RunOptions, unknown][]) {
    if (v === undefined) continue;
    if ((EVENTS as readonly string[]).includes(k)) {
      if (typeof v !== 'function') throw new Error(`${k} takes a function, got ${typeof v}`);
      continue;
    }
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
