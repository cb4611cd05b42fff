// The vitest entry of `mcp-tasks-conformance client --revision 2026-07-28 …`: runs every selected scenario
// against the client once (beforeAll), then one test per requestor check of the revision, grading the
// recorded transcripts. The configuration comes from the CLI through vitest's `provide`/`inject`.
import { inject } from 'vitest';
import { gradeCheck } from '../../requestor/engine.ts';
import { gradedSuite } from '../../requestor/graded-suite.ts';
import { commandLauncher } from '../../requestor/run.ts';
import type { Analysis } from './analysis.ts';
import { extensionRequestorChecks } from './checks.ts';
import { runExtensionClientScenarios, type ExtensionClientRunConfig } from './run.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    extensionClientConformance: ExtensionClientRunConfig & { command: string; cwd?: string };
  }
}

const config = inject('extensionClientConformance');

gradedSuite({
  run: (log) => runExtensionClientScenarios(commandLauncher(config), config, log),
  reached: (r: Analysis) => r.requests.length > 0 || r.notifications.length > 0,
  never: 'the client never reached the reference extension server',
  // A client of 2025-11-25 only opens with initialize, which a 2026-07-28 server refuses, and sends nothing of the revision.
  unspoken: (runs: Analysis[]) => {
    const modern = runs.filter((r) => !(r.scenario as { legacy?: boolean }).legacy && r.requests.length > 0);
    if (!modern.length || !modern.every((r) => r.requests.every((x) => x.method === 'initialize'))) return undefined;
    return `the client does not speak 2026-07-28: in every scenario (${modern.map((r) => r.scenario.name).join(', ')}) it opened with initialize, the 2025-11-25 handshake, and sent no request of the revision (server/discover, or a request with its per-request _meta)`;
  },
  checks: extensionRequestorChecks,
  grade: (c, runs, notRun) => ({ ...gradeCheck(c, runs, notRun), revision: '2026-07-28' }),
  log: (line) => process.stderr.write(`  ${line}\n`),
});
