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
  checks: extensionRequestorChecks,
  grade: (c, runs, notRun) => ({ ...gradeCheck(c, runs, notRun), revision: '2026-07-28' }),
  log: (line) => process.stderr.write(`  ${line}\n`),
});
