// `npm run interop`: the implementations matrix. Installs each pinned third-party implementation of
// fixtures/interop/implementations.ts into a folder of its own under a temporary folder, grades it the
// way a user would (the `server` command with and without its profile, over each transport it offers;
// the `client` command for clients), one target at a time, every run bounded, on loopback only, and
// writes docs/IMPLEMENTATIONS.md (scripts/interop/page.ts). Golden-backed rows come from the goldens;
// the live run is compared with them and the differences are printed and named on the page.
//
//   npm run interop                          # everything, writes docs/IMPLEMENTATIONS.md
//   npm run interop -- --only mcp-framework  # some implementations (the page keeps only those rows: review before committing)
//   npm run interop -- --keep                # keep the temporary folder (installs, JSON reports, logs)
//   npm run interop -- --refresh             # after a golden or a finding changed: those rows made again, nothing run
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { freePort, type Golden } from '../fixtures/targets.ts';
import { IMPLEMENTATIONS, LOOPBACK_PRELOAD, resolveArgs, type Implementation, type Transport } from '../fixtures/interop/implementations.ts';
import type { Status } from '../suites/engine/check.ts';
import { SPEC_REVISION } from '../schema/spec.ts';
import { coverageWithin, formatCoverage, goldenRows, liveRows, refreshGoldenRows, renderPage, type Row } from './interop/page.ts';

const ROOT = resolve(import.meta.dirname, '..');
const INSTALL_TIMEOUT_MS = 240_000;
const START_TIMEOUT_MS = 30_000;
/** Bound for one graded run (the suite's own per-check bounds are far below it). */
const RUN_TIMEOUT_MS = 360_000;

interface LiveCheck {
  id: string;
  status: Status;
  message: string;
}
export interface RunOutcome {
  checks: LiveCheck[];
  coverage?: string;
  /** What got in the way, when the run has no report or was cut short. */
  note?: string;
  command: string;
}

