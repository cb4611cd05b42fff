// One grading run of a client in revision 2026-07-28 (`client --revision 2026-07-28`): which scenarios run on
// which transport, running them, grading every requestor check of the revision over the transcripts.
import { CLIENT_SCENARIOS, type ScenarioTransport } from '../../../mocks/2026-07-28/scenarios.ts';
import type { CheckResult } from '../../engine/check.ts';
import { gradeCheck } from '../../requestor/engine.ts';
import type { ClientLauncher } from '../../requestor/harness.ts';
import { analyse, type Analysis } from './analysis.ts';
import { extensionRequestorChecks } from './checks.ts';
import { runScenarios } from './harness.ts';

export interface ExtensionClientRunConfig {
  transport: ScenarioTransport;
  /** Scenario names (empty: all that apply to the transport). */
  scenarios: string[];
  timeoutMs?: number;
  concurrency: number;
}

export function planScenarios(transport: ScenarioTransport, wanted: readonly string[] = []): { run: string[]; notRun: Record<string, string> } {
  const run: string[] = [];
  const notRun: Record<string, string> = {};
  for (const s of CLIENT_SCENARIOS) {
    if (wanted.length && !wanted.includes(s.name)) notRun[s.name] = 'scenario not selected (--scenario)';
    else if (s.transports && !s.transports.includes(transport)) notRun[s.name] = `scenario runs on ${s.transports.join('/')} only (this run: ${transport})`;
    else run.push(s.name);
  }
  return { run, notRun };
}

export async function runExtensionClientScenarios(
  launcher: ClientLauncher,
  config: ExtensionClientRunConfig,
  log?: (line: string) => void,
): Promise<{ runs: Analysis[]; notRun: Record<string, string> }> {
  const { run, notRun } = planScenarios(config.transport, config.scenarios);
  const runs = (await runScenarios(run, launcher, { transport: config.transport, timeoutMs: config.timeoutMs, concurrency: config.concurrency, log })).map(
    analyse,
  );
  return { runs, notRun };
}

/** Grades every 2026-07-28 requestor check over the runs. */
export function gradeExtensionClient(runs: readonly Analysis[], notRun: Readonly<Record<string, string>>): CheckResult[] {
  return extensionRequestorChecks.map((c) => ({ ...gradeCheck(c, runs, notRun), revision: '2026-07-28' as const }));
}
