// `npm run bench`: performance of the suite and of the reference receiver, measured
// side by side in one run, medians of several runs, one table on stdout and the same as JSON.
//
//   tsx scripts/bench.ts [--repeats N] [--quick] [--out bench-results.json] [--only suite,throughput,memory,list,properties]
//
// Sections (docs/PERFORMANCE.md says what each number means and what was measured here):
//   suite       wall time of `server` against the reference receiver over stdio and HTTP (the real CLI)
//               vs the unavoidable waits on its critical path                              (bench/suite.ts)
//   throughput  reference receiver vs the SDK-based server (fixtures/sdk-tasks-server.ts), in process
//               and over stdio                                                         (bench/throughput.ts)
//   memory      RSS of the reference receiver after 10k and 100k expired tasks (child process, --expose-gc)
//   list        tasks/list walk time at 1k / 10k / 100k live tasks (child process)        (bench/memory.ts)
//   properties  state-machine command sequences per second                              (bench/properties.ts)
// Goals are reported, not asserted. Everything is bounded and loopback only. Progress goes to stderr.
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { benchSuite, TRIVIAL_CHECK, type SuiteSection } from './bench/suite.ts';
import { benchThroughput, type ThroughputSection } from './bench/throughput.ts';
import { benchProperties, type PropertiesSection } from './bench/properties.ts';
import { TTL_PER_LATENCY, type ListOptions, type ListResult, type MemoryOptions, type MemoryResult } from './bench/memory.ts';
import { formatTable, median, round, runJsonChild, type Row, type Verdict } from './bench/stats.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export const SECTIONS = ['suite', 'throughput', 'memory', 'list', 'properties'] as const;
export type SectionName = (typeof SECTIONS)[number];

export const GOALS = {
  suiteWallMs: 5_000,
  suiteCriticalRatio: 1.5,
  throughputRatio: 2,
  memoryChange: 0.2,
  listExponent: 1.2,
};

export interface BenchOptions {
  repeats: number;
  quick: boolean;
  out: string;
  only: SectionName[];
  log(line: string): void;
}

type Failed = { error: string };
export interface MemorySection {
  runs: MemoryResult[];
  rss10: number;
  rss100: number;
  /** (rss at the last sample − rss at the first) / rss at the first, medians over runs. */
  rssChange: number;
  heapChange: number;
  samplePoints: number[];
}
export interface ListSection extends ListResult {
  options: ListOptions;
}

export interface BenchResults {
  version: 1;
  startedAt: string;
  durationMs: number;
  quick: boolean;
  repeats: number;
  machine: { cpus: number; model: string; node: string; platform: string; totalMemMB: number; loadavgBefore: number[]; loadavgAfter: number[] };
  goals: typeof GOALS;
  suite: SuiteSection | Failed | null;
  throughput: ThroughputSection | Failed | null;
  memory: MemorySection | Failed | null;
  list: ListSection | Failed | null;
  properties: PropertiesSection | Failed | null;
  table: Row[];
}

const USAGE = `usage: tsx scripts/bench.ts [--repeats N] [--quick] [--out FILE] [--only ${SECTIONS.join(',')}]
  --repeats N   runs per measurement; the table shows medians (default 3; --quick: 1)
  --quick       smoke mode: tiny workloads, a one-check suite (numbers not comparable with the goals)
  --out FILE    JSON results (default bench-results.json)
  --only LIST   sections to run (default all)`;

export function parseBenchArgs(argv: string[]): BenchOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      repeats: { type: 'string' },
      quick: { type: 'boolean', default: false },
      out: { type: 'string' },
      only: { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return 'help';
  const quick = values.quick!;
  let repeats = quick ? 1 : 3;
  if (values.repeats !== undefined) {
    repeats = Number(values.repeats);
    if (!Number.isInteger(repeats) || repeats < 1 || repeats > 50) throw new Error(`--repeats takes a whole number 1 … 50, got "${values.repeats}"`);
  }
  const only = (values.only ?? [])
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = only.filter((s) => !(SECTIONS as readonly string[]).includes(s));
  if (bad.length) throw new Error(`--only: unknown section(s) ${bad.join(', ')} (sections: ${SECTIONS.join(', ')})`);
  return {
    repeats,
    quick,
    out: values.out ?? 'bench-results.json',
    only: only.length ? (only as SectionName[]) : [...SECTIONS],
    log: (l) => process.stderr.write(l + '\n'),
  };
}

