// The vitest entry the CLI runs (`mcp-tasks-conformance server …`): one describe per spec section,
// one concurrent test per check. The target comes from the CLI through vitest's `provide`/`inject`.
import { afterAll, beforeAll, describe, inject, test } from 'vitest';
import { allChecks } from './index.ts';
import type { CheckResult } from './engine.ts';
import { openTargetSession, runInSession, selected, type RunConfig, type TargetSession } from './harness/session.ts';

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
const checks = allChecks.filter((c) => c.runsLast || selected(c, config.only));
let session: TargetSession | undefined;
let openError: unknown;

beforeAll(async () => {
  try {
    session = await openTargetSession(config);
  } catch (e) {
    openError = e;
  }
});
afterAll(async () => {
  await session?.close();
});

// Sections run concurrently with each other; checks marked runsLast (the schema check) run after all.
const sections = [...new Set(checks.map((c) => c.section))];
for (const section of sections) {
  const last = checks.some((c) => c.section === section && c.runsLast);
  (last ? describe : describe.concurrent)(section, () => {
    for (const check of checks.filter((c) => c.section === section)) {
      const register = check.runsLast ? test : test.concurrent;
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
