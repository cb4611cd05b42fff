// The vitest entry of `mcp-tasks-conformance client …`: runs every selected scenario against the client
// once (beforeAll), then one test per requestor check, grading the recorded transcripts. The
// configuration comes from the CLI through vitest's `provide`/`inject`, as `client` runs it (scripts/client.ts).
import { afterAll, beforeAll, describe, inject, test } from 'vitest';
import type { CheckResult } from '../engine/check.ts';
import type { Analysis } from './analysis.ts';
import { requestorChecks } from './checks.ts';
import { gradeCheck, runNote } from './engine.ts';
import { commandLauncher, runClientScenarios, wantsTaskReceiver, type ClientRunConfig } from './run.ts';
import { receiverChecks2025 } from '../index.ts';
import { REQUEST_TYPE_NAMES, REQUEST_TYPES, runClientReceiverChecks, type ClientReceiverRun, type RequestType } from './client-receiver.ts';

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
    // A client that never reached the receiver in any scenario is an error of the run, not a list of skips.
    if (runs.length && runs.every((r) => r.sessions.length === 0)) {
      failure = new Error(
        `the client never connected to the reference receiver in any scenario (${runs.map((r) => `${r.scenario.name}: ${runNote(r) ?? `exited ${r.exit.code}`}`).join('; ')})`,
      );
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
        if (failure) throw new Error(`could not grade the client: ${failure instanceof Error ? failure.message : String(failure)}`);
        const result = gradeCheck(check, runs, notRun);
        task.meta.check = result;
        if (result.status === 'fail') throw new Error(`[${result.requirements.join(', ')}] ${result.message}`);
        if (result.status === 'skip') skip(result.message);
      });
    }
  });
}

// The client as task receiver: the receiver checks, once per request type (one run each, on first use).
if (wantsTaskReceiver(config.scenarios)) {
  const receiverRuns = new Map<RequestType, Promise<ClientReceiverRun>>();
  const receiverRun = (type: RequestType) => {
    let p = receiverRuns.get(type);
    if (!p) {
      log(`task-receiver: running the receiver checks with ${REQUEST_TYPES[type].method}`);
      p = runClientReceiverChecks(commandLauncher(config), config.transport, type);
      receiverRuns.set(type, p);
    }
    return p;
  };
  for (const type of REQUEST_TYPE_NAMES) {
    const sections = [...new Set(receiverChecks2025.map((c) => c.section))];
    for (const section of sections) {
      describe(`Client as receiver (${REQUEST_TYPES[type].method}): ${section}`, () => {
        for (const check of receiverChecks2025.filter((c) => c.section === section)) {
          test(`${check.id}@${type}`, async ({ task, skip }) => {
            const run = await receiverRun(type);
            const result = run.results.find((r) => r.id === `${check.id}@${type}`);
            if (!result) throw new Error(`no result for ${check.id}@${type}`);
            task.meta.check = result;
            if (result.status === 'fail') throw new Error(`[${result.requirements.join(', ')}] ${result.message}`);
            if (result.status === 'skip') skip(result.message);
          });
        }
      });
    }
  }
}
