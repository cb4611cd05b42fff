// What the commands of the reference peers share (`mcp-tasks-conformance mock`: scripts/mock.ts for 2025-11-25,
// mocks/2026-07-28/cli.ts, mocks/dual-era/cli.ts): the options besides each peer's settings, the transport choice,
// shutdown on a signal, serving on --http with its announcement on stderr, running as the main module.
import { pathToFileURL } from 'node:url';
import { isLoopbackHost, TRANSPORT_OPTIONS, type HttpAccessOptions } from './receiver/http-access.ts';

/** The options of every mock command (util.parseArgs): transport and HTTP access, named faults and latitudes, their listings, help. */
export const COMMAND_OPTIONS = {
  ...TRANSPORT_OPTIONS,
  fault: { type: 'string', multiple: true },
  latitude: { type: 'string', multiple: true },
  'list-faults': { type: 'boolean' },
  'list-latitudes': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/**
 * A mock command's parsed command line (`parse` throws a usage error), or the exit code it is done with at once:
 * 2 after a usage error, 0 after --help (the usage on stderr, with the error before it).
 */
export function parseCommandLine<P extends { values: { help?: boolean } }>(argv: string[], parse: (argv: string[]) => P, usage: string): P | number {
  let parsed: P;
  try {
    parsed = parse(argv);
  } catch (e) {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n${usage}\n`);
    return 2;
  }
  if (!parsed.values.help) return parsed;
  process.stderr.write(usage + '\n');
  return 0;
}

/** The usage error for named faults or latitudes the peer does not have (the faults first), or undefined. */
export function unknownSwitches(
  faults: readonly string[],
  latitudes: readonly string[],
  isFault: (name: string) => boolean,
  isLatitude: (name: string) => boolean,
): string | undefined {
  const badFaults = faults.filter((f) => !isFault(f));
  if (badFaults.length) return `unknown fault(s): ${badFaults.join(', ')} (see --list-faults)`;
  const badLatitudes = latitudes.filter((l) => !isLatitude(l));
  if (badLatitudes.length) return `unknown latitude(s): ${badLatitudes.join(', ')} (see --list-latitudes)`;
  return undefined;
}

/** Exit code 2 with the usage on stderr unless exactly one of --stdio and --http <port> is given. */
export function transportChoiceError(values: { stdio?: boolean; http?: string }, usage: string): 2 | undefined {
  if (!!values.stdio !== (values.http !== undefined)) return undefined;
  process.stderr.write(`choose exactly one of --stdio or --http <port>\n${usage}\n`);
  return 2;
}

/** The shutdown of a command (the peer closed, then the process ended with the code); SIGINT and SIGTERM shut down with 0. */
export function shutdownOnSignals(peer: { close(): Promise<void> }): (code: number) => void {
  const shutdown = (code: number) => {
    void peer.close().finally(() => process.exit(code));
  };
  process.once('SIGINT', () => shutdown(0));
  process.once('SIGTERM', () => shutdown(0));
  return shutdown;
}

/**
 * Serves the peer over HTTP on `host` (default 127.0.0.1) and says so on stderr: `<name> listening on <url><note>`,
 * and a warning when it listens beyond loopback without a token (transports.md: running locally, servers SHOULD
 * bind to localhost and SHOULD authenticate). Exit code 1 when it cannot listen (the peer closed).
 */
export async function listenAnnounced(
  peer: { listenHttp(port: number, host: string, access: HttpAccessOptions): Promise<{ url: string }>; close(): Promise<void> },
  name: string,
  note: string,
  { port, host = '127.0.0.1', access }: { port: number; host?: string; access: HttpAccessOptions },
): Promise<1 | undefined> {
  try {
    const { url } = await peer.listenHttp(port, host, access);
    process.stderr.write(`${name} listening on ${url}${note}${access.tokens?.length ? ' (bearer token required)' : ''}\n`);
    if (!isLoopbackHost(host) && !access.tokens?.length)
      process.stderr.write(`warning: listening beyond loopback (${host}) without --token: anyone who can reach it can use it\n`);
    return undefined;
  } catch (e) {
    process.stderr.write(`cannot listen on ${host}:${port}: ${e instanceof Error ? e.message : String(e)}\n`);
    await peer.close();
    return 1;
  }
}

/** Runs a command with the process's arguments when `moduleUrl` is the main module: its exit code, `fatal:` and 1 when it throws. */
export function runWhenMain(moduleUrl: string, run: (argv: string[]) => Promise<number | void>): void {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  run(process.argv.slice(2)).then(
    (code) => {
      if (typeof code === 'number') process.exitCode = code;
    },
    (e) => {
      process.stderr.write(`fatal: ${e instanceof Error ? e.stack : String(e)}\n`);
      process.exit(1);
    },
  );
}

/** What a reference client runs with: the scenario contract of docs/CLIENTS.md (scenario, server) and its switches. */
export interface ReferenceClientOptions {
  scenario: string;
  /** Server URL (http/https) or server command line (stdio). */
  serverArg: string;
  /** Named faults of the client (its faults.ts). */
  faults?: readonly string[];
  /** Freedoms the spec leaves a requestor, switched on (the client's latitudes). */
  latitudes?: readonly string[];
  signal?: AbortSignal;
  /** Diagnostics (stderr in the CLI). */
  log?: (line: string) => void;
}

/** A reference client's command line: `[--fault NAME]… [--latitude NAME]… <server>`; also CLIENT_FAULT / CLIENT_LATITUDE (comma-separated). */
export function parseClientArgv(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
): { faults: string[]; latitudes: string[]; serverArg: string | undefined; scenario: string | undefined } {
  const list = (v: string | undefined) =>
    (v ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  const faults = list(env.CLIENT_FAULT);
  const latitudes = list(env.CLIENT_LATITUDE);
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--fault') faults.push(argv[++i] ?? '');
    else if (a.startsWith('--fault=')) faults.push(a.slice('--fault='.length));
    else if (a === '--latitude') latitudes.push(argv[++i] ?? '');
    else if (a.startsWith('--latitude=')) latitudes.push(a.slice('--latitude='.length));
    else rest.push(a);
  }
  return { faults, latitudes, serverArg: rest[rest.length - 1], scenario: env.MCP_CONFORMANCE_SCENARIO };
}

/**
 * Runs a reference client when `moduleUrl` is the main module (the scenario contract of docs/CLIENTS.md): the
 * scenario from MCP_CONFORMANCE_SCENARIO, the server and switches from the command line (parseClientArgv); exit code
 * 2 with the usage when either is missing, else the client's; diagnostics on stderr prefixed with `<name>: `.
 */
export function runClientWhenMain(moduleUrl: string, name: string, usage: string, run: (o: ReferenceClientOptions) => Promise<number>): void {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  const { faults, latitudes, serverArg, scenario } = parseClientArgv(process.argv.slice(2));
  if (!serverArg || !scenario) {
    process.stderr.write(usage + '\n');
    process.exit(2);
  }
  run({ scenario, serverArg, faults, latitudes, log: (l) => process.stderr.write(`${name}: ${l}\n`) }).then(
    (code) => process.exit(code),
    (e) => {
      process.stderr.write(`${name}: ${e instanceof Error ? e.stack : String(e)}\n`);
      process.exit(1);
    },
  );
}
