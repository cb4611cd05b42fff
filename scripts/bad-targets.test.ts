// The harness never hangs or crashes on a bad target: a garbage-speaking target yields failed checks with
// the reason (and its stderr); a target that crashes, or hangs (answers not even a ping), is named once, as a
// run-level finding (exit 1), and later checks are not exercised. The run always finishes.
import { describe, expect, it } from 'vitest';
import { execFile, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const tmp = mkdtempSync(join(tmpdir(), 'mtc-bad-'));
const profile = join(tmp, 'profile.json');
writeFileSync(profile, JSON.stringify({ tools: { completes: { name: 'work' }, slow: { name: 'work' } } }));

/** Runs the CLI against the bad target; `report` is null when the run wrote none (then the test fails on its exit code, with its output). */
function run(
  mode: string,
  target = ['--stdio', `${process.execPath} fixtures/bad-target.mjs ${mode}`],
  more: string[] = [],
): Promise<{ code: number | null; stdout: string; stderr: string; report: any }> {
  const json = join(tmp, `${mode}.json`);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'scripts/cli.ts', 'server', ...target, ...more, '--profile', profile, '--timeout', '1000', '--check-timeout', '4000', '--json', json],
      { timeout: 170_000, maxBuffer: 32 << 20 },
      (err, stdout, stderr) =>
        resolve({
          code: err ? ((err as { code?: number }).code ?? null) : 0,
          stdout,
          stderr,
          report: existsSync(json) ? JSON.parse(readFileSync(json, 'utf8')) : null,
        }),
    );
  });
}

describe('a target that writes garbage', () => {
  it('fails checks with the reason, and the run finishes with exit 1', { timeout: 180_000 }, async () => {
    const r = await run('garbage');
    expect(r.code, `${r.stderr.slice(-2000)}\n${r.stdout.slice(-2000)}`).toBe(1);
    const failed = r.report.checks.filter((c: any) => c.status === 'fail');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.map((c: any) => c.message).join('\n')).toMatch(/transport error: .*(JSON|Unexpected token)/);
    expect(r.stdout).toMatch(/\d+ checks: \d+ passed, \d+ failed/);
  });
});

describe('a target that hangs', () => {
  it('is one run-level finding (it answers not even a ping), no Tasks verdict: time alone is none; exit 1', { timeout: 180_000 }, async () => {
    const r = await run('hang');
    expect(r.code, `${r.stderr.slice(-2000)}\n${r.stdout.slice(-2000)}`).toBe(1);
    expect(r.report.checks.filter((c: any) => c.status === 'fail' || c.status === 'warn').map((c: any) => `${c.id}: ${c.message}`)).toEqual([]);
    expect(r.report.targetDown).toHaveLength(1);
    expect(r.report.targetDown[0].reason).toMatch(/stopped answering: no response to .* and a ping on the shared connection got no answer/);
    const timedOut = r.report.checks.filter((c: any) => /^not exercised \(timed out\)/.test(c.message));
    expect(timedOut.length).toBeGreaterThan(0);
    expect(r.report.checks.filter((c: any) => c.message.includes(`target not running since ${r.report.targetDown[0].check}`)).length).toBeGreaterThan(10);
  });
});

describe('a target that crashes on a valid request', () => {
  it('is one run-level finding (where, last messages, stderr), later checks not exercised, no Tasks verdict, exit 1', { timeout: 180_000 }, async () => {
    const r = await run('crash');
    expect(r.code, `${r.stderr.slice(-2000)}\n${r.stdout.slice(-2000)}`).toBe(1);
    expect(r.report.targetDown).toHaveLength(1);
    const down = r.report.targetDown[0];
    expect(r.report.checks.map((c: any) => c.id)).toContain(down.check);
    expect(down.stderrTail).toMatch(/crashing on/);
    expect(down.lastMessages.length).toBeGreaterThan(0);
    expect(r.report.checks.filter((c: any) => c.status === 'fail' || c.status === 'warn').map((c: any) => c.id)).toEqual([]);
    const later = r.report.checks.filter((c: any) => c.message.includes(`target not running since ${down.check}`));
    expect(later.length).toBeGreaterThan(10);
    expect(r.stdout.match(/^ERROR the target stopped running during/gm)).toHaveLength(1);
  });
});