async function section<T>(name: SectionName, o: BenchOptions, f: () => Promise<T>): Promise<T | Failed | null> {
  if (!o.only.includes(name)) return null;
  o.log(`[bench] ${name} …`);
  const t0 = performance.now();
  try {
    const r = await f();
    o.log(`[bench] ${name}: ${Math.round(performance.now() - t0)} ms`);
    return r;
  } catch (e) {
    const error = e instanceof Error ? e.message : String(e);
    o.log(`[bench] ${name} failed: ${error}`);
    return { error };
  }
}

const failed = (x: unknown): x is Failed =>
  typeof x === 'object' && x !== null && 'error' in x && typeof (x as Failed).error === 'string' && Object.keys(x).length === 1;

export async function runBench(o: BenchOptions): Promise<BenchResults> {
  const started = new Date();
  const t0 = performance.now();
  const loadavgBefore = loadavg().map((x) => round(x, 2));
  const q = o.quick;

  const suite = await section('suite', o, () =>
    benchSuite({ root: ROOT, repeats: o.repeats, only: q ? [TRIVIAL_CHECK] : undefined, cliTimeoutMs: q ? 60_000 : 180_000, log: o.log }),
  );
  const throughput = await section('throughput', o, () =>
    benchThroughput({
      root: ROOT,
      repeats: o.repeats,
      n: q ? 200 : 10_000,
      kInProcess: q ? 8 : 128,
      kStdio: q ? 8 : 64,
      // Until both servers run at their steady pace: the reference's tasks/s rises over its first ~15k tasks (JIT), the SDK server's over ~5k.
      warmup: q ? 20 : 20_000,
      pollDelayMs: 1,
      log: o.log,
    }),
  );
  const memory = await section('memory', o, async (): Promise<MemorySection> => {
    const opts: MemoryOptions = { samples: q ? [500, 1_500] : [10_000, 100_000], minTtl: 50, k: 16, budgetMs: q ? 20_000 : 180_000 };
    const runs: MemoryResult[] = [];
    for (let i = 0; i < o.repeats; i++) {
      const r = await runJsonChild<MemoryResult>(['--expose-gc'], 'scripts/bench/memory.ts', ['memory', JSON.stringify(opts)], {
        cwd: ROOT,
        timeoutMs: opts.budgetMs + 60_000,
      });
      // A run past its budget still has its samples (at fewer tasks: the row says so); only no samples at all is an error.
      if (r.samples.length < 2) throw new Error(`memory: only ${r.samples.length} sample(s)${r.error ? `: ${r.error}` : ''}`);
      runs.push(r);
      o.log(
        `  memory: RSS ${r.samples.map((s) => `${s.rssMB} MB at ${s.expiredTasks}`).join(', ')}; heap ${r.samples.map((s) => `${s.heapUsedMB} MB`).join(', ')} (gc: ${r.gcAvailable}; ttl ${r.ttl} ms from p99 latency ${r.latencyP99Ms} ms; ${r.expiredBeforeResult} expired before their result, ${r.failedRequests} failed requests${r.firstFailure ? `: ${r.firstFailure}` : ''}${r.error ? `; ${r.error}` : ''})`,
      );
    }
    const first = (r: MemoryResult) => r.samples[0]!;
    const last = (r: MemoryResult) => r.samples[r.samples.length - 1]!;
    const rss10 = median(runs.map((r) => first(r).rssMB));
    const rss100 = median(runs.map((r) => last(r).rssMB));
    return {
      runs,
      samplePoints: opts.samples,
      rss10,
      rss100,
      rssChange: round(median(runs.map((r) => (last(r).rssMB - first(r).rssMB) / first(r).rssMB)), 3),
      heapChange: round(median(runs.map((r) => (last(r).heapUsedMB - first(r).heapUsedMB) / first(r).heapUsedMB)), 3),
    };
  });
  const list = await section('list', o, async (): Promise<ListSection> => {
    const opts: ListOptions = q
      ? { sizes: [200, 1_000], pageSize: 50, repeats: o.repeats, createBudgetMs: 10_000, walkBudgetMs: 10_000 }
      : { sizes: [1_000, 10_000, 100_000], pageSize: 100, repeats: o.repeats, createBudgetMs: 60_000, walkBudgetMs: 30_000 };
    const bound = opts.sizes.length * (opts.createBudgetMs + opts.repeats * opts.walkBudgetMs) + 60_000;
    const r = await runJsonChild<ListResult>(['--expose-gc'], 'scripts/bench/memory.ts', ['list', JSON.stringify(opts)], { cwd: ROOT, timeoutMs: bound });
    for (const p of r.points)
      o.log(
        `  list: ${p.liveTasks} live tasks (created in ${p.createMs} ms): walk ${p.walkMs.median} ms over ${p.pages} pages${p.error ? ` (${p.error})` : ''}`,
      );
    return { ...r, options: opts };
  });
  const properties = await section('properties', o, () =>
    benchProperties({ root: ROOT, repeats: o.repeats, runs: q ? 3 : 100, seed: 42, timeoutMs: q ? 20_000 : 120_000, log: o.log }),
  );

  const results: BenchResults = {
    version: 1,
    startedAt: started.toISOString(),
    durationMs: 0,
    quick: q,
    repeats: o.repeats,
    machine: {
      cpus: cpus().length,
      model: cpus()[0]?.model ?? 'unknown',
      node: process.version,
      platform: `${process.platform} ${process.arch}`,
      totalMemMB: Math.round(totalmem() / 1024 / 1024),
      loadavgBefore,
      loadavgAfter: loadavg().map((x) => round(x, 2)),
    },
    goals: GOALS,
    suite,
    throughput,
    memory,
    list,
    properties,
    table: [],
  };
  results.table = buildTable(results);
  results.durationMs = Math.round(performance.now() - t0);
  return results;
}

