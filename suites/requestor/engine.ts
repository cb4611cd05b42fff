// Requestor checks: the same result shape, statuses and level mapping as the receiver checks
// (suites/engine/check.ts), but a check judges recorded scenario transcripts instead of driving a target.
// A check is judged once per scenario it applies to; the verdicts merge into one CheckResult:
// any violation → fail (MUST) / warn (SHOULD) / info (MAY); else any judged scenario → pass (MAY: info);
// else skip, with each scenario's reason.
import { NotExercised, Violation, severity, verdicts, type CheckMetadata, type CheckResult, type Status, type Verdicts } from '../engine/check.ts';
import type { ClientFaultName } from '../../mocks/client/faults.ts';
import type { Analysis } from './analysis.ts';
import type { ClientExit } from './harness.ts';
import { stderrExcerpt, type TranscriptEntry } from '../wire/peer.ts';

export type JudgeContext = Verdicts;

export interface RequestorCheckDef extends CheckMetadata {
  /** Faults of the reference client that make this check fail (MUST) or warn (SHOULD): exactly these (suites/requestor-faults.test.ts). */
  killedBy: readonly ClientFaultName[];
  /** Scenarios whose transcripts this check judges. */
  scenarios: readonly string[];
  /** Judges one scenario. Return → fine (an observation); ctx.violation → fail/warn by level; ctx.skip → not exercised there. */
  judge(run: Analysis, ctx: JudgeContext): string | void;
}

export function defineRequestorCheck(def: RequestorCheckDef): RequestorCheckDef {
  return def;
}

/** What grading needs of a scenario run, of either revision (Analysis here, suites/2026-07-28/requestor/analysis.ts there). */
export interface GradedRun {
  scenario: { name: string };
  transport: string;
  timeoutMs: number;
  exit: ClientExit;
  problem?: string;
  entries: readonly TranscriptEntry[];
}

/** The part of a requestor check that grading reads, over runs of type R. */
export type GradedCheck<R> = Pick<RequestorCheckDef, 'id' | 'title' | 'section' | 'requirements' | 'level' | 'scenarios'> & {
  judge(run: R, ctx: JudgeContext): string | void;
};

const TRANSCRIPT_LIMIT = 400;

/** Why a scenario's evidence may be incomplete (the client crashed, hung or never started). */
export function runNote(run: GradedRun): string | undefined {
  const x = run.exit;
  if (run.problem) return run.problem;
  if (x.startError) return `client could not be started: ${x.startError}`;
  if (x.timedOut)
    return run.entries.some((e) => e.dir === 'in')
      ? `client did not exit within its bound (${run.timeoutMs} ms from its first message, stretched while it was active) and was killed (graded on what was seen)`
      : `client did not exit within its start-up allowance, having sent nothing, and was killed (graded on what was seen)`;
  if (x.code !== 0) return `client exited with ${x.code ?? x.signal}${x.stderr.trim() ? ` (stderr: ${stderrExcerpt(x.stderr)})` : ''}`;
  return undefined;
}

/** "the client exits at start (…)" when the client ended before it sent a message (could not start, or exited non-zero), else undefined. */
export function diedAtStart(run: GradedRun): string | undefined {
  const x = run.exit;
  if (run.entries.some((e) => e.dir === 'in')) return undefined;
  if (x.startError) return `the client could not be started: ${x.startError}`;
  if (x.code !== 0 && !x.timedOut) return `the client exits at start (exit ${x.code ?? x.signal})`;
  return undefined;
}

/** Judges a check over the scenario runs it applies to. Never throws. `notRun`: scenario → why it was not run. */
export function gradeCheck<R extends GradedRun = Analysis>(
  def: GradedCheck<R>,
  runs: readonly R[],
  notRun: Readonly<Record<string, string>> = {},
): CheckResult {
  const started = Date.now();
  const mine = runs.filter((r) => def.scenarios.includes(r.scenario.name));
  const violations: string[] = [];
  const passes: string[] = [];
  const skips: string[] = [];
  // The observed behaviours behind the verdicts (root-cause groups): a check's result carries one when its verdicts name one.
  const violationCauses: (string | undefined)[] = [];
  const skipCauses: (string | undefined)[] = [];
  let timedOut = false;
  const transcript: TranscriptEntry[] = [];
  const tag = (r: R) => (runs.some((o) => o !== r && o.scenario.name === r.scenario.name) ? `${r.scenario.name}/${r.transport}` : r.scenario.name);
  for (const run of mine) {
    const notes: string[] = [];
    const ctx: JudgeContext = verdicts(notes);
    const extra = runNote(run);
    const withNotes = (m: string) => [m, ...notes, ...(extra ? [extra] : [])].filter(Boolean).join('; ');
    try {
      if (run.exit.startError) throw new NotExercised(`client could not be started: ${run.exit.startError}`);
      const observed = def.judge(run, ctx);
      passes.push(`[${tag(run)}] ${withNotes(observed ?? 'ok')}`);
    } catch (e) {
      if (e instanceof Violation) {
        violations.push(`[${tag(run)}] ${withNotes(e.message)}`);
        violationCauses.push(e.cause);
      } else if (e instanceof NotExercised) {
        skips.push(`[${tag(run)}] ${withNotes(e.timedOut ? `(timed out) ${e.message}` : e.message)}`);
        // A client that died before it sent anything is one root cause, whatever each check missed.
        skipCauses.push(diedAtStart(run) ?? e.cause);
        timedOut ||= e.timedOut;
      } else {
        violations.push(`[${tag(run)}] check could not judge the transcript: ${e instanceof Error ? e.message : String(e)}`);
        violationCauses.push(undefined);
      }
    }
    transcript.push(...run.entries.slice(0, TRANSCRIPT_LIMIT));
  }
  let status: Status;
  let message: string;
  let cause: string | undefined;
  const one = (cs: (string | undefined)[]) => cs.find((c) => c !== undefined);
  if (violations.length) {
    cause = one(violationCauses);
    status = severity(def.level);
    message = violations.join(' | ');
  } else if (passes.length) {
    status = def.level === 'MAY' ? 'info' : 'pass';
    message = passes.join(' | ');
  } else {
    status = 'skip';
    cause = one(skipCauses);
    const why = def.scenarios.filter((n) => notRun[n]).map((n) => `[${n}] ${notRun[n]}`);
    message = `not exercised: ${skips.length || why.length ? [...skips, ...why].join(' | ') : `none of its scenarios was run (${def.scenarios.join(', ')})`}`;
  }
  return {
    id: def.id,
    title: def.title,
    section: def.section,
    requirements: def.requirements,
    level: def.level,
    status,
    message,
    durationMs: Date.now() - started,
    transcript,
    ...(cause ? { cause } : {}),
    ...(status === 'skip' && timedOut && passes.length === 0 ? { timedOut: true as const } : {}),
  };
}
