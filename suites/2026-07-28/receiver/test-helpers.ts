// The reference extension server (mocks/2026-07-28) as the target of the 2026-07-28 check tests: in this
// process over Streamable HTTP (or spawned over stdio), with the faults or latitudes of a matrix cell and the
// options they need (`args`, as on the command line), and the profile naming a tool for every role.
import { checksFor } from '../../index.ts';
import { runChecks, type TargetSession } from '../../runner/session.ts';
import { loadProfile } from '../../runner/target.ts';
import type { CheckDef, CheckResult } from '../../engine/check.ts';
import type { RunOptions } from '../../engine/options.ts';
import type { Profile } from '../../engine/profile.ts';
import { createExtensionServer } from '../../../mocks/2026-07-28/index.ts';
import { parseExtensionServerArgs } from '../../../mocks/2026-07-28/cli.ts';
import { REVISION } from '../../../schema/2026-07-28/protocol.ts';
import { createDualEraServer } from '../../../mocks/dual-era/index.ts';
import { parseMockArgs } from '../../../mocks/receiver/args.ts';
import { openTargetSession } from '../../revisions.ts';

/** The reference server's run times in the tests: short tool runs, a slow tool that outlives a cancel. */
export const TEST_TIMINGS = ['--completes-ms', '50', '--slow-ms', '2000', '--poll-interval-ms', '50'];

/** Every role of the reference extension server, by its tool. */
export const REFERENCE_PROFILE: Profile = withSlow(loadProfile('fixtures/reference-2026-07-28.profile.json'));

/** The slow tool with an explicit run time: long enough that a cancel lands before it ends on a loaded machine, and checks that watch past its end know when that is. */
function withSlow(p: Profile): Profile {
  return { ...p, tools: { ...p.tools, slow: { name: p.tools.slow?.name ?? 'slow', arguments: { ms: 3_000 } } } };
}

/** The 2026-07-28 receiver checks (what a run of the revision runs). */
export const modernChecks = (): CheckDef[] => checksFor(REVISION);

/** The reference extension server over stdio with `args`: its command (a process per connection, as a stdio target is). */
export function referenceStdioCommand(args: readonly string[]): string {
  parseExtensionServerArgs(['--stdio', ...TEST_TIMINGS, ...args]); // usage errors here, not in a child
  return [process.execPath, '--import', 'tsx', 'scripts/cli.ts', 'mock', '--revision', REVISION, '--stdio', ...TEST_TIMINGS, ...args].join(' ');
}

/** Called with the session before the checks run (e.g. to hold some of their requests back). */
type Prepare = (session: TargetSession) => void;

/**
 * Runs `checks` against the reference extension server started with `args` (mock options: --fault, --latitude, …):
 * in this process over Streamable HTTP, or (`transport: 'stdio'`) spawned over stdio, the stdio framing on both sides.
 */
export async function runAgainstReference(
  args: readonly string[],
  checks: CheckDef[] = modernChecks(),
  options: Partial<RunOptions> = {},
  transport: 'http' | 'stdio' = 'http',
  prepare?: Prepare,
): Promise<CheckResult[]> {
  if (transport === 'stdio') {
    // The first answer of each process waits for tsx to compile the server: on a loaded machine that takes seconds.
    const session = await openTargetSession({
      target: { kind: 'stdio', command: referenceStdioCommand(args) },
      profile: REFERENCE_PROFILE,
      options: { revision: REVISION, checkTimeoutMs: 30_000, requestTimeoutMs: 20_000, ...options },
    });
    prepare?.(session);
    try {
      return await runChecks(checks, session, 12);
    } finally {
      await session.close();
    }
  }
  const { options: serverOptions, access } = parseExtensionServerArgs(['--http', '0', ...TEST_TIMINGS, ...args]);
  const server = createExtensionServer(serverOptions);
  const listener = await server.listenHttp(0, '127.0.0.1', access);
  try {
    return await runOverHttp(listener.url, access.tokens ?? [], checks, options, prepare);
  } finally {
    await server.close();
  }
}

/** The receiver's run times in the tests of the dual-era target (its options of the same names). */
const LEGACY_TEST_TIMINGS = ['--completes-ms', '50', '--slow-ms', '2000'];
/** Two requestors of the dual-era target over HTTP: a bearer token binds a task across eras (a 2026-07-28 request has no session). */
export const DUAL_ERA_TOKENS = ['dual-era-a', 'dual-era-b'];

/** `mock --revision dual-era --stdio` with the test timings and `args` (its own faults and latitudes, either peer's by name). */
export function dualEraStdioCommand(args: readonly string[]): string {
  return [process.execPath, '--import', 'tsx', 'scripts/cli.ts', 'mock', '--revision', 'dual-era', '--stdio', '--completes-ms', '50', ...args].join(' ');
}

/**
 * Runs `checks` against the dual-era reference target (mocks/dual-era) over Streamable HTTP, with bearer tokens:
 * its own faults and latitudes, and the two peers' options as on their command lines (`legacy`: mock …,
 * `modern`: mock --revision 2026-07-28 …). `transport: 'stdio'` spawns it over stdio (its own switches only).
 */
export async function runAgainstDualEra(
  given: { faults?: string[]; latitudes?: string[]; legacy?: readonly string[]; modern?: readonly string[] } = {},
  checks: CheckDef[] = modernChecks(),
  options: Partial<RunOptions> = {},
  transport: 'http' | 'stdio' = 'http',
): Promise<CheckResult[]> {
  if (transport === 'stdio') {
    if (given.legacy || given.modern) throw new Error("runAgainstDualEra over stdio takes the target's own faults and latitudes only");
    const args = [...(given.faults ?? []).flatMap((f) => ['--fault', f]), ...(given.latitudes ?? []).flatMap((l) => ['--latitude', l])];
    const session = await openTargetSession({
      target: { kind: 'stdio', command: dualEraStdioCommand(args) },
      profile: REFERENCE_PROFILE,
      options: { revision: REVISION, checkTimeoutMs: 30_000, requestTimeoutMs: 20_000, ...options },
    });
    try {
      return await runChecks(checks, session, 12);
    } finally {
      await session.close();
    }
  }
  const d = createDualEraServer({
    faults: given.faults,
    latitudes: given.latitudes,
    legacy: parseMockArgs([...LEGACY_TEST_TIMINGS, ...(given.legacy ?? [])]).options,
    modern: parseExtensionServerArgs([...TEST_TIMINGS, ...(given.modern ?? [])]).options,
  });
  const listener = await d.listenHttp(0, '127.0.0.1', { tokens: DUAL_ERA_TOKENS });
  try {
    return await runOverHttp(listener.url, DUAL_ERA_TOKENS, checks, options);
  } finally {
    await d.close();
  }
}

async function runOverHttp(
  url: string,
  tokens: readonly string[],
  checks: CheckDef[],
  options: Partial<RunOptions>,
  prepare?: Prepare,
): Promise<CheckResult[]> {
  const [primary, secondary] = tokens;
  const auth = (t: string | undefined) => (t ? { Authorization: `Bearer ${t}` } : undefined);
  const session = await openTargetSession({
    target: { kind: 'http', url, headers: auth(primary), secondaryHeaders: auth(secondary) },
    profile: REFERENCE_PROFILE,
    options: { revision: REVISION, checkTimeoutMs: 20_000, requestTimeoutMs: 10_000, ...options },
  });
  prepare?.(session);
  try {
    return await runChecks(checks, session, 12);
  } finally {
    await session.close();
  }
}
