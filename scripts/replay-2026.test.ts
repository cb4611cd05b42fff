// "Reproduce with" in revision 2026-07-28, end to end: a run against the reference extension server with a
// fault (over stdio and Streamable HTTP) flags the check the fault breaks, writes its replay (--replay-dir, and
// in the JSON report), and the replay command sends it again: the faulty server shows the same deviation, the
// correct one does not. The judged answer: tasks/get of a completed task (2026-get-completed-result).
import { afterAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createExtensionServer } from '../mocks/2026-07-28/index.ts';
import { replayCommands, replayFileName, type Replay } from '../suites/report/replay.ts';
import { runReplay, type ReplayTarget } from './replay.ts';

const CHECK = '2026-get.completed-result';
const FAULT = 'completed-no-result';
const PROFILE = 'fixtures/reference-2026-07-28.profile.json';
const tmp = mkdtempSync(join(tmpdir(), 'mtc-replay-2026-'));
const mockCommand = (fault?: string) =>
  `${process.execPath} --import tsx scripts/cli.ts mock --revision 2026-07-28 --stdio --completes-ms 50${fault ? ` --fault ${fault}` : ''}`;
const stops: (() => Promise<void>)[] = [];
afterAll(() => Promise.all(stops.map((s) => s())));

async function http(fault?: string): Promise<string> {
  const server = createExtensionServer({ timings: { completesMs: 50 }, ...(fault ? { faults: [fault] } : {}) });
  const h = await server.listenHttp(0);
  stops.push(() => server.close());
  return h.url;
}

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'scripts/cli.ts', ...args], { timeout: 150_000, maxBuffer: 16 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}

async function reproduce(targetFlags: string[], dir: string) {
  const r = await cli(['server', ...targetFlags, '--profile', PROFILE, '--only', CHECK, '--replay-dir', dir, '--json', join(dir, 'report.json'), '--no-color']);
  expect(r.code, r.stderr).toBe(1);
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
  const flagged = report.checks.find((c: { id: string }) => c.id === CHECK);
  expect(flagged.status).toBe('fail');
  expect(flagged.reproduce).toContain(`--revision 2026-07-28 --only ${CHECK}`);
  expect(r.stdout).toContain(`reproduce with: ${flagged.reproduce}`);
  const replay: Replay = JSON.parse(readFileSync(join(dir, replayFileName(CHECK)), 'utf8'));
  expect(replay).toEqual(flagged.replay);
  expect(replay.revision).toBe('2026-07-28');
  // No handshake in this revision: the replay begins with the check's own requests, each with its _meta.
  const methods = replay.steps.map((s) => (s.message as { method?: string })?.method);
  expect(methods).not.toContain('initialize');
  expect(methods[0]).toBe('tools/call');
  for (const s of replay.steps)
    expect((s.message as any)?.params?._meta?.['io.modelcontextprotocol/protocolVersion'], JSON.stringify(s.message)).toBe('2026-07-28');
  // The task id the server chose is a placeholder, filled in at replay time; the judged poll waits for "completed".
  expect(JSON.stringify(replay.steps)).toContain('{{taskId:1}}');
  expect(replay.steps.some((s) => s.until?.status === 'completed')).toBe(true);
  return replay;
}

/** The replay's last tasks/get answer (the poll the check judged: a completed task). */
async function judge(replay: Replay, target: ReplayTarget) {
  const run = await runReplay(replay, target, 10_000);
  expect(run.problems).toEqual([]);
  const polls = replay.steps.filter((s) => (s.message as { method?: string })?.method === 'tasks/get' && s.request !== undefined);
  return run.answers.get(polls.at(-1)!.request!);
}

