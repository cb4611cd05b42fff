// "Reproduce with", end to end: the reproduction a run prints for a fault of the reference receiver
// (over stdio and over Streamable HTTP), replayed, shows the same deviation against that faulty mock and
// not against the correct one. The judged answer: tasks/cancel of a completed task (cancel-terminal-32602).
import { afterAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { harness, type Harness } from '../mocks/receiver/test-helpers.ts';
import { replayFileName, type Replay } from '../suites/report/replay.ts';
import { fill, runReplay, runReplayCommand, type ReplayRun, type ReplayTarget } from './replay.ts';

const CHECK = 'cancel.completed-rejected';
const FAULT = 'cancel-terminal-ok';
const tmp = mkdtempSync(join(tmpdir(), 'mtc-replay-'));
const mockCommand = (fault?: string) => `${process.execPath} --import tsx scripts/mock.ts --stdio${fault ? ` --fault ${fault}` : ''}`;
const open: Harness[] = [];
afterAll(async () => {
  await Promise.all(open.map((h) => h.close()));
});

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'scripts/cli.ts', ...args], { timeout: 150_000, maxBuffer: 16 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}

/** The answer to the replay's tasks/cancel (the one the check judged). */
function cancelAnswer(replay: Replay, run: ReplayRun) {
  const step = replay.steps.find((s) => (s.message as { method?: string })?.method === 'tasks/cancel');
  expect(step?.request).toBeDefined();
  return run.answers.get(step!.request!);
}

async function reproduce(targetFlags: string[], dir: string) {
  const r = await cli(['server', ...targetFlags, '--only', CHECK, '--replay-dir', dir, '--json', join(dir, 'report.json'), '--no-color']);
  expect(r.code, r.stderr).toBe(1);
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
  const flagged = report.checks.find((c: { id: string }) => c.id === CHECK);
  expect(flagged.status).toBe('fail');
  expect(r.stdout).toContain(`reproduce with: ${flagged.reproduce}`);
  const replay: Replay = JSON.parse(readFileSync(join(dir, replayFileName(CHECK)), 'utf8'));
  expect(replay).toEqual(flagged.replay);
  // The task id the target chose is a placeholder, filled in at replay time.
  expect(JSON.stringify(replay.steps)).toContain('{{taskId:');
  return { replay, reproduce: flagged.reproduce as string };
}

async function judge(replay: Replay, target: ReplayTarget) {
  const run = await runReplay(replay, target, 10_000);
  expect(run.problems).toEqual([]);
  return cancelAnswer(replay, run);
}

describe('a reproduction replays the deviation', () => {
  it('stdio: the faulty mock answers the cancel of a completed task with a result, the correct one with -32602', async () => {
    const dir = join(tmp, 'stdio');
    const { replay, reproduce: command } = await reproduce(['--stdio', mockCommand(FAULT)], dir);
    expect(command).toContain(`--only ${CHECK}`);
    const faulty = await judge(replay, { command: mockCommand(FAULT) });
    expect(faulty?.error).toBeUndefined();
    expect(faulty?.result?.status).toBe('completed');
    const correct = await judge(replay, { command: mockCommand() });
    expect(correct?.error?.code).toBe(-32602);
  }, 240_000);

  it('Streamable HTTP: the same, with the session of the replay (Mcp-Session-Id) learned at replay time', async () => {
    const faultyMock = await harness('http', { faults: [FAULT] });
    const correctMock = await harness('http');
    open.push(faultyMock, correctMock);
    const dir = join(tmp, 'http');
    const { replay } = await reproduce(['--url', faultyMock.url!], dir);
    expect(replay.transport).toBe('http');
    const faulty = await judge(replay, { url: faultyMock.url! });
    expect(faulty?.error).toBeUndefined();
    expect(faulty?.result?.status).toBe('completed');
    const correct = await judge(replay, { url: correctMock.url! });
    expect(correct?.error?.code).toBe(-32602);
  }, 240_000);
});

describe('replay command', () => {
  it('usage errors exit 2: no file, no target, two targets', async () => {
    expect(await runReplayCommand([])).toBe(2);
    expect(await runReplayCommand(['x.json'])).toBe(2);
    expect(await runReplayCommand(['x.json', '--stdio', 'a', '--url', 'http://b'])).toBe(2);
  });
  it('placeholders: a name finds the first such field of the answer, a dotted path one field; a missing one is an error', () => {
    const answers = new Map([[3, { id: 3, result: { tasks: [{ taskId: 'a' }, { taskId: 'b' }], nextCursor: 'c' }, message: {} }]]);
    expect(fill({ p: ['{{taskId:3}}', '{{tasks.1.taskId:3}}', '{{nextCursor:3}}', 'x {{taskId:3}}'] }, answers as never)).toEqual({
      p: ['a', 'b', 'c', 'x {{taskId:3}}'],
    });
    expect(() => fill('{{taskId:4}}', answers as never)).toThrow(/request 4/);
  });
});
