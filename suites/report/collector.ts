// The vitest reporter that collects the check results (task.meta.check) of a run and prints progress.
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import type { CheckResult } from '../engine/check.ts';
import { MARK } from './model.ts';
import type { RunProgress } from './progress.ts';

/** The section (describe) a test case sits in. */
const sectionOf = (t: TestCase) => (t.parent.type === 'suite' ? t.parent.name : '');

/**
 * Collects `task.meta.check` from the vitest run. `progress` gets a line per finished check; `status`,
 * on a terminal, the running status line (suites/report/progress.ts).
 */
export class CheckCollector implements Reporter {
  readonly results: CheckResult[] = [];
  readonly errors: string[] = [];
  /** Every test collected (check id and section), for a run interrupted before it finished them. */
  readonly collected: { id: string; section: string }[] = [];
  constructor(
    private readonly progress: (line: string) => void,
    private readonly status?: RunProgress,
  ) {}

  onTestModuleCollected(module: TestModule): void {
    const tests = [...module.children.allTests()];
    this.collected.push(...tests.map((t) => ({ id: t.name, section: sectionOf(t) })));
    this.status?.addChecks(tests.map(sectionOf));
  }

  onTestCaseReady(testCase: TestCase): void {
    this.status?.start(testCase.name, sectionOf(testCase));
  }

  onTestCaseResult(testCase: TestCase): void {
    this.status?.finish(testCase.name, sectionOf(testCase));
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
