// Named faults of the dual-era reference target (index.ts): each breaks one cross-version line of SEP-2663
// "Backward Compatibility" (schema/2026-07-28/requirements.json, `2026-compat-…`). They act where the two
// reference peers meet (the routing in index.ts), so neither peer alone has them. The kill matrix of
// 2026-07-28 (suites/2026-07-28/receiver/faults.test.ts) runs them against the dual-era target.
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

export type DualEraFaultName = (typeof DUAL_ERA_FAULTS)[number]['name'];

export function isDualEraFaultName(n: string): n is DualEraFaultName {
  return DUAL_ERA_FAULTS.some((f) => f.name === n);
}