describe('a target that never answers a raw POST (fixtures/silent-target.mjs: mcp-handler 1.x on a body that is not JSON)', () => {
  it(
    'the raw exchanges end at their bound and the check keeps its findings: the numeric cursor answered -32603, no parse-error answer',
    { timeout: 180_000 },
    async () => {
      const server = spawn(process.execPath, ['fixtures/silent-target.mjs', 'raw'], { stdio: ['ignore', 'pipe', 'inherit'] });
      try {
        const url = await new Promise<string>((resolve) => createInterface({ input: server.stdout! }).once('line', resolve));
        const r = await run(
          'silent-raw',
          ['--url', url],
          ['--revision', '2025-11-25', '--only', 'errors.malformed-input-survives', '--check-timeout', '30000'],
        );
        expect(r.report, `${r.stderr.slice(-2000)}\n${r.stdout.slice(-2000)}`).not.toBeNull();
        const c = r.report.checks.find((x: any) => x.id === 'errors.malformed-input-survives');
        expect(c.timedOut).toBeUndefined();
        expect(c.status).toBe('fail');
        expect(c.message).toMatch(/tasks\/list with cursor 42: expected -32602, got error -32603/);
        expect(c.message).toMatch(/malformed JSON → no answer \(no end of the raw write or POST/);
        expect(c.outside.map((o: any) => o.id)).toEqual(expect.arrayContaining(['jsonrpc-parse-error-32700', 'jsonrpc-invalid-request-32600']));
        expect(r.report.targetDown ?? []).toEqual([]);
      } finally {
        server.kill();
      }
    },
  );
});

describe('a target that dies a while after a requestor disconnects (fixtures/fragile-target.mjs: mcp-handler 1.x on bare Node)', () => {
  it('the death is a finding on the check that disconnected, with the last action of every check before it', { timeout: 180_000 }, async () => {
    const server = spawn(process.execPath, ['fixtures/fragile-target.mjs', '1'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const url = await new Promise<string>((resolve) => createInterface({ input: server.stdout! }).once('line', resolve));
      const slow = join(tmp, 'fragile.profile.json');
      writeFileSync(slow, JSON.stringify({ tools: { completes: { name: 'work', arguments: { ms: 100 } }, slow: { name: 'work', arguments: { ms: 3000 } } } }));
      const r = await run(
        'fragile',
        ['--url', url],
        ['--revision', '2025-11-25', '--only', 'transport.disconnect-not-cancel', '--profile', slow, '--check-timeout', '20000', '--timeout', '5000'],
      );
      expect(r.report, `${r.stderr.slice(-2000)}\n${r.stdout.slice(-2000)}`).not.toBeNull();
      expect(r.code).toBe(1);
      const down = r.report.targetDown[0];
      expect(down.afterDisconnect.check).toBe('transport.disconnect-not-cancel');
      expect(down.recentActions.some((a: string) => a.includes('(transport.disconnect-not-cancel)'))).toBe(true);
      const c = r.report.checks.find((x: any) => x.id === 'transport.disconnect-not-cancel');
      expect(c.status).toBe('warn');
      expect(c.message).toMatch(/the receiver stopped serving after this check disconnected from a stream/);
      expect(c.cause).toBe('the receiver stopped serving after a requestor disconnected');
      expect(r.stdout).toMatch(/it stopped serving after transport.disconnect-not-cancel disconnected from a stream/);
      expect(r.stdout).toMatch(/the last action of every check within \d+ ms before its last answer/);
    } finally {
      server.kill();
    }
  });
});

describe('a client that dies at start (fixtures/dying-client.mjs)', () => {
  it('is one error with its whole message and one root cause, not an error per check', { timeout: 240_000 }, async () => {
    const json = join(tmp, 'dying-client.json');
    const r = await new Promise<{ stdout: string; report: any }>((resolve) =>
      execFile(
        process.execPath,
        ['--import', 'tsx', 'scripts/cli.ts', 'client', '--command', `${process.execPath} fixtures/dying-client.mjs`, '--json', json],
        { timeout: 230_000, maxBuffer: 32 << 20 },
        (_err, stdout) => resolve({ stdout, report: existsSync(json) ? JSON.parse(readFileSync(json, 'utf8')) : null }),
      ),
    );
    expect(r.stdout.match(/^ERROR /gm)).toHaveLength(1);
    expect(r.stdout).toMatch(/^ERROR .*could not grade the client: the client never connected to the reference receiver in any scenario \(tool-negotiation, /m);
    expect(r.stdout).toContain("Error: Cannot find module './config.json'");
    const causes = r.report.rootCauses.map((c: any) => c.cause);
    expect(causes).toEqual(expect.arrayContaining(['the client never connected to the reference receiver']));
  });
});

describe('client --revision 2026-07-28 against a client of 2025-11-25 only (fixtures/sdk-client.ts, SDK 1.x)', () => {
  it('says the client does not speak the revision: one error, one root cause, no pass', { timeout: 240_000 }, async () => {
    const json = join(tmp, 'client-2025-only.json');
    const r = await new Promise<{ code: number | null; stdout: string; report: any }>((resolve) =>
      execFile(
        process.execPath,
        [
          '--import',
          'tsx',
          'scripts/cli.ts',
          'client',
          '--revision',
          '2026-07-28',
          '--scenario',
          'tasks',
          '--scenario',
          'cancel',
          '--command',
          `${process.execPath} --import tsx fixtures/sdk-client.ts`,
          '--json',
          json,
        ],
        { timeout: 230_000, maxBuffer: 32 << 20 },
        (err, stdout) =>
          resolve({
            code: err ? ((err as { code?: number }).code ?? null) : 0,
            stdout,
            report: existsSync(json) ? JSON.parse(readFileSync(json, 'utf8')) : null,
          }),
      ),
    );
    expect(r.code, r.stdout.slice(-2000)).toBe(1);
    expect(r.stdout.match(/^ERROR /gm)).toHaveLength(1);
    expect(r.stdout).toMatch(/the client does not speak 2026-07-28: in every scenario \(tasks, cancel\) it opened with initialize/);
    expect(r.report.summary.pass).toBe(0);
  });
});
