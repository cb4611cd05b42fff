// The client half of the no-false-verdict matrix: the reference client runs every scenario with each of its
// latitudes (mocks/client/latitudes.ts: freedoms the spec leaves a requestor or a client receiving tasks),
// alone and all compatible ones together (clientLatitudeCells), and every requestor and receiving check must
// stay silent: zero fail, zero warn. Each latitude is also seen to act (it changes what it names, and the
// checks it concerns are exercised, not skipped), so that silence is not an empty run.
import { describe, expect, it } from 'vitest';
import { CLIENT_LATITUDES, clientLatitudeCells, type ClientLatitudeName } from '../mocks/client/latitudes.ts';
import { POLL_INTERVAL_SCENARIO_MS } from '../mocks/receiver/scenarios.ts';
import type { CheckResult } from './engine/check.ts';
import type { Analysis } from './requestor/analysis.ts';
import { requestorCheck } from './requestor/checks.ts';
import { gradeCheck } from './requestor/engine.ts';
import { analyse } from './requestor/analysis.ts';
import { runScenario } from './requestor/harness.ts';
import { gradeClient } from './requestor/run.ts';
import { referenceClient } from './requestor/test-helpers.ts';

const loud = (rs: readonly CheckResult[]) => rs.filter((r) => r.status === 'fail' || r.status === 'warn').map((r) => `${r.id}: ${r.status} — ${r.message}`);
const result = (rs: readonly CheckResult[], id: string) => rs.find((r) => r.id === id)!;
const scenarioRun = (runs: readonly Analysis[], name: string) => runs.find((r) => r.scenario.name === name)!;
const tasksOf = (r: Analysis) => r.sessions.flatMap((s) => [...s.tasks.values()]);

/** What each latitude visibly does in a run, and that the checks it concerns judged it (pass/info, not skip). */
const acts: Record<ClientLatitudeName, (results: readonly CheckResult[], runs: readonly Analysis[]) => void> = {
  'no-get-stream': (results, runs) => {
    expect(runs.every((r) => r.sessions.every((s) => !s.openedGetStream))).toBe(true);
    // RULINGS.md#get-stream-optional: not exercised, never warned; the input itself still arrives (on the result stream) and is answered.
    expect(result(results, 'requestor.input-on-any-stream').message).toMatch(/opened no standalone GET SSE stream/);
    expect(result(results, 'requestor.input-response-related-task').status).toBe('pass');
  },
  'poll-on-events': (results) => {
    const r = result(results, 'requestor.poll-interval');
    expect(r.status).toBe('pass');
    expect(r.message).toMatch(/\d+ tasks\/get sent upon an event of the task \(not polls\)/);
  },
  'no-tasks-capability': (results, runs) => {
    expect(runs.every((r) => r.sessions.every((s) => s.clientCapabilities?.tasks === undefined))).toBe(true);
    // The probe sends it both types with `task` (caps-declare, support-undeclared-process-normally): processed normally.
    const r = result(results, 'receiving.undeclared-processed-normally');
    expect(r.status, r.message).toBe('pass');
    expect(r.message).toMatch(/2 request\(s\) of undeclared types processed normally/);
  },
  latency: (results) => {
    for (const id of ['requestor.poll-interval', 'requestor.poll-until-terminal', 'requestor.no-status-notification-reliance', 'receiving.begins-working'])
      expect(result(results, id).status, `${id}: ${result(results, id).message}`).toBe('pass');
  },
  'slow-polling': (results, runs) => {
    // From the CreateTaskResult (its pollInterval is the longer POLL_INTERVAL_CREATED_MS) to the first tasks/get, then between them.
    const gaps = tasksOf(scenarioRun(runs, 'poll-interval')).flatMap((t) =>
      t.gets.map((g, i) => g.sentMs - (i === 0 ? (t.created.answeredMs ?? t.created.sentMs) : t.gets[i - 1]!.sentMs)),
    );
    expect(gaps.length).toBeGreaterThan(0);
    expect(Math.min(...gaps)).toBeGreaterThan(1.5 * POLL_INTERVAL_SCENARIO_MS);
    expect(result(results, 'requestor.poll-interval').status).toBe('pass');
  },
  'wait-on-result': (results, runs) => {
    const t = tasksOf(scenarioRun(runs, 'tool-negotiation'))[0]!;
    expect(t.results[0]?.sentMs).toBeLessThan(t.gets[0]?.sentMs ?? Infinity);
    expect(result(results, 'requestor.poll-until-terminal').message).toMatch(/waited on tasks\/result while working/);
    expect(result(results, 'requestor.no-status-notification-reliance').status).toBe('pass');
  },
  'no-ttl': (results) => expect(result(results, 'requestor.task-ttl').message).toMatch(/no task\.ttl on/),
  'plain-optional': (results) => expect(result(results, 'requestor.tool-optional').message).toMatch(/"optional_task" as a normal request/),
  'skip-result': (results, runs) => {
    expect(tasksOf(scenarioRun(runs, 'failing-task')).every((t) => t.results.length === 0)).toBe(true);
    expect(result(results, 'requestor.no-status-notification-reliance').status).toBe('pass');
  },
  'instant-completion': (results) => {
    // RULINGS.md#new-task-working: a request that completes at once may show "completed" in its CreateTaskResult (noted).
    const r = result(results, 'receiving.begins-working');
    expect(r.status, r.message).toBe('pass');
    expect(r.message).toMatch(/"completed" \(role completes\)/);
  },
};

