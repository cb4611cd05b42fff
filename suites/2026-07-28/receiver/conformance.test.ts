// The 2026-07-28 checks against the reference extension server (mocks/2026-07-28): silent on the clean server
// over stdio and Streamable HTTP, every check exercised; on a server without the extension the extension's
// checks say why they do not apply. The kill matrix is faults.test.ts, the no-false-verdict matrix
// latitudes.test.ts (next to this file).
import { describe, expect, it } from 'vitest';
import { checksFor } from '../../index.ts';
import { runChecks } from '../../runner/session.ts';
import { loadProfile, type TargetSpec } from '../../runner/target.ts';
import type { CheckResult } from '../../engine/check.ts';
import { createExtensionServer, type ServerOptions } from '../../../mocks/2026-07-28/index.ts';
import { openTargetSession } from '../../revisions.ts';

const profile = loadProfile('fixtures/reference-2026-07-28.profile.json');
const checks = checksFor('2026-07-28');
const FAST: ServerOptions = { timings: { completesMs: 50, slowMs: 5_000 }, pollIntervalMs: 50 };
const bad = (r: CheckResult) => r.status === 'fail' || r.status === 'warn';
const line = (r: CheckResult) => `${r.id}: ${r.status} ${r.message.slice(0, 200)}`;

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
  // Over stdio the first answer waits for tsx to compile the server in the child: on a loaded machine that takes seconds.
  const requestTimeoutMs = transport === 'stdio' ? 20_000 : 10_000;
  const session = await openTargetSession({ target, profile, options: { revision: '2026-07-28', requestTimeoutMs, checkTimeoutMs: 30_000 } });
  try {
    return await runChecks(checks, session, 8);
  } finally {
    await session.close();
    await stop();
  }
}

describe('2026-07-28 checks on the reference extension server', () => {
  it.concurrent.each(['stdio', 'http'] as const)('the clean server over %s: no check fails or warns, every check runs', { timeout: 120_000 }, async (t) => {
    const results = await runOver(t, {});
    expect(results.filter(bad).map(line)).toEqual([]);
    // Over stdio the HTTP rules (status codes, routing headers) do not apply, auth binding needs two identities, and the
    // cross-version rules a dual-era server (compat.test.ts); the clean server never ends a subscription of its own
    // accord (the latitude listen-ends-when-done does, and the kill and latitude matrices judge that teardown);
    // nothing else is left unexercised.
    const skipped = results.filter(
      (r) =>
        r.status === 'skip' &&
        !/HTTP status rule|Streamable HTTP only|one authorization context|the target does not speak 2025-11-25|ending a subscription is its choice/.test(
          r.message,
        ),
    );
    expect(skipped.map(line)).toEqual([]);
  });

  it('a server without the extension: the core checks still pass, the extension checks say why they do not apply', { timeout: 120_000 }, async () => {
    const results = await runOver('http', { tasksExtension: false });
    expect(results.filter(bad).map(line)).toEqual([]);
    for (const r of results.filter((x) => x.status === 'skip'))
      expect(r.message).toMatch(/does not advertise|does not list it|did not answer a declaring client|the target does not speak 2025-11-25/);
  });
});
