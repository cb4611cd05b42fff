// The vitest entry of `mcp-tasks-conformance client --revision 2026-07-28 …`: runs every selected scenario
// against the client once (beforeAll), then one test per requestor check of the revision, grading the
// recorded transcripts. The configuration comes from the CLI through vitest's `provide`/`inject`.
import { beforeAll, describe, inject, test } from 'vitest';
import type { CheckResult } from '../../engine/check.ts';
import { gradeCheck, runNote } from '../../requestor/engine.ts';
import { commandLauncher } from '../../requestor/run.ts';
import type { Analysis } from './analysis.ts';
import { extensionRequestorChecks } from './checks.ts';
import { runExtensionClientScenarios, type ExtensionClientRunConfig } from './run.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    extensionClientConformance: ExtensionClientRunConfig & { command: string; cwd?: string };
  }
}
declare module '@vitest/runner' {
  interface TaskMeta {
    check?: CheckResult;
  }
}

const config = inject('extensionClientConformance');
let runs: Analysis[] = [];
let notRun: Record<string, string> = {};
let failure: unknown;
const log = (line: string) => process.stderr.write(`  ${line}\n`);

beforeAll(async () => {
  try {
    ({ runs, notRun } = await runExtensionClientScenarios(commandLauncher(config), config, log));
    for (const r of runs) {
      const n = runNote(r);
      if (n) log(`scenario ${r.scenario.name}: ${n}`);
    }
    // A client that sent nothing in any scenario is an error of the run, not a list of skips.
    if (runs.length && runs.every((r) => r.requests.length === 0 && r.notifications.length === 0))
      failure = new Error(
        `the client never reached the reference extension server in any scenario (${runs.map((r) => `${r.scenario.name}: ${runNote(r) ?? `exited ${r.exit.code}`}`).join('; ')})`,
      );
  } catch (e) {
    failure = e;
  }
});

for (const section of [...new Set(extensionRequestorChecks.map((c) => c.section))]) {
  describe(section, () => {
    for (const check of extensionRequestorChecks.filter((c) => c.section === section)) {
      test(check.id, async ({ task, skip }) => {
        if (failure) throw new Error(`could not grade the client: ${failure instanceof Error ? failure.message : String(failure)}`);
        const result: CheckResult = { ...gradeCheck(check, runs, notRun), revision: '2026-07-28' };
        task.meta.check = result;
        if (result.status === 'fail') throw new Error(`[${result.requirements.join(', ')}] ${result.message}`);
        if (result.status === 'skip') skip(result.message);
      });
    }
  });
}
