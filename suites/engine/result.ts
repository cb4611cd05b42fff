// What a check returns (run-check.ts builds it; runners, reports and the run's events read it).
import type { TranscriptEntry } from '../wire/peer.ts';
import type { Level } from '../../schema/catalog.ts';
import type { OutsideTasksId } from '../../schema/outside-tasks.ts';
import type { Revision } from '../../schema/spec.ts';
import type { LearnedLimits } from './profile.ts';

export type Status = 'pass' | 'fail' | 'warn' | 'info' | 'skip';

export interface CheckResult {
  id: string;
  title: string;
  section: string;
  /** The revision the check judged the target in (the run's; set by the runner). */
  revision?: Revision;
  requirements: string[];
  level: Level;
  status: Status;
  message: string;
  durationMs: number;
  transcript: TranscriptEntry[];
  /** The observed behaviour behind a fail/warn/skip, when it can be shared with other checks (root-cause groups). */
  cause?: string;
  /** Not exercised because of a behaviour that this other check judges. */
  judgedBy?: string;
  /** Set on the check during which the target stopped running (the target-health banner). */
  targetDown?: TargetDown;
  /** Deviations seen along the way from rules outside the Tasks page (schema/outside-tasks.ts): never this check's verdict. */
  outside?: OutsideFinding[];
  /** The receiver's first resource-limit refusal of the run, on the check that saw it (reported once). */
  limitObserved?: string;
  /** The live-task bounds learned from the target's refusals, on the first check to end after each was learned. */
  limitLearned?: LearnedLimits;
  /** Not exercised because time ran out (a request unanswered within its bound, the check's budget spent): never a verdict. */
  timedOut?: true;
}

export interface OutsideFinding {
  id: OutsideTasksId;
  message: string;
}

/** The target stopped running: a stdio process exited, an HTTP endpoint refused or reset, a client exited. */
export interface TargetDown {
  /** The check that was running when it was noticed. */
  check: string;
  reason: string;
  /** The last messages exchanged on the shared connection before (one line each). */
  lastMessages: string[];
  /** The tail of the target's stderr (stdio targets). */
  stderrTail: string;
  /** Only a connection of this check's own ended (a process of its own over stdio); the shared one still runs. */
  connectionOnly?: boolean;
  /** The last action of every check within `windowMs` before the target's last answer (one line each, with the check). */
  recentActions?: string[];
  windowMs?: number;
  /**
   * We disconnected from a stream (a waiting request's HTTP response) in that window: the evidence that the receiver
   * stopped serving after a requestor disconnected (transports.md: disconnecting is not cancelling). `check` did it.
   */
  afterDisconnect?: { check: string; at: string; msBeforeLastAnswer: number; what: string };
}