// --- the table ---------------------------------------------------------------------------------

const s1 = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : '—');
const x2 = (r: number) => (Number.isFinite(r) ? `${r.toFixed(2)}×` : '—');
const pct = (r: number) => (Number.isFinite(r) ? `${r >= 0 ? '+' : ''}${(r * 100).toFixed(1)} %` : '—');
const num = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '—');
const k = (n: number) => (n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : String(n));

export function buildTable(r: BenchResults): Row[] {
  const rows: Row[] = [];
  const judge = (ok: boolean | null): Verdict => (r.quick ? 'n/a' : ok === null ? 'n/a' : ok ? 'met' : 'missed');
  const add = (id: string, measurement: string, value: string, number: number | null, unit: string, goal = '—', verdict: Verdict = 'info') =>
    rows.push({ id, measurement, value, number: number !== null && Number.isFinite(number) ? number : null, unit, goal, verdict });
  const err = (id: string, name: string, e: Failed) => add(id, `${name}: error`, e.error.slice(0, 80), null, '', '—', 'n/a');

  const s = r.suite;
  if (s && failed(s)) err('suite', 'suite', s);
  else if (s) {
    const what = s.selection === 'all' ? `${s.checks} checks` : `--only ${s.selection.join(',')}`;
    const st = s.stdio.wallMs.median;
    const ht = s.http.wallMs.median;
    const crit = s.criticalPath.knownMs;
    add('suite.stdio.wall', `suite wall time, stdio (${what})`, s1(st), st, 'ms', `≤ ${s1(GOALS.suiteWallMs)}`, judge(st <= GOALS.suiteWallMs));
    add('suite.http.wall', `suite wall time, HTTP (${what})`, s1(ht), ht, 'ms', `≤ ${s1(GOALS.suiteWallMs)}`, judge(ht <= GOALS.suiteWallMs));
    add('suite.critical', 'critical-path waits (longest check: its timers)', crit > 0 ? s1(crit) : '—', crit, 'ms');
    add('suite.floor', 'suite in process, all checks at once', s1(s.criticalPath.inProcessFloorMs.median), s.criticalPath.inProcessFloorMs.median, 'ms');
    add(
      'suite.ratio.stdio',
      'stdio wall / critical-path waits',
      x2(s.ratios.stdio),
      s.ratios.stdio,
      'x',
      `≤ ${GOALS.suiteCriticalRatio}×`,
      crit > 0 ? judge(s.ratios.stdio <= GOALS.suiteCriticalRatio) : 'n/a',
    );
    add(
      'suite.ratio.http',
      'HTTP wall / critical-path waits',
      x2(s.ratios.http),
      s.ratios.http,
      'x',
      `≤ ${GOALS.suiteCriticalRatio}×`,
      crit > 0 ? judge(s.ratios.http <= GOALS.suiteCriticalRatio) : 'n/a',
    );
    add('suite.cli-fixed', `CLI fixed cost, stdio (--only ${TRIVIAL_CHECK})`, s1(s.overhead.cliFixedStdioMs.median), s.overhead.cliFixedStdioMs.median, 'ms');
    for (const u of s.users) {
      const conns = median(u.runs.map((x) => x.connections));
      const checks = median(u.runs.map((x) => x.checks));
      add(`suite.users.${u.id}`, `${u.what}: ${checks} checks, ${conns} connections`, s1(u.wallMs.median), u.wallMs.median, 'ms');
    }
    const conns = median(s.stdio.runs.map((x) => x.connections));
    add(
      'suite.spawn',
      'receiver spawn + initialize (stdio), per run',
      `${(s.overhead.spawnInitMs.median / 1000).toFixed(2)} s × ${Number.isFinite(conns) ? conns : '?'}`,
      s.overhead.spawnInitMs.median,
      'ms',
    );
  }

  const t = r.throughput;
  if (t && failed(t)) err('throughput', 'throughput', t);
  else if (t) {
    for (const [key, label, p, kk] of [
      ['inproc', 'in process', t.inProcess, t.kInProcess],
      ['stdio', 'stdio', t.stdio, t.kStdio],
    ] as const) {
      add(
        `throughput.${key}.reference`,
        `throughput ${label}, reference (K=${kk})`,
        `${num(p.reference.tasksPerSec.median)} tasks/s`,
        p.reference.tasksPerSec.median,
        'tasks/s',
      );
      add(
        `throughput.${key}.sdk`,
        `throughput ${label}, SDK server (K=${kk})`,
        `${num(p.sdk.tasksPerSec.median)} tasks/s`,
        p.sdk.tasksPerSec.median,
        'tasks/s',
      );
      add(
        `throughput.${key}.ratio`,
        `throughput ${label}, reference / SDK`,
        x2(p.ratio),
        p.ratio,
        'x',
        `≥ ${GOALS.throughputRatio}×`,
        judge(p.ratio >= GOALS.throughputRatio),
      );
      add(`throughput.${key}.cpu-ratio`, `  same, tasks per CPU-second${key === 'stdio' ? ' of the server' : ''}`, x2(p.cpuRatio), p.cpuRatio, 'x');
      if (key === 'stdio') {
        // The server's CPU time over the wall time: near 100 % the row is a capacity, well below it a latency.
        const busy = (side: typeof p.reference) => median(side.runs.map((run) => (run.cpuMs ?? NaN) / run.elapsedMs));
        const [ref, sdk] = [busy(p.reference), busy(p.sdk)];
        const pc = (b: number) => (Number.isFinite(b) ? `${Math.round(b * 100)} %` : '—');
        add('throughput.stdio.busy', '  server CPU busy, reference · SDK', `${pc(ref)} · ${pc(sdk)}`, ref, 'fraction');
      }
    }
  }

  const m = r.memory;
  if (m && failed(m)) err('memory', 'memory', m);
  else if (m) {
    const [a, b] = [m.samplePoints[0]!, m.samplePoints[m.samplePoints.length - 1]!];
    add('memory.rss.first', `RSS after ${k(a)} expired tasks`, `${m.rss10} MB`, m.rss10, 'MB');
    add('memory.rss.last', `RSS after ${k(b)} expired tasks`, `${m.rss100} MB`, m.rss100, 'MB');
    add(
      'memory.rss.change',
      `RSS change ${k(a)} → ${k(b)} expired`,
      pct(m.rssChange),
      m.rssChange,
      'fraction',
      `within ±${GOALS.memoryChange * 100} %`,
      judge(Math.abs(m.rssChange) <= GOALS.memoryChange),
    );
    add('memory.heap.change', `  heap used change ${k(a)} → ${k(b)}`, pct(m.heapChange), m.heapChange, 'fraction');
    const ttls = m.runs.map((x) => x.ttl);
    const expired = m.runs.reduce((n, x) => n + x.expiredBeforeResult, 0);
    const failedRequests = m.runs.reduce((n, x) => n + x.failedRequests, 0);
    const short = m.runs.filter((x) => x.error).length;
    add(
      'memory.expired-before-result',
      `  ttl ${Math.min(...ttls)}–${Math.max(...ttls)} ms (${TTL_PER_LATENCY} × p99 latency): expired before their result, failed`,
      `${num(expired)}, ${num(failedRequests)}${short ? ` (${short} run(s) past the budget)` : ''}`,
      expired,
      'tasks',
    );
  }

  const l = r.list;
  if (l && failed(l)) err('list', 'list', l);
  else if (l) {
    for (const p of l.points) {
      const short = p.liveTasks < p.requested ? ` (only ${num(p.liveTasks)} created in ${s1(l.options.createBudgetMs)})` : '';
      add(
        `list.walk.${p.requested}`,
        `tasks/list walk, ${k(p.requested)} live tasks${short}`,
        `${p.walkMs.median} ms / ${p.pages} pages`,
        p.walkMs.median,
        'ms',
      );
    }
    const last = l.exponents[l.exponents.length - 1];
    add(
      'list.exponent',
      `tasks/list walk scaling${last ? ` ${k(last.from)} → ${num(last.to)}` : ''} (1 = linear)`,
      last ? `n^${last.exponent}` : '—',
      last?.exponent ?? null,
      'exponent',
      `linear (≤ n^${GOALS.listExponent})`,
      last ? judge(last.exponent <= GOALS.listExponent) : 'n/a',
    );
    const big = l.points[l.points.length - 1];
    if (big)
      add(
        'list.create',
        `creating the ${k(big.requested)} live tasks (one requestor)`,
        `${s1(big.createMs)} (${big.createUsPerTask} µs/task)`,
        big.createMs,
        'ms',
      );
  }

  const p = r.properties;
  if (p && failed(p)) err('properties', 'properties', p);
  else if (p)
    add(
      'properties.rate',
      `property runs: state-machine sequences/s (${p.runs} runs, seed ${p.seed})`,
      `${p.sequencesPerSec.median}/s`,
      p.sequencesPerSec.median,
      'sequences/s',
    );
  return rows;
}

