// The vitest reporter that collects the check results (task.meta.check) of a run and prints progress.
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import type { CheckResult } from '../engine/check.ts';
import { MARK } from './model.ts';

/** Collects `task.meta.check` from the vitest run and prints progress. */
export class CheckCollector implements Reporter {
  readonly results: CheckResult[] = [];
  readonly errors: string[] = [];
  constructor(private readonly progress: (line: string) => void) {}

  onTestCaseResult(testCase: TestCase): void {
    const r = testCase.meta().check as CheckResult | undefined;
    if (r) {
      this.results.push(r);
      this.progress(`${MARK[r.status]} ${r.id}`);
    } else {
      const errs = testCase.result().errors ?? [];
      this.errors.push(`${testCase.fullName}: ${errs.map((e) => e.message).join('; ') || testCase.result().state}`);
      this.progress(`ERROR ${testCase.name}`);
    }
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<{ message?: string }>): void {
    for (const m of modules) for (const e of m.errors()) this.errors.push(`${m.moduleId}: ${e.message}`);
    for (const e of unhandled) this.errors.push(`unhandled: ${e.message ?? String(e)}`);
  }
}
