// One grading run of a client (`mcp-tasks-conformance client`): which scenarios run on which
// transport, running them, and grading every requestor check over the recorded transcripts.
import { SCENARIOS, type ScenarioTransport } from '../../mocks/receiver/scenarios.ts';
import type { CheckResult } from '../engine/check.ts';
import { analyse, type Analysis } from './analysis.ts';
import { requestorChecks } from './checks.ts';
import { gradeCheck } from './engine.ts';
import { runScenarios, type ClientLauncher } from './harness.ts';

/** Serializable (CLI → vitest worker through `provide`). */
export interface ClientRunConfig {
  command: string;
  cwd?: string;
  transport: ScenarioTransport;
  /** Scenario names (empty: all that apply to the transport). */
  scenarios: string[];
  /** Overrides each scenario's own client timeout (ms). */
  timeoutMs?: number;
  /** Scenarios run at once. */
  concurrency: number;
  /** The client's own tool names: every scenario lists them, served by its own tool (`client --tool`). */
  clientTools?: string[];
}

export const DEFAULT_CLIENT_CONCURRENCY = 3;

/** Scenario name of the client-as-receiver part (suites/requestor/client-receiver.ts). */
export const TASK_RECEIVER = 'task-receiver';

/** Whether the receiver checks run against the client (scenario task-receiver selected, or no selection). */
export function wantsTaskReceiver(scenarios: readonly string[]): boolean {
  return scenarios.length === 0 || scenarios.includes(TASK_RECEIVER);
}

/** The scenarios to run, and why the others are not run. */
export function planScenarios(transport: ScenarioTransport, wanted: string[] = []): { run: string[]; notRun: Record<string, string> } {
  const run: string[] = [];
  const notRun: Record<string, string> = {};
  for (const s of SCENARIOS) {
    if (wanted.length && !wanted.includes(s.name)) notRun[s.name] = 'scenario not selected (--scenario)';
    else if (s.transports && !s.transports.includes(transport)) notRun[s.name] = `scenario runs on ${s.transports.join('/')} only (this run: ${transport})`;
    else run.push(s.name);
  }
  return { run, notRun };
}

export interface ClientGrading {
  runs: Analysis[];
  notRun: Record<string, string>;
  results: CheckResult[];
}

export async function runClientScenarios(
  launcher: ClientLauncher,
  config: Omit<ClientRunConfig, 'command' | 'cwd'>,
  log?: (line: string) => void,
): Promise<{ runs: Analysis[]; notRun: Record<string, string> }> {
  const { run, notRun } = planScenarios(config.transport, config.scenarios);
  const runs = (
    await runScenarios(run, launcher, {
      transport: config.transport,
      timeoutMs: config.timeoutMs,
      concurrency: config.concurrency,
      clientTools: config.clientTools,
      log,
    })
  ).map(analyse);
  return { runs, notRun };
}

/** Runs the scenarios and grades every requestor check (in-process; the CLI does the same through vitest). */
export async function gradeClient(
  launcher: ClientLauncher,
  config: Omit<ClientRunConfig, 'command' | 'cwd'>,
  log?: (line: string) => void,
): Promise<ClientGrading> {
  const { runs, notRun } = await runClientScenarios(launcher, config, log);
  return { runs, notRun, results: requestorChecks.map((c) => gradeCheck(c, runs, notRun)) };
}

export function commandLauncher(config: Pick<ClientRunConfig, 'command' | 'cwd'>): ClientLauncher {
  return { kind: 'command', command: config.command, ...(config.cwd ? { cwd: config.cwd } : {}) };
}
