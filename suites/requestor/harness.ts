// Runs a client under test against one scenario: starts the reference receiver set up for the
// scenario (Streamable HTTP on loopback, or stdio through a tiny bridge process the client spawns),
// launches the client with the server URL / server command line as its last argument and
// MCP_CONFORMANCE_SCENARIO=<name>, records every message of every receiver session (both directions,
// timestamped) through the receiver's tap, waits (bounded) for the client to exit, kills it after the
// timeout, and returns what was seen. It never throws for a misbehaving client.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createReferenceReceiver, type TapEvent } from '../../mocks/receiver/index.ts';
import { receiverOptionsFor, scenario as scenarioByName, type Scenario, type ScenarioTransport } from '../../mocks/receiver/scenarios.ts';
import { type TranscriptEntry } from '../wire/peer.ts';
import { splitCommand } from '../wire/connect.ts';

/** A transcript entry of one receiver session: `in` = the client sent it, `out` = the receiver sent it. */
export interface RecordedEntry extends TranscriptEntry {
  session: string;
}

/** How to start the client under test. */
export type ClientLauncher =
  | { kind: 'command'; command: string; cwd?: string; env?: Record<string, string> }
  /** In-process (tests): `run` must resolve with an exit code and honour `signal`. */
  | { kind: 'function'; label: string; run(args: LaunchArgs): Promise<number> };

export interface LaunchArgs {
  /** The last argument: the server URL (http) or the server command line (stdio). */
  serverArg: string;
  scenario: string;
  transport: ScenarioTransport;
  env: Record<string, string>;
  signal: AbortSignal;
}

export interface ClientExit {
  /** Exit code (null when killed by a signal or never started). */
  code: number | null;
  signal: string | null;
  /** The client did not exit within the scenario timeout and was killed. */
  timedOut: boolean;
  durationMs: number;
  stdout: string;
  stderr: string;
  /** The client could not be started at all. */
  startError?: string;
}

export interface ScenarioRun {
  scenario: Scenario;
  transport: ScenarioTransport;
  serverArg: string;
  startedAt: number;
  /** The bound the client had (ms). */
  timeoutMs: number;
  entries: RecordedEntry[];
  exit: ClientExit;
  /** Why the evidence may be incomplete, when the peer graded is not a client process (server as requestor). */
  problem?: string;
}

export const SCENARIO_ENV = 'MCP_CONFORMANCE_SCENARIO';

/**
 * A client's start-up (spawn until its first message) is the machine's time, not the scenario's: its bound starts at the
 * client's first message, and the start-up is allowed up to this (a tsx client on a loaded machine takes seconds).
 */
export const CLIENT_STARTUP_ALLOWANCE_MS = 60_000;
/**
 * A run still exchanging messages when its bound is spent goes on, as long as a message comes at least every quarter of
 * the bound, up to this many bounds: on a loaded machine every step of a client is slower. A silent client is killed at
 * its bound.
 */
export const CLIENT_BOUND_STRETCH = 3;

/** When the recording saw the client's run make progress (ms since the epoch; undefined: nothing yet). */
export interface ClientActivity {
  /** The client's first message. */
  first(): number | undefined;
  /** The latest message either way. */
  last(): number | undefined;
  /** The start-up allowed before the first message (default CLIENT_STARTUP_ALLOWANCE_MS). */
  startupMs?: number;
}

/** The longest one scenario's client may run (hang guards above the harness size themselves from it). */
export function clientRunLimitMs(timeoutMs: number): number {
  return CLIENT_STARTUP_ALLOWANCE_MS + CLIENT_BOUND_STRETCH * timeoutMs;
}

/** An activity record fed by the recording's messages: `saw(dir)` for each. */
export function activityRecorder(startupMs?: number): ClientActivity & { saw(dir: string): void } {
  let first: number | undefined;
  let last: number | undefined;
  return {
    ...(startupMs !== undefined ? { startupMs } : {}),
    first: () => first,
    last: () => last,
    saw(dir) {
      if (dir !== 'in' && dir !== 'out') return;
      last = Date.now();
      if (dir === 'in') first ??= last;
    },
  };
}

const BRIDGE = fileURLToPath(new URL('../wire/stdio-bridge.mjs', import.meta.url));
const OUTPUT_LIMIT = 64 * 1024;

