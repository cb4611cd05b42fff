// Requestor checks (tasks.md / cancellation.md rules for the sender of task-augmented requests):
// each judges the recorded transcripts of the scenarios it applies to (mocks/receiver/scenarios.ts).
// Requirement ids from schema/requirements.json (role "requestor"); rulings: schema/RULINGS.md.
//
// Not graded, with the reason:
//  - progress tokens (progress.md 71-73): "the progressToken … MUST continue to be used for progress
//    notifications throughout the task's lifetime" binds the sender of the notifications, i.e. the
//    receiver (progress-same-token, checked by suites/receiver/progress.ts). The requestor only supplies the
//    token; its one duty, uniqueness across active requests (progress.md line 20), is not a task rule
//    and is not in the catalog.
//  - cancel-no-retention-reliance, audit-requestor-*: not observable on the wire (catalog `why`).
//  - sse-get-disconnect-may / sse-result-disconnect-may: MAYs about disconnecting, nothing to grade.
import { checks as capabilities } from './checks/capabilities.ts';
import { checks as polling } from './checks/polling.ts';
import { checks as input } from './checks/input.ts';
import { checks as relatedTask } from './checks/related-task.ts';
import { checks as list } from './checks/list.ts';
import { checks as cancel } from './checks/cancel.ts';
import { receivingChecks } from './checks/receiving.ts';
import type { RequestorCheckDef } from './engine.ts';

export { POLL_TOLERANCE, SERVER_RUNS } from './checks/common.ts';

/** Every requestor check, by section (suites/requestor/checks/, one file each), in report order. */
export const requestorChecks: RequestorCheckDef[] = [
  ...capabilities,
  ...polling,
  ...input,
  ...relatedTask,
  ...list,
  ...cancel,
  // the client as task receiver while its tools/call runs
  ...receivingChecks,
];

export function requestorCheck(id: string): RequestorCheckDef {
  const c = requestorChecks.find((x) => x.id === id);
  if (!c) throw new Error(`unknown requestor check ${id}`);
  return c;
}
