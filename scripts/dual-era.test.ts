// `server --revision auto` against the dual-era reference target (mock --revision dual-era), end to end
// through the CLI as a user runs it: auto finds it dual-era and grades it in both revisions (one session each),
// the cross-version checks run and pass, and the exit code is honest (a fail of either revision: 1; a warn: 0,
// 1 with --strict).
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const tmp = mkdtempSync(join(tmpdir(), 'mtc-dual-era-'));
const PROFILE = 'fixtures/dual-era.profile.json';
const dualEra = (...args: string[]) => ['node_modules/.bin/tsx scripts/cli.ts mock --revision dual-era --stdio', ...args].join(' ');

/** Runs the CLI from its sources (tsx → cli.ts); bounded. */
function cli(args: string[], timeoutMs: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'scripts/cli.ts', ...args], { timeout: timeoutMs, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr });
    });
  });
}

interface JsonReport {
  revisions: string[];
  summary: { fail: number; warn: number; pass: number };
  checks: { id: string; status: string; revision?: string; message: string }[];
}

describe('server --revision auto against a dual-era server', () => {
  it('grades it in both revisions, with the cross-version checks, and exits 0 when nothing fails', { timeout: 420_000 }, async () => {
    const json = join(tmp, 'both.json');
    const r = await cli(['server', '--stdio', dualEra(), '--revision', 'auto', '--profile', PROFILE, '--json', json], 400_000);
    expect(r.stderr).toMatch(
      /revision: 2025-11-25 and 2026-07-28 — server\/discover answered a DiscoverResult.*initialize succeeded: it speaks 2025-11-25 too \(dual-era\)/,
    );
    const report = JSON.parse(readFileSync(json, 'utf8')) as JsonReport;
    const bad = report.checks.filter((c) => c.status === 'fail' || c.status === 'warn').map((c) => `${c.id} ${c.status}: ${c.message}`);
    expect(bad).toEqual([]);
    expect(r.code, r.stdout.slice(-2000)).toBe(0);
    expect(report.revisions).toEqual(['2025-11-25', '2026-07-28']);
    const judged = (rev: string) => report.checks.filter((c) => c.revision === rev && c.status === 'pass').length;
    expect(judged('2025-11-25')).toBeGreaterThan(50);
    expect(judged('2026-07-28')).toBeGreaterThan(30);
    const compat = report.checks.filter((c) => c.id.startsWith('2026-compat.'));
    expect(compat.map((c) => `${c.id} ${c.status}`)).toEqual(
      ['2026-compat.extension-not-under-2025', '2026-compat.no-legacy-capabilities', '2026-compat.legacy-get-cancel-permitted'].map((id) => `${id} pass`),
    );
  });

  it('a fault of the dual-era target: its fail exits 1; a SHOULD it breaks warns (exit 0, 1 with --strict)', { timeout: 300_000 }, async () => {
    const run = (name: string, fault: string, check: string, ...more: string[]) =>
      cli(
        [
          'server',
          '--stdio',
          dualEra('--fault', fault),
          '--revision',
          'auto',
          '--profile',
          PROFILE,
          '--only',
          check,
          '--json',
          join(tmp, `${name}.json`),
          ...more,
        ],
        120_000,
      );
    const [failed, warned, strict] = await Promise.all([
      run('fail', 'extension-under-2025', '2026-compat.extension-not-under-2025'),
      run('warn', 'legacy-tasks-refused-modern', '2026-compat.legacy-get-cancel-permitted'),
      run('strict', 'legacy-tasks-refused-modern', '2026-compat.legacy-get-cancel-permitted', '--strict'),
    ]);
    const statusOf = (name: string, id: string) =>
      (JSON.parse(readFileSync(join(tmp, `${name}.json`), 'utf8')) as JsonReport).checks.find((c) => c.id === id)?.status;
    expect(failed.stderr).toMatch(/revision: 2025-11-25 and 2026-07-28/);
    expect(statusOf('fail', '2026-compat.extension-not-under-2025')).toBe('fail');
    expect(failed.code).toBe(1);
    expect(statusOf('warn', '2026-compat.legacy-get-cancel-permitted')).toBe('warn');
    expect(statusOf('strict', '2026-compat.legacy-get-cancel-permitted')).toBe('warn');
    expect(warned.code).toBe(0);
    expect(strict.code).toBe(1);
  });
});
