// Smoke test of `npm run bench` (scripts/bench.ts): the quick mode runs every section with tiny
// workloads as a user would run it, prints one table and writes JSON with every section. Not a timed
// test: no number is judged here, only that each measurement was taken.
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseBenchArgs, SECTIONS } from './bench.ts';

describe('bench', () => {
  it('parses its options', () => {
    expect(parseBenchArgs([])).toMatchObject({ repeats: 3, quick: false, out: 'bench-results.json', only: [...SECTIONS] });
    expect(parseBenchArgs(['--quick'])).toMatchObject({ repeats: 1, quick: true });
    expect(parseBenchArgs(['--repeats', '5', '--only', 'list,memory', '--out', 'x.json'])).toMatchObject({
      repeats: 5,
      only: ['list', 'memory'],
      out: 'x.json',
    });
    expect(() => parseBenchArgs(['--repeats', '0'])).toThrow(/--repeats/);
    expect(() => parseBenchArgs(['--only', 'nope'])).toThrow(/unknown section/);
  });

  // The kill is a hang guard, not a speed goal: the sections have bounds of their own (the CLI runs 60 s each,
  // memory, list, properties theirs), and at a load of 20 the quick run took over 80 s.
  it('--quick measures every section and writes them as JSON', { timeout: 250_000 }, async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'mtc-bench-')), 'bench.json');
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', 'scripts/bench.ts', '--quick', '--out', out],
        { timeout: 240_000, killSignal: 'SIGKILL', maxBuffer: 16 << 20 },
        (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr }),
      );
    });
    expect(r.code, r.stderr.slice(-3000)).toBe(0);
    const json = JSON.parse(readFileSync(out, 'utf8'));
    expect(json).toMatchObject({ version: 1, quick: true, repeats: 1 });
    for (const s of SECTIONS) {
      expect(json[s], s).toBeTypeOf('object');
      expect(json[s]?.error, `${s}: ${json[s]?.error}`).toBeUndefined();
    }
    // suite: the real CLI over stdio and HTTP, the in-process floor, the overheads
    expect(json.suite.stdio.runs[0]).toMatchObject({ exitCode: 0, failed: 0 });
    expect(json.suite.http.runs[0]).toMatchObject({ exitCode: 0, failed: 0 });
    expect(json.suite.stdio.wallMs.median).toBeGreaterThan(0);
    expect(json.suite.http.wallMs.median).toBeGreaterThan(0);
    expect(json.suite.criticalPath.inProcessFloorMs.median).toBeGreaterThan(0);
    expect(json.suite.overhead.spawnInitMs.median).toBeGreaterThan(0);
    // throughput: both servers, both modes, every task completed
    for (const mode of ['inProcess', 'stdio']) {
      for (const kind of ['reference', 'sdk']) {
        const run = json.throughput[mode][kind].runs[0];
        expect(run.failed, `${mode} ${kind}: ${run.errors.join('; ')}`).toBe(0);
        expect(run.completed).toBe(json.throughput.n);
        expect(run.tasksPerSec).toBeGreaterThan(0);
      }
      expect(json.throughput[mode].ratio).toBeGreaterThan(0);
    }
    // memory: a baseline and two samples after every task expired
    expect(json.memory.runs[0].samples).toHaveLength(2);
    for (const s of json.memory.runs[0].samples) expect(s).toMatchObject({ storeSize: 0 });
    expect(json.memory.runs[0].gcAvailable).toBe(true);
    // list: every size walked completely
    for (const p of json.list.points) expect(p).toMatchObject({ complete: true, listed: p.requested, liveTasks: p.requested });
    expect(json.list.exponents.length).toBeGreaterThan(0);
    // properties: the sequences ran and passed
    expect(json.properties.samples[0]).toMatchObject({ status: 'pass', sequences: json.properties.runs });
    // one table: every measurement with a goal column, on stdout and in the JSON
    const ids = json.table.map((row: { id: string }) => row.id);
    for (const id of [
      'suite.stdio.wall',
      'suite.http.wall',
      'suite.ratio.stdio',
      'throughput.inproc.ratio',
      'throughput.stdio.ratio',
      'memory.rss.change',
      'list.exponent',
      'properties.rate',
    ]) {
      expect(ids).toContain(id);
    }
    expect(r.stdout).toMatch(/^measurement\s+value\s+goal\s+verdict$/m);
    expect(r.stdout.match(/^-{5,}/gm)).toHaveLength(1);
  });
});
