// `mock --judge` against every fault of the reference clients (both revisions): the live judge reports each
// fault's requirement. For each fault the judge serves, one at a time, the scenarios its checks judge (those all
// its checks share first) until the fault shows; what shows is a check naming the fault in killedBy and nothing
// else. The `client` command's kill matrices (suites/requestor-faults.test.ts, suites/2026-07-28/requestor/
// faults.test.ts) hold each fault to exactly its checks over every scenario; this holds the live path to them.
import { describe, expect, it } from 'vitest';
import { CLIENT_FAULTS } from '../mocks/client/faults.ts';
import { CLIENT_FAULTS as EXTENSION_CLIENT_FAULTS } from '../mocks/2026-07-28/client/faults.ts';
import { runReferenceClient } from '../mocks/client/reference-client.ts';
import { runExtensionClient } from '../mocks/2026-07-28/client/reference-client.ts';
import { CLIENT_SCENARIOS } from '../mocks/2026-07-28/scenarios.ts';
import { SCENARIO_NAMES } from '../mocks/receiver/scenarios.ts';
import { requestorChecks } from '../suites/requestor/checks.ts';
import { extensionRequestorChecks } from '../suites/2026-07-28/requestor/checks.ts';
import type { CheckResult } from '../suites/engine/check.ts';
import { startJudge, type JudgeRevision } from './judge.ts';

/** Faults the reference client shows over stdio only (the judge is served over HTTP here; the client command's stdio runs judge them). */
const STDIO_ONLY = new Set<string>(
  [...CLIENT_FAULTS, ...EXTENSION_CLIENT_FAULTS].filter((f) => (f as { transport?: string }).transport === 'stdio').map((f) => f.name),
);

const REVISIONS: {
  revision: JudgeRevision;
  faults: readonly string[];
  checks: readonly { id: string; scenarios: readonly string[]; killedBy: readonly string[] }[];
  order: readonly string[];
}[] = [
  { revision: '2025-11-25', faults: CLIENT_FAULTS.map((f) => f.name), checks: requestorChecks, order: SCENARIO_NAMES },
  {
    revision: '2026-07-28',
    faults: EXTENSION_CLIENT_FAULTS.map((f) => f.name),
    checks: extensionRequestorChecks,
    order: CLIENT_SCENARIOS.filter((s) => !s.legacy).map((s) => s.name),
  },
];

async function judgeOnce(revision: JudgeRevision, scenario: string, fault: string): Promise<CheckResult[]> {
  const j = await startJudge({ revision, transport: 'http', scenario });
  const run = revision === '2025-11-25' ? runReferenceClient : runExtensionClient;
  await run({ scenario, serverArg: j.url!, faults: [fault], latitudes: [], signal: AbortSignal.timeout(60_000) });
  const checks = j.report(true, [], true).checks;
  await j.close();
  return checks.filter((r) => r.status === 'fail' || r.status === 'warn');
}

for (const r of REVISIONS) {
  describe(`mock --judge --revision ${r.revision} reports every fault of the reference client`, () => {
    for (const fault of r.faults) {
      const mine = r.checks.filter((c) => c.killedBy.includes(fault));
      const ids = mine.map((c) => c.id);
      const shared = r.order.filter((s) => mine.every((c) => c.scenarios.includes(s)));
      const any = r.order.filter((s) => !shared.includes(s) && mine.some((c) => c.scenarios.includes(s)));
      // A fault whose checks judge only a legacy (2025-11-25) server's scenario: the judge of 2026-07-28 serves none.
      const why = STDIO_ONLY.has(fault) ? ' (not run: stdio only)' : shared.length + any.length === 0 ? ' (not run: its scenario is a legacy server)' : '';
      it.skipIf(why !== '')(`${fault}${why}`, { timeout: 300_000 }, async () => {
        const tried: string[] = [];
        for (const scenario of [...shared, ...any]) {
          const loud = await judgeOnce(r.revision, scenario, fault);
          tried.push(`${scenario}: ${loud.map((x) => `${x.id} ${x.status}`).join(', ') || 'silent'}`);
          if (!loud.length) continue;
          expect(
            loud.filter((x) => !ids.includes(x.id)).map((x) => `${x.id} ${x.status}: ${x.message.slice(0, 300)}`),
            `${fault} in scenario ${scenario}: only checks naming it speak (${ids.join(', ')})`,
          ).toEqual([]);
          return;
        }
        expect.fail(`${fault} never showed (its checks: ${ids.join(', ')}); tried ${tried.join(' | ')}`);
      });
    }
  });
}
