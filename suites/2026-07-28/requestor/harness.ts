// Runs a client under test against one 2026-07-28 scenario: starts the reference extension server set up
// for the scenario (mocks/2026-07-28/scenarios.ts; Streamable HTTP on loopback, or stdio through the bridge
// the client spawns), launches the client with the server URL / command line as its last argument and
// MCP_CONFORMANCE_SCENARIO=<name>, records every message both ways (with the HTTP request headers) through
// the server's wire observer, waits (bounded) for the client to exit, and returns what was seen. It never
// throws for a misbehaving client. Starting the client is the 2025 harness's (suites/requestor/harness.ts).
import type { IncomingHttpHeaders } from 'node:http';
import { listenHttp } from '../../../mocks/2026-07-28/http.ts';
import { serveStream } from '../../../mocks/2026-07-28/stdio.ts';
import { clientScenario, ScenarioServer, type ClientScenario, type ScenarioTransport } from '../../../mocks/2026-07-28/scenarios.ts';
import type { WireEvent } from '../../../mocks/2026-07-28/server.ts';
import { buildTools, DEFAULT_TIMINGS, type ToolDef } from '../../../mocks/receiver/tools.ts';
import type { Scenario as LegacyScenario } from '../../../mocks/receiver/scenarios.ts';
import {
  activityRecorder,
  inPool,
  launchLogged,
  runScenario as runLegacyScenario,
  stdioBridge,
  type ClientExit,
  type ClientLauncher,
} from '../../requestor/harness.ts';
import type { TranscriptEntry } from '../../wire/peer.ts';

/** A recorded message: `in` = the client sent it, `out` = the server sent it; `headers`: of the HTTP POST that carried an `in`. */
export interface RecordedEntry extends TranscriptEntry {
  /** stdio: the bridge connection; http: "http". */
  session: string;
  headers?: Record<string, string>;
}

export interface ScenarioRun {
  scenario: ClientScenario;
  transport: ScenarioTransport;
  serverArg: string;
  startedAt: number;
  timeoutMs: number;
  entries: RecordedEntry[];
  exit: ClientExit;
  problem?: string;
}

export interface RunScenarioOptions {
  transport?: ScenarioTransport;
  timeoutMs?: number;
  log?: (line: string) => void;
}

export function flatHeaders(h: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** A legacy scenario's server: the 2025-11-25 reference receiver serving the scenario's tools as plain tools (no `execution`). */
export function legacyScenario(s: ClientScenario): LegacyScenario {
  const tools = buildTools(DEFAULT_TIMINGS);
  const plain = s.tools.map((n): ToolDef => {
    const t = tools.find((x) => x.name === n);
    if (!t) throw new Error(`scenario ${s.name}: no 2025-11-25 reference tool ${n}`);
    const { taskSupport: _ts, ...rest } = t;
    return rest;
  });
  return { name: s.name, title: s.title, ask: s.ask, timeoutMs: s.timeoutMs, receiver: { tools: plain } };
}

/** Runs one scenario against a client; always resolves. */
export async function runScenario(name: string | ClientScenario, launcher: ClientLauncher, opts: RunScenarioOptions = {}): Promise<ScenarioRun> {
  const scenario = typeof name === 'string' ? clientScenario(name) : name;
  const transport = opts.transport ?? 'http';
  const timeoutMs = opts.timeoutMs ?? scenario.timeoutMs;
  if (scenario.legacy) {
    // The 2025-11-25 harness records the receiver's sessions in the same entry shape (no HTTP headers).
    const run = await runLegacyScenario(legacyScenario(scenario), launcher, { transport, timeoutMs, log: opts.log });
    return { ...run, scenario };
  }
  const startedAt = Date.now();
  const entries: RecordedEntry[] = [];
  const activity = activityRecorder();
  let session = transport === 'http' ? 'http' : 'stdio';
  const onWire = (e: WireEvent) => {
    activity.saw(e.dir);
    const base = { seq: entries.length, time: new Date(e.time).toISOString(), ms: e.time - startedAt, dir: e.dir, session };
    if (typeof e.message === 'string') entries.push({ ...base, raw: e.message });
    else entries.push({ ...base, message: e.message, ...(e.headers ? { headers: flatHeaders(e.headers) } : {}) });
  };
  const server = new ScenarioServer(scenario, { onWire });
  let serverArg: string;
  let closeServer: () => Promise<void>;
  if (transport === 'http') {
    const l = await listenHttp(server, 0, '127.0.0.1');
    serverArg = l.url;
    closeServer = l.close;
  } else {
    let n = 0;
    const b = await stdioBridge((socket) => {
      session = `stdio-${++n}`;
      const c = serveStream(server, socket, socket);
      socket.on('close', () => c.close());
      socket.on('error', () => c.close());
    });
    serverArg = b.serverArg;
    closeServer = b.close;
  }
  const exit = await launchLogged(launcher, { serverArg, scenario: scenario.name, transport }, timeoutMs, opts.log, activity);
  // Let messages already on their way arrive, then close everything.
  await new Promise((r) => setTimeout(r, 50));
  server.close();
  await closeServer().catch(() => undefined);
  return { scenario, transport, serverArg, startedAt, timeoutMs, entries, exit };
}

/** Runs several scenarios with bounded concurrency; results in the order given. */
export async function runScenarios(
  names: readonly string[],
  launcher: ClientLauncher,
  opts: RunScenarioOptions & { concurrency?: number } = {},
): Promise<ScenarioRun[]> {
  return inPool(names, opts.concurrency ?? 3, (n) => runScenario(n, launcher, opts));
}
