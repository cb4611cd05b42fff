// The dual-era reference target as a command:
//   mcp-tasks-conformance mock --revision dual-era (--stdio | --http <port> [--host H]) [options]
// (scripts/mock.ts hands over here). Stdout carries only JSON-RPC (stdio mode); everything else goes to stderr.
// Options are handed to the two peers through their own parsers (mocks/receiver/args.ts, mocks/2026-07-28/cli.ts).
import { parseArgs } from 'node:util';
import { COMMAND_OPTIONS, listenAnnounced, parseCommandLine, shutdownOnSignals, transportChoiceError } from '../command.ts';
import { accessFromArgs, TOKEN_ENV } from '../receiver/http-access.ts';
import { FAULTS as LEGACY_FAULTS } from '../receiver/faults.ts';
import { LATITUDES as LEGACY_LATITUDES } from '../receiver/latitudes.ts';
import { parseMockArgs } from '../receiver/args.ts';
import { FAULTS as MODERN_FAULTS, LATITUDES as MODERN_LATITUDES } from '../2026-07-28/faults.ts';
import { parseExtensionServerArgs } from '../2026-07-28/cli.ts';
import { createDualEraServer, DUAL_ERA_FAULTS, DUAL_ERA_LATITUDES, type DualEraOptions } from './index.ts';

const LEGACY = '2025-11-25';
const MODERN = '2026-07-28';

export const DUAL_ERA_USAGE = `usage: mcp-tasks-conformance mock --revision dual-era (--stdio | --http <port> [--host <host>]) [options]
  a dual-era server (basic-versioning.md): the 2025-11-25 reference receiver and the 2026-07-28 reference
  extension server behind one endpoint; initialize selects 2025-11-25, the per-request _meta 2026-07-28
HTTP access:
  --host <host>              address to bind (default 127.0.0.1, loopback only)
  --token <token>            require "Authorization: Bearer <token>" (repeatable: each token is one requestor,
                             in both eras; also ${TOKEN_ENV}, comma-separated)
  --allowed-host <name>      accept this hostname in Host/Origin besides loopback and the bound address (repeatable)
  --allowed-origin <url>     accept this exact Origin (repeatable)
options:
  --fault <name>             a fault of the dual-era target, or of either peer (repeatable; --list-faults);
                             a name both peers have takes its revision: ${LEGACY}:<name> or ${MODERN}:<name>
  --latitude <name>          a latitude of the dual-era target, or of either peer, named the same way
                             (repeatable; --list-latitudes)
  --completes-ms <ms>        run time of "complete" and friends, both peers (default 100)
  --slow-ms <ms>             run time of "slow", both peers (default 3000)
  --list-faults              print the faults (name, requirement, description; the peers' with their revision) and exit
  --list-latitudes           print the latitudes (the peers' with their revision) and exit
  -h, --help                 this text
the peers' other options are their defaults (mock --help, mock --revision ${MODERN} --help)`;

const OPTIONS = {
  ...COMMAND_OPTIONS,
  'completes-ms': { type: 'string' },
  'slow-ms': { type: 'string' },
} as const;

export class DualEraUsageError extends Error {}

type Side = 'dual-era' | typeof LEGACY | typeof MODERN;

/** Which peer a switch name belongs to: the dual-era target's own, `<revision>:<name>`, or the one peer that has it. */
function sideOf(name: string, kind: 'fault' | 'latitude'): { side: Side; name: string } {
  const own = (kind === 'fault' ? DUAL_ERA_FAULTS : DUAL_ERA_LATITUDES).map((s) => s.name as string);
  const legacy = (kind === 'fault' ? LEGACY_FAULTS : LEGACY_LATITUDES).map((s) => s.name as string);
  const modern = (kind === 'fault' ? MODERN_FAULTS : MODERN_LATITUDES).map((s) => s.name as string);
  if (own.includes(name)) return { side: 'dual-era', name };
  const m = /^(2025-11-25|2026-07-28):(.+)$/.exec(name);
  if (m) {
    const list = m[1] === LEGACY ? legacy : modern;
    if (!list.includes(m[2]!)) throw new DualEraUsageError(`unknown ${kind} of revision ${m[1]}: ${m[2]} (see --list-${kind}s)`);
    return { side: m[1] as Side, name: m[2]! };
  }
  const inLegacy = legacy.includes(name);
  const inModern = modern.includes(name);
  if (inLegacy && inModern) throw new DualEraUsageError(`${kind} ${name} is a ${kind} of both peers: say ${LEGACY}:${name} or ${MODERN}:${name}`);
  if (inLegacy) return { side: LEGACY, name };
  if (inModern) return { side: MODERN, name };
  throw new DualEraUsageError(`unknown ${kind}: ${name} (see --list-${kind}s)`);
}