const log = (line: string) => process.stderr.write(`[interop] ${line}\n`);
const quote = (s: string) => (/[\s"']/.test(s) ? `"${s.replace(/(["\\])/g, '\\$1')}"` : s);

/** Runs a command to its end, bounded; output goes to `logFile`. */
function run(
  command: string,
  args: string[],
  opts: { cwd: string; timeoutMs: number; logFile: string; env?: NodeJS.ProcessEnv },
): Promise<{ code: number | null; timedOut: boolean }> {
  return new Promise((done) => {
    const out = createWriteStream(opts.logFile);
    const child = spawn(command, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      stop(child);
    }, opts.timeoutMs);
    child.on('error', (e) => out.write(`spawn error: ${e.message}\n`));
    child.on('close', (code) => {
      clearTimeout(timer);
      out.end(() => done({ code, timedOut }));
    });
  });
}

/** SIGTERM, then SIGKILL if it is still there after 3 s. */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 3_000);
    child.once('exit', () => {
      clearTimeout(kill);
      done();
    });
    child.kill('SIGTERM');
  });
}

const tail = (file: string, n = 6) =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .trimEnd()
        .split('\n')
        .slice(-n)
        .map((l) => l.slice(0, 200))
        .join(' / ')
    : '';

async function install(impl: Implementation, dir: string): Promise<string | undefined> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `interop-${impl.id}`, private: true, type: 'module', dependencies: impl.install }, null, 2));
  for (const f of impl.copy ?? []) cpSync(join(ROOT, f), join(dir, basename(f)));
  const spec = Object.entries(impl.install!).map(([p, v]) => `${p}@${v}`);
  log(`${impl.id}: npm install ${spec.join(' ')}`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = await run(npm, ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock'], {
    cwd: dir,
    timeoutMs: INSTALL_TIMEOUT_MS,
    logFile: join(dir, 'install.log'),
  });
  if (r.timedOut || r.code !== 0) return `npm install ${r.timedOut ? 'timed out' : `exited with ${r.code}`}: ${tail(join(dir, 'install.log'), 3)}`;
  return undefined;
}

/** Starts an HTTP target on a free loopback port; resolves with its URL and the process. */
async function startHttp(impl: Implementation, dir: string, logFile: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const s = impl.http!(port);
  const args = ['--import', pathToFileURL(join(ROOT, LOOPBACK_PRELOAD)).href, ...resolveArgs(s.args, dir)];
  const child = spawn(process.execPath, args, { cwd: impl.install ? dir : ROOT, env: { ...process.env, ...s.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = createWriteStream(logFile);
  let seen = '';
  await new Promise<void>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`did not print ${s.ready} within ${START_TIMEOUT_MS / 1000} s: ${seen.slice(-300)}`)), START_TIMEOUT_MS);
    const on = (d: Buffer) => {
      out.write(d);
      if (seen.length < 10_000) seen += d.toString();
      if (s.ready.test(seen)) {
        clearTimeout(timer);
        ok();
      }
    };
    child.stdout!.on('data', on);
    child.stderr!.on('data', on);
    child.on('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`exited with ${code} before listening: ${seen.slice(-300)}`));
    });
  }).catch(async (e) => {
    await stop(child);
    throw e;
  });
  return { url: `http://127.0.0.1:${port}${s.path ?? '/mcp'}`, child };
}

/** One run of the CLI (`server …` or `client …`), bounded; what its JSON report says. */
async function grade(cliArgs: string[], display: string, work: string, name: string): Promise<RunOutcome> {
  const json = join(work, `${name}.json`);
  const logFile = join(work, `${name}.log`);
  log(`${name}: mcp-tasks-conformance ${display}`);
  const started = Date.now();
  const r = await run(process.execPath, ['--import', 'tsx', 'scripts/cli.ts', ...cliArgs, '--json', json, '--no-color'], {
    cwd: ROOT,
    timeoutMs: RUN_TIMEOUT_MS,
    logFile,
  });
  log(`${name}: exit ${r.timedOut ? 'timed out' : r.code} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const command = `mcp-tasks-conformance ${display}`;
  if (r.timedOut) return { checks: [], note: `the run did not finish within ${RUN_TIMEOUT_MS / 1000} s`, command };
  if (!existsSync(json)) return { checks: [], note: `no report (exit ${r.code}): ${tail(logFile, 3)}`, command };
  const report = JSON.parse(readFileSync(json, 'utf8')) as {
    checks: LiveCheck[];
    coverage?: Parameters<typeof formatCoverage>[0];
    targetDown?: { check: string; reason: string }[];
  };
  const down = report.targetDown?.[0];
  return {
    checks: report.checks.map((c) => ({ id: c.id, status: c.status, message: c.message })),
    ...(report.coverage ? { coverage: formatCoverage(report.coverage) } : {}),
    ...(down ? { note: `the target stopped running during ${down.check}: ${down.reason}` } : {}),
    command,
  };
}

/** The display form of node arguments: `node <args>` with the temporary folder written $DIR. */
const displayNode = (args: string[]) => ['node', ...args].map(quote).join(' ');

async function gradeImplementation(impl: Implementation, tmp: string, liveNotes: string[]): Promise<Row[]> {
  const rows: Row[] = [];
  if (impl.notGraded) {
    rows.push({
      impl: impl.id,
      role: impl.kind === 'client' ? 'requestor' : 'receiver',
      transport: '—',
      revision: impl.revision,
      run: '—',
      source: { notGraded: impl.notGraded },
      findings: [],
    });
    return rows;
  }
  const dir = impl.install ? join(tmp, impl.id) : ROOT;
  const work = join(tmp, 'runs');
  mkdirSync(work, { recursive: true });
  const failed = impl.install ? await install(impl, dir) : undefined;
  const golden = goldenRows(impl);
  const notStarted = (transport: Transport, run: string, note: string) => rows.push(...liveRows(impl, transport, run, [], undefined, note));

  if (impl.kind === 'client') {
    const transport: Transport = 'http';
    if (failed) return (notStarted(transport, 'all scenarios', failed), rows);
    const command = displayNode(resolveArgs(impl.client!.args, dir));
    const displayCmd = displayNode(resolveArgs(impl.client!.args, '$DIR'));
    const tools = impl.client!.tools?.length ? ['--tool', impl.client!.tools.join(',')] : [];
    // The client command grades 2025-11-25 unless told another revision.
    const revision = impl.revision === SPEC_REVISION ? [] : ['--revision', impl.revision];
    const outcome = await grade(
      ['client', ...revision, '--command', command, ...tools],
      ['client', ...revision, '--command', quote(displayCmd), ...tools.map(quote)].join(' '),
      work,
      `${impl.id}-client`,
    );
    liveNotes.push(`\`${outcome.command}\``);
    if (impl.goldens?.http) {
      rows.push(...golden);
      liveNotes.push(...compareClient(impl.goldens.http, outcome));
    } else rows.push(...liveRows(impl, transport, 'all scenarios', outcome.checks, undefined, outcome.note));
    return rows;
  }

  for (const transport of ['stdio', 'http'] as Transport[]) {
    if (transport === 'stdio' ? !impl.stdio : !impl.http) continue;
    for (const withProfile of impl.profile ? [true, false] : [false]) {
      const runName = withProfile ? 'profile' : 'no profile';
      const name = `${impl.id}-${transport}-${withProfile ? 'profile' : 'discovery'}`;
      if (failed) {
        notStarted(transport, runName, failed);
        continue;
      }
      const profile = withProfile ? ['--profile', impl.profile!] : [];
      let outcome: RunOutcome;
      let target: ChildProcess | undefined;
      try {
        const prof = withProfile ? ` --profile ${impl.profile}` : '';
        let targetArgs: string[];
        let display: string;
        if (transport === 'stdio') {
          targetArgs = ['--stdio', [process.execPath, ...resolveArgs(impl.stdio!, dir)].map(quote).join(' ')];
          display = `server --stdio ${quote(displayNode(resolveArgs(impl.stdio!, '$DIR')))}${prof}`;
        } else {
          const started = await startHttp(impl, dir, join(work, `${name}-target.log`));
          target = started.child;
          targetArgs = ['--url', started.url];
          const env = Object.entries(impl.http!(0).env ?? {})
            .map(([k]) => `${k}=<port> `)
            .join('');
          display = `server --url http://127.0.0.1:<port>/mcp${prof}\` against \`${env}${displayNode(resolveArgs(impl.http!(0).args, '$DIR'))}`;
        }
        outcome = await grade(['server', ...targetArgs, ...profile], display, work, name);
      } catch (e) {
        outcome = { checks: [], note: `the target did not start: ${e instanceof Error ? e.message : String(e)}`, command: '' };
      } finally {
        if (target) await stop(target);
      }
      if (outcome.command) liveNotes.push(`\`${outcome.command}\``);
      const gold = withProfile ? impl.goldens?.[transport] : undefined;
      if (gold) {
        // The receiver row is the golden's; the live run is compared with it. Requestor checks (the
        // profile's requestor roles) have no golden: their row is the live run's.
        const g = golden.find((r) => r.transport === transport)!;
        rows.push(g);
        liveNotes.push(...compareServer(gold, transport, outcome, g.coverage));
        rows.push(
          ...liveRows(
            impl,
            transport,
            runName,
            outcome.checks.filter((c) => c.id.startsWith('requestor.')),
            undefined,
          ).filter((r) => r.role === 'requestor'),
        );
      } else rows.push(...liveRows(impl, transport, runName, outcome.checks, outcome.coverage, outcome.note));
    }
  }
  return rows;
}

/** Where a live run disagrees with the golden: one note per difference (none: one line saying it matched). */
function compareServer(name: string, transport: Transport, outcome: RunOutcome, goldenCoverage: string | undefined): string[] {
  const golden = JSON.parse(readFileSync(join(ROOT, 'fixtures/golden', `${name}.json`), 'utf8')) as Golden;
  const live = new Map(outcome.checks.map((c) => [c.id, c]));
  const diffs: string[] = [];
  for (const [id, allowed] of Object.entries(golden.checks)) {
    const c = live.get(id);
    if (!c) diffs.push(`\`${id}\`: golden ${allowed}, not in the live run`);
    else if (!allowed.split('|').includes(c.status)) diffs.push(`\`${id}\`: golden ${allowed}, live ${c.status} (${c.message.split('\n')[0]!.slice(0, 160)})`);
  }
  if (outcome.note) diffs.push(outcome.note);
  if (outcome.coverage && goldenCoverage && !coverageWithin(outcome.coverage, goldenCoverage) && !diffs.length)
    diffs.push(`coverage: golden ${goldenCoverage}, live ${outcome.coverage}`);
  for (const d of diffs) log(`${name}: differs from the golden: ${d}`);
  return diffs.length
    ? [`live run over ${transport} with the profile differs from \`fixtures/golden/${name}.json\` (review; the row shows the golden): ${diffs.join('; ')}`]
    : [`live run over ${transport} with the profile: every verdict as \`fixtures/golden/${name}.json\` allows`];
}

export function compareClient(name: string, outcome: RunOutcome): string[] {
  const golden = JSON.parse(readFileSync(join(ROOT, 'fixtures/golden', `${name}.json`), 'utf8')) as {
    checks: Record<string, { status: string }>;
    receiverChecks?: { checks: Record<string, { status: string }> };
  };
  const want = (id: string) => golden.checks[id]?.status ?? golden.receiverChecks?.checks[id.replace(/@.*$/, '')]?.status;
  const diffs = outcome.checks
    .filter((c) => want(c.id) !== undefined && !want(c.id)!.split('|').includes(c.status))
    .map((c) => `\`${c.id}\`: golden ${want(c.id)}, live ${c.status} (${c.message.split('\n')[0]!.slice(0, 160)})`);
  if (outcome.note) diffs.push(outcome.note);
  for (const d of diffs) log(`${name}: differs from the golden: ${d}`);
  return diffs.length
    ? [`live run differs from \`fixtures/golden/${name}.json\` (review; the rows show the golden): ${diffs.join('; ')}`]
    : [`live run: every verdict as \`fixtures/golden/${name}.json\` allows`];
}

export async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      only: { type: 'string', multiple: true },
      keep: { type: 'boolean', default: false },
      out: { type: 'string', default: 'docs/IMPLEMENTATIONS.md' },
      refresh: { type: 'boolean', default: false },
    },
  });
  if (values.refresh) {
    // No install, no run: the golden-backed rows of the page made again from fixtures/golden/.
    const file = resolve(ROOT, values.out!);
    writeFileSync(
      file,
      refreshGoldenRows(
        readFileSync(file, 'utf8'),
        IMPLEMENTATIONS.flatMap((i) => goldenRows(i)),
      ),
    );
    log(`refreshed the golden-backed rows and reviewed findings of ${values.out}`);
    return 0;
  }
  const only = (values.only ?? []).flatMap((s) => s.split(',')).filter(Boolean);
  const unknown = only.filter((id) => !IMPLEMENTATIONS.some((i) => i.id === id));
  if (unknown.length) {
    process.stderr.write(`interop: unknown implementation ${unknown.join(', ')} (known: ${IMPLEMENTATIONS.map((i) => i.id).join(', ')})\n`);
    return 2;
  }
  const tmp = mkdtempSync(join(tmpdir(), 'mcp-tasks-interop-'));
  log(`temporary folder ${tmp}`);
  const rows: Row[] = [];
  const liveNotes: Record<string, string[]> = {};
  try {
    for (const impl of IMPLEMENTATIONS.filter((i) => !only.length || only.includes(i.id))) {
      liveNotes[impl.id] = [];
      rows.push(...(await gradeImplementation(impl, tmp, liveNotes[impl.id]!)));
    }
  } finally {
    if (!values.keep) rmSync(tmp, { recursive: true, force: true });
    else log(`kept ${tmp}`);
  }
  const page = renderPage({ rows, generatedAt: new Date().toISOString().slice(0, 10), node: process.version, liveNotes });
  writeFileSync(resolve(ROOT, values.out!), page);
  log(`wrote ${values.out} (${rows.length} rows)`);
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main(process.argv.slice(2)).then((code) => process.exit(code));
