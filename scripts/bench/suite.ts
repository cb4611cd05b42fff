// Section 1: wall time of the `server` suite against the reference receiver (the real CLI, over stdio
// and over Streamable HTTP), against the unavoidable waits on its critical path.
//
// Critical path. The checks run concurrently, so with unbounded parallelism and a free transport the
// run cannot end before its longest check, and a check cannot end before the timers it waits for:
// the tool run times and ttls it depends on. Those waits are known from the profile and the check
// code (KNOWN_WAITS); the critical path is the largest of them. The in-process floor (every check at
// once against the reference receiver in this process: no spawning, no vitest, no sockets) measures
// the same thing empirically, polling granularity included.
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { receiverChecks2025 } from '../../suites/index.ts';
import { runChecks } from '../../suites/runner/session.ts';
import { selected } from '../../suites/engine/select.ts';
import { loadProfile } from '../../suites/runner/target.ts';
import { SHORT_TTL_MS } from '../../suites/receiver/ttl.ts';
import { DEFAULT_TIMINGS } from '../../mocks/receiver/index.ts';
import { freePort } from '../../fixtures/targets.ts';
import { BenchClient } from './client.ts';
import { round, run, series, startServer, type Series } from './stats.ts';
import { sparesFor } from '../../suites/runner/target.ts';
import { DEFAULT_RUN_OPTIONS } from '../../suites/engine/options.ts';
import { openTargetSession } from '../../suites/revisions.ts';

/** server-everything (a devDependency), the third-party server users try first. */
export const EVERYTHING = 'node_modules/@modelcontextprotocol/server-everything/dist/index.js';
/** The section of the `--only` rows against server-everything. */
export const ONE_SECTION = 'lifecycle';
/** Start-up of the slow-starting target (ms): a stand-in for a Python or `npx`-launched server. */
export const SLOW_START_MS = 1_000;

export const PROFILE_PATH = 'fixtures/reference.profile.json';
/** The compiled package (npm run build, run first): the CLI and the reference receiver on plain Node. */
export const CLI = 'dist/scripts/cli.js';
export const MOCK = 'dist/scripts/mock.js';
/**
 * The receiver suite only: the reference profile also names requestor roles, whose server-as-requestor
 * runs wait out the requestor's own schedule (pollInterval 3000 ms, tasks kept ~6.6 s), not the receiver's.
 */
export const RECEIVER_ONLY = ['--exclude', 'requestor'];

let building: Promise<void> | undefined;
/** Builds dist/ once per bench run (the sources may have changed since `npm ci`). */
export function ensureBuilt(root: string): Promise<void> {
  return (building ??= run(process.execPath, ['scripts/build.mjs'], { cwd: root, timeoutMs: 300_000 }).then((r) => {
    if (r.code !== 0) throw new Error(`npm run build failed: ${r.stderr.slice(-400)}`);
  }));
}
/** A check that takes a few ms: `--only` it to measure the CLI's fixed cost (the schema check runs too: it always runs last). */
export const TRIVIAL_CHECK = 'capabilities.declared-if-supported';

export interface KnownWait {
  check: string;
  ms: number;
  what: string;
}

/** The timer waits of the longest checks, for the reference receiver with the given profile. */
export function knownWaits(slowMs: number, pollMs: number): KnownWait[] {
  return [
    {
      check: 'cancel.stays-cancelled',
      ms: slowMs + 500,
      what: `its uncancelled twin "slow" task runs ${slowMs} ms; the check then polls the cancelled one ≥ 500 ms more (suites/receiver/cancel.ts)`,
    },
    {
      check: 'lifecycle.terminal-sticky-cancelled',
      ms: slowMs + 2 * pollMs,
      what: `twin "slow" task (${slowMs} ms), then 2 more polls at the pollInterval (${pollMs} ms)`,
    },
    {
      check: 'ttl.expired-deleted',
      ms: SHORT_TTL_MS,
      what: `ttl ${SHORT_TTL_MS} ms must elapse (the reference deletes on time: the 1500 ms grace for late deletion is not used)`,
    },
    { check: 'ttl.expired-cleaned-up', ms: SHORT_TTL_MS, what: `ttl ${SHORT_TTL_MS} ms` },
    { check: 'ttl.expired-error-code', ms: SHORT_TTL_MS, what: `ttl ${SHORT_TTL_MS} ms` },
    { check: 'progress.cancelled-notification-not-for-tasks', ms: 1_000, what: 'watches the task for 1000 ms after notifications/cancelled' },
  ];
}

export interface CliRun {
  wallMs: number;
  exitCode: number | null;
  /** From the JSON report. */
  checks: number;
  failed: number;
  /** Target connections used by the run (initialize requests in the report; over stdio each is a process), plus the shared one the pre-flight opens; stdio connections started ahead and not used are not counted. */
  connections: number;
  error?: string;
}

