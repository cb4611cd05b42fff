// The reference extension server as a command:
//   tsx mocks/2026-07-28/cli.ts --stdio | --http <port> [--host H] [options]
//   mcp-tasks-conformance mock --revision 2026-07-28 …   (scripts/mock.ts hands over here)
// Stdout carries only JSON-RPC (stdio mode); everything else goes to stderr. See README.md next to this file.
import { parseArgs } from 'node:util';
import { COMMAND_OPTIONS, listenAnnounced, parseCommandLine, unknownSwitches, runWhenMain, shutdownOnSignals, transportChoiceError } from '../command.ts';
import { accessFromArgs, TOKEN_ENV } from '../receiver/http-access.ts';
import { FAULTS, LATITUDES, isFaultName, isLatitudeName, type SwitchInfo } from './faults.ts';
import { createExtensionServer } from './index.ts';
import { DEFAULTS, type ServerOptions } from './server.ts';

export const EXTENSION_SERVER_USAGE = `usage: mcp-tasks-conformance mock --revision 2026-07-28 (--stdio | --http <port> [--host <host>]) [options]
  (or: tsx mocks/2026-07-28/cli.ts …) — the reference server of MCP 2026-07-28 with the Tasks extension
HTTP access:
  --host <host>              address to bind (default 127.0.0.1, loopback only)
  --token <token>            require "Authorization: Bearer <token>" (repeatable: each token is one requestor;
                             also ${TOKEN_ENV}, comma-separated)
  --allowed-host <name>      accept this hostname in Host/Origin besides loopback and the bound address (repeatable)
  --allowed-origin <url>     accept this exact Origin (repeatable)
options:
  --fault <name>             switch on a named fault (repeatable; --list-faults)
  --latitude <name>          take a latitude the texts leave (repeatable; --list-latitudes)
  --ttl-ms <ms|unlimited>    ttlMs of new tasks (default ${DEFAULTS.ttlMs})
  --poll-interval-ms <ms>    pollIntervalMs of new tasks (default ${DEFAULTS.pollIntervalMs})
  --completes-ms <ms>        run time of complete, fail_rpc, tool_error, task_only, the input tools' tail (default ${DEFAULTS.timings.completesMs})
  --slow-ms <ms>             run time of slow (default ${DEFAULTS.timings.slowMs})
  --max-concurrent-tasks <n> unfinished tasks per requestor (default ${DEFAULTS.maxConcurrentTasks})
  --max-retained <n>         tasks kept per requestor (default ${DEFAULTS.maxRetained})
  --max-subscriptions <n>    open subscriptions/listen per connection (stdio) or in all (HTTP) (default ${DEFAULTS.maxSubscriptions})
  --latency-ms <ms>          delay of every answer under --latitude high-latency (default ${DEFAULTS.latencyMs})
  --no-tasks-extension       do not declare or serve the extension (tasks/* → -32601, no task ever)
  --official-suite-tools     also serve the fixture tools of the official conformance suite's Tasks scenarios
                             (greet, slow_compute, failing_job, protocol_error_job, confirm_delete, multi_input,
                             test_tool_with_task)
  --log                      every message in and out on stderr
  --list-faults              print the named faults (name, requirement, description) and exit
  --list-latitudes           print the latitudes (name, the text's freedom, description) and exit
  -h, --help                 this text`;

const OPTIONS = {
  ...COMMAND_OPTIONS,
  'ttl-ms': { type: 'string' },
  'poll-interval-ms': { type: 'string' },
  'completes-ms': { type: 'string' },
  'slow-ms': { type: 'string' },
  'max-concurrent-tasks': { type: 'string' },
  'max-retained': { type: 'string' },
  'max-subscriptions': { type: 'string' },
  'latency-ms': { type: 'string' },
  'no-tasks-extension': { type: 'boolean' },
  'official-suite-tools': { type: 'boolean' },
  log: { type: 'boolean' },
} as const;

export class ExtensionServerUsageError extends Error {}

function int(v: string | undefined, name: string, min = 0, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(n) || n < min || n > max)
    throw new ExtensionServerUsageError(`--${name} expects an integer from ${min} to ${max}, got "${v}"`);
  return n;
}