export async function main(argv: string[]): Promise<number> {
  let o: BenchOptions | 'help';
  try {
    o = parseBenchArgs(argv);
  } catch (e) {
    process.stderr.write(`bench: ${e instanceof Error ? e.message : String(e)}\n${USAGE}\n`);
    return 2;
  }
  if (o === 'help') {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  const r = await runBench(o);
  const m = r.machine;
  process.stdout.write(
    `mcp-tasks-conformance bench${r.quick ? ' (--quick: smoke values, goals not judged)' : ''} — ${r.repeats} run(s) each, medians; ${m.cpus} × ${m.model}, Node ${m.node}, load ${m.loadavgBefore.join('/')} → ${m.loadavgAfter.join('/')}\n\n` +
      formatTable(r.table) +
      `\n\n${(r.durationMs / 1000).toFixed(0)} s; JSON: ${o.out}\n`,
  );
  writeFileSync(resolve(o.out), JSON.stringify(r, null, 2) + '\n');
  const errors = SECTIONS.filter((s) => failed(r[s]));
  return errors.length ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // Exit explicitly: the SDK server's InMemoryTaskStore keeps ttl timers that are not unref'd.
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e) => {
      process.stderr.write(`bench: ${e instanceof Error ? e.stack : String(e)}\n`);
      process.exit(1);
    },
  );
}
