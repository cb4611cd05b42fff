// Named faults of the reference receiver. Each fault breaks exactly ONE requirement of the Tasks
// page (tasks.md / progress.md), so that every conformance check can be shown to fail against a
// receiver that is wrong in exactly the way the check is about. `requirement` is the catalog id
// (fixtures/requirements.json).

export interface FaultInfo {
  name: string;
  requirement: string;
  description: string;
}

export const FAULTS = [
  { name: 'cancelled-resurrects', requirement: 'cancel-sticky', description: 'tasks/cancel does not stop the work; when the work finishes the cancelled task becomes completed' },
  { name: 'starts-completed', requirement: 'lifecycle-begin-working', description: 'a new task starts in status "completed" instead of "working"' },
  { name: 'illegal-transition', requirement: 'lifecycle-valid-paths', description: 'a failed task is reported as "working" again shortly after failing' },
  { name: 'cancel-after-response', requirement: 'cancel-transition-before-response', description: 'tasks/cancel answers with the task still "working" and moves it to "cancelled" only after the response' },
  { name: 'cancel-terminal-ok', requirement: 'cancel-terminal-32602', description: 'cancelling a task in a terminal status succeeds (returns the task) instead of -32602' },
  { name: 'unknown-task-32603', requirement: 'errors-invalid-taskid-32602', description: 'an unknown/invalid taskId in tasks/get, tasks/result, tasks/cancel gives -32603 instead of -32602' },
  { name: 'bad-cursor-ignored', requirement: 'errors-invalid-cursor-32602', description: 'an invalid tasks/list cursor returns the first page instead of -32602' },
  { name: 'no-next-cursor', requirement: 'list-next-cursor', description: 'tasks/list omits nextCursor although more tasks remain' },
  { name: 'list-omits-task', requirement: 'list-get-implies-list', description: 'the requestor\'s first task is retrievable via tasks/get but missing from tasks/list' },
  { name: 'result-no-related-task', requirement: 'related-task-result-must', description: 'tasks/result responses lack _meta["io.modelcontextprotocol/related-task"]' },
  { name: 'result-not-blocking', requirement: 'result-blocks-nonterminal', description: 'tasks/result on a non-terminal task answers at once (a "not ready" CallToolResult) instead of blocking' },
  { name: 'result-differs', requirement: 'result-exact-success', description: 'tasks/result returns a result different from what the non-task call returns' },
  { name: 'related-task-on-get', requirement: 'related-task-get-list-cancel-should-not', description: 'tasks/get, tasks/list and tasks/cancel results carry related-task _meta (SHOULD NOT)' },
  { name: 'required-runs-without-task', requirement: 'tool-required-must-32601', description: 'a taskSupport "required" tool called without `task` runs normally instead of -32601' },
  { name: 'forbidden-runs-as-task', requirement: 'tool-forbidden-should-32601', description: 'a taskSupport "forbidden" (or absent) tool called with `task` creates a task instead of -32601' },
  { name: 'missing-created-at', requirement: 'ttl-created-at', description: 'tasks omit createdAt' },
  { name: 'bad-timestamp', requirement: 'ttl-last-updated-at', description: 'lastUpdatedAt is not an ISO 8601 / RFC 3339 timestamp (a Date.toString() string)' },
  { name: 'ttl-missing', requirement: 'ttl-actual-in-get', description: 'tasks/get results omit ttl' },
  { name: 'sequential-ids', requirement: 'security-crypto-ids', description: 'task ids are predictable sequential numbers "1", "2", "3", …' },
  { name: 'no-isolation', requirement: 'security-bind-context', description: 'tasks are not bound to the session/authorization context: every requestor sees and touches every task' },
  { name: 'progress-new-token', requirement: 'progress-same-token', description: 'progress notifications after CreateTaskResult use a different progressToken' },
  { name: 'meta-taskid-wins', requirement: 'related-task-receiver-ignore', description: 'tasks/get, tasks/result, tasks/cancel use the related-task _meta taskId over params.taskId' },
  { name: 'input-no-related-task', requirement: 'input-required-related-task', description: 'the elicitation/create request of an input_required task lacks related-task _meta' },
  { name: 'is-error-completes', requirement: 'info-iserror-failed', description: 'a tool result with isError: true moves the task to "completed" instead of "failed" (lowercase "should" in tasks.md: not in the catalog, RULINGS.md #6 — info only)' },
  { name: 'no-status-message-on-failure', requirement: 'exec-failed-status-message', description: 'a failed task has no statusMessage' },
  { name: 'slow-create', requirement: 'create-asap', description: 'CreateTaskResult is sent only after the work has finished' },
] as const satisfies readonly FaultInfo[];

export type FaultName = (typeof FAULTS)[number]['name'];

export const FAULT_NAMES: readonly FaultName[] = FAULTS.map((f) => f.name);

export function isFaultName(s: string): s is FaultName {
  return (FAULT_NAMES as readonly string[]).includes(s);
}

export function faultInfo(name: FaultName): FaultInfo {
  return FAULTS.find((f) => f.name === name)!;
}

/** The set of faults active in one receiver. */
export class FaultSet {
  private readonly set: ReadonlySet<FaultName>;
  constructor(names: Iterable<string> = []) {
    const s = new Set<FaultName>();
    for (const n of names) {
      if (!isFaultName(n)) throw new Error(`unknown fault: ${n} (known: ${FAULT_NAMES.join(', ')})`);
      s.add(n);
    }
    this.set = s;
  }
  has(name: FaultName): boolean {
    return this.set.has(name);
  }
  get names(): FaultName[] {
    return [...this.set];
  }
}
