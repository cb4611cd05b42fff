// The reference receiver's options as command-line arguments (`mcp-tasks-conformance mock …`, and the
// in-process reference target of the suite: `{ kind: 'reference', args }`): parsing and construction.
import { parseArgs } from 'node:util';
import { createReferenceReceiver, type ReceiverOptions } from './index.ts';
import { isFaultName } from './faults.ts';
import { COMMAND_OPTIONS, unknownSwitches } from '../command.ts';
import { accessFromArgs, TOKEN_ENV } from './http-access.ts';
import { isLatitudeName, LATITUDES, type LatitudeInfo } from './latitudes.ts';

export { TOKEN_ENV };

export const MOCK_USAGE = `usage: mcp-tasks-conformance mock (--stdio | --http <port> [--host <host>]) [options]
HTTP access (mocks/RECEIVER.md, "HTTP access"):
  --host <host>            address to bind (default 127.0.0.1, loopback only)
  --token <token>          require "Authorization: Bearer <token>" (repeatable: each token is one requestor;
                           also ${TOKEN_ENV}, comma-separated)
  --allowed-host <name>    accept this hostname in Host/Origin besides loopback and the bound address (repeatable)
  --allowed-origin <url>   accept this exact Origin (repeatable)
options:
  --fault <name>           switch on a named fault (repeatable; --list-faults shows them)
  --latitude <name>        use a freedom the spec leaves (repeatable; --list-latitudes shows them)
  --page-size N            tasks/list page size (default 10, max 1000)
  --max-ttl MS             maximum task ttl in ms (default 3600000)
  --default-ttl MS         ttl when the request gives none (default 300000)
  --poll-interval MS       pollInterval suggested in tasks (default 100)
  --max-concurrent-tasks N max non-terminal tasks per requestor (default 100)
  --max-retained N         max retained tasks per requestor (default 1000)
  --completes-ms MS        run time of "complete" and friends (default 100)
  --slow-ms MS             run time of "slow" (default 3000)
  --status-notifications   send notifications/tasks/status on every status change
  --no-tasks-capability    declare no tasks capability (task-augmented requests processed normally)
  --sse-responses          HTTP: answer POSTs with SSE streams (default: JSON; task messages on the GET stream)
  --log                    audit log on stderr (task creation, completion, retrieval, with requestor)
  --list-faults            print the named faults and exit
  --list-latitudes         print the named latitudes and exit
  -h, --help               this text`;

function num(v: string | undefined, name: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(n)) throw new Error(`--${name} expects a non-negative integer, got "${v}"`);
  return n;
}

const OPTIONS = {
  ...COMMAND_OPTIONS,
  'page-size': { type: 'string' },
  'max-ttl': { type: 'string' },
  'default-ttl': { type: 'string' },
  'poll-interval': { type: 'string' },
  'max-concurrent-tasks': { type: 'string' },
  'max-retained': { type: 'string' },
  'completes-ms': { type: 'string' },
  'slow-ms': { type: 'string' },
  'status-notifications': { type: 'boolean' },
  'no-tasks-capability': { type: 'boolean' },
  'sse-responses': { type: 'boolean' },
  log: { type: 'boolean' },
} as const;

export class MockUsageError extends Error {}

/** Parses mock options (also used for the in-process reference target: `{ kind: 'reference', args }`). Throws MockUsageError. */
export function parseMockArgs(argv: string[]) {
  let values;
  // The suite's --max-tasks (live tasks of a run) is not the receiver's limit: say so instead of "unknown option".
  if (argv.some((a) => a === '--max-tasks' || a.startsWith('--max-tasks=')))
    throw new MockUsageError('the mock has no --max-tasks: its limit is --max-concurrent-tasks N (non-terminal tasks per requestor)');
  try {
    ({ values } = parseArgs({ args: argv, strict: true, allowPositionals: false, options: OPTIONS }));
    // A latitude that is a setting (e.g. concurrency-limit: --max-concurrent-tasks 4) brings it, unless the flag is given too.
    const implied = (values.latitude ?? []).flatMap((n) => (LATITUDES as readonly LatitudeInfo[]).find((l) => l.name === n)?.args ?? []);
    if (implied.length) ({ values } = parseArgs({ args: [...implied, ...argv], strict: true, allowPositionals: false, options: OPTIONS }));
  } catch (e) {
    throw new MockUsageError(e instanceof Error ? e.message : String(e));
  }
  const faults = values.fault ?? [];
  const latitudes = values.latitude ?? [];
  const unknown = unknownSwitches(faults, latitudes, isFaultName, isLatitudeName);
  if (unknown) throw new MockUsageError(unknown);
  let port = 0;
  try {
    if (values.http !== undefined) port = num(values.http, 'http')!;
    if (port > 65535) throw new Error('--http port must be 0 … 65535');
    const completesMs = num(values['completes-ms'], 'completes-ms');
    const slowMs = num(values['slow-ms'], 'slow-ms');
    const options: ReceiverOptions = {
      faults,
      latitudes,
      pageSize: num(values['page-size'], 'page-size'),
      maxTtl: num(values['max-ttl'], 'max-ttl'),
      defaultTtl: num(values['default-ttl'], 'default-ttl'),
      pollInterval: num(values['poll-interval'], 'poll-interval'),
      maxConcurrentTasks: num(values['max-concurrent-tasks'], 'max-concurrent-tasks'),
      maxRetainedTasks: num(values['max-retained'], 'max-retained'),
      statusNotifications: !!values['status-notifications'],
      tasksCapability: !values['no-tasks-capability'],
      sseResponses: !!values['sse-responses'],
      timings: { ...(completesMs !== undefined ? { completesMs } : {}), ...(slowMs !== undefined ? { slowMs } : {}) },
      log: !!values.log,
    };
    if (options.pageSize === 0) throw new Error('--page-size must be ≥ 1');
    if (options.maxConcurrentTasks === 0) throw new Error('--max-concurrent-tasks must be ≥ 1');
    const access = accessFromArgs(values);
    return { values, port, faults, options, access };
  } catch (e) {
    throw new MockUsageError(e instanceof Error ? e.message : String(e));
  }
}

/** The reference receiver configured by mock options, for in-process use. */
export function createReferenceReceiverFromArgs(argv: string[]) {
  return createReferenceReceiver(parseMockArgs(argv).options);
}
