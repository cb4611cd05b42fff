// Named faults and latitudes of the reference extension server (2026-07-28 + io.modelcontextprotocol/tasks).
// A FAULT breaks exactly one requirement (`requirement`: the catalog id it breaks): each check must fail
// against the fault of its requirement (kill matrix). A LATITUDE is a freedom the texts leave (a MAY, an
// open choice): every check must stay silent under each one (no-false-verdict matrix). Both are switches
// (`--fault NAME`, `--latitude NAME`); where each acts is marked with its name in server.ts / http.ts.

export interface SwitchInfo {
  name: string;
  /** Fault: the requirement it breaks. Latitude: the text that leaves the freedom. */
  requirement: string;
  description: string;
  /** Server options the switch needs to be observable (CLI flags). */
  args?: readonly string[];
  /** The only transport where it shows. */
  transport?: 'http';
}

export const FAULTS = [
  // --- capability negotiation ---------------------------------------------------------------------
  {
    name: 'task-to-undeclared',
    requirement: 'ext-negotiation-no-task-undeclared',
    description: 'answers tools/call with a CreateTaskResult to a client that did not declare the extension on that request',
  },
  {
    name: 'undeclared-wrong-code',
    requirement: 'ext-negotiation-32021-unservable',
    description: 'task_only for a non-declaring client: -32602 instead of -32021',
  },
  { name: 'no-required-capabilities', requirement: 'core-32021-required-capabilities', description: 'every -32021 error lacks data.requiredCapabilities' },
  {
    name: 'task-methods-undeclared',
    requirement: 'ext-errors-32021-task-methods',
    description: 'tasks/get, tasks/update and tasks/cancel of a non-declaring client are served instead of -32021',
  },
  {
    name: 'listen-undeclared',
    requirement: 'ext-notifications-listen-32021',
    description: 'subscriptions/listen with notifications.taskIds from a non-declaring client is served instead of -32021',
  },
  {
    name: 'legacy-capability-counts',
    requirement: 'ext-compat-legacy-capability',
    description: 'a client declaring only the 2025-11-25 `tasks` capability is treated as declaring the extension',
  },
  {
    name: 'task-param-validated',
    requirement: 'ext-compat-ignore-task-param',
    description: 'tools/call with a `task` parameter that is not a 2025-11-25 task object is refused with -32602 (the parameter is not ignored)',
  },
  // --- resultType and result shapes ------------------------------------------------------------------
  { name: 'create-result-type-complete', requirement: 'ext-result-type-task', description: 'CreateTaskResult carries resultType "complete"' },
  { name: 'get-result-type-task', requirement: 'ext-get-result-type-complete', description: 'tasks/get results carry resultType "task"' },
  { name: 'update-no-result-type', requirement: 'ext-update-result-type-complete', description: 'the tasks/update acknowledgement has no resultType' },
  { name: 'cancel-no-result-type', requirement: 'ext-cancel-result-type-complete', description: 'the tasks/cancel acknowledgement has no resultType' },
  { name: 'discover-no-result-type', requirement: 'core-result-type-required', description: 'server/discover and tools/list results have no resultType' },
  {
    name: 'create-result-nested',
    requirement: 'ext-create-result-flat',
    description: 'CreateTaskResult nests the task (2025-11-25 shape `{ task: {…} }`) instead of being a flat Task',
  },
  {
    name: 'legacy-field-names',
    requirement: 'ext-task-fields',
    description: 'tasks carry `ttl` / `pollInterval` (2025-11-25 names) instead of `ttlMs` / `pollIntervalMs`',
  },
  // --- task creation -----------------------------------------------------------------------------------
  {
    name: 'create-before-durable',
    requirement: 'ext-create-durable',
    description: 'tasks/get answers -32602 "Task not found" for the first 500 ms after the CreateTaskResult',
  },
  {
    name: 'mrtr-after-task',
    requirement: 'ext-create-mrtr-synchronous',
    description: 'mrtr_then_task answers with a CreateTaskResult at once and asks its pre-task input through the task inputRequests',
  },
  // --- tasks/get per status -----------------------------------------------------------------------------
  { name: 'completed-no-result', requirement: 'ext-get-completed-result', description: 'tasks/get of a completed task has no `result`' },
  { name: 'failed-no-error', requirement: 'ext-get-failed-error', description: 'tasks/get of a failed task has no `error`' },
  {
    name: 'input-required-no-requests',
    requirement: 'ext-get-input-required-requests',
    description: 'tasks/get of an input_required task has no `inputRequests`',
  },
  {
    name: 'input-requests-partial-list',
    requirement: 'ext-get-input-requests-all',
    description: 'tasks/get lists only the first of several outstanding input requests',
  },
  {
    name: 'is-error-as-failed',
    requirement: 'ext-failed-not-tool-error',
    description: 'a tool result with isError: true ends the task failed (with a JSON-RPC error) instead of completed',
  },
  {
    name: 'failed-error-altered',
    requirement: 'ext-failed-error-underlying',
    description: "a failed task's error is not the underlying request's JSON-RPC error (other code and message)",
  },
  { name: 'failed-no-status-message', requirement: 'ext-failed-status-message', description: 'a failed task has no statusMessage' },
  { name: 'get-unknown-wrong-code', requirement: 'ext-errors-get-unknown', description: 'tasks/get of an unknown taskId answers -32603 instead of -32602' },
  { name: 'update-unknown-acked', requirement: 'ext-update-unknown-error', description: 'tasks/update of an unknown taskId is acknowledged' },
  { name: 'cancel-unknown-acked', requirement: 'ext-cancel-unknown-error', description: 'tasks/cancel of an unknown taskId is acknowledged' },
  // --- input --------------------------------------------------------------------------------------------
  {
    name: 'input-key-reused',
    requirement: 'ext-input-keys-unique',
    description: "ask_rounds asks its second question under the first question's (answered) key",
  },
  {
    name: 'answered-key-reapplied',
    requirement: 'ext-update-ignore-not-outstanding',
    description: 'a response to an already answered key replaces the earlier answer',
  },
  {
    name: 'unknown-key-rejected',
    requirement: 'ext-update-ignore-not-outstanding',
    description: 'tasks/update naming a key that is not outstanding is refused with -32602',
  },
  {
    name: 'partial-answer-resumes',
    requirement: 'ext-update-partial-remains',
    description: 'a partial set of responses moves the task on (working, then completed) without the remaining answers',
  },
  { name: 'update-ack-carries-task', requirement: 'ext-update-empty-ack', description: 'the tasks/update acknowledgement carries the task' },
  { name: 'cancel-ack-carries-task', requirement: 'ext-cancel-empty-ack', description: 'the tasks/cancel acknowledgement carries the task (2025-11-25 style)' },
  // --- lifecycle --------------------------------------------------------------------------------------
  { name: 'cancelled-resurrects', requirement: 'ext-lifecycle-terminal-sticky', description: 'a cancelled task becomes completed when its work finishes' },
  {
    name: 'failed-resumes',
    requirement: 'ext-lifecycle-transitions',
    description: 'a failed task shows "working" again on the tasks/get after the first that showed it failed',
  },
  // --- removed methods -----------------------------------------------------------------------------------
  { name: 'tasks-result-served', requirement: 'ext-removed-tasks-result', description: 'tasks/result is answered (with the task result) instead of -32601' },
  { name: 'tasks-list-served', requirement: 'ext-removed-tasks-list', description: "tasks/list is answered (the requestor's tasks) instead of -32601" },
  // --- notifications through subscriptions/listen ------------------------------------------------------
  {
    name: 'notification-no-subscription-id',
    requirement: 'core-listen-subscription-id',
    description: 'notifications/tasks lack _meta io.modelcontextprotocol/subscriptionId',
  },
  {
    name: 'notification-before-ack',
    requirement: 'core-listen-ack-first',
    description: 'the first notifications/tasks of a subscription goes out before its acknowledgement',
  },
  {
    name: 'notification-not-detailed',
    requirement: 'ext-notification-detailed-task',
    description: 'notifications/tasks of a completed or failed task lack its result or error',
  },
  {
    name: 'progress-on-listen',
    requirement: 'ext-listen-no-progress',
    description: 'a notifications/progress goes out on the subscriptions/listen stream with each task notification',
  },
  {
    name: 'unrequested-task-notifications',
    requirement: 'core-listen-only-requested',
    description: 'notifications/tasks go out for every task of the requestor, not only the subscribed ones',
  },
  // --- Streamable HTTP -----------------------------------------------------------------------------
  {
    name: 'mcp-name-unchecked',
    requirement: 'ext-http-mcp-name-task-id',
    description: 'tasks/get, tasks/update, tasks/cancel with a missing or different Mcp-Name are served',
    transport: 'http',
  },
  {
    name: 'mcp-method-unchecked',
    requirement: 'core-http-header-mismatch',
    description: 'a missing or different Mcp-Method header is accepted',
    transport: 'http',
  },
  {
    name: 'modern-errors-http-200',
    requirement: 'core-http-400-modern-errors',
    description: '-32020, -32021 and -32022 errors are sent with HTTP 200 instead of 400',
    transport: 'http',
  },
  // --- core request rules ----------------------------------------------------------------------------
  {
    name: 'missing-meta-served',
    requirement: 'core-meta-required',
    description: 'a request without io.modelcontextprotocol/protocolVersion or clientCapabilities in _meta is served',
  },
  {
    name: 'unsupported-version-served',
    requirement: 'core-version-unsupported',
    description: 'a request naming a protocol version the server does not implement is served instead of -32022',
  },
  { name: 'discover-not-implemented', requirement: 'core-discover-required', description: 'server/discover answers -32601' },
  { name: 'no-server-info', requirement: 'core-result-server-info', description: 'results carry no _meta io.modelcontextprotocol/serverInfo' },
  { name: 'parse-error-wrong-code', requirement: 'core-jsonrpc-errors', description: 'a message that is not JSON is answered -32600 instead of -32700' },
  // --- security ------------------------------------------------------------------------------------
  { name: 'sequential-task-ids', requirement: 'ext-security-task-id-entropy', description: 'task ids are a counter (task-1, task-2, …)' },
  {
    name: 'foreign-task-visible',
    requirement: 'ext-security-auth-binding',
    description: 'a task is served to any authenticated requestor, not only to the one that created it',
    args: ['--token', 'alpha', '--token', 'beta'],
    transport: 'http',
  },
] as const satisfies readonly SwitchInfo[];

