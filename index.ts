// mcp-tasks-conformance as a library (the package root). The vitest helper is a subpath of its own,
// `mcp-tasks-conformance/vitest` (suites/vitest.ts), so that this entry does not load vitest.
export { runConformance, runConfig, targetSpec, type ConformanceOptions, type RunConformanceOptions, type Target } from './suites/api.ts';
export { receiverChecks2025, checksToRun } from './suites/index.ts';
export { buildReport, exitCode, gateReport, type Report, type ReportCheck, type ReportSummary } from './suites/report/model.ts';
export { formatConsole } from './suites/report/console.ts';
export type { CheckDef, CheckResult, Level, Status } from './suites/engine/check.ts';
export type { Profile, ProfileRole, ProfileTool } from './suites/engine/profile.ts';
export type { TranscriptEntry } from './suites/wire/peer.ts';
export { PROTOCOL_VERSION } from './schema/protocol.ts';