function quote(s: string): string {
  return /[\s"'\\]/.test(s) ? `"${s.replace(/(["\\])/g, '\\$1')}"` : s;
}

/** Loopback TCP server whose connections are receiver sessions (the stdio bridge pipes the client's stdio into one). */
async function bridgeServer(onSocket: (s: Socket) => void): Promise<{ port: number; server: Server; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>();
  const server = createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    onSocket(s);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const addr = server.address();
  if (!addr || typeof addr === 'string') throw new Error('bridge server has no port');
  return { port: addr.port, server, sockets };
}

/**
 * The stdio bridge of one scenario: the server command line the client spawns (its stdio piped to a socket here), and
 * its end. The line names the run, so it is a server configuration new to the client: no era it may remember from
 * before applies to it (basic-versioning.md; RULINGS.md#dual-era-client-remembers-era).
 */
export async function stdioBridge(onSocket: (s: Socket) => void): Promise<{ serverArg: string; close(): Promise<void> }> {
  const b = await bridgeServer(onSocket);
  return {
    serverArg: `${quote(process.execPath)} ${quote(BRIDGE)} ${b.port} run-${randomBytes(6).toString('hex')}`,
    close: async () => {
      for (const s of b.sockets) s.destroy();
      await new Promise<void>((r) => b.server.close(() => r()));
    },
  };
}

export interface RunScenarioOptions {
  transport?: ScenarioTransport;
  /** Overrides the scenario's own bound for the client run (ms). */
  timeoutMs?: number;
  /** Progress lines (stderr in the CLI). */
  log?: (line: string) => void;
  /** The client's own tool names, listed in every scenario (receiverOptionsFor). */
  clientTools?: readonly string[];
  /** The client's start-up allowance before its first message (default CLIENT_STARTUP_ALLOWANCE_MS). */
  startupMs?: number;
}

/** Runs one scenario against a client; always resolves. */
export async function runScenario(name: string | Scenario, launcher: ClientLauncher, opts: RunScenarioOptions = {}): Promise<ScenarioRun> {
  const scenario = typeof name === 'string' ? scenarioByName(name) : name;
  const transport = opts.transport ?? 'http';
  const timeoutMs = opts.timeoutMs ?? scenario.timeoutMs;
  const startedAt = Date.now();
  const entries: RecordedEntry[] = [];
  const activity = activityRecorder(opts.startupMs);
  let seq = 0;
  const tap = (e: TapEvent) => {
    activity.saw(e.dir);
    entries.push({
      seq: seq++,
      time: new Date(e.time).toISOString(),
      ms: e.time - startedAt,
      dir: e.dir,
      session: e.session,
      ...(e.message !== undefined ? { message: e.message } : {}),
      ...(e.note !== undefined ? { note: e.note } : {}),
    });
  };
  const receiver = createReferenceReceiver(receiverOptionsFor(scenario, tap, opts.clientTools));
  let serverArg: string;
  let closeServer: () => Promise<void>;
  if (transport === 'http') {
    const h = await receiver.listenHttp(0, '127.0.0.1');
    serverArg = h.url;
    closeServer = h.close;
  } else {
    const b = await stdioBridge((socket) => {
      const t = new StdioServerTransport(socket, socket);
      socket.on('close', () => void t.close());
      socket.on('error', () => void t.close());
      void receiver.connect(t, { label: 'stdio (bridge)' }, { answerTransportErrors: true });
    });
    serverArg = b.serverArg;
    closeServer = b.close;
  }
  const exit = await launchLogged(launcher, { serverArg, scenario: scenario.name, transport }, timeoutMs, opts.log, activity);
  // Let messages already on their way arrive, then close everything (the tap records the session ends).
  await new Promise((r) => setTimeout(r, 50));
  await closeServer().catch(() => undefined);
  await receiver.close().catch(() => undefined);
  return { scenario, transport, serverArg, startedAt, timeoutMs, entries, exit };
}

/** A started client: `stop()` ends it (abort / SIGTERM, then SIGKILL after 1 s); `exited` always resolves. */
export interface ClientHandle {
  exited: Promise<ClientExit>;
  stop(): void;
}

/** Starts the client with `serverArg` as its last argument and the scenario in its environment. */
export function startClient(launcher: ClientLauncher, a: { serverArg: string; scenario: string; transport: ScenarioTransport }): ClientHandle {
  const started = Date.now();
  const env = { [SCENARIO_ENV]: a.scenario };
  let stopped = false;
  if (launcher.kind === 'function') {
    const ac = new AbortController();
    const run = launcher.run({ ...a, env, signal: ac.signal }).then(
      (code) => ({ code: code as number | null, error: undefined as string | undefined }),
      (e) => ({ code: 1 as number | null, error: e instanceof Error ? e.message : String(e) }),
    );
    // After an abort the function gets a moment to wind down; then we stop waiting for it.
    const gaveUp = new Promise<{ code: null; error: string }>((resolve) =>
      ac.signal.addEventListener('abort', () => setTimeout(() => resolve({ code: null, error: 'did not stop after the abort' }), 2000).unref(), { once: true }),
    );
    const exited = Promise.race([run, gaveUp]).then((r) => ({
      code: stopped ? null : r.code,
      signal: stopped ? 'SIGKILL' : null,
      timedOut: false,
      durationMs: Date.now() - started,
      stdout: '',
      stderr: r.error ?? '',
    }));
    return {
      exited,
      stop() {
        stopped = true;
        ac.abort(new Error('stopped by the harness'));
      },
    };
  }
  // A client that could not be started: an exit with the reason, nothing to stop.
  const notStarted = (e: unknown) => {
    const exit: ClientExit = {
      code: null,
      signal: null,
      timedOut: false,
      durationMs: 0,
      stdout: '',
      stderr: '',
      startError: e instanceof Error ? e.message : String(e),
    };
    return { exited: Promise.resolve(exit), stop() {} };
  };
  let parts: { command: string; args: string[] };
  try {
    parts = splitCommand(launcher.command);
  } catch (e) {
    return notStarted(e);
  }
  let child: ChildProcess;
  try {
    child = spawn(parts.command, [...parts.args, a.serverArg], {
      cwd: launcher.cwd,
      env: { ...process.env, ...(launcher.env ?? {}), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (e) {
    return notStarted(e);
  }
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => (stdout = (stdout + c.toString('utf8')).slice(-OUTPUT_LIMIT)));
  child.stderr?.on('data', (c: Buffer) => (stderr = (stderr + c.toString('utf8')).slice(-OUTPUT_LIMIT)));
  let startError: string | undefined;
  child.once('error', (e) => {
    startError = e.message;
  });
  let killTimer: NodeJS.Timeout | undefined;
  const exited = new Promise<ClientExit>((resolve) => {
    child.once('close', (code, signal) => {
      clearTimeout(killTimer);
      resolve({ code, signal, timedOut: false, durationMs: Date.now() - started, stdout, stderr, ...(startError ? { startError } : {}) });
    });
  });
  return {
    exited,
    stop() {
      if (stopped || child.exitCode !== null || child.signalCode !== null) return;
      stopped = true;
      child.kill('SIGTERM');
      killTimer = setTimeout(() => child.kill('SIGKILL'), 1000);
      killTimer.unref();
    },
  };
}

/** launch, with a progress line before and after (the CLI's stderr). */
export async function launchLogged(
  launcher: ClientLauncher,
  a: { serverArg: string; scenario: string; transport: ScenarioTransport },
  timeoutMs: number,
  log?: (line: string) => void,
  activity?: ClientActivity,
): Promise<ClientExit> {
  log?.(`scenario ${a.scenario} (${a.transport}): starting client`);
  const exit = await launch(launcher, a, timeoutMs, activity);
  log?.(
    `scenario ${a.scenario} (${a.transport}): client ${exit.startError ? `could not start: ${exit.startError}` : exit.timedOut ? `killed (its ${timeoutMs} ms bound spent)` : `exited ${exit.code ?? exit.signal}`} (${exit.durationMs} ms)`,
  );
  return exit;
}

/**
 * When a client is stopped: without `activity`, `timeoutMs` after the start; with it, `timeoutMs` after the client's first
 * message (its start-up allowed up to CLIENT_STARTUP_ALLOWANCE_MS), then on while messages keep coming (CLIENT_BOUND_STRETCH).
 */
export function clientDeadline(startedAt: number, timeoutMs: number, now: number, activity?: ClientActivity): number {
  if (!activity) return startedAt + timeoutMs;
  const first = activity.first();
  if (first === undefined) return startedAt + Math.max(timeoutMs, activity.startupMs ?? CLIENT_STARTUP_ALLOWANCE_MS);
  const bound = first + timeoutMs;
  if (now < bound) return bound;
  const step = Math.max(1_000, Math.round(timeoutMs / 4));
  return Math.min(first + CLIENT_BOUND_STRETCH * timeoutMs, Math.max(bound, (activity.last() ?? first) + step));
}

/** Starts the client and waits (bounded: clientDeadline, then stopped) for its exit. */
export async function launch(
  launcher: ClientLauncher,
  a: { serverArg: string; scenario: string; transport: ScenarioTransport },
  timeoutMs: number,
  activity?: ClientActivity,
): Promise<ClientExit> {
  const started = Date.now();
  const h = startClient(launcher, a);
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  // Re-judged at the deadline, and at least every quarter bound (the first message moves it).
  const recheck = Math.max(250, Math.round(timeoutMs / 4));
  const watch = () => {
    const now = Date.now();
    const deadline = clientDeadline(started, timeoutMs, now, activity);
    if (now >= deadline) {
      timedOut = true;
      h.stop();
      return;
    }
    timer = setTimeout(watch, Math.min(deadline - now, recheck));
  };
  watch();
  try {
    const exit = await h.exited;
    return { ...exit, timedOut };
  } finally {
    clearTimeout(timer);
  }
}

/** Runs several scenarios with bounded concurrency; results in the order given. */
export async function runScenarios(
  names: string[],
  launcher: ClientLauncher,
  opts: RunScenarioOptions & { concurrency?: number } = {},
): Promise<ScenarioRun[]> {
  return inPool(names, opts.concurrency ?? 3, (n) => runScenario(n, launcher, opts));
}

/** Maps `items` through `fn`, at most `concurrency` at once; results in the order given. */
export async function inPool<T, R>(items: readonly T[], concurrency: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
  return out;
}
