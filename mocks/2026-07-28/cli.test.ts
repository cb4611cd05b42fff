// The reference extension server as a command (`mock --revision 2026-07-28`, mocks/2026-07-28/cli.ts): a real
// process over stdio and over HTTP, its listings, and usage errors (exit 2, nothing lost or ignored).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { splitRevision } from '../../scripts/mock.ts';
import { parseExtensionServerArgs, runExtensionServer } from './cli.ts';
import { FAULTS, LATITUDES } from './faults.ts';
import { Method } from './protocol.ts';
import { createTask, HttpClient, NON_DECLARING, callTool, pollTask, StreamClient } from './test-client.ts';

const CLI = ['--import', 'tsx', 'scripts/cli.ts', 'mock', '--revision', '2026-07-28'];
const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill();
});

function run(args: string[]): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, [...CLI, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  return child;
}

function finished(child: ChildProcessWithoutNullStreams): Promise<{ code: number | null; stderr: string; stdout: string }> {
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (d) => (stderr += d));
  child.stdout.on('data', (d) => (stdout += d));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr, stdout })));
}

describe('mock --revision 2026-07-28', () => {
  it('stdio: a task end to end in a child process, stdout only JSON-RPC, exits when stdin ends', async () => {
    const child = run(['--stdio', '--completes-ms', '20', '--poll-interval-ms', '10']);
    const done = finished(child);
    const c = new StreamClient(child.stdin, child.stdout);
    const id = await createTask(c, 'complete');
    expect(await pollTask(c, id, (t) => t.status === 'completed')).toMatchObject({ ttlMs: 60_000, pollIntervalMs: 10 });
    await c.close();
    const r = await done;
    expect(r.code).toBe(0);
    for (const line of c.lines) expect(() => JSON.parse(line)).not.toThrow();
  });

  it('http: the URL on stderr, loopback, served; a fault switched on by flag is in force', async () => {
    const child = run(['--http', '0', '--fault', 'task-to-undeclared']);
    let stderr = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (d) => {
        stderr += d;
        const m = /listening on (http:\/\/\S+)/.exec(stderr);
        if (m) resolve(m[1]!);
      });
      child.on('exit', () => reject(new Error(`exited: ${stderr}`)));
    });
    expect(new URL(url).hostname).toBe('127.0.0.1');
    expect(stderr).toContain('fault task-to-undeclared');
    const c = new HttpClient(url);
    expect((await callTool(c, 'complete', {}, NON_DECLARING)).result?.resultType).toBe('task');
    expect((await c.request(Method.ServerDiscover)).result?.supportedVersions).toEqual(['2026-07-28']);
  });

  it('--list-faults and --list-latitudes print every switch with what it breaks or allows', async () => {
    const r = await finished(run(['--list-faults', '--list-latitudes']));
    expect(r.code).toBe(0);
    for (const x of FAULTS) expect(r.stdout).toContain(`${x.name}\t${x.requirement}\t`);
    for (const x of LATITUDES) expect(r.stdout).toContain(`${x.name}\t`);
  });

  it('usage errors exit 2 and say why (nothing a user passes is ignored)', async () => {
    const r = await finished(run(['--stdio', '--fault', 'no-such-fault']));
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toContain('unknown fault');
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      for (const [args, why] of [
        [['--stdio', '--latitude', 'no-such'], 'unknown latitude'],
        [['--stdio', '--http', '0'], 'exactly one'],
        [[], 'exactly one'],
        [['--stdio', '--token', 'x'], 'HTTP only'],
        [['--stdio', '--ttl-ms', '-5'], '--ttl-ms'],
        [['--http', '70000'], '--http'],
        [['--stdio', '--bogus'], 'bogus'],
      ] as const) {
        err.mockClear();
        expect(await runExtensionServer([...args]), args.join(' ')).toBe(2);
        expect(err.mock.calls.map((c) => String(c[0])).join(''), args.join(' ')).toContain(why);
      }
    } finally {
      err.mockRestore();
    }
  });
});

describe('argument parsing', () => {
  it('--revision is taken out for the mock command, in both spellings; a bad or missing value is kept as an error', () => {
    expect(splitRevision(['--revision', '2026-07-28', '--stdio'])).toEqual({ revision: '2026-07-28', rest: ['--stdio'] });
    expect(splitRevision(['--stdio', '--revision=2025-11-25'])).toEqual({ revision: '2025-11-25', rest: ['--stdio'] });
    expect(splitRevision(['--stdio'])).toEqual({ revision: undefined, rest: ['--stdio'] });
    expect(splitRevision(['--stdio', '--revision']).revision).toBe('');
  });

  it('options become server options; unlimited ttl; defaults otherwise untouched', () => {
    const { options, port, access } = parseExtensionServerArgs([
      '--http',
      '8123',
      '--token',
      'a',
      '--ttl-ms',
      'unlimited',
      '--poll-interval-ms',
      '50',
      '--slow-ms',
      '900',
      '--latitude',
      'sync-results',
      '--no-tasks-extension',
    ]);
    expect(port).toBe(8123);
    expect(access.tokens).toContain('a');
    expect(options).toMatchObject({ ttlMs: null, pollIntervalMs: 50, timings: { slowMs: 900 }, latitudes: ['sync-results'], tasksExtension: false });
    expect(parseExtensionServerArgs(['--stdio']).options).not.toHaveProperty('ttlMs');
  });
  it('names its task limit --max-concurrent-tasks, as the reference receiver does (the --max-tasks of the server command is another bound)', () => {
    expect(parseExtensionServerArgs(['--stdio', '--max-concurrent-tasks', '3']).options.maxConcurrentTasks).toBe(3);
    expect(() => parseExtensionServerArgs(['--stdio', '--max-tasks', '3'])).toThrow(/--max-concurrent-tasks/);
  });
});

describe('--no-tasks-extension', () => {
  it('no extension in discover, tasks/* → -32601, tools/call answered directly even to a declaring client', async () => {
    const child = run(['--stdio', '--no-tasks-extension', '--completes-ms', '10']);
    const c = new StreamClient(child.stdin, child.stdout);
    expect((await c.request(Method.ServerDiscover)).result?.capabilities).toEqual({ tools: {} });
    expect((await c.request(Method.TasksGet, { taskId: 'x' })).error?.code).toBe(-32601);
    expect((await callTool(c, 'complete')).result?.resultType).toBe('complete');
    await c.close();
  });
});