export interface SuiteSection {
  selection: 'all' | string[];
  checks: number;
  profile: string;
  criticalPath: {
    knownMs: number;
    waits: KnownWait[];
    inProcessFloorMs: Series;
    longestCheckInProcess: { id: string; ms: number };
  };
  stdio: { command: string; runs: CliRun[]; wallMs: Series };
  http: { runs: CliRun[]; wallMs: Series };
  overhead: {
    /** CLI over stdio with --only one trivial check: loading, pre-flight, vitest start-up, shared session, the runsLast checks. */
    cliFixedStdioMs: Series;
    /** Spawning `node dist/scripts/mock.js --stdio` until it answers initialize. */
    spawnInitMs: Series;
  };
  ratios: { stdio: number; http: number };
  /** The runs users wait for: zero config against server-everything (discovery included), with and without `--only` one section; the reference starting slowly. Not in quick mode. */
  users: UserRow[];
  /** stdio connections the CLI starts ahead (runner/spares.ts), at the default concurrency. */
  sparesAhead: number;
}

export interface UserRow {
  id: string;
  what: string;
  runs: CliRun[];
  wallMs: Series;
}

export interface SuiteOptions {
  root: string;
  repeats: number;
  /** Check selection (quick mode); default all. */
  only?: string[];
  cliTimeoutMs: number;
  log(line: string): void;
}

const quote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `"${s.replace(/(["\\])/g, '\\$1')}"`);

