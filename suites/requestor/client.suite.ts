// The vitest entry of `mcp-tasks-conformance client …`: runs every selected scenario against the client
// once (beforeAll), then one test per requestor check, grading the recorded transcripts. The
// configuration comes from the CLI through vitest's `provide`/`inject`, as `client` runs it (scripts/client.ts).
import { describe, inject, test } from 'vitest';
import type { Analysis } from './analysis.ts';
import { requestorChecks } from './checks.ts';
import { gradeCheck } from './engine.ts';
import { gradedSuite, reportCheck } from './graded-suite.ts';
import { commandLauncher, runClientScenarios, wantsTaskReceiver, type ClientRunConfig } from './run.ts';
import { checks as receiverChecks2025 } from '../receiver/index.ts';
import { REQUEST_TYPE_NAMES, REQUEST_TYPES, runClientReceiverChecks, type ClientReceiverRun, type RequestType } from './client-receiver.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    clientConformance: ClientRunConfig;
  }
}

const config = inject('clientConformance');
const log = (line: string) => process.stderr.write(`  ${line}\n`);

gradedSuite({
  run: (l) => runClientScenarios(commandLauncher(config), config, l),
  reached: (r: Analysis) => r.sessions.length > 0,
  never: 'the client never connected to the reference receiver',
  checks: requestorChecks,
  grade: (c, runs, notRun) => gradeCheck(c, runs, notRun),
  log,
});

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
            reportCheck(task, skip, result);
          });
        }
      });
    }
  }
}
