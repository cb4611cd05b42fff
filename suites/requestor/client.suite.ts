// The vitest entry of `mcp-tasks-conformance client …`: runs every selected scenario against the client
// once (beforeAll), then one test per requestor check, grading the recorded transcripts. The
// configuration comes from the CLI through vitest's `provide`/`inject`, like suites/receiver.suite.ts.
import { afterAll, beforeAll, describe, inject, test } from 'vitest';
import type { CheckResult } from '../engine.ts';
import type { Analysis } from './analysis.ts';
import { requestorChecks } from './checks.ts';
import { gradeCheck, runNote } from './engine.ts';
import { commandLauncher, runClientScenarios, type ClientRunConfig } from './run.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    clientConformance: ClientRunConfig;
  }
}
declare module '@vitest/runner' {
  interface TaskMeta {
    check?: CheckResult;
  }
}

const config = inject('clientConformance');
let runs: Analysis[] = [];
let notRun: Record<string, string> = {};
let failure: unknown;

const log = (line: string) => process.stderr.write(`  ${line}\n`);

beforeAll(async () => {
  try {
    ({ runs, notRun } = await runClientScenarios(commandLauncher(config), config, log));
    for (const r of runs) {
      const n = runNote(r);
      if (n) log(`scenario ${r.scenario.name}: ${n}`);
    }
  } catch (e) {
    failure = e;
  }
});
afterAll(() => undefined);

const sections = [...new Set(requestorChecks.map((c) => c.section))];
for (const section of sections) {
  describe(section, () => {
    for (const check of requestorChecks.filter((c) => c.section === section)) {
      test(check.id, async ({ task, skip }) => {
        if (failure) throw new Error(`could not run the client scenarios: ${failure instanceof Error ? failure.message : String(failure)}`);
        const result = gradeCheck(check, runs, notRun);
        task.meta.check = result;
        if (result.status === 'fail') throw new Error(`[${result.requirements.join(', ')}] ${result.message}`);
        if (result.status === 'skip') skip(result.message);
      });
    }
  });
}
