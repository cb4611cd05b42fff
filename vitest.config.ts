import { defineConfig } from 'vitest/config';

// `npm test`: the suite's own tests (*.test.ts). The client suite's entry (suites/requestor/client.suite.ts)
// runs only through the CLI, which points it at a client.
export default defineConfig({
  test: {
    include: ['{suites,mocks,fixtures,schema,scripts}/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two test files at a time: the files mostly wait on real targets (tasks that run for seconds), so two
    // workers halve the wall time (about 7 min instead of 13 on a 2-core machine) while leaving a core's worth
    // of headroom for the targets they spawn; more would turn load into slow answers and flaky verdicts.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
