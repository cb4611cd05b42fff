// The 2026-07-28 checks against the reference extension server (mocks/2026-07-28): silent on the clean server
// over stdio and Streamable HTTP and under every latitude (no-false-verdict matrix); each fault a check names
// in `killedBy` makes exactly the checks naming it fail (kill matrix, over the faults the checks name so far).
import { describe, expect, it } from 'vitest';
import { checksFor } from '../../index.ts';
import { openTargetSession, runChecks } from '../../runner/session.ts';
import { loadProfile, type TargetSpec } from '../../runner/target.ts';
import type { CheckResult } from '../../engine/check.ts';
import { FAULTS, LATITUDES, createExtensionServer, isFaultName, type ServerOptions } from '../../../mocks/2026-07-28/index.ts';

const profile = loadProfile('fixtures/reference-2026-07-28.profile.json');
const checks = checksFor('2026-07-28');
const FAST: ServerOptions = { timings: { completesMs: 50, slowMs: 5_000 }, pollIntervalMs: 50 };
const bad = (r: CheckResult) => r.status === 'fail' || r.status === 'warn';
const line = (r: CheckResult) => `${r.id}: ${r.status} ${r.message.slice(0, 200)}`;

/** Server options of a switch's CLI args (the ones the registry uses). */
function optionsOf(args: readonly string[] = []): ServerOptions {
  const o: ServerOptions = {};
  for (let i = 0; i < args.length; i += 2) if (args[i] === '--ttl-ms') o.ttlMs = Number(args[i + 1]);
  return o;
}

async function runOver(transport: 'stdio' | 'http', options: ServerOptions): Promise<CheckResult[]> {
  let target: TargetSpec;
  let stop = async () => {};
  if (transport === 'http') {
    const server = createExtensionServer({ ...FAST, ...options });
    const h = await server.listenHttp(0);
    target = { kind: 'http', url: h.url };
    stop = () => server.close();
  } else {
    const src = `import('./mocks/2026-07-28/index.ts').then((m) => m.createExtensionServer(${JSON.stringify({ ...FAST, ...options })}).stdio(process.stdin, process.stdout))`;
    target = { kind: 'stdio', command: `node_modules/.bin/tsx -e "${src.replace(/"/g, '\\"')}"` };
  }
  const session = await openTargetSession({ target, profile, options: { revision: '2026-07-28', requestTimeoutMs: 10_000, checkTimeoutMs: 30_000 } });
  try {
    return await runChecks(checks, session, 8);
  } finally {
    await session.close();
    await stop();
  }
}

describe('2026-07-28 checks on the reference extension server', () => {
  it('name known faults of the reference extension server', () => {
    expect(checks.flatMap((c) => c.killedBy.filter((f) => !isFaultName(f)).map((f) => `${c.id}: ${f}`))).toEqual([]);
    expect(checks.filter((c) => c.level === 'MUST' && c.killedBy.length === 0).map((c) => c.id)).toEqual([]);
  });

  it.concurrent.each(['stdio', 'http'] as const)('the clean server over %s: no check fails or warns, every check runs', { timeout: 120_000 }, async (t) => {
    const results = await runOver(t, {});
    expect(results.filter(bad).map(line)).toEqual([]);
    // Over stdio the HTTP status rules do not apply; nothing else is left unexercised.
    const skipped = results.filter((r) => r.status === 'skip' && !/HTTP status rule/.test(r.message));
    expect(skipped.map(line)).toEqual([]);
  });

  it('a server without the extension: the core checks still pass, the extension checks say why they do not apply', { timeout: 120_000 }, async () => {
    const results = await runOver('http', { tasksExtension: false });
    expect(results.filter(bad).map(line)).toEqual([]);
    for (const r of results.filter((x) => x.status === 'skip'))
      expect(r.message).toMatch(/does not advertise|does not list it|did not answer a declaring client/);
  });

  it.concurrent.each(LATITUDES.map((l) => [l.name, l] as const))('latitude %s: no check fails or warns', { timeout: 120_000 }, async (name, l) => {
    const results = await runOver('transport' in l && l.transport === 'http' ? 'http' : 'http', { latitudes: [name], ...optionsOf('args' in l ? l.args : []) });
    expect(results.filter(bad).map(line)).toEqual([]);
  });

  const named = [...new Set(checks.flatMap((c) => c.killedBy))];
  it.concurrent.each(named.map((n) => [n, FAULTS.find((f) => f.name === n)!] as const))(
    'fault %s fails exactly the checks that name it',
    { timeout: 120_000 },
    async (name, fault) => {
      const results = await runOver('http', { faults: [name], ...optionsOf('args' in fault ? fault.args : []) });
      const want = checks.filter((c) => c.killedBy.includes(name)).map((c) => c.id);
      expect(results.filter(bad).map((r) => r.id)).toEqual(want);
    },
  );
});
