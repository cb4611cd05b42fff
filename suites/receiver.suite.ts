// The vitest entry the CLI runs (`mcp-tasks-conformance server …`): one describe per spec section,
// one concurrent test per check. The target comes from the CLI through vitest's `provide`/`inject`.
import { afterAll, beforeAll, describe, inject, test } from 'vitest';
import { allChecks } from './index.ts';
import type { CheckResult } from './engine.ts';
import { openTargetSession, runInSession, selected, type RunConfig, type TargetSession } from './harness/session.ts';
import { gradeServerAsRequestor, receiverChecksRun, runServerAsRequestor, serverRequestorChecks, serverRequestorOptions, SERVER_REQUESTOR_SECTION_PREFIX, type ServerRequestorRuns } from './requestor/server-requestor.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    conformance: RunConfig;
  }
}
declare module '@vitest/runner' {
  interface TaskMeta {
    check?: CheckResult;
  }
}

const config = inject('conformance');
const checks = allChecks.filter((c) => c.runsLast || selected(c, config.only, config.exclude));
let session: TargetSession | undefined;
let openError: unknown;

/** The target as requestor (below): its own connections, started at once so that they overlap the receiver checks. */
let requestorRuns: Promise<ServerRequestorRuns> | undefined;
const requestorChecks = serverRequestorChecks.filter((c) => selected(c, config.only, config.exclude));
const requestorOptions = serverRequestorOptions(undefined, config.options?.requestTimeoutMs);

beforeAll(async () => {
  try {
    session = await openTargetSession(config);
    if (requestorChecks.length) requestorRuns = runServerAsRequestor(session.connector, session.info, requestorOptions);
  } catch (e) {
    openError = e;
  }
});
afterAll(async () => {
  await session?.close();
});

// Sections run concurrently with each other; then the checks that load the target (a huge ttl, floods,
// many tasks), one at a time; then the checks marked runsLast (the schema check).
const LOADS_TARGET = 'Checks that load the target';
const group = (c: (typeof checks)[number]) => (c.loadsTarget && !c.runsLast ? LOADS_TARGET : c.section);
const sections = [...new Set(checks.filter((c) => !c.runsLast && !c.loadsTarget).map(group)), LOADS_TARGET, ...new Set(checks.filter((c) => c.runsLast).map(group))];
for (const section of sections) {
  const inSection = checks.filter((c) => group(c) === section);
  if (!inSection.length) continue;
  const sequential = section === LOADS_TARGET || inSection.some((c) => c.runsLast);
  (sequential ? describe : describe.concurrent)(section, () => {
    for (const check of inSection) {
      const register = sequential ? test : test.concurrent;
      register(check.id, { timeout: (check.timeoutMs ?? config.options?.checkTimeoutMs ?? 30_000) + 5_000 }, async ({ task, skip }) => {
        if (!session) throw new Error(`could not reach the target: ${openError instanceof Error ? openError.message : String(openError)}`);
        const result = await runInSession(check, session);
        task.meta.check = result;
        if (result.status === 'fail') throw new Error(`[${result.requirements.join(', ')}] ${result.message}`);
        if (result.status === 'skip') skip(result.message);
      });
    }
  });
}

// The target as requestor (suites/requestor/server-requestor.ts): these sections are not concurrent, so
// they start once every receiver check above has finished; the requestor checks judge the requestor
// roles' connections together with the receiver checks' messages.
if (requestorChecks.length) {
  let graded: Promise<CheckResult[]> | undefined;
  const grade = () => (graded ??= requestorRuns!.then((active) => gradeServerAsRequestor({ runs: [...active.runs, receiverChecksRun(session!.results, session!.info.label)], notRun: active.notRun })));
  for (const section of [...new Set(requestorChecks.map((c) => c.section))]) {
    describe(SERVER_REQUESTOR_SECTION_PREFIX + section.replace(/^Requestor: /, ''), () => {
      for (const check of requestorChecks.filter((c) => c.section === section)) {
        test(check.id, { timeout: requestorOptions.callTimeoutMs + 30_000 }, async ({ task, skip }) => {
          if (!session || !requestorRuns) throw new Error(`could not reach the target: ${openError instanceof Error ? openError.message : String(openError)}`);
          const result = (await grade()).find((r) => r.id === check.id)!;
          task.meta.check = result;
          if (result.status === 'fail') throw new Error(`[${result.requirements.join(', ')}] ${result.message}`);
          if (result.status === 'skip') skip(result.message);
        });
      }
    });
  }
}