export async function benchSuite(o: SuiteOptions): Promise<SuiteSection> {
  const profile = loadProfile(join(o.root, PROFILE_PATH));
  const slowMs = Number(profile.tools.slow?.arguments?.ms ?? DEFAULT_TIMINGS.slowMs);
  const checks = receiverChecks2025.filter((c) => c.runsLast || selected(c, o.only));
  const ids = new Set(checks.map((c) => c.id));
  const waits = knownWaits(slowMs, 100).filter((w) => ids.has(w.check));
  const knownMs = Math.max(0, ...waits.map((w) => w.ms));
  const onlyArgs = (o.only ?? []).flatMap((id) => ['--only', id]);
  const stdioCommand = `${quote(process.execPath)} ${MOCK} --stdio`;
  await ensureBuilt(o.root);
  const tmp = mkdtempSync(join(tmpdir(), 'mtc-bench-'));

  const cli = async (target: string[], only: string[], selection = ['--profile', PROFILE_PATH, ...RECEIVER_ONLY]): Promise<CliRun> => {
    const json = join(tmp, `report-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
    const r = await run(process.execPath, [CLI, 'server', ...target, ...selection, '--json', json, '--no-color', ...only], {
      cwd: o.root,
      timeoutMs: o.cliTimeoutMs,
    });
    const out: CliRun = { wallMs: round(r.wallMs, 0), exitCode: r.code, checks: 0, failed: 0, connections: 0 };
    try {
      const report = JSON.parse(readFileSync(json, 'utf8'));
      out.checks = report.checks.length;
      out.failed = report.summary.fail;
      let inits = 0;
      for (const c of report.checks) for (const e of c.transcript ?? []) if (e.dir === 'out' && e.message?.method === 'initialize') inits++;
      // + the shared connection, opened by the pre-flight (its initialize is in no check's transcript)
      out.connections = inits + 1;
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      out.error = `no JSON report (${r.timedOut ? `killed after ${o.cliTimeoutMs} ms` : `exit ${r.code ?? r.signal}`}; ${why}): ${r.stderr.slice(-400)}`;
    }
    if (r.code !== 0 && !out.error) out.error = `exit ${r.code}: ${out.failed} check(s) failed`;
    return out;
  };
  const users: UserRow[] = [];
  /** A run users wait for; a failed check is the target's finding, not the bench's: only a missing report is noted. */
  const userRow = async (id: string, what: string, once: () => Promise<CliRun>) => {
    const runs: CliRun[] = [];
    for (let i = 0; i < o.repeats; i++) {
      const r = await once();
      runs.push(r);
      o.log(`  ${what}: ${r.wallMs} ms, ${r.checks} checks, ${r.connections} connections${r.error ? ` (${r.error})` : ''}`);
    }
    users.push({
      id,
      what,
      runs,
      wallMs: series(
        runs.filter((r) => r.checks > 0).map((r) => r.wallMs),
        0,
      ),
    });
  };

  const stdioRuns: CliRun[] = [];
  const httpRuns: CliRun[] = [];
  const fixed: number[] = [];
  const floors: number[] = [];
  let longest = { id: '', ms: 0 };
  try {
    for (let i = 0; i < o.repeats; i++) {
      // In-process floor: every selected check at once, in this process.
      const session = await openTargetSession({ target: { kind: 'reference', args: [] }, profile });
      const t0 = performance.now();
      const results = await runChecks(checks, session, checks.length);
      floors.push(performance.now() - t0);
      await session.close();
      for (const r of results) if (r.durationMs > longest.ms) longest = { id: r.id, ms: r.durationMs };
      const bad = results.filter((r) => r.status === 'fail');
      if (bad.length) o.log(`  in process: ${bad.length} check(s) failed: ${bad.map((r) => r.id).join(', ')}`);
      o.log(`  suite in process (all checks at once): ${Math.round(floors[floors.length - 1]!)} ms`);

      const s = await cli(['--stdio', stdioCommand], onlyArgs);
      stdioRuns.push(s);
      o.log(`  suite over stdio: ${s.wallMs} ms${s.error ? ` (${s.error})` : ''}`);

      const server = await startServer(process.execPath, [MOCK, '--http', '0'], /listening on (http:\/\/\S+\/mcp)/, { cwd: o.root, timeoutMs: 30_000 });
      try {
        const h = await cli(['--url', server.match[1]!], onlyArgs);
        httpRuns.push(h);
        o.log(`  suite over HTTP: ${h.wallMs} ms${h.error ? ` (${h.error})` : ''}`);
      } finally {
        await server.stop();
      }

      if (o.only === undefined) {
        const f = await cli(['--stdio', stdioCommand], ['--only', TRIVIAL_CHECK]);
        fixed.push(f.wallMs);
        o.log(`  CLI fixed cost (--only ${TRIVIAL_CHECK}, stdio): ${f.wallMs} ms`);
      }
    }
    if (o.only === undefined) {
      // The runs users wait for. server-everything with no profile: discovery (safe) finds its roles first.
      const everythingStdio = `${quote(process.execPath)} ${EVERYTHING} stdio`;
      const zeroConfig = ['--discover', 'safe'];
      await userRow('everything.stdio', 'server-everything, stdio, zero config', () => cli(['--stdio', everythingStdio], [], zeroConfig));
      await userRow('everything.http', 'server-everything, HTTP, zero config', () => withEverythingHttp(o.root, (url) => cli(['--url', url], [], zeroConfig)));
      await userRow('everything.stdio.only', `server-everything, stdio, zero config, --only ${ONE_SECTION}`, () =>
        cli(['--stdio', everythingStdio], ['--only', ONE_SECTION], zeroConfig),
      );
      await userRow('everything.http.only', `server-everything, HTTP, zero config, --only ${ONE_SECTION}`, () =>
        withEverythingHttp(o.root, (url) => cli(['--url', url], ['--only', ONE_SECTION], zeroConfig)),
      );
      // The reference receiver behind a start-up of SLOW_START_MS: what connections started ahead hide.
      const slowStdio = `sh -c ${quote(`sleep ${SLOW_START_MS / 1000}; exec ${quote(process.execPath)} ${MOCK} --stdio`)}`;
      await userRow('slow-start.stdio', `reference receiver starting in ${SLOW_START_MS / 1000} s, stdio`, () => cli(['--stdio', slowStdio], onlyArgs));
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  // In quick mode the selection is a trivial check already: its runs are the fixed cost.
  if (o.only !== undefined) fixed.push(...stdioRuns.map((r) => r.wallMs));

  const spawns: number[] = [];
  for (let i = 0; i < Math.max(3, o.repeats); i++) spawns.push(await spawnInit(o.root));

  const stdioWall = series(
    stdioRuns.map((r) => r.wallMs),
    0,
  );
  const httpWall = series(
    httpRuns.map((r) => r.wallMs),
    0,
  );
  return {
    selection: o.only ?? 'all',
    checks: checks.length,
    profile: PROFILE_PATH,
    criticalPath: { knownMs, waits, inProcessFloorMs: series(floors, 0), longestCheckInProcess: longest },
    stdio: { command: stdioCommand, runs: stdioRuns, wallMs: stdioWall },
    http: { runs: httpRuns, wallMs: httpWall },
    overhead: { cliFixedStdioMs: series(fixed, 0), spawnInitMs: series(spawns, 0) },
    ratios: {
      stdio: knownMs > 0 ? round(stdioWall.median / knownMs, 2) : NaN,
      http: knownMs > 0 ? round(httpWall.median / knownMs, 2) : NaN,
    },
    users,
    sparesAhead: sparesFor(DEFAULT_RUN_OPTIONS.concurrency),
  };
}

/** server-everything over Streamable HTTP on a port of its own for one run (its start-up not counted). */
async function withEverythingHttp<T>(root: string, f: (url: string) => Promise<T>): Promise<T> {
  const port = await freePort();
  const server = await startServer(process.execPath, [EVERYTHING, 'streamableHttp'], /listening on port/i, {
    cwd: root,
    timeoutMs: 30_000,
    env: { ...process.env, PORT: String(port) },
  });
  try {
    return await f(`http://127.0.0.1:${port}/mcp`);
  } finally {
    await server.stop();
  }
}

/** ms from spawning the reference receiver over stdio to its initialize response. */
async function spawnInit(root: string): Promise<number> {
  const t0 = performance.now();
  const client = new BenchClient(new StdioClientTransport({ command: process.execPath, args: [MOCK, '--stdio'], cwd: root, stderr: 'ignore' }), 30_000);
  try {
    await client.start();
    await client.initialize();
    return performance.now() - t0;
  } finally {
    await client.close();
  }
}
