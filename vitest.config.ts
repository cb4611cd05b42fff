import { defineConfig } from 'vitest/config';

// `npm test`: the suite's own tests (*.test.ts). The conformance checks themselves
// (suites/receiver.suite.ts) run only through the CLI, which points them at a target.
export default defineConfig({
  test: {
    include: ['{suites,mocks,fixtures,schema,scripts}/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One test file at a time: several files drive real targets with timing checks, and on a 2-core
    // machine two of them at once make slow answers (and flaky verdicts) out of load alone.
    fileParallelism: false,
  },
});
