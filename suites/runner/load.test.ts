// Time is never a verdict (RULINGS.md#response-time): the suite against the reference peers with a
// latency latitude (every message leaves 150 ms late) and the CPU busy (a bounded busy-loop worker
// thread for the whole run) gives the same verdicts as a quiet run. The bounds grow with the round trip
// the pre-flight measures (engine/check.ts scaledBound), and whatever still runs out of time is not
// exercised (timed out), never failed.
//
// CI cost: the receiver part runs the sections whose checks wait on the target's timing (blocking and
// waiting tasks/result, prompt creation, cancelling running tasks, lifecycle paths of slow tasks), not the
// whole suite: the others send one request and read one answer, where latency only adds to the
// duration. The client part runs the scenarios whose checks judge timing (polling, cancellation, input).
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { receiverChecks2025 } from '../index.ts';
import { selected } from '../engine/select.ts';
import type { CheckResult, Status } from '../engine/check.ts';
import { runChecks } from './session.ts';
import { loadProfile } from './target.ts';
import { gradeClient } from '../requestor/run.ts';
import { referenceClient } from '../requestor/test-helpers.ts';
import { openTargetSession } from '../revisions.ts';

const profile = loadProfile('fixtures/reference.profile.json');
const SECTIONS = ['Creating Tasks', 'Result Retrieval', 'Task Cancellation', 'Task Status Lifecycle'];
const CLIENT_SCENARIOS = ['poll-interval', 'input-required', 'result-error', 'cancel', 'failing-task'];
/** The busy loop ends by itself after this long, whatever happens to the test. */
const BUSY_LIMIT_MS = 150_000;

/** A worker thread spinning on the CPU until stopped (or BUSY_LIMIT_MS): a busy machine. */
function busyCpu(): { stop(): Promise<void> } {
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const w = new Worker(
    `const { workerData } = require('node:worker_threads');
     const end = Date.now() + workerData.limit;
     let x = 0;
     while (Atomics.load(workerData.flag, 0) === 0 && Date.now() < end) for (let i = 0; i < 1e5; i++) x += Math.sqrt(i);`,
    { eval: true, workerData: { flag, limit: BUSY_LIMIT_MS } },
  );
  const exited = new Promise<void>((r) => w.once('exit', () => r()));
  return {
    async stop() {
      Atomics.store(flag, 0, 1);
      await exited;
    },
  };
}

async function receiverRun(args: string[]): Promise<{ results: CheckResult[]; roundTripMs: number }> {
  const checks = receiverChecks2025.filter((c) => selected(c, SECTIONS));
  const session = await openTargetSession({ target: { kind: 'reference', args }, profile });
  try {
    return { results: await runChecks(checks, session, 8), roundTripMs: session.info.latency?.roundTripMs ?? 0 };
  } finally {
    await session.close();
  }
}

const statuses = (rs: readonly CheckResult[]): Record<string, Status> => Object.fromEntries(rs.map((r) => [r.id, r.status]));
const loud = (rs: readonly CheckResult[]) => rs.filter((r) => r.status === 'fail' || r.status === 'warn').map((r) => `${r.id}: ${r.message}`);
const differences = (a: readonly CheckResult[], b: readonly CheckResult[]) =>
  b.filter((r) => statuses(a)[r.id] !== r.status).map((r) => `${r.id}: quiet ${statuses(a)[r.id]}, loaded ${r.status} — ${r.message}`);

describe('time is never a verdict: latency and a busy CPU change no verdict', () => {
  it('the receiver checks that wait on timing, against the reference receiver with the latency latitude and the CPU busy', { timeout: 300_000 }, async () => {
    const quiet = await receiverRun([]);
    const busy = busyCpu();
    let loaded: Awaited<ReturnType<typeof receiverRun>>;
    try {
      loaded = await receiverRun(['--latitude', 'latency']);
    } finally {
      await busy.stop();
    }
    // The pre-flight saw the slow target (every answer 150 ms late), so the run's bounds grew by it.
    expect(loaded.roundTripMs).toBeGreaterThanOrEqual(150);
    expect(loud(quiet.results)).toEqual([]);
    expect(loud(loaded.results)).toEqual([]);
    expect(differences(quiet.results, loaded.results)).toEqual([]);
  });

  it("the client scenarios that judge timing, with the reference client's latency latitude and the CPU busy", { timeout: 300_000 }, async () => {
    const config = { transport: 'http' as const, scenarios: CLIENT_SCENARIOS, concurrency: 5 };
    const quiet = await gradeClient(referenceClient(), config);
    const busy = busyCpu();
    let loaded: Awaited<ReturnType<typeof gradeClient>>;
    try {
      loaded = await gradeClient(referenceClient([], ['latency']), config);
    } finally {
      await busy.stop();
    }
    expect(loud(quiet.results)).toEqual([]);
    expect(loud(loaded.results)).toEqual([]);
    expect(differences(quiet.results, loaded.results)).toEqual([]);
  });
});
