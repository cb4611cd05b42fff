// The harness never hangs or crashes on a bad target: a hanging, crashing or garbage-speaking target
// yields failed or not-exercised checks with the reason (and its stderr), and the run finishes.
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const tmp = mkdtempSync(join(tmpdir(), 'mtc-bad-'));
const profile = join(tmp, 'profile.json');
writeFileSync(profile, JSON.stringify({ tools: { completes: { name: 'work' }, slow: { name: 'work' } } }));

function run(mode: string): Promise<{ code: number | null; stdout: string; report: any }> {
  const json = join(tmp, `${mode}.json`);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['scripts/bin.mjs', 'server', '--stdio', `${process.execPath} fixtures/bad-target.mjs ${mode}`, '--profile', profile, '--timeout', '1000', '--check-timeout', '4000', '--json', json],
      { timeout: 170_000, maxBuffer: 32 << 20 },
      (err, stdout) => resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, report: JSON.parse(readFileSync(json, 'utf8')) }),
    );
  });
}

describe.each(['hang', 'crash', 'garbage'])('a target that %ss', (mode) => {
  it('fails checks with the reason, and the run finishes with exit 1', { timeout: 180_000 }, async () => {
    const r = await run(mode);
    expect(r.code).toBe(1);
    const failed = r.report.checks.filter((c: any) => c.status === 'fail');
    expect(failed.length).toBeGreaterThan(0);
    const reasons = failed.map((c: any) => c.message).join('\n');
    if (mode === 'hang') expect(reasons).toMatch(/did not answer|no response/);
    if (mode === 'crash') expect(reasons).toMatch(/closed|crashing on/);
    if (mode === 'garbage') expect(reasons).toMatch(/transport error: .*(JSON|Unexpected token)/);
    expect(r.stdout).toMatch(/\d+ checks: \d+ passed, \d+ failed/);
  });
});
