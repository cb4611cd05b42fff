import { defineConfig } from 'vitest/config';

// `npm test`: the suite's own tests (*.test.ts). The conformance checks themselves
// (suites/receiver.suite.ts) run only through the CLI, which points them at a target.
export default defineConfig({
  test: {
    include: ['{suites,mocks,fixtures,schema,scripts}/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
