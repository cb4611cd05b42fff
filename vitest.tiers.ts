// The test tiers (vitest projects, vitest.config.ts; CONTRIBUTING.md "Test tiers"). Every *.test.ts belongs to
// exactly one: `unit`, `matrix` and `e2e` list their files; `reference` is every other test file, so a new test
// runs in `npm run test:quick` until it is listed elsewhere. scripts/test-tiers.test.ts holds the lists to the files.

/** Pure tests, no peer: catalog, schema, layers, analysis, judges on recorded messages, reports, docs. Seconds. */
export const UNIT = [
  'schema/**/*.test.ts',
  'suites/judge/**/*.test.ts',
  'suites/layers.test.ts',
  'suites/checks.test.ts',
  'suites/coverage.test.ts',
  'suites/arrange/arguments.test.ts',
  'suites/2026-07-28/arrange/observed.test.ts',
  'suites/report/formats.test.ts',
  'suites/report/progress.test.ts',
  'suites/requestor/deadline.test.ts',
  'suites/runner/limiter.test.ts',
  'suites/runner/task-slots.test.ts',
  'suites/wire/line-reader.test.ts',
  'scripts/docs-coverage.test.ts',
  'scripts/docs-links.test.ts',
  'scripts/interop.test.ts',
  'scripts/revision.test.ts',
  'scripts/test-tiers.test.ts',
];

/** The kill and no-false-verdict matrices: the whole suite per fault, per latitude cell, under load; the property
 * runs per fault. Minutes. */
export const MATRIX = [
  'suites/receiver/faults.test.ts',
  'suites/receiver/latitudes.test.ts',
  'suites/2026-07-28/receiver/faults.test.ts',
  'suites/2026-07-28/receiver/latitudes.test.ts',
  'suites/2026-07-28/receiver/compat.test.ts',
  'suites/requestor-faults.test.ts',
  'suites/requestor-latitudes.test.ts',
  'suites/2026-07-28/requestor/faults.test.ts',
  'scripts/judge-faults.test.ts',
  'suites/runner/load.test.ts',
  'suites/runner/limits.test.ts',
  'suites/properties.test.ts',
  'suites/2026-07-28/properties/properties.test.ts',
];

/** The CLI (ours and the mock command's), the package, a reference over stdio (a process per connection), real
 * third-party targets and their goldens, interop, bench smoke, messy targets. */
export const E2E = [
  'fixtures/**/*.test.ts',
  'scripts/action.test.ts',
  'scripts/bad-targets.test.ts',
  'scripts/bench.test.ts',
  'scripts/cli.test.ts',
  'scripts/dual-era.test.ts',
  'scripts/interrupt.test.ts',
  'scripts/judge.test.ts',
  'scripts/package.test.ts',
  'scripts/replay.test.ts',
  'scripts/replay-2026.test.ts',
  'suites/api.test.ts',
  'suites/receiver/conformance-stdio.test.ts',
  'mocks/2026-07-28/cli.test.ts',
  'mocks/receiver-http-access.test.ts',
  'suites/requestor-clients.test.ts',
  'suites/requestor-own-tools.test.ts',
  'suites/requestor-receiver.test.ts',
  'suites/requestor-server.test.ts',
  'suites/runner/revision.test.ts',
  'suites/runner/verdicts.test.ts',
  'suites/2026-07-28/runner/discovery.test.ts',
  'suites/2026-07-28/properties/cli.test.ts',
  'suites/2026-07-28/requestor/cli.test.ts',
];

/** Where test files live (the client suite's entry, suites/requestor/client.suite.ts, runs only through the CLI). */
export const ALL = ['{suites,mocks,fixtures,schema,scripts}/**/*.test.ts'];
