// Client grading end to end: the spec-exact reference client passes every scenario (HTTP and stdio),
// the SDK-based client matches its reviewed golden file, a hanging or missing client still yields a
// finished run, and the `client` command produces the usual reports and exit codes.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { Status } from './engine/check.ts';
import { requestorChecks } from './requestor/checks.ts';
import { junitSchemaErrors } from '../fixtures/junit/validate.ts';
import { parseClientArgs } from '../scripts/client.ts';
import { runScenario } from './requestor/harness.ts';
import { analyse } from './requestor/analysis.ts';
import { gradeCheck } from './requestor/engine.ts';
import { gradeClient } from './requestor/run.ts';
import { explain, referenceClient, sdkClient, statusMap } from './requestor/test-helpers.ts';

const run = promisify(execFile);

/** Every MUST/SHOULD check passes, MAY checks report. */
const allPass: Record<string, Status> = Object.fromEntries(requestorChecks.map((c) => [c.id, c.level === 'MAY' ? 'info' : 'pass']));

describe.concurrent('client grading', () => {
  it('the reference client passes every scenario over Streamable HTTP', async () => {
    const { results, runs } = await gradeClient(referenceClient(), { transport: 'http', scenarios: [], concurrency: 10 });
    expect(runs.every((r) => r.exit.code === 0)).toBe(true);
    expect(statusMap(results), explain(results, allPass)).toEqual(allPass);
    const poll = results.find((r) => r.id === 'requestor.poll-interval')!;
    // The client waits its pollInterval (1500 ms) before each poll: at least 1000 ms reported (an upper bound would be the machine's load).
    expect(poll.message).toMatch(/\[poll-interval\] intervals between tasks\/get \(ms\): \d{4,}/);
  });

  it('the reference client passes every scenario over stdio (the GET-stream scenario is HTTP only)', async () => {
    const { results, notRun } = await gradeClient(referenceClient(), { transport: 'stdio', scenarios: [], concurrency: 10 });
    expect(notRun).toEqual({ 'input-on-get-stream': 'scenario runs on http only (this run: stdio)' });
    const want = { ...allPass, 'requestor.input-on-any-stream': 'skip' as const };
    expect(statusMap(results), explain(results, want)).toEqual(want);
  });

  it('the SDK-based client matches its reviewed golden file (fixtures/golden/sdk-client.json)', async () => {
    const golden = JSON.parse(readFileSync('fixtures/golden/sdk-client.json', 'utf8')) as { checks: Record<string, { status: Status; message: string }> };
    const want = Object.fromEntries(Object.entries(golden.checks).map(([id, c]) => [id, c.status]));
    const { results } = await gradeClient(sdkClient, { transport: 'http', scenarios: [], concurrency: 10 });
    expect(statusMap(results), explain(results, want)).toEqual(want);
    expect(Object.keys(golden.checks).sort()).toEqual(requestorChecks.map((c) => c.id).sort());
  });

  it('the SDK-based client also runs over stdio', async () => {
    const { results, runs } = await gradeClient(sdkClient, { transport: 'stdio', scenarios: ['tool-negotiation', 'list-pages'], concurrency: 2 });
    expect(runs.map((r) => r.exit.code)).toEqual([0, 0]);
    expect(results.find((r) => r.id === 'requestor.tool-required')!.status).toBe('pass');
    expect(results.find((r) => r.id === 'requestor.cursor-opaque')!.status).toBe('pass');
  });

  it('a client that hangs is killed after the timeout and graded on what was seen', async () => {
    // It never sends a message: its start-up allowance (here as short as its bound) ends the run.
    const r = analyse(
      await runScenario(
        'tool-negotiation',
        { kind: 'command', command: `${process.execPath} -e "setInterval(() => {}, 1000)"` },
        { timeoutMs: 800, startupMs: 800 },
      ),
    );
    // The run ended because the harness killed the client at its bound (not by waiting it out: it never exits).
    expect(r.exit.timedOut).toBe(true);
    expect(r.exit.code).toBeNull();
    expect(['SIGTERM', 'SIGKILL']).toContain(r.exit.signal);
    const res = gradeCheck(
      requestorChecks.find((c) => c.id === 'requestor.tool-required')!,
      [r],
    );
    expect(res.status).toBe('skip');
    expect(res.message).toMatch(/did not exit within its start-up allowance, having sent nothing, and was killed/);
  });

  it('a client that cannot start: every check is skipped with the reason', async () => {
    const r = analyse(await runScenario('cancel', { kind: 'command', command: '/nonexistent/mcp-client' }, { timeoutMs: 2_000 }));
    expect(r.exit.startError).toBeTruthy();
    const res = gradeCheck(
      requestorChecks.find((c) => c.id === 'requestor.cancel-with-tasks-cancel')!,
      [r],
    );
    expect(res.status).toBe('skip');
    expect(res.message).toMatch(/could not be started/);
  });

  it('parses client options', () => {
    expect(() => parseClientArgs([])).toThrow(/--command/);
    expect(() => parseClientArgs(['--command', 'x', '--scenario', 'nope'])).toThrow(/unknown nope/);
    expect(() => parseClientArgs(['--command', 'x', '--transport', 'ws'])).toThrow(/http or stdio/);
    expect(() => parseClientArgs(['--command', 'x', '--transport', 'stdio', '--scenario', 'input-on-get-stream'])).toThrow(/no scenario to run/);
    const a = parseClientArgs(['--command', 'node c.js', '--scenario', 'cancel,list-pages', '--timeout', '5000']);
    expect(a.help === false && a.config).toEqual({
      command: 'node c.js',
      transport: 'http',
      scenarios: ['cancel', 'list-pages'],
      timeoutMs: 5000,
      concurrency: 3,
    });
    expect(parseClientArgs(['--serve', 'cancel', '--port', '0'])).toEqual({ serve: 'cancel', port: 0, revision: '2025-11-25' });
    expect(() => parseClientArgs(['--serve', 'nope'])).toThrow(/unknown scenario/);
    const r = parseClientArgs(['--command', 'x', '--scenario', 'task-receiver']);
    expect(r.help === false && r.config.scenarios).toEqual(['task-receiver']);
  });

  it('parses --revision: 2026-07-28 has its own scenarios and check ids, no --tool, no auto', () => {
    expect(() => parseClientArgs(['--command', 'x', '--revision', 'auto'])).toThrow(/not probed/);
    expect(() => parseClientArgs(['--command', 'x', '--revision', '2026-07-28', '--scenario', 'list-pages'])).toThrow(/unknown list-pages/);
    expect(() => parseClientArgs(['--command', 'x', '--revision', '2026-07-28', '--tool', 't'])).toThrow(/--tool is for revision 2025-11-25/);
    const a = parseClientArgs(['--command', 'x', '--revision', '2026-07-28', '--scenario', 'input,cancel']);
    expect(a.help === false && [a.revision, a.config.scenarios]).toEqual(['2026-07-28', ['input', 'cancel']]);
    expect(parseClientArgs(['--serve', 'input-eventual', '--revision', '2026-07-28'])).toEqual({ serve: 'input-eventual', port: 0, revision: '2026-07-28' });
    expect(parseClientArgs(['--list-scenarios', '--revision', '2026-07-28'])).toEqual({ listScenarios: true, revision: '2026-07-28' });
  });

  // Two rounds of CLI runs (each a tsx start-up plus a scenario bounded at 20 s): the default 60 s is below
  // those bounds on a loaded machine; the hang guard sits above them, as the other end-to-end CLI tests' do.
  it('the client command: console report, JSON, JUnit, baseline and exit codes', { timeout: 180_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-client-cli-'));
    const json = join(dir, 'r.json');
    const junit = join(dir, 'r.xml');
    const client = `${process.execPath} --import tsx mocks/client/reference-client.ts`;
    const base = [process.execPath, '--import', 'tsx', 'scripts/cli.ts', 'client', '--command', client, '--scenario', 'cancel'];
    const ok = await run(base[0]!, [...base.slice(1), '--json', json, '--junit', junit, '--no-color']);
    expect(ok.stdout).toMatch(/PASS  requestor\.cancel-with-tasks-cancel/);
    const report = JSON.parse(readFileSync(json, 'utf8'));
    expect(report.target).toBe(`client: ${client} (http)`);
    expect(report.checks.find((c: any) => c.id === 'requestor.cancel-with-tasks-cancel').status).toBe('pass');
    expect(readFileSync(junit, 'utf8')).toMatch(
      /<testcase name="requestor\.cancel-with-tasks-cancel \[MUST: cancellation-use-tasks-cancel\]" classname="Requestor: Cancellation"/,
    );
    // A faulty client fails (exit 1) unless the baseline expects it.
    const baseline = join(dir, 'baseline.yaml');
    writeFileSync(baseline, '- requestor.cancel-with-tasks-cancel\n');
    const env = { ...process.env, CLIENT_FAULT: 'cancel-notification' };
    const [faulty, expected, missing] = await Promise.allSettled([
      run(base[0]!, [...base.slice(1), '--no-color', '--markdown', join(dir, 'faulty.md'), '--junit', join(dir, 'faulty.xml')], { env }),
      run(base[0]!, [...base.slice(1), '--no-color', '--baseline', baseline], { env }),
      run(process.execPath, ['--import', 'tsx', 'scripts/cli.ts', 'client', '--command', '/nonexistent/client']),
    ]);
    expect(faulty).toMatchObject({ status: 'rejected', reason: { code: 1 } });
    expect(expected.status === 'fulfilled' && expected.value.stdout).toMatch(/FAIL\* requestor\.cancel-with-tasks-cancel/);
    expect(missing).toMatchObject({ status: 'rejected', reason: { code: 2 } });
    // The Markdown and JUnit reports of the faulty client: the failure, its requirement text, the exchange.
    const md = readFileSync(join(dir, 'faulty.md'), 'utf8');
    expect(md).toContain('### ❌ `requestor.cancel-with-tasks-cancel` (Requestor: Cancellation)');
    expect(md).toContain('the `tasks/cancel` request MUST be used instead of the `notifications/cancelled` notification');
    expect(md).toMatch(/participant T as client under test[\s\S]*T-\)S: notifications\/cancelled requestId 3/);
    expect(await junitSchemaErrors(readFileSync(join(dir, 'faulty.xml'), 'utf8'))).toEqual([]);
  });
});