/** Parses the command line (throws ExtensionServerUsageError): the server options, the transport, HTTP access. */
export function parseExtensionServerArgs(argv: string[]) {
  let values;
  // The suite's --max-tasks (live tasks of a run) is not this server's limit: say so instead of "unknown option".
  if (argv.some((a) => a === '--max-tasks' || a.startsWith('--max-tasks=')))
    throw new ExtensionServerUsageError('the server has no --max-tasks: its limit is --max-concurrent-tasks <n> (unfinished tasks per requestor)');
  try {
    ({ values } = parseArgs({ args: argv, strict: true, allowPositionals: false, options: OPTIONS }));
  } catch (e) {
    throw new ExtensionServerUsageError(e instanceof Error ? e.message : String(e));
  }
  const faults = values.fault ?? [];
  const latitudes = values.latitude ?? [];
  const unknown = unknownSwitches(faults, latitudes, isFaultName, isLatitudeName);
  if (unknown) throw new ExtensionServerUsageError(unknown);
  const port = values.http !== undefined ? int(values.http, 'http', 0, 65535)! : 0;
  const ttl = values['ttl-ms'];
  const completesMs = int(values['completes-ms'], 'completes-ms', 0, 60_000);
  const slowMs = int(values['slow-ms'], 'slow-ms', 0, 60_000);
  const options: ServerOptions = {
    faults,
    latitudes,
    ...(ttl !== undefined ? { ttlMs: ttl === 'unlimited' ? null : int(ttl, 'ttl-ms', 1)! } : {}),
    pollIntervalMs: int(values['poll-interval-ms'], 'poll-interval-ms', 1),
    timings: { ...(completesMs !== undefined ? { completesMs } : {}), ...(slowMs !== undefined ? { slowMs } : {}) },
    maxConcurrentTasks: int(values['max-concurrent-tasks'], 'max-concurrent-tasks', 1),
    maxRetained: int(values['max-retained'], 'max-retained', 1),
    maxSubscriptions: int(values['max-subscriptions'], 'max-subscriptions', 1),
    latencyMs: int(values['latency-ms'], 'latency-ms', 0, 60_000),
    tasksExtension: !values['no-tasks-extension'],
    officialSuiteTools: values['official-suite-tools'] ?? false,
  };
  let access;
  try {
    access = accessFromArgs(values);
  } catch (e) {
    throw new ExtensionServerUsageError(e instanceof Error ? e.message : String(e));
  }
  return { values, port, options, access };
}

/** The reference extension server configured by command-line options, in process (e.g. a suite's reference target). */
export function createExtensionServerFromArgs(argv: string[]) {
  return createExtensionServer(parseExtensionServerArgs(argv).options);
}

function listing(items: readonly SwitchInfo[]): string {
  return items
    .map((s) => {
      const needs = [...(s.args?.length ? [`needs ${s.args.join(' ')}`] : []), ...(s.transport ? [`${s.transport.toUpperCase()} only`] : [])];
      return `${s.name}\t${s.requirement}\t${s.description}${needs.length ? ` (${needs.join('; ')})` : ''}\n`;
    })
    .join('');
}

/** Runs the server. An exit code when it is done at once (usage error: 2, listings/help: 0, cannot listen: 1); void while serving. */
export async function runExtensionServer(argv: string[]): Promise<number | void> {
  const parsed = parseCommandLine(argv, parseExtensionServerArgs, EXTENSION_SERVER_USAGE);
  if (typeof parsed === 'number') return parsed;
  const { values, port, options, access } = parsed;
  if (values['list-faults'] || values['list-latitudes']) {
    process.stdout.write((values['list-faults'] ? listing(FAULTS) : '') + (values['list-latitudes'] ? listing(LATITUDES) : ''));
    return 0;
  }
  const choice = transportChoiceError(values, EXTENSION_SERVER_USAGE);
  if (choice) return choice;
  const s = createExtensionServer({
    ...options,
    log: (l) => process.stderr.write(`${l}\n`),
    ...(values.log ? { onWire: (e) => process.stderr.write(`${e.dir === 'in' ? '→' : '←'} ${e.transport} ${JSON.stringify(e.message)}\n`) } : {}),
  });
  const switches = [...(options.faults ?? []).map((f) => `fault ${f}`), ...(options.latitudes ?? []).map((l) => `latitude ${l}`)];
  const shutdown = shutdownOnSignals(s);
  if (values.stdio) {
    // stdio binding: the server exits when its input ends.
    // A client that went away (EPIPE) ends the server like the end of its input.
    process.stdout.on('error', () => shutdown(0));
    const conn = s.stdio(process.stdin, process.stdout, 'stdio');
    void conn.closed.then(() => shutdown(0));
    if (switches.length) process.stderr.write(`reference extension server (stdio) with ${switches.join(', ')}\n`);
    return;
  }
  return listenAnnounced(s, 'reference extension server', switches.length ? ` (${switches.join(', ')})` : '', { port, host: values.host, access });
}

runWhenMain(import.meta.url, runExtensionServer);
