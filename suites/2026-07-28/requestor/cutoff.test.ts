// Time is never a verdict (RULINGS.md#response-time) in the 2026-07-28 requestor checks that judge "the client did
// not follow the task to its end": a run killed at the scenario's bound while the client still polls is not
// exercised (timed out); a client that stopped on its own and then waited to be killed keeps its verdict.
// Real runs of the reference extension client, cut where a kill at the bound would cut them (event-based: at a
// recorded message, not a race with the clock), and real runs of every scenario under a short bound.
import { describe, expect, it } from 'vitest';
import { runExtensionClient } from '../../../mocks/2026-07-28/client/reference-client.ts';
import { CLIENT_SCENARIO_NAMES } from '../../../mocks/2026-07-28/scenarios.ts';
import { gradeCheck } from '../../requestor/engine.ts';
import type { ClientLauncher } from '../../requestor/harness.ts';
import { analyse, type Analysis } from './analysis.ts';
import { extensionRequestorChecks } from './checks.ts';
import { runScenario, type ScenarioRun } from './harness.ts';
import { gradeExtensionClient, runExtensionClientScenarios } from './run.ts';

function reference(latitudes: string[] = []): ClientLauncher {
  return {
    kind: 'function',
    label: `reference extension client ${latitudes.join(',')}`,
    run: (a) => runExtensionClient({ scenario: a.scenario, serverArg: a.serverArg, faults: [], latitudes, signal: a.signal }),
  };
}

const check = (id: string) => extensionRequestorChecks.find((c) => c.id === id)!;
const method = (e: ScenarioRun['entries'][number]) => (e.message as { method?: string } | undefined)?.method;

/** The run as if it had been killed at its bound `endAfterMs` after the entry `at` (the entries after `at` dropped). */
function cutAt(full: ScenarioRun, atSeq: number, endAfterMs: number): Analysis {
  const entries = full.entries.filter((e) => e.seq <= atSeq);
  const end = entries.at(-1)!.ms + endAfterMs;
  return analyse({ ...full, entries, exit: { ...full.exit, code: null, signal: 'SIGTERM', timedOut: true, durationMs: end } });
}

const FOLLOWING = ['2026-requestor.poll-until-terminal', '2026-requestor.observe-after-update'];