export const LATITUDES = [
  {
    name: 'sync-results',
    requirement: 'tasks.md "Capability Negotiation": the server MAY return CreateTaskResult, is the sole decider',
    description: 'tools/call is answered with the plain result (MRTR for the input tools) even to declaring clients; task_only still makes a task',
  },
  {
    name: 'alternate-results',
    requirement: 'tasks.md "Capability Negotiation": at its own discretion and on a per-request basis',
    description: 'every second tools/call of a tool that may run as a task is answered synchronously',
  },
  {
    name: 'seed-current-status',
    requirement: 'tasks.md "Task Creation": the seed state is typically (though not necessarily) working',
    description: 'the CreateTaskResult goes out after the work has run for up to 200 ms and shows the status then (completed, failed, input_required …)',
  },
  {
    name: 'ttl-unlimited',
    requirement: 'Task.ttlMs: null for unlimited',
    description: 'ttlMs is null; tasks are kept until the server exits (within the retention limit)',
  },
  {
    name: 'ttl-changes',
    requirement: 'tasks.md "Task Polling": the value of ttlMs MAY change over the lifetime of a task',
    description: 'ttlMs grows by 1000 on every status change',
  },
  {
    name: 'poll-interval-changes',
    requirement: 'tasks.md "Task Polling": pollIntervalMs MAY change over the lifetime of a task',
    description: 'pollIntervalMs doubles on every tasks/get (at most 1000)',
  },
  { name: 'no-poll-interval', requirement: 'Task.pollIntervalMs is optional', description: 'tasks carry no pollIntervalMs' },
  {
    name: 'rate-limit-polls',
    requirement: 'tasks.md "Task Polling": servers MAY rate-limit clients polling more frequently than pollIntervalMs',
    description: 'a tasks/get sooner than pollIntervalMs after the previous one of the same task is refused (-32603, data.retryAfterMs)',
  },
  {
    name: 'expiry-fails-first',
    requirement: 'tasks.md "Task Polling": servers MAY mark a task as failed after the TTL elapses, and subsequently delete it',
    description: 'at createdAt + ttlMs an unfinished task becomes failed; it is deleted one ttlMs later',
    args: ['--ttl-ms', '2000'],
  },
  {
    name: 'retain-expired',
    requirement: 'tasks.md "Protocol Errors" note: servers are not required to retain tasks indefinitely (nor to purge them)',
    description: 'tasks are not deleted when their ttlMs elapses',
  },
  {
    name: 'lazy-expiry',
    requirement: 'tasks.md: the server may discard the task after the TTL elapses (when is its choice)',
    description: 'an expired task is removed only when it is next asked for',
  },
  {
    name: 'delete-on-cancel',
    requirement: 'tasks.md "Task Cancellation": clients need not poll again after cancel; tasks need not be retained',
    description: 'a task is deleted as soon as tasks/cancel is acknowledged',
  },
  {
    name: 'cancel-later',
    requirement: 'tasks.md "Task Cancellation": eventually consistent; the status MAY remain working after the ack',
    description: 'tasks/cancel takes effect 500 ms after the acknowledgement',
  },
  {
    name: 'cancel-ignored',
    requirement: 'tasks.md "Task Cancellation": cooperative; the server is not obligated to stop the work',
    description: 'tasks/cancel is acknowledged and the work runs to its own end',
  },
  {
    name: 'update-applies-later',
    requirement: 'tasks.md "Task Update Requests": the ack is eventually consistent',
    description: 'tasks/update is acknowledged at once, its responses are taken 300 ms later',
  },
  {
    name: 'partial-ignored',
    requirement: 'tasks.md "Task Update Requests": a server MAY accept a partial set of responses',
    description: 'a tasks/update answering only some of the outstanding keys is acknowledged and ignored; a full set is taken',
  },
  {
    name: 'extra-fields',
    requirement: 'schema: Result and Task allow further members; _meta carries vendor keys',
    description: 'results, tasks and notifications carry an unknown member and a vendor _meta key',
  },
  { name: 'status-message-always', requirement: 'Task.statusMessage is optional, for any status', description: 'every task carries a statusMessage' },
  { name: 'high-latency', requirement: 'no timing is prescribed', description: 'every answer is delayed by --latency-ms (default 300)' },
  {
    name: 'sse-responses',
    requirement: 'streamable-http "Sending Messages": the server returns application/json or text/event-stream',
    description: 'every request is answered with an SSE stream',
    transport: 'http',
  },
  {
    name: 'inline-result-bare',
    requirement:
      'tasks.md: the result is "the final result of the task" (CallToolResult, whose resultType is required) while its examples inline it without resultType',
    description: 'the result inlined in a completed task has no resultType',
  },
  {
    name: 'listen-snapshot',
    requirement: 'tasks.md "Task Status Notifications": servers MAY push status updates',
    description: 'each subscribed task is sent as it is right after the acknowledgement',
  },
  {
    name: 'listen-agrees-none',
    requirement: 'tasks.md "Task Status Notifications": the ack lists the task ids the server agreed to, if any',
    description: 'the acknowledgement agrees to no task ids and no notifications/tasks are sent',
  },
] as const satisfies readonly SwitchInfo[];

export type FaultName = (typeof FAULTS)[number]['name'];
export type LatitudeName = (typeof LATITUDES)[number]['name'];

export function isFaultName(n: string): n is FaultName {
  return FAULTS.some((f) => f.name === n);
}
export function isLatitudeName(n: string): n is LatitudeName {
  return LATITUDES.some((l) => l.name === n);
}

/** The switches one server runs with. */
export class Switches {
  readonly faults: ReadonlySet<FaultName>;
  readonly latitudes: ReadonlySet<LatitudeName>;
  constructor(faults: readonly string[] = [], latitudes: readonly string[] = []) {
    for (const f of faults) if (!isFaultName(f)) throw new Error(`unknown fault "${f}" (see --list-faults)`);
    for (const l of latitudes) if (!isLatitudeName(l)) throw new Error(`unknown latitude "${l}" (see --list-latitudes)`);
    this.faults = new Set(faults as FaultName[]);
    this.latitudes = new Set(latitudes as LatitudeName[]);
  }
  fault(name: FaultName): boolean {
    return this.faults.has(name);
  }
  latitude(name: LatitudeName): boolean {
    return this.latitudes.has(name);
  }
}
