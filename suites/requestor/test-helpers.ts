// Launchers and helpers for the tests of client grading (suites/requestor*.test.ts).
import { runReferenceClient } from '../../mocks/client/reference-client.ts';
import { runSdkClient } from '../../fixtures/sdk-client.ts';
import type { CheckResult, Status } from '../engine/check.ts';
import type { ClientLauncher } from './harness.ts';

/** The reference client in this process (faults as with --fault, latitudes as with --latitude). */
export function referenceClient(faults: string[] = [], latitudes: readonly string[] = []): ClientLauncher {
  const what = [faults.length ? `faults ${faults.join(', ')}` : '', latitudes.length ? `latitudes ${latitudes.join(', ')}` : ''].filter(Boolean).join('; ');
  return {
    kind: 'function',
    label: `reference client${what ? ` (${what})` : ''}`,
    run: (a) => runReferenceClient({ scenario: a.scenario, serverArg: a.serverArg, faults, latitudes, signal: a.signal }),
  };
}

/** The SDK-based client in this process. */
export const sdkClient: ClientLauncher = {
  kind: 'function',
  label: 'SDK client',
  run: (a) => runSdkClient({ scenario: a.scenario, serverArg: a.serverArg, signal: a.signal }),
};

export function statusMap(results: readonly CheckResult[]): Record<string, Status> {
  return Object.fromEntries(results.map((r) => [r.id, r.status]));
}

/** Lines for the checks whose status differs from `want` (assertion messages). */
export function explain(results: readonly CheckResult[], want: Record<string, Status>): string {
  return results
    .filter((r) => want[r.id] !== undefined && r.status !== want[r.id])
    .map((r) => `${r.id}: ${r.status} (want ${want[r.id]}) — ${r.message}`)
    .join('\n');
}