describe.concurrent('2026-07-28 requestor checks: time is never a verdict', () => {
  it(
    'killed right after its tasks/update was answered (still polling): not exercised (timed out); stopped on its own: warns',
    { timeout: 60_000 },
    async () => {
      const full = await runScenario('input', reference());
      const updates = full.entries.filter((e) => e.dir === 'in' && method(e) === 'tasks/update');
      expect(updates.length, 'the client sent tasks/update').toBeGreaterThan(0);
      const id = (updates[0]!.message as { id: unknown }).id;
      const answer = full.entries.find((e) => e.dir === 'out' && e.seq > updates[0]!.seq && (e.message as { id?: unknown }).id === id && !method(e));
      expect(answer, 'the tasks/update was answered').toBeDefined();

      // Killed within a poll of its last message: only time stopped it.
      const cut = cutAt(full, answer!.seq, 20);
      for (const id of FOLLOWING) {
        const r = gradeCheck(check(id), [cut]);
        expect(r.status, `${id}: ${r.message}`).toBe('skip');
        expect(r.timedOut, r.message).toBe(true);
        expect(r.message).toMatch(/\(timed out\).*cut at the scenario's bound while still polling/);
      }
      // The same transcript, but the client sat silent for 30 s before the kill: it stopped following on its own.
      const stopped = cutAt(full, answer!.seq, 30_000);
      for (const id of FOLLOWING) {
        const r = gradeCheck(check(id), [stopped]);
        expect(r.status, `${id}: ${r.message}`).toBe('warn');
      }
    },
  );

  it('killed right after a tasks/get showed a running task: poll-until-terminal not exercised (timed out)', { timeout: 60_000 }, async () => {
    const full = await runScenario('tasks', reference());
    const get = full.entries.find((e) => e.dir === 'in' && method(e) === 'tasks/get');
    expect(get, 'the client polled').toBeDefined();
    const id = (get!.message as { id: unknown }).id;
    const answer = full.entries.find((e) => e.dir === 'out' && e.seq > get!.seq && (e.message as { id?: unknown }).id === id && !method(e));
    expect((answer?.message as any)?.result?.status, 'the first tasks/get shows the task running').toBe('working');
    const r = gradeCheck(check('2026-requestor.poll-until-terminal'), [cutAt(full, answer!.seq, 20)]);
    expect(r.status, r.message).toBe('skip');
    expect(r.timedOut, r.message).toBe(true);
    const kept = gradeCheck(check('2026-requestor.poll-until-terminal'), [cutAt(full, answer!.seq, 30_000)]);
    expect(kept.status, kept.message).toBe('warn');
  });

  it(
    'the "did not do it next" checks: killed within a poll of the answer, not exercised (timed out); silent for 30 s, judged',
    { timeout: 60_000 },
    async () => {
      const [input, retry, mixed] = await Promise.all(['input', 'version-retry', 'mixed-results'].map((n) => runScenario(n, reference())));
      const answerTo = (full: ScenarioRun, want: (e: ScenarioRun['entries'][number]) => boolean) => {
        const a = full.entries.find((e) => e.dir === 'out' && !method(e) && want(e));
        expect(a, `${full.scenario.name}: the answer to cut at`).toBeDefined();
        return a!.seq;
      };
      const cases: [string, ScenarioRun, number, string][] = [
        // The first answer showing inputRequests: the client had no time to send its tasks/update.
        ['2026-requestor.input-fulfil', input, answerTo(input, (e) => (e.message as any)?.result?.inputRequests !== undefined), 'warn'],
        // The -32022 answer: no time to retry.
        ['2026-requestor.version-retry', retry, answerTo(retry, (e) => (e.message as any)?.error?.code === -32022), 'warn'],
      ];
      // The first plain CallToolResult after a CreateTaskResult: no time to call the next tool.
      const firstTask = answerTo(mixed, (e) => (e.message as any)?.result?.resultType === 'task');
      const plain = answerTo(mixed, (e) => e.seq > firstTask && Array.isArray((e.message as any)?.result?.content));
      cases.push(['2026-requestor.handles-plain-and-task', mixed, plain, 'fail']);
      for (const [id, full, seq, verdict] of cases) {
        const r = gradeCheck(check(id), [cutAt(full, seq, 20)]);
        expect(r.status, `${id}: ${r.message}`).toBe('skip');
        expect(r.timedOut, r.message).toBe(true);
        expect(r.message).toMatch(/\(timed out\).*cut at the scenario's bound before it could/);
        const kept = gradeCheck(check(id), [cutAt(full, seq, 30_000)]);
        expect(kept.status, `${id}: ${kept.message}`).toBe(verdict);
      }
    },
  );

  for (const bound of [150, 300]) {
    it(`real runs of every scenario under a ${bound} ms bound (latitude poll-slower): no check fails or warns`, { timeout: 60_000 }, async () => {
      // Short enough that the client is killed (after the stretch an active client gets) in the middle of its work.
      const { runs, notRun } = await runExtensionClientScenarios(reference(['poll-slower']), {
        transport: 'http',
        scenarios: [],
        concurrency: CLIENT_SCENARIO_NAMES.length,
        timeoutMs: bound,
      });
      expect(runs.filter((r) => r.exit.timedOut).length, 'some runs were cut at their bound').toBeGreaterThan(0);
      const loud = gradeExtensionClient(runs, notRun).filter((r) => r.status === 'fail' || r.status === 'warn');
      expect(loud.map((r) => `${r.id} ${r.status}: ${r.message.slice(0, 400)}`).join('\n')).toBe('');
    });
  }
});
