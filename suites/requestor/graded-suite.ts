// What the vitest entries of `client` (client.suite.ts here and in suites/2026-07-28/requestor/) share: the
// scenarios run once against the client (beforeAll), then one test per check and section, grading the
// recorded transcripts; a check's result rides on the test (task.meta.check), a fail throws, a skip skips.
import { beforeAll, describe, test } from 'vitest';
import type { CheckResult } from '../engine/check.ts';
import { runNote, type GradedRun } from './engine.ts';

declare module '@vitest/runner' {
  interface TaskMeta {
    check?: CheckResult;
  }
}

/** A test's part of a check result: meta.check, a fail throws, a skip skips. */
export function reportCheck(task: { meta: { check?: CheckResult } }, skip: (note?: string) => void, result: CheckResult): void {
  task.meta.check = result;
  if (result.status === 'fail') throw new Error(`[${result.requirements.join(', ')}] ${result.message}`);
  if (result.status === 'skip') skip(result.message);
}

export interface GradedSuite<R extends GradedRun, C extends { id: string; section: string }> {
  /** Runs every selected scenario against the client. */
  run: (log: (line: string) => void) => Promise<{ runs: R[]; notRun: Record<string, string> }>;
  /** The client reached the reference peer in this scenario (else, in none of them, the run is an error). */
  reached: (run: R) => boolean;
  /** The error when it reached it in none: "the client never … in any scenario". */
  never: string;
  /** Why the runs show the client does not speak the revision graded (then one error, as for `never`), or undefined. */
  unspoken?: (runs: R[]) => string | undefined;
  checks: readonly C[];
  grade: (check: C, runs: R[], notRun: Record<string, string>) => CheckResult;
  log: (line: string) => void;
}

/** The scenarios once (beforeAll), then a describe per section and a test per check. */
export function gradedSuite<R extends GradedRun, C extends { id: string; section: string }>(s: GradedSuite<R, C>): void {
  let runs: R[] = [];
  let notRun: Record<string, string> = {};
  let failure: unknown;
  let failureReported = false;
  let failureCause = s.never;
  beforeAll(async () => {
    try {
      ({ runs, notRun } = await s.run(s.log));
      for (const r of runs) {
        const n = runNote(r);
        if (n) s.log(`scenario ${r.scenario.name}: ${n}`);
      }
      // A client that never reached the reference peer in any scenario is an error of the run, not a list of skips.
      // One reason said once for the scenarios that share it (a client that dies at start dies alike in all).
      if (runs.length && !runs.some(s.reached)) {
        const byNote = new Map<string, string[]>();
        for (const r of runs) {
          const n = runNote(r) ?? `exited ${r.exit.code}`;
          byNote.set(n, [...(byNote.get(n) ?? []), r.scenario.name]);
        }
        failure = new Error(`${s.never} in any scenario (${[...byNote].map(([n, names]) => `${names.join(', ')}: ${n}`).join('; ')})`);
        failureCause = s.never;
      } else {
        const unspoken = s.unspoken?.(runs);
        if (unspoken) failure = new Error((failureCause = unspoken));
      }
    } catch (e) {
      failure = e;
    }
  });
  for (const section of [...new Set(s.checks.map((c) => c.section))]) {
    describe(section, () => {
      for (const check of s.checks.filter((c) => c.section === section)) {
        test(check.id, async ({ task, skip }) => {
          if (failure) {
            const why = `could not grade the client: ${failure instanceof Error ? failure.message : String(failure)}`;
            // One error for the run (on its first check); the other checks are not exercised, with that one root cause.
            if (!failureReported) {
              failureReported = true;
              throw new Error(why);
            }
            const r = s.grade(check, [], Object.fromEntries(runs.map((x) => [x.scenario.name, failureCause])));
            return reportCheck(task, skip, { ...r, status: 'skip', message: `not exercised: ${failureCause}`, cause: failureCause });
          }
          reportCheck(task, skip, s.grade(check, runs, notRun));
        });
      }
    });
  }
}
