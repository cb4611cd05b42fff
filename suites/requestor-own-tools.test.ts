// Clients call the tools they were written for: every scenario serves the client's own tool names with
// its own behaviour and taskSupport (listed with `client --tool`, served unlisted otherwise). The SDK's
// example task client (simpleTaskInteractiveClient: confirm_delete, write_haiku, always as tasks) is
// graded in the scenarios it can take part in: its real deviations reported, the rest passing.
import { describe, expect, it } from 'vitest';
import { runScenario } from './requestor/harness.ts';
import { commandLauncher, gradeClient } from './requestor/run.ts';
import { referenceClient, statusMap } from './requestor/test-helpers.ts';

const EXAMPLE = 'node_modules/@modelcontextprotocol/sdk/dist/esm/examples/client/simpleTaskInteractiveClient.js';
const example = commandLauncher({ command: `sh -c 'yes y | node ${EXAMPLE} --url "$0"'` });

describe.concurrent("the client's own tool names", () => {
  it('an unlisted tool is served as the scenario tool (its taskSupport), and the run notes it', { timeout: 60_000 }, async () => {
    const run = await runScenario(
      'poll-interval',
      {
        kind: 'function',
        label: 'one call',
        run: async (a) => {
          const { connectHttp } = await import('./wire/connect.ts');
          const p = await connectHttp({ url: a.serverArg });
          try {
            await p.initialize({});
            const r = await p.request('tools/call', { name: 'my_own_tool', arguments: {}, task: {} });
            return typeof r.result?.task?.taskId === 'string' ? 0 : 1;
          } finally {
            await p.close();
          }
        },
      },
      { timeoutMs: 20_000 },
    );
    expect(run.exit.code).toBe(0);
    expect(run.entries.some((e) => /tool "my_own_tool" \(not listed\) served as "slow_task" \(taskSupport required\)/.test(e.note ?? ''))).toBe(true);
  });

  it("--tool names are listed in every scenario with the scenario tool's taskSupport; the reference client still passes", { timeout: 120_000 }, async () => {
    const { runs, results } = await gradeClient(referenceClient(), {
      transport: 'http',
      scenarios: ['tool-negotiation', 'input-required'],
      concurrency: 2,
      clientTools: ['confirm_delete'],
    });
    for (const r of runs) {
      const listed = r.sessions.flatMap((s) => [...s.tools.values()]).find((t) => t.name === 'confirm_delete');
      expect(listed?.execution?.taskSupport, r.scenario.name).toBe(r.scenario.name === 'tool-negotiation' ? 'optional' : 'required');
    }
    for (const r of results) expect(['fail', 'warn'], `${r.id}: ${r.message}`).not.toContain(r.status);
  });

  it('the SDK example task client is graded, not skipped: its deviations, the rest passing', { timeout: 180_000 }, async () => {
    const { results, runs } = await gradeClient(example, {
      transport: 'http',
      scenarios: ['tool-negotiation', 'no-tasks-capability', 'poll-interval', 'input-required', 'failing-task'],
      concurrency: 3,
      clientTools: ['confirm_delete', 'write_haiku'],
    });
    expect(
      runs.every((r) => r.sessions.length > 0),
      runs.map((r) => `${r.scenario.name}: ${r.exit.code} ${r.exit.stderr.slice(-200)}`).join('\n'),
    ).toBe(true);
    const s = statusMap(results);
    // Its real deviations (the same as fixtures/sdk-client.ts's, docs/CLIENTS.md), and the tasks-capability ones.
    expect(s['requestor.tool-no-capability']).toBe('fail');
    expect(s['requestor.no-tasks-capability']).toBe('warn');
    expect(s['requestor.augment-only-declared']).toBe('warn');
    expect(s['requestor.input-response-related-task']).toBe('fail');
    // The SDK polls once right after the CreateTaskResult, before its pollInterval (as fixtures/sdk-client.ts does).
    expect(s['requestor.poll-interval'], results.find((r) => r.id === 'requestor.poll-interval')?.message).toBe('warn');
    expect(results.find((r) => r.id === 'requestor.poll-interval')?.message).toMatch(/too short \(ms\): \d+/);
    // Graded, and passing.
    for (const id of [
      'requestor.tool-required',
      'requestor.poll-until-terminal',
      'requestor.no-status-notification-reliance',
      'requestor.input-required-result',
      'requestor.no-related-task-in-task-requests',
    ]) {
      expect(s[id], `${id}: ${results.find((r) => r.id === id)?.message}`).toBe('pass');
    }
  });
});
