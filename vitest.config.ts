import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { ALL, E2E, MATRIX, UNIT } from './vitest.tiers.ts';

// The files that take longest (about a minute or more each on a 2-core machine: real targets, the kill and
// no-false-verdict matrices, CLI runs), started first so that none of them is left to run alone at the end.
// A fresh clone has no timing cache for vitest's own ordering (it falls back to file size).
// Real clients graded under their own per-client bounds, started when most files are done: with the long files
// beside them (a 2-core machine) the SDK example client ran past its bound in both fresh-clone runs, alone it does not.
const QUIET_LAST = ['suites/requestor-own-tools.test.ts'];
const LONG_FIRST = [
  'fixtures/zero-config.test.ts',
  'suites/2026-07-28/receiver/faults.test.ts',
  'fixtures/third-party.test.ts',
  'fixtures/official-suite.test.ts',
  'scripts/judge.test.ts',
  'suites/2026-07-28/receiver/latitudes.test.ts',
  'suites/receiver/faults.test.ts',
  'scripts/cli.test.ts',
  'suites/runner/revision.test.ts',
  'suites/receiver/latitudes.test.ts',
  'suites/runner/verdicts.test.ts',
  'suites/2026-07-28/runner/discovery.test.ts',
  'suites/2026-07-28/requestor/faults.test.ts',
  'scripts/dual-era.test.ts',
  'scripts/package.test.ts',
  'suites/receiver/conformance-stdio.test.ts',
];

class LongFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = LONG_FIRST.findIndex((p) => f.moduleId.endsWith(p));
      if (QUIET_LAST.some((p) => f.moduleId.endsWith(p))) return LONG_FIRST.length + 1;
      return i < 0 ? LONG_FIRST.length : i;
    };
    return [...sorted].sort((a, b) => rank(a) - rank(b));
  }
}

// `npm test`: the suite's own tests (*.test.ts), in four projects (vitest.tiers.ts; CONTRIBUTING.md "Test tiers"):
// `npm run test:quick` runs `unit` and `reference`, `npx vitest run --project matrix` one tier. The client suite's
// entry (suites/requestor/client.suite.ts) runs only through the CLI, which points it at a client.
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Three test files at a time on a 2-core machine: the files mostly wait on real targets and timers (tasks that
    // run for seconds, processes starting), and their bounds scale with the latency the runs observe, so a third
    // worker shortens the wall time (the whole run stays within CI's 15 minutes) without turning load into verdicts.
    fileParallelism: true,
    maxWorkers: 3,
    sequence: { sequencer: LongFirst },
    projects: [
      { extends: true, test: { name: 'unit', include: UNIT } },
      { extends: true, test: { name: 'reference', include: ALL, exclude: [...UNIT, ...MATRIX, ...E2E, '**/node_modules/**'] } },
      { extends: true, test: { name: 'matrix', include: MATRIX } },
      { extends: true, test: { name: 'e2e', include: E2E } },
    ],
  },
});