describe('2026-07-28: a reproduction replays the deviation', () => {
  it('stdio: the faulty server shows a completed task without its result, the correct one with it', { timeout: 240_000 }, async () => {
    const replay = await reproduce(['--stdio', mockCommand(FAULT), '--revision', '2026-07-28'], join(tmp, 'stdio'));
    expect(replay.transport).toBe('stdio');
    const faulty = await judge(replay, { command: mockCommand(FAULT) });
    expect(faulty?.result?.status).toBe('completed');
    expect(faulty?.result?.result).toBeUndefined();
    const correct = await judge(replay, { command: mockCommand() });
    expect(correct?.result?.status).toBe('completed');
    expect(correct?.result?.result?.content).toEqual([{ type: 'text', text: 'done' }]);
    // The command a user runs: the file of --replay-dir, the faulty target; it prints the answers.
    const r = await cli(['replay', join(tmp, 'stdio', replayFileName(CHECK)), '--stdio', mockCommand(FAULT)]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`replay of ${CHECK} (2026-07-28, recorded over stdio)`);
    const last = r.stdout
      .split('\n')
      .filter((l) => l.startsWith('answer to request '))
      .at(-1)!;
    expect(last).toMatch(/"status":"completed"/);
    expect(last).not.toMatch(/"content"/);
    expect(r.stdout).not.toContain('not replayed as recorded');
  });

  it('Streamable HTTP (auto choosing 2026-07-28): the same, each request with its standard headers', { timeout: 240_000 }, async () => {
    const faultyUrl = await http(FAULT);
    const replay = await reproduce(['--url', faultyUrl], join(tmp, 'http'));
    expect(replay.transport).toBe('http');
    expect(replay.url).toBe(faultyUrl);
    const faulty = await judge(replay, { url: faultyUrl });
    expect(faulty?.result?.status).toBe('completed');
    expect(faulty?.result?.result).toBeUndefined();
    const correct = await judge(replay, { url: await http() });
    expect(correct?.result?.result?.content).toEqual([{ type: 'text', text: 'done' }]);
    // The curl lines carry this revision's headers (no session), Mcp-Name naming the task where the request names one.
    const curl = replayCommands(replay, faultyUrl).join('\n');
    expect(curl).not.toContain('Mcp-Session-Id');
    expect(curl).toContain("-H 'MCP-Protocol-Version: 2026-07-28'");
    expect(curl).toContain("-H 'Mcp-Method: tools/call'");
    expect(curl).toMatch(/-H 'Mcp-Method: tasks\/get' -H 'Mcp-Name: \{\{taskId:1\}\}'/);
  });

  it('Streamable HTTP: the headers a check set itself (an Mcp-Method that is not the method) are replayed too', { timeout: 240_000 }, async () => {
    const check = '2026-http.header-mismatch-error';
    const faultyUrl = await http('mcp-method-unchecked');
    const dir = join(tmp, 'headers');
    const r = await cli(['server', '--url', faultyUrl, '--profile', PROFILE, '--only', check, '--replay-dir', dir, '--no-color']);
    expect(r.code, r.stderr).toBe(1);
    const replay: Replay = JSON.parse(readFileSync(join(dir, replayFileName(check)), 'utf8'));
    const mismatched = replay.steps.find((s) => s.headers);
    expect(mismatched?.headers).toEqual({ 'Mcp-Method': 'tasks/cancel' });
    expect((mismatched!.message as { method?: string }).method).toBe('tasks/get');
    expect(replayCommands(replay, faultyUrl).join('\n')).toMatch(
      /-H 'Mcp-Method: tasks\/cancel' -H 'Mcp-Name: \{\{taskId:1\}\}' --data-raw '\{[^']*"method":"tasks\/get"/,
    );
    const answerOf = async (url: string) => (await runReplay(replay, { url }, 10_000)).answers.get(mismatched!.request!);
    // The faulty server serves the mismatched request; the correct one rejects it with -32020.
    expect((await answerOf(faultyUrl))?.result?.taskId).toBeDefined();
    expect((await answerOf(await http()))?.error?.code).toBe(-32020);
  });
});
