// The requestor checks of 2026-07-28 against the reference extension client: correct (every check silent, over
// Streamable HTTP and stdio), under each fault (exactly the checks that name it fail or warn: the kill matrix)
// and under each latitude (zero fail, zero warn: the no-false-verdict matrix). Every scenario runs each time.
import { describe, expect, it } from 'vitest';
import { CLIENT_FAULTS, CLIENT_LATITUDES } from '../../../mocks/2026-07-28/client/faults.ts';
import { runExtensionClient } from '../../../mocks/2026-07-28/client/reference-client.ts';
import { CLIENT_SCENARIO_NAMES } from '../../../mocks/2026-07-28/scenarios.ts';
import { hasRequirement, primaryId } from '../../../schema/catalog.ts';
import type { CheckResult } from '../../engine/check.ts';
import type { ClientLauncher } from '../../requestor/harness.ts';
import { extensionRequestorChecks } from './checks.ts';
import { gradeExtensionClient, runExtensionClientScenarios } from './run.ts';

function reference(faults: string[] = [], latitudes: string[] = []): ClientLauncher {
  return {
    kind: 'function',
    label: `reference extension client ${[...faults, ...latitudes].join(',')}`,
    run: (a) => runExtensionClient({ scenario: a.scenario, serverArg: a.serverArg, faults, latitudes, signal: a.signal }),
  };
}

async function grade(launcher: ClientLauncher, transport: 'http' | 'stdio' = 'http'): Promise<CheckResult[]> {
  const { runs, notRun } = await runExtensionClientScenarios(launcher, {
    transport,
    scenarios: [],
    concurrency: CLIENT_SCENARIO_NAMES.length,
    timeoutMs: 60_000,
  });
  for (const r of runs) expect(r.exit.code, `${r.scenario.name}: client exit (stderr ${r.exit.stderr})`).not.toBeNull();
  return gradeExtensionClient(runs, notRun);
}

const loud = (rs: CheckResult[]) => rs.filter((r) => r.status === 'fail' || r.status === 'warn');
const show = (rs: CheckResult[]) => rs.map((r) => `${r.id} ${r.status}: ${r.message.slice(0, 400)}`).join('\n');

describe('2026-07-28 requestor checks: the registry', () => {
  it('ids unique, requirement ids in the catalog, every check killed by a fault that breaks one of its requirements', () => {
    const ids = extensionRequestorChecks.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const c of extensionRequestorChecks) {
      expect(c.id.startsWith('2026-requestor.'), c.id).toBe(true);
      for (const r of c.requirements) expect(hasRequirement(r), `${c.id}: ${r}`).toBe(true);
      expect(c.killedBy.length, `${c.id} has no fault`).toBeGreaterThan(0);
      for (const f of c.killedBy) {
        const fault = CLIENT_FAULTS.find((x) => x.name === f)!;
        const mine = new Set(c.requirements.map(primaryId));
        // A fault names the one requirement it breaks; a check it kills judges that requirement, or (poll-until-terminal) the one the fault's stopping also breaks.
        if (!mine.has(primaryId(fault.requirement))) expect(c.id, `${f} breaks ${fault.requirement}`).toBe('2026-requestor.poll-until-terminal');
      }
    }
    for (const f of CLIENT_FAULTS) expect(hasRequirement(f.requirement), f.name).toBe(true);
  });
});

// One configuration at a time: client and server share this process's event loop, and the timing checks measure
// on it (many runs at once would stretch every gap they measure, and hide a client that polls too fast).
describe('2026-07-28 requestor checks against the reference extension client', () => {
  it('correct client over Streamable HTTP: no fail, no warn; only the stdio lines not exercised', { timeout: 120_000 }, async () => {
    const rs = await grade(reference());
    expect(show(loud(rs))).toBe('');
    // Over HTTP closing the stream cancels (no notifications/cancelled), and server/discover first is a stdio line.
    expect(rs.filter((r) => r.status === 'skip').map((r) => r.id)).toEqual(['2026-requestor.discover-first-stdio', '2026-requestor.cancel-only-issued']);
  });

  it('correct client over stdio: no fail, no warn; only the HTTP header checks not exercised', { timeout: 120_000 }, async () => {
    const rs = await grade(reference(), 'stdio');
    expect(show(loud(rs))).toBe('');
    expect(rs.filter((r) => r.status === 'skip').map((r) => r.id)).toEqual([
      '2026-requestor.standard-headers',
      '2026-requestor.mcp-name-base64',
      '2026-requestor.mcp-name-task-id',
    ]);
  });

  for (const f of CLIENT_FAULTS) {
    it(`fault ${f.name}: exactly the checks that name it fail or warn`, { timeout: 120_000 }, async () => {
      // A fault whose line is about one transport is graded there (the others over Streamable HTTP).
      const rs = await grade(reference([f.name]), 'transport' in f ? f.transport : 'http');
      const want = extensionRequestorChecks.filter((c) => c.killedBy.includes(f.name)).map((c) => c.id);
      expect(
        loud(rs).map((r) => r.id),
        show(loud(rs)),
      ).toEqual(want);
    });
  }

  for (const l of CLIENT_LATITUDES) {
    // A latitude that acts on one transport is graded there (the others over Streamable HTTP).
    const transport = 'transport' in l ? l.transport : 'http';
    it(`latitude ${l.name}${transport === 'stdio' ? ' over stdio' : ''}: no fail, no warn`, { timeout: 120_000 }, async () => {
      const rs = await grade(reference([], [l.name]), transport);
      expect(show(loud(rs))).toBe('');
      // Not vacuous: the restarted connection opened by the remembered era (legacy-server: initialize first) reached the check.
      if (l.name === 'restart-remembers-era')
        expect(rs.find((r) => r.id === '2026-requestor.discover-first-stdio')?.message).toMatch(
          /not judged: .*a later connection to the same server command, opened with initialize/,
        );
    });
  }

  it('latitude no-discover over stdio (where server/discover first is judged): no fail, no warn', { timeout: 120_000 }, async () => {
    const rs = await grade(reference([], ['no-discover']), 'stdio');
    expect(show(loud(rs))).toBe('');
    expect(rs.find((r) => r.id === '2026-requestor.discover-first-stdio')?.status).toBe('skip');
  });
});
