// Small helpers of the benchmarks: medians, bounded child processes, the result table.
import { execFile, spawn } from 'node:child_process';

export function median(xs: number[]): number {
  const v = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return NaN;
  const m = Math.floor(v.length / 2);
  return v.length % 2 ? v[m]! : (v[m - 1]! + v[m]!) / 2;
}

export function round(x: number, digits = 1): number {
  if (!Number.isFinite(x)) return x;
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** A series of samples and their median. */
export interface Series {
  samples: number[];
  median: number;
}

export function series(samples: number[], digits = 1): Series {
  return { samples: samples.map((s) => round(s, digits)), median: round(median(samples), digits) };
}

export interface ExecResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  wallMs: number;
  timedOut: boolean;
}

/** Runs a command to its end, bounded by `timeoutMs` (then killed with SIGKILL). */
export function run(command: string, args: string[], opts: { cwd: string; timeoutMs: number; env?: NodeJS.ProcessEnv }): Promise<ExecResult> {
  return new Promise((resolve) => {
    const started = performance.now();
    execFile(
      command,
      args,
      { cwd: opts.cwd, timeout: opts.timeoutMs, killSignal: 'SIGKILL', maxBuffer: 64 << 20, env: opts.env ?? process.env },
      (err, stdout, stderr) => {
        const e = err as (NodeJS.ErrnoException & { code?: number | string; signal?: NodeJS.Signals; killed?: boolean }) | null;
        resolve({
          code: e ? (typeof e.code === 'number' ? e.code : null) : 0,
          signal: e?.signal ?? null,
          stdout,
          stderr,
          wallMs: performance.now() - started,
          timedOut: !!e?.killed && e.signal === 'SIGKILL',
        });
      },
    );
  });
}

/**
 * Starts a long-running process and waits (bounded) for a line on stderr matching `ready`.
 * Returns the match and a stop() that ends exactly this process.
 */
export function startServer(
  command: string,
  args: string[],
  ready: RegExp,
  opts: { cwd: string; timeoutMs: number; env?: NodeJS.ProcessEnv },
): Promise<{ match: RegExpExecArray; stop(): Promise<void> }> {
  return new Promise((resolve, reject) => {
    // `ready` is looked for on stderr and stdout (servers differ in where they say so).
    const child = spawn(command, args, { cwd: opts.cwd, stdio: ['ignore', 'pipe', 'pipe'], env: opts.env ?? process.env });
    let err = '';
    let done = false;
    const stop = () =>
      new Promise<void>((res) => {
        if (child.exitCode !== null || child.signalCode !== null) return res();
        const t = setTimeout(() => {
          child.kill('SIGKILL');
        }, 3_000);
        child.once('exit', () => {
          clearTimeout(t);
          res();
        });
        child.kill('SIGTERM');
      });
    const timer = setTimeout(() => {
      if (done) return;
      done = true;
      void stop();
      reject(new Error(`${command} ${args.join(' ')}: not ready within ${opts.timeoutMs} ms; stderr: ${err.slice(-500)}`));
    }, opts.timeoutMs);
    const onOutput = (d: Buffer) => {
      err = (err + d.toString('utf8')).slice(-8192);
      const m = ready.exec(err);
      if (m && !done) {
        done = true;
        clearTimeout(timer);
        resolve({ match: m, stop });
      }
    };
    child.stderr!.on('data', onOutput);
    child.stdout!.on('data', onOutput);
    child.once('exit', (code, signal) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      reject(new Error(`${command} ${args.join(' ')} exited (${code ?? signal}) before it was ready; stderr: ${err.slice(-500)}`));
    });
  });
}

/** Runs `node [nodeArgs] --import tsx <script> <args>` and parses the last stdout line as JSON. */
export async function runJsonChild<T>(nodeArgs: string[], script: string, args: string[], opts: { cwd: string; timeoutMs: number }): Promise<T> {
  const r = await run(process.execPath, [...nodeArgs, '--import', 'tsx', script, ...args], opts);
  const last = r.stdout.trim().split('\n').pop() ?? '';
  if (r.code !== 0 || !last.startsWith('{')) {
    throw new Error(
      `${script} ${args.join(' ')}: ${r.timedOut ? `killed after ${opts.timeoutMs} ms` : `exit ${r.code ?? r.signal}`}; stderr: ${r.stderr.slice(-1500)}`,
    );
  }
  return JSON.parse(last) as T;
}

// --- the table ---------------------------------------------------------------------------------

export type Verdict = 'met' | 'missed' | 'info' | 'n/a';

export interface Row {
  /** Stable key (JSON). */
  id: string;
  measurement: string;
  /** Display value (the median where there are several runs). */
  value: string;
  /** Numeric value behind it, in `unit`. */
  number: number | null;
  unit: string;
  goal: string;
  verdict: Verdict;
}

export function formatTable(rows: Row[]): string {
  const head = ['measurement', 'value', 'goal', 'verdict'];
  const cells = rows.map((r) => [r.measurement, r.value, r.goal, r.verdict]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) =>
    c
      .map((x, i) => x.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}
