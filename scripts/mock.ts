// Standalone reference receiver:  tsx scripts/mock.ts --stdio | --http <port> [--host H] [options]
// (also `mcp-tasks-conformance mock …`, through runMock). Stdout carries only JSON-RPC (stdio mode);
// everything else goes to stderr. See mocks/RECEIVER.md.
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import {
  createReferenceReceiver,
  FAULTS,
  isFaultName,
  isLoopbackHost,
  type FaultInfo,
  type HttpAccessOptions,
  type ReceiverOptions,
} from '../mocks/receiver/index.ts';

export const TOKEN_ENV = 'MCP_CONFORMANCE_MOCK_TOKEN';

const USAGE = `usage: mcp-tasks-conformance mock (--stdio | --http <port> [--host <host>]) [options]
HTTP access (mocks/RECEIVER.md, "HTTP access"):
  --host <host>            address to bind (default 127.0.0.1, loopback only)
  --token <token>          require "Authorization: Bearer <token>" (repeatable: each token is one requestor;
                           also ${TOKEN_ENV}, comma-separated)
  --allowed-host <name>    accept this hostname in Host/Origin besides loopback and the bound address (repeatable)
  --allowed-origin <url>   accept this exact Origin (repeatable)
options:
  --fault <name>           switch on a named fault (repeatable; --list-faults shows them)
  --page-size N            tasks/list page size (default 10, max 1000)
  --max-ttl MS             maximum task ttl in ms (default 3600000)
  --default-ttl MS         ttl when the request gives none (default 300000)
  --poll-interval MS       pollInterval suggested in tasks (default 100)
  --max-tasks N            max non-terminal tasks per requestor (default 100)
  --max-retained N         max retained tasks per requestor (default 1000)
  --completes-ms MS        run time of "complete" and friends (default 100)
  --slow-ms MS             run time of "slow" (default 3000)
  --status-notifications   send notifications/tasks/status on every status change
  --no-tasks-capability    declare no tasks capability (task-augmented requests processed normally)
  --sse-responses          HTTP: answer POSTs with SSE streams (default: JSON; task messages on the GET stream)
  --log                    audit log on stderr (task creation, completion, retrieval, with requestor)
  --list-faults            print the named faults and exit
  -h, --help               this text`;

function num(v: string | undefined, name: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(n)) throw new Error(`--${name} expects a non-negative integer, got "${v}"`);
  return n;
}

const OPTIONS = {
  stdio: { type: 'boolean' },
  http: { type: 'string' },
  host: { type: 'string' },
  token: { type: 'string', multiple: true },
  'allowed-host': { type: 'string', multiple: true },
  'allowed-origin': { type: 'string', multiple: true },
  fault: { type: 'string', multiple: true },
  'page-size': { type: 'string' },
  'max-ttl': { type: 'string' },
  'default-ttl': { type: 'string' },
  'poll-interval': { type: 'string' },
  'max-tasks': { type: 'string' },
  'max-retained': { type: 'string' },
  'completes-ms': { type: 'string' },
  'slow-ms': { type: 'string' },
  'status-notifications': { type: 'boolean' },
  'no-tasks-capability': { type: 'boolean' },
  'sse-responses': { type: 'boolean' },
  log: { type: 'boolean' },
  'list-faults': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export class MockUsageError extends Error {}

/** Parses mock options (also used for the in-process reference target: `{ kind: 'reference', args }`). Throws MockUsageError. */
export function parseMockArgs(argv: string[]) {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, strict: true, allowPositionals: false, options: OPTIONS }));
  } catch (e) {
    throw new MockUsageError(e instanceof Error ? e.message : String(e));
  }
  const faults = values.fault ?? [];
  const unknown = faults.filter((f) => !isFaultName(f));
  if (unknown.length) throw new MockUsageError(`unknown fault(s): ${unknown.join(', ')} (see --list-faults)`);
  let port = 0;
  try {
    if (values.http !== undefined) port = num(values.http, 'http')!;
    if (port > 65535) throw new Error('--http port must be 0 … 65535');
    const completesMs = num(values['completes-ms'], 'completes-ms');
    const slowMs = num(values['slow-ms'], 'slow-ms');
    const options: ReceiverOptions = {
      faults,
      pageSize: num(values['page-size'], 'page-size'),
      maxTtl: num(values['max-ttl'], 'max-ttl'),
      defaultTtl: num(values['default-ttl'], 'default-ttl'),
      pollInterval: num(values['poll-interval'], 'poll-interval'),
      maxTasks: num(values['max-tasks'], 'max-tasks'),
      maxRetainedTasks: num(values['max-retained'], 'max-retained'),
      statusNotifications: !!values['status-notifications'],
      tasksCapability: !values['no-tasks-capability'],
      sseResponses: !!values['sse-responses'],
      timings: { ...(completesMs !== undefined ? { completesMs } : {}), ...(slowMs !== undefined ? { slowMs } : {}) },
      log: !!values.log,
    };
    if (options.pageSize === 0) throw new Error('--page-size must be ≥ 1');
    if (options.maxTasks === 0) throw new Error('--max-tasks must be ≥ 1');
    const httpOnly = (['host', 'token', 'allowed-host', 'allowed-origin'] as const).filter((k) => values[k] !== undefined);
    if (values.http === undefined && httpOnly.length) throw new Error(`${httpOnly.map((k) => `--${k}`).join(', ')}: HTTP only (with --http <port>)`);
    for (const o of values['allowed-origin'] ?? []) {
      if (!/^https?:\/\/[^/]+\/?$/.test(o)) throw new Error(`--allowed-origin expects scheme://host[:port], got "${o}"`);
    }
    const tokens = [...(values.token ?? []), ...(process.env[TOKEN_ENV] ?? '').split(',')].map((t) => t.trim()).filter(Boolean);
    if (tokens.some((t) => /\s/.test(t))) throw new Error('--token: a bearer token has no whitespace');
    const access: HttpAccessOptions = { allowedHosts: values['allowed-host'] ?? [], allowedOrigins: values['allowed-origin'] ?? [], tokens };
    return { values, port, faults, options, access };
  } catch (e) {
    throw new MockUsageError(e instanceof Error ? e.message : String(e));
  }
}