/** Parses the command line (throws DualEraUsageError): the target's options, the transport, HTTP access. */
export function parseDualEraArgs(argv: string[]) {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, strict: true, allowPositionals: false, options: OPTIONS }));
  } catch (e) {
    throw new DualEraUsageError(e instanceof Error ? e.message : String(e));
  }
  const own = { fault: [] as string[], latitude: [] as string[] };
  const legacyArgv: string[] = [];
  const modernArgv: string[] = [];
  for (const kind of ['fault', 'latitude'] as const)
    for (const n of values[kind] ?? []) {
      const { side, name } = sideOf(n, kind);
      if (side === 'dual-era') own[kind].push(name);
      else (side === LEGACY ? legacyArgv : modernArgv).push(`--${kind}`, name);
    }
  for (const t of ['completes-ms', 'slow-ms'] as const) if (values[t] !== undefined) for (const a of [legacyArgv, modernArgv]) a.push(`--${t}`, values[t]!);
  let options: DualEraOptions;
  let access;
  let port = 0;
  try {
    options = { faults: own.fault, latitudes: own.latitude, legacy: parseMockArgs(legacyArgv).options, modern: parseExtensionServerArgs(modernArgv).options };
    access = accessFromArgs(values);
    if (values.http !== undefined) {
      port = Number(values.http);
      if (!/^\d+$/.test(values.http) || port > 65535) throw new Error(`--http expects a port from 0 to 65535, got "${values.http}"`);
    }
  } catch (e) {
    throw new DualEraUsageError(e instanceof Error ? e.message : String(e));
  }
  return { values, port, options, access };
}

function listing(kind: 'fault' | 'latitude'): string {
  const rows: { name: string; requirement: string; description: string }[] = [
    ...(kind === 'fault' ? DUAL_ERA_FAULTS : DUAL_ERA_LATITUDES),
    ...(kind === 'fault' ? LEGACY_FAULTS : LEGACY_LATITUDES).map((s) => ({
      name: `${LEGACY}:${s.name}`,
      requirement: 'requirement' in s ? s.requirement : s.allows,
      description: s.description,
    })),
    ...(kind === 'fault' ? MODERN_FAULTS : MODERN_LATITUDES).map((s) => ({
      name: `${MODERN}:${s.name}`,
      requirement: s.requirement,
      description: s.description,
    })),
  ];
  return rows.map((r) => `${r.name}\t${r.requirement}\t${r.description}\n`).join('');
}

/** Runs the target. An exit code when it is done at once (usage error: 2, listings/help: 0, cannot listen: 1); void while serving. */
export async function runDualEra(argv: string[]): Promise<number | void> {
  const parsed = parseCommandLine(argv, parseDualEraArgs, DUAL_ERA_USAGE);
  if (typeof parsed === 'number') return parsed;
  const { values, port, options, access } = parsed;
  if (values['list-faults'] || values['list-latitudes']) {
    process.stdout.write((values['list-faults'] ? listing('fault') : '') + (values['list-latitudes'] ? listing('latitude') : ''));
    return 0;
  }
  const choice = transportChoiceError(values, DUAL_ERA_USAGE);
  if (choice) return choice;
  const d = createDualEraServer(options);
  const switches = [...(values.fault ?? []).map((f) => `fault ${f}`), ...(values.latitude ?? []).map((l) => `latitude ${l}`)];
  const shutdown = shutdownOnSignals(d);
  if (values.stdio) {
    process.stdout.on('error', () => shutdown(0));
    void d.stdio(process.stdin, process.stdout).closed.then(() => shutdown(0));
    if (switches.length) process.stderr.write(`dual-era reference target (stdio) with ${switches.join(', ')}\n`);
    return;
  }
  return listenAnnounced(d, 'dual-era reference target', switches.length ? ` (${switches.join(', ')})` : '', { port, host: values.host, access });
}
