// Ctrl-C during `server` and `client`, as a user meets it: the CLI is spawned against the reference receiver over
// stdio (each process of the target writes its pid), or grading a client that never ends (it writes its pid), gets
// SIGINT while it runs, and exits 130 having written every report asked for: the checks that finished keep their
// verdicts, the others are not exercised (interrupted), and every process the run started has ended.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { alive } from '../suites/wire/children.ts';

/** Resolves once `cond` holds, checked every `everyMs`; rejects after `boundMs`. */
async function until(cond: () => boolean, boundMs: number, what: string, everyMs = 100): Promise<void> {
  const end = Date.now() + boundMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`not within ${boundMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

describe('server interrupted by SIGINT', () => {
  it('exits 130 with every report written, the unfinished checks not exercised (interrupted), and no process left', { timeout: 240_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mtc-interrupt-'));
    const pids = join(dir, 'pids');
    const target = `sh -c 'echo $$ >> ${pids}; exec ${process.execPath} --import tsx scripts/mock.ts --stdio'`;
    const files = { json: join(dir, 'r.json'), junit: join(dir, 'r.xml'), markdown: join(dir, 'r.md') };
    const cli = spawn(
      process.execPath,
      ['--import', 'tsx', 'scripts/cli.ts', 'server', '--stdio', target, '--profile', 'fixtures/reference.profile.json', '--discover', 'off'].concat([
        '--revision',
        '2025-11-25',
        '--json',
        files.json,
        '--junit',
        files.junit,
        '--markdown',
        files.markdown,
        '--no-color',
      ]),
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    cli.stdout.on('data', (c: Buffer) => (stdout += c));
    cli.stderr.on('data', (c: Buffer) => (stderr += c));
    const exited = new Promise<number | null>((r) => cli.once('exit', (code) => r(code)));
    const started = () => (existsSync(pids) ? readFileSync(pids, 'utf8').trim().split('\n').map(Number) : []);
    // The pre-flight is done and the checks have opened connections of their own (more target processes).
    await until(() => /^server: /m.test(stderr) && started().length >= 4, 180_000, `checks running\n${stderr}`);
    cli.kill('SIGINT');
    expect(await exited, `${stdout}\n${stderr}`).toBe(130);
    expect(stderr).toMatch(/SIGINT: stopping the run/);
    const report = JSON.parse(readFileSync(files.json, 'utf8'));
    expect(report.interrupted).toEqual({ signal: 'SIGINT' });
    expect(report.summary.exitCode).toBe(130);
    const interrupted = report.checks.filter((c: { message: string }) => /^not exercised \(interrupted\)/.test(c.message));
    expect(interrupted.length).toBeGreaterThan(0);
    for (const c of interrupted) expect(c.status).toBe('skip');
    expect(readFileSync(files.junit, 'utf8')).toContain(interrupted[0].id);
    expect(readFileSync(files.markdown, 'utf8')).toContain(interrupted[0].id);
    expect(stdout).toMatch(/interrupted \(SIGINT\): \d+ check\(s\) not exercised; exit code 130/);
    // Every process of the target has ended (the run ends them; a process group's members with their leader).
    await until(() => started().every((pid) => !alive(pid)), 10_000, `target processes ended: ${started().filter(alive).join(', ')}`);
  });

  it('client: exits 130 with the report written, the checks not exercised (interrupted), and the client ended', { timeout: 180_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mtc-interrupt-client-'));
    const pids = join(dir, 'pids');
    const json = join(dir, 'r.json');
    const client = `sh -c 'echo $$ >> ${pids}; exec sleep 600'`;
    const cli = spawn(
      process.execPath,
      ['--import', 'tsx', 'scripts/cli.ts', 'client', '--command', client, '--scenario', 'poll-interval', '--transport', 'stdio', '--json', json, '--no-color'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    cli.stdout.on('data', (c: Buffer) => (output += c));
    cli.stderr.on('data', (c: Buffer) => (output += c));
    const exited = new Promise<number | null>((r) => cli.once('exit', (code) => r(code)));
    const started = () => (existsSync(pids) ? readFileSync(pids, 'utf8').trim().split('\n').map(Number) : []);
    await until(() => started().length >= 1, 120_000, `the client started\n${output}`);
    cli.kill('SIGINT');
    expect(await exited, output).toBe(130);
    const report = JSON.parse(readFileSync(json, 'utf8'));
    expect(report.interrupted).toEqual({ signal: 'SIGINT' });
    expect(report.summary.exitCode).toBe(130);
    expect(report.checks.filter((c: { message: string }) => /^not exercised \(interrupted\)/.test(c.message)).length).toBeGreaterThan(0);
    await until(() => started().every((pid) => !alive(pid)), 10_000, `the client ended: ${started().filter(alive).join(', ')}`);
  });
});