describe('the client latitudes are named freedoms', () => {
  it('each cites what allows it and is observed acting; every cell holds latitudes of the registry', () => {
    expect(CLIENT_LATITUDES.filter((l) => !/^RULINGS\.md#[a-z0-9-]+$|^[a-z0-9-]+$/.test(l.allows)).map((l) => l.name)).toEqual([]);
    expect(Object.keys(acts).sort()).toEqual(CLIENT_LATITUDES.map((l) => l.name).sort());
  });
});

// Cells run concurrently (vitest's maxConcurrency), four scenarios at a time each: a bounded load on a shared machine.
describe.concurrent('no false verdict: the reference client under each latitude', () => {
  for (const cell of clientLatitudeCells()) {
    it(`${cell.label} (${cell.transport})`, { timeout: 180_000 }, async () => {
      const { results, runs } = await gradeClient(referenceClient([], cell.latitudes), { transport: cell.transport, scenarios: [], concurrency: 4 });
      expect(runs.every((r) => r.sessions.length > 0)).toBe(true);
      expect(loud(results)).toEqual([]);
      if (cell.latitudes.length === 1 && cell.transport === 'http') acts[cell.latitudes[0] as ClientLatitudeName](results, runs);
    });
  }
});

describe.concurrent('time is never a verdict (RULINGS.md#response-time)', () => {
  it('a client killed at its bound while still polling is not exercised (timed out), never a MUST failure', { timeout: 60_000 }, async () => {
    // A real run of the poll-interval scenario (a 4 s task polled every 1.5 s), cut where a kill at the bound
    // would cut it: right after the client's first tasks/get, while it still polls (event-based, not a race with the clock).
    const full = await runScenario('poll-interval', referenceClient(), { timeoutMs: 30_000 });
    const firstGet = full.entries.find((e) => e.dir === 'in' && (e.message as { method?: string } | undefined)?.method === 'tasks/get');
    expect(firstGet, 'the client polled').toBeDefined();
    const cut = analyse({
      ...full,
      entries: full.entries.filter((e) => e.ms <= firstGet!.ms + 100),
      exit: { ...full.exit, code: null, signal: 'SIGTERM', timedOut: true },
    });
    for (const id of ['requestor.no-status-notification-reliance', 'requestor.poll-until-terminal']) {
      const r = gradeCheck(requestorCheck(id), [cut]);
      expect(r.status, r.message).toBe('skip');
      expect(r.timedOut, r.message).toBe(true);
      expect(r.message).toMatch(/\(timed out\).*still following task/);
    }
  });

  it(
    'a client that stops polling and waits to be killed (for a notification that never comes) still fails notify-no-reliance',
    { timeout: 60_000 },
    async () => {
      const waits = {
        kind: 'function' as const,
        label: 'a client waiting for notifications/tasks/status',
        async run(a: { serverArg: string; signal: AbortSignal }) {
          const { connectHttp } = await import('./wire/connect.ts');
          const p = await connectHttp({ url: a.serverArg });
          await p.initialize({});
          await p.request('tools/call', { name: 'slow_task', arguments: {}, task: {} });
          await new Promise((r) => a.signal.addEventListener('abort', r, { once: true }));
          await p.close();
          return 0;
        },
      };
      // Killed well after the window polling takes (2 x 1.5 s + 1 s) past the CreateTaskResult, even on a busy machine.
      const run = analyse(await runScenario('poll-interval', waits, { timeoutMs: 15_000 }));
      expect(run.exit.timedOut).toBe(true);
      const r = gradeCheck(requestorCheck('requestor.no-status-notification-reliance'), [run]);
      expect(r.status, r.message).toBe('fail');
      expect(r.cause).toMatch(/stopped following a task/);
    },
  );
});
