// Named faults of the dual-era reference target (index.ts): each breaks one cross-version line of SEP-2663
// "Backward Compatibility" (schema/2026-07-28/requirements.json, `2026-compat-…`). They act where the two
// reference peers meet (the routing in index.ts), so neither peer alone has them. The kill matrix of
// 2026-07-28 (suites/2026-07-28/receiver/faults.test.ts) runs them against the dual-era target. Its latitudes
// are freedoms basic-versioning.md leaves a dual-era server in choosing the era of a message; the
// no-false-verdict matrix (suites/2026-07-28/receiver/latitudes.test.ts) runs every 2026-07-28 check under each.
import type { SwitchInfo } from '../2026-07-28/faults.ts';

export const DUAL_ERA_FAULTS = [
  {
    name: 'extension-under-2025',
    requirement: '2026-compat-not-under-2025',
    description:
      'a 2025-11-25 session whose client declared io.modelcontextprotocol/tasks in initialize has its tools/call served by the extension (a CreateTaskResult of the extension: resultType "task", a flat Task)',
  },
  {
    name: 'legacy-capabilities-advertised',
    requirement: '2026-compat-no-legacy-capabilities',
    description: 'server/discover advertises the 2025-11-25 tasks capability (list, cancel, requests.tools.call) beside io.modelcontextprotocol/tasks',
  },
  {
    name: 'legacy-tasks-refused-modern',
    requirement: '2026-compat-dual-permit-legacy-get-cancel',
    description:
      'tasks/get and tasks/cancel of a 2026-07-28 request whose client declares only the 2025-11-25 tasks capability do not reach tasks created under 2025-11-25 (the extension server answers them: -32021)',
    args: ['--token', 'dual-era-a', '--token', 'dual-era-b'],
  },
] as const satisfies readonly SwitchInfo[];

export const DUAL_ERA_LATITUDES = [
  {
    name: 'ambiguous-as-legacy',
    allows: 'RULINGS.md#dual-era-ambiguous-request',
    requirement:
      'basic-versioning.md "Backward Compatibility": a dual-era server selects its behavior from how the client opens (modern per-request _meta, or initialize); RULINGS.md#dual-era-ambiguous-request',
    description:
      'a request that is neither initialize nor carries _meta io.modelcontextprotocol/protocolVersion goes to the 2025-11-25 receiver: over stdio also before an initialize, over HTTP a POST without a session (the receiver answers as it does a request outside a session)',
  },
  {
    name: 'legacy-process-only',
    allows: 'RULINGS.md#dual-era-one-era-per-process',
    requirement:
      'basic-versioning.md "Backward Compatibility": initialize selects legacy semantics scoped to the stdio process; a dual-era server MAY serve both eras concurrently on one process; RULINGS.md#dual-era-one-era-per-process',
    description:
      'over stdio, after an initialize, a request carrying the modern _meta on that connection is answered -32022 (UnsupportedProtocolVersionError, supported ["2025-11-25"]): the process speaks 2025-11-25 only',
    transport: 'stdio',
  },
] as const satisfies readonly (Omit<SwitchInfo, 'transport'> & { transport?: 'stdio' | 'http' })[];

export type DualEraLatitudeName = (typeof DUAL_ERA_LATITUDES)[number]['name'];

export function isDualEraLatitudeName(n: string): n is DualEraLatitudeName {
  return DUAL_ERA_LATITUDES.some((l) => l.name === n);
}

export type DualEraFaultName = (typeof DUAL_ERA_FAULTS)[number]['name'];

export function isDualEraFaultName(n: string): n is DualEraFaultName {
  return DUAL_ERA_FAULTS.some((f) => f.name === n);
}