/** The reference receiver configured by mock options, for in-process use. */
export function createReferenceReceiverFromArgs(argv: string[]) {
  return createReferenceReceiver(parseMockArgs(argv).options);
}

/** Runs the mock. Returns an exit code when it is done at once (usage error: 2, --list-faults/--help: 0); void while serving. */
export async function runMock(argv: string[]): Promise<number | void> {
  let parsed: ReturnType<typeof parseMockArgs>;
  try {
    parsed = parseMockArgs(argv);
  } catch (e) {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n${USAGE}\n`);
    return 2;
  }
  const { values, port, faults, options, access } = parsed;
  if (values.help) {
    process.stderr.write(USAGE + '\n');
    return 0;
  }
  if (values['list-faults']) {
    for (const f of FAULTS as readonly FaultInfo[]) {
      const needs = [...(f.args?.length ? [`needs ${f.args.join(' ')}`] : []), ...(f.transport ? [`${f.transport.toUpperCase()} only`] : [])];
      process.stderr.write(`${f.name}\t${f.requirement}\t${f.description}${needs.length ? ` (${needs.join('; ')})` : ''}\n`);
    }
    return 0;
  }
  if (!!values.stdio === (values.http !== undefined)) {
    process.stderr.write(`choose exactly one of --stdio or --http <port>\n${USAGE}\n`);
    return 2;
  }
  const receiver = createReferenceReceiver(options);
  const shutdown = (code: number) => {
    void receiver.close().finally(() => process.exit(code));
  };
  process.once('SIGINT', () => shutdown(0));
  process.once('SIGTERM', () => shutdown(0));
  if (values.stdio) {
    const session = await receiver.serveStdio();
    process.stdin.once('end', () => shutdown(0));
    session.transport.onclose = ((prev) => () => {
      prev?.();
      shutdown(0);
    })(session.transport.onclose);
    if (faults.length) process.stderr.write(`reference receiver (stdio) with faults: ${faults.join(', ')}\n`);
    return;
  }
  const host = values.host ?? '127.0.0.1';
  try {
    const { url } = await receiver.listenHttp(port, host, access);
    process.stderr.write(
      `reference receiver listening on ${url}${faults.length ? ` (faults: ${faults.join(', ')})` : ''}${access.tokens?.length ? ' (bearer token required)' : ''}\n`,
    );
    // transports.md: running locally, servers SHOULD bind to localhost and SHOULD authenticate.
    if (!isLoopbackHost(host) && !access.tokens?.length)
      process.stderr.write(`warning: listening beyond loopback (${host}) without --token: anyone who can reach it can use it\n`);
  } catch (e) {
    process.stderr.write(`cannot listen on ${host}:${port}: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runMock(process.argv.slice(2)).then(
    (code) => {
      if (typeof code === 'number') process.exitCode = code;
    },
    (e) => {
      process.stderr.write(`fatal: ${e instanceof Error ? e.stack : String(e)}\n`);
      process.exit(1);
    },
  );
}
