// `server --properties` in revision 2026-07-28, through the CLI against the reference extension server over
// stdio: the property runs join the report as 2026-properties.* results, reported as 2025-11-25's are (a
// failure with its requirement ids, the counterexample's transcript, the seed and the replay command, in the
// console, the JSON and the JUnit report), and the printed --seed/--path replays the failure.
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TOOL_ROLES } from '../../../mocks/2026-07-28/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'mtc-props-2026-'));
// Every role named (no discovery), with short run times (a slow tool that a cancel can overtake).
const PROFILE = join(dir, 'profile.json');
writeFileSync(
  PROFILE,
  JSON.stringify({
    tools: Object.fromEntries(Object.entries(TOOL_ROLES).map(([role, name]) => [role, { name, arguments: { ms: role === 'slow' ? 400 : 40 } }])),
  }),
);
const mock = (args: string) => `${process.execPath} --import tsx scripts/cli.ts mock --revision 2026-07-28 --stdio --poll-interval-ms 20 ${args}`.trim();
const SEED = '20260728';

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(process.execPath, ['--import', 'tsx', 'scripts/cli.ts', 'server', ...args], { timeout: 150_000, maxBuffer: 32 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr }),
    ),
  );
}

const common = (target: string, out: string) => [
  '--stdio',
  target,
  '--revision',
  '2026-07-28',
  '--profile',
  PROFILE,
  '--only',
  '2026-negotiation.discover-implemented',
  '--json',
  out,
];

describe.concurrent('server --properties, revision 2026-07-28', () => {
  it('the clean reference extension server: the three property runs pass', { timeout: 160_000 }, async () => {
    const out = join(dir, 'clean.json');
    const r = await cli([...common(mock(''), out), '--properties', '--runs', '3', '--seed', SEED]);
    expect(r.code, r.stderr.slice(-3000)).toBe(0);
    const report = JSON.parse(readFileSync(out, 'utf8'));
    const props = report.checks.filter((c: any) => c.id.startsWith('2026-properties.'));
    expect(props.map((c: any) => [c.id, c.status])).toEqual([
      ['2026-properties.state-machine', 'pass'],
      ['2026-properties.races', 'pass'],
      ['2026-properties.hostile-input', 'pass'],
    ]);
    for (const p of props) {
      expect(p.revision).toBe('2026-07-28');
      expect(p.message).toMatch(new RegExp(`passed \\(seed ${SEED}\\)`));
    }
  });

  it(
    'a fault that breaks the state machine: a failure with its requirement ids, transcript and replay command; --path replays it',
    { timeout: 320_000 },
    async () => {
      const out = join(dir, 'faulty.json');
      const target = mock('--fault cancelled-resurrects');
      const r = await cli([...common(target, out), '--properties', '--runs', '10', '--seed', SEED, '--junit', out.replace(/json$/, 'xml')]);
      expect(r.code, r.stderr.slice(-3000)).toBe(1);
      const report = JSON.parse(readFileSync(out, 'utf8'));
      const failed = report.checks.filter((c: any) => c.id.startsWith('2026-properties.') && c.status === 'fail');
      expect(failed.length, JSON.stringify(report.checks.map((c: any) => [c.id, c.status, c.message.split('\n')[0]]))).toBeGreaterThan(0);
      for (const f of failed) {
        expect(f.requirements.length).toBeGreaterThan(0);
        expect(f.requirements.every((id: string) => id.startsWith('2026-'))).toBe(true);
        expect(f.message).toMatch(/counterexample: /);
        expect(f.message).toMatch(
          /replay: npx mcp-tasks-conformance server --stdio .* --revision 2026-07-28 .*--properties --seed=20260728 --path 2026-[a-z-]+\/\d/,
        );
        expect(f.transcript.length).toBeGreaterThan(0);
      }
      expect(r.stderr).toMatch(/── 2026-properties\.[a-z-]+: FAIL \[MUST: 2026-/);
      expect(r.stderr).toMatch(/JSON-RPC transcript of the shrunk counterexample/);
      const xml = readFileSync(out.replace(/json$/, 'xml'), 'utf8');
      expect(xml).toMatch(
        new RegExp(
          `<testcase name="${failed[0].id.replace(/\./g, '\\.')} \\[[^"]*"[^>]*>\\s*<failure type="fail"[\\s\\S]*?Replay: npx mcp-tasks-conformance server`,
        ),
      );

      // The printed replay: the same target, --seed and --path; the checks do not run, the property fails again.
      const first = failed[0];
      const path = /--path (\S+)$/m.exec(first.message)![1]!;
      const again = join(dir, 'replay.json');
      const rr = await cli([
        '--stdio',
        target,
        '--revision',
        '2026-07-28',
        '--profile',
        PROFILE,
        '--json',
        again,
        '--properties',
        '--seed',
        SEED,
        '--path',
        path,
      ]);
      expect(rr.code, rr.stderr.slice(-3000)).toBe(1);
      const replayed = JSON.parse(readFileSync(again, 'utf8')).checks;
      expect(replayed.map((c: any) => [c.id, c.status])).toEqual([[first.id, 'fail']]);
      expect(replayed[0].message).toMatch(/^\[2026-[^\]]+\] .*\nreplayed/);
      expect(replayed[0].requirements).toEqual(first.requirements);
    },
  );
});
