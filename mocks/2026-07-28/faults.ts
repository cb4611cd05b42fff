// Named faults and latitudes of the reference extension server (2026-07-28 + io.modelcontextprotocol/tasks).
// A FAULT breaks exactly one requirement (`requirement`: the catalog id it breaks): each check must fail
// against the fault of its requirement (kill matrix). A LATITUDE is a freedom the texts leave (a MAY, an
// open choice): every check must stay silent under each one (no-false-verdict matrix). Both are switches
// (`--fault NAME`, `--latitude NAME`); where each acts is marked with its name in server.ts / http.ts.

export interface SwitchInfo {
  name: string;
  /** Latitude: what leaves the freedom, as the 2025-11-25 registry says it (LatitudeInfo.allows): a catalog id, `RULINGS.md#<slug>` or `schema:<Definition>.<field>`. */
  allows?: string;
  /**
   * Fault: the requirement it breaks — a catalog id (schema/2026-07-28/requirements.json) or, for what the
   * schema or the transition table states without a keyword line, `schema:<definition>` / `schema:TRANSITIONS`.
   * Latitude: the text (or ruling) that leaves the freedom.
   */
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
    requirement: '2026-caps-no-task-for-non-declaring',
    description: 'answers tools/call with a CreateTaskResult to a client that did not declare the extension on that request',
  },
  {
    name: 'task-to-undeclared-failing',
    requirement: '2026-caps-no-task-for-non-declaring',
    description: 'the failing tool (fail_rpc) answers a client that did not declare the extension with a CreateTaskResult (the other tools do not)',
  },
  { name: 'undeclared-wrong-code', requirement: '2026-caps-required-32021', description: 'task_only for a non-declaring client: -32602 instead of -32021' },
  { name: 'no-required-capabilities', requirement: '2026-meta-missing-capability-32021', description: 'every -32021 error lacks data.requiredCapabilities' },
  {
    name: 'no-required-capabilities-task-methods',
    requirement: '2026-meta-missing-capability-32021',
    description: 'the -32021 of tasks/get, tasks/update, tasks/cancel and subscriptions/listen lacks data.requiredCapabilities (that of tools/call has it)',
  },
  {
    name: 'task-methods-undeclared',
    requirement: '2026-errors-task-methods-non-declaring-32021',
    description: 'tasks/get, tasks/update and tasks/cancel of a non-declaring client are served instead of -32021',
  },
  {
    name: 'listen-undeclared',
    requirement: '2026-notify-non-declaring-32021',
    description: 'subscriptions/listen with notifications.taskIds from a non-declaring client is served instead of -32021',
  },
  {
    name: 'legacy-capability-counts',
    requirement: '2026-compat-legacy-only-non-declaring',
    description: 'a client declaring only the 2025-11-25 `tasks` capability is treated as declaring the extension',
  },
  {
    name: 'task-param-validated',
    requirement: '2026-compat-ignore-task-param',
    description: 'tools/call with a `task` parameter that is not a 2025-11-25 task object is refused with -32602 (the parameter is not ignored)',
  },
  {
    name: 'task-param-opts-in',
    requirement: '2026-compat-ignore-task-param',
    description: 'for a declaring client the 2025-11-25 `task` parameter is the opt-in: tools/call with it gets a task, without it a synchronous result',
  },
  {
    name: 'mrtr-undeclared-elicitation',
    requirement: '2026-meta-no-undeclared-capability',
    description:
      'tools/call of an input tool from a request declaring no elicitation capability is answered with elicitation/create inputRequests (MRTR) instead of -32021',
  },
  {
    name: 'undeclared-bare-ack',
    requirement: '2026-ext-fallback-revert-or-reject',
    description:
      'tools/call of a non-declaring client, of a tool the server would run as a task, is answered { resultType: "complete" } with no content (neither the core result nor an error) while the work runs on',
  },
  {
    name: 'elicitation-undeclared',
    requirement: '2026-mrtr-no-undeclared-elicitation',
    description:
      'a tools/call declaring the extension but no elicitation capability still starts the input tool as a task, which asks elicitation/create in its inputRequests (instead of -32021)',
  },
  // --- resultType and result shapes ------------------------------------------------------------------
  { name: 'create-result-type-complete', requirement: '2026-result-type-task', description: 'CreateTaskResult carries resultType "complete"' },
  { name: 'get-result-type-task', requirement: '2026-result-type-task-only-create', description: 'tasks/get results carry resultType "task"' },
  { name: 'get-no-result-type', requirement: '2026-get-result-type-complete', description: 'tasks/get results have no resultType' },
  {
    name: 'get-result-type-task-failed',
    requirement: '2026-get-result-type-complete',
    description: 'tasks/get of a failed task carries resultType "task" (of the other statuses: "complete")',
  },
  { name: 'update-no-result-type', requirement: '2026-update-result-type-complete', description: 'the tasks/update acknowledgement has no resultType' },
  { name: 'cancel-no-result-type', requirement: '2026-cancel-result-type-complete', description: 'the tasks/cancel acknowledgement has no resultType' },
  { name: 'discover-no-result-type', requirement: '2026-core-result-type-required', description: 'server/discover and tools/list results have no resultType' },
  {
    name: 'result-type-unknown',
    requirement: '2026-core-result-type-set-advertised',
    description: 'tools/list results carry resultType "list", a value neither the core nor an advertised extension defines',
  },
  {
    name: 'create-result-nested',
    requirement: 'schema:CreateTaskResult',
    description: 'CreateTaskResult nests the task (2025-11-25 shape `{ task: {…} }`) instead of being a flat Task',
  },
  {
    name: 'legacy-field-names',
    requirement: 'schema:Task',
    description: 'tasks carry `ttl` / `pollInterval` (2025-11-25 names) instead of `ttlMs` / `pollIntervalMs`',
  },
  // --- task creation -----------------------------------------------------------------------------------
  {
    name: 'create-before-durable',
    requirement: '2026-create-durable-before-answer',
    description: 'tasks/get answers -32602 "Task not found" for the first 2 s after the CreateTaskResult',
  },
  {
    name: 'mrtr-after-task',
    requirement: '2026-create-mrtr-before-task',
    description: 'mrtr_then_task answers with a CreateTaskResult at once and asks its pre-task input through the task inputRequests',
  },
  // --- tasks/get per status -----------------------------------------------------------------------------
  { name: 'completed-no-result', requirement: '2026-get-completed-result', description: 'tasks/get of a completed task has no `result`' },
  { name: 'failed-no-error', requirement: '2026-get-failed-error', description: 'tasks/get of a failed task has no `error`' },
  { name: 'input-required-no-requests', requirement: '2026-get-input-required', description: 'tasks/get of an input_required task has no `inputRequests`' },
  {
    name: 'input-request-not-mrtr',
    requirement: '2026-mrtr-input-request-types',
    description: 'the inputRequests of an input_required task are `ping` requests, not ElicitRequest, CreateMessageRequest or ListRootsRequest',
  },
  {
    name: 'input-requests-partial-list',
    requirement: '2026-get-input-requests-all-outstanding',
    description: 'tasks/get lists only the first of several outstanding input requests',
  },
  {
    name: 'is-error-as-failed',
    requirement: '2026-exec-failed-not-for-tool-errors',
    description: 'a tool result with isError: true ends the task failed (with a JSON-RPC error) instead of completed',
  },
  {
    name: 'failed-error-altered',
    requirement: '2026-exec-error-exact',
    description: "a failed task's error is not the underlying request's JSON-RPC error (another code and message)",
  },
  {
    name: 'completed-result-altered',
    requirement: '2026-exec-result-exact',
    description: "a completed task's result is not the underlying request's result (its content is replaced)",
  },
  {
    name: 'failed-message-altered',
    requirement: '2026-exec-error-exact',
    description: 'a failed task\'s error keeps the underlying error\'s code but rewrites its message ("Task failed: …")',
  },
  {
    name: 'is-error-dropped',
    requirement: '2026-exec-result-exact',
    description: "the result inlined in a completed task drops the tool result's isError: true (a tool error reads as a success)",
  },
  { name: 'failed-no-status-message', requirement: '2026-exec-failed-status-message', description: 'a failed task has no statusMessage' },
  {
    name: 'get-unknown-wrong-code',
    requirement: '2026-errors-get-unknown-32602',
    description: 'tasks/get of an unknown taskId answers -32603 instead of -32602',
  },
  { name: 'update-unknown-acked', requirement: '2026-update-unknown-task-error', description: 'tasks/update of an unknown taskId is acknowledged' },
  { name: 'cancel-unknown-acked', requirement: '2026-cancel-unknown-task-error', description: 'tasks/cancel of an unknown taskId is acknowledged' },
  {
    name: 'internal-error-custom-code',
    requirement: '2026-errors-standard-jsonrpc',
    description: 'a taskId longer than 1024 characters fails inside the store, answered -32000 instead of -32603 (the correct server answers -32602)',
  },
  {
    name: 'error-message-empty',
    requirement: '2026-errors-informative-message',
    description: 'the protocol errors of tasks/get, tasks/update, tasks/cancel and every -32021 carry an empty message',
  },
  // --- error codes (core basic-index.md "Error Codes"), on the error of the failing tool -------------------
  { name: 'tool-error-legacy-code', requirement: '2026-codes-legacy-range', description: "fail_rpc's JSON-RPC error has code -32005 (legacy sub-range)" },
  {
    name: 'tool-error-reserved-code',
    requirement: '2026-codes-no-undefined-reserved',
    description: "fail_rpc's JSON-RPC error has code -32050 (reserved for MCP, not defined)",
  },
  { name: 'tool-error-retired-code', requirement: '2026-codes-retired', description: "fail_rpc's JSON-RPC error has the retired code -32002" },
  {
    name: 'tool-error-defined-code',
    requirement: '2026-codes-defined-meaning',
    description: "fail_rpc's JSON-RPC error is -32021 naming the elicitation capability, which the request declared",
  },
  // --- MRTR and cancellation (core) ---------------------------------------------------------------------
  {
    name: 'input-as-server-request',
    requirement: '2026-mrtr-server-requests-only-via-mrtr',
    description:
      "a tools/call answered with an InputRequiredResult is preceded, on the request's stream, by its first question as a server-initiated elicitation/create request",
  },
  {
    name: 'listen-teardown-not-cancelled',
    requirement: '2026-cancellation-listen-teardown',
    description:
      'a subscription is ended once every task it agreed to is terminal (as under listen-ends-when-done), with its response but without notifications/cancelled',
  },
  {
    name: 'task-cancel-notified',
    requirement: '2026-cancellation-server-no-other-purpose',
    description: 'a task cancelled under a subscription is also signalled by notifications/cancelled referencing the tools/call that created it, on the stream',
  },
  // --- input --------------------------------------------------------------------------------------------
  {
    name: 'input-key-reused',
    requirement: '2026-input-key-no-reuse-after-response',
    description: "ask_rounds asks its second question under the first question's (answered) key",
  },
  {
    name: 'answered-key-reapplied',
    requirement: '2026-update-ignore-unknown-keys',
    description: 'a response to an already answered key replaces the earlier answer',
  },
  {
    name: 'unknown-key-rejected',
    requirement: '2026-update-ignore-unknown-keys',
    description: 'tasks/update naming a key that is not outstanding is refused with -32602',
  },
  {
    name: 'partial-answer-resumes',
    requirement: '2026-update-partial',
    description: 'a partial set of responses moves the task on (working, then completed) without the remaining answers',
  },
  { name: 'update-ack-carries-task', requirement: '2026-update-ack-empty', description: 'the tasks/update acknowledgement carries the task' },
  {
    name: 'cancel-ack-carries-task',
    requirement: '2026-cancel-ack-empty',
    description: 'the tasks/cancel acknowledgement carries the task (2025-11-25 style)',
  },
  // --- lifecycle (the transition table of schema/2026-07-28/protocol.ts) ----------------------------------
  {
    name: 'cancelled-resurrects',
    requirement: 'schema:TRANSITIONS',
    description: 'a cancelled task becomes completed when its work finishes (terminal → terminal)',
  },
  {
    name: 'failed-resumes',
    requirement: 'schema:TRANSITIONS',
    description: 'a failed task shows "working" again on the tasks/get after the first that showed it failed',
  },
  {
    name: 'completed-refails',
    requirement: 'schema:TRANSITIONS',
    description: 'a completed task shows "failed" (with an error) on the tasks/get after the first that showed it completed (terminal → terminal)',
  },
  {
    name: 'terminal-update-rejected',
    requirement: '2026-update-ignore-unknown-keys',
    description: 'a tasks/update for a task already terminal (a replayed answer) is refused with -32602 instead of acknowledged and ignored',
  },
  {
    name: 'legacy-status-notification',
    requirement: '2026-subscribe-only-requested',
    description: 'a subscription asking for task notifications gets them as notifications/tasks/status (the 2025-11-25 name), a type it did not ask for',
  },
  {
    name: 'last-updated-frozen',
    requirement: 'schema:Task',
    description: 'lastUpdatedAt always equals createdAt, however the task changes (Task.lastUpdatedAt: "when the task was last updated")',
  },
  {
    name: 'deleted-at-end',
    requirement: '2026-get-by-status',
    description: 'a task is deleted 300 ms after it reaches a terminal status although its ttlMs has not elapsed: tasks/get then answers -32602',
  },
  {
    name: 'cancel-rewrites-terminal',
    requirement: 'schema:TRANSITIONS',
    description: 'tasks/cancel of a completed or failed task turns it cancelled (terminal → terminal; the ack itself is right)',
  },
  // --- removed methods -----------------------------------------------------------------------------------
  {
    name: 'tasks-result-served',
    requirement: '2026-compat-tasks-result-32601',
    description: 'tasks/result is answered (with the task result) instead of -32601',
  },
  {
    name: 'tasks-list-served',
    requirement: '2026-compat-tasks-result-32601',
    description: "tasks/list is answered (the requestor's tasks) instead of -32601 (RULINGS.md#ext-tasks-list-removed)",
  },
  // --- notifications through subscriptions/listen ------------------------------------------------------
  {
    name: 'notification-no-subscription-id',
    requirement: '2026-meta-subscription-id',
    description: 'notifications/tasks lack _meta io.modelcontextprotocol/subscriptionId',
  },
  {
    name: 'notification-before-ack',
    requirement: '2026-subscribe-nothing-before-ack',
    description: 'the first notifications/tasks of a subscription goes out before its acknowledgement',
  },
  {
    name: 'notification-not-detailed',
    requirement: 'schema:TaskStatusNotification',
    description: 'notifications/tasks of a completed or failed task lack its result or error',
  },
  {
    name: 'progress-on-listen',
    requirement: '2026-notify-no-progress-message-on-stream',
    description: 'a notifications/progress goes out on the subscriptions/listen stream with each task notification',
  },
  {
    name: 'unrequested-task-notifications',
    requirement: '2026-subscribe-only-requested',
    description: 'notifications/tasks go out for every task of the requestor, not only the subscribed ones',
  },
  // --- Streamable HTTP -----------------------------------------------------------------------------
  {
    name: 'mcp-name-unchecked',
    requirement: '2026-header-server-reject-mismatch',
    description: 'tasks/get, tasks/update, tasks/cancel with an Mcp-Name other than params.taskId are served',
    transport: 'http',
  },
  {
    name: 'mcp-method-unchecked',
    requirement: '2026-header-mismatch-32020',
    description: 'an Mcp-Method header other than the body method is accepted',
    transport: 'http',
  },
  {
    name: 'protocol-version-header-unchecked',
    requirement: '2026-header-version-mismatch-reject',
    description: 'an MCP-Protocol-Version header other than the _meta protocolVersion is accepted',
    transport: 'http',
  },
  {
    name: 'header-names-case-sensitive',
    requirement: '2026-header-names-case-insensitive',
    description: 'MCP-Protocol-Version, Mcp-Method and Mcp-Name are found only under the spelling of the specification (names compared case-sensitively)',
    transport: 'http',
  },
  {
    name: 'mcp-name-not-decoded',
    requirement: '2026-header-decode-base64',
    description: 'an Mcp-Name in the Base64 sentinel encoding (=?base64?…?=) is compared to the body value without decoding it',
    transport: 'http',
  },
  {
    name: 'mcp-param-match-refused',
    requirement: '2026-codes-defined-meaning',
    description: 'a tools/call whose Mcp-Param-{Name} header matches the mirrored argument is refused with -32020 (HeaderMismatch) all the same',
    transport: 'http',
  },
  {
    name: 'unsupported-version-http-200',
    requirement: '2026-header-unsupported-version-400',
    description: 'the -32022 of an unsupported protocol version is sent with HTTP 200 instead of 400',
    transport: 'http',
  },
  {
    name: 'header-mismatch-http-200',
    requirement: '2026-header-mismatch-400',
    description: 'the -32020 of a header that does not match the body is sent with HTTP 200 instead of 400',
    transport: 'http',
  },
  {
    name: 'capability-error-http-200',
    requirement: '2026-meta-missing-capability-http-400',
    description: '-32021 errors are sent with HTTP 200 instead of 400',
    transport: 'http',
  },
  {
    name: 'task-methods-32021-http-200',
    requirement: '2026-meta-missing-capability-http-400',
    description: 'the -32021 of tasks/get, tasks/update, tasks/cancel and subscriptions/listen comes with HTTP 200 (that of tools/call with 400)',
    transport: 'http',
  },
  {
    name: 'meta-missing-http-200',
    requirement: '2026-meta-missing-http-400',
    description: 'the -32602 for missing _meta fields is sent with HTTP 200 instead of 400',
    transport: 'http',
  },
  {
    name: 'unknown-method-http-400',
    requirement: '2026-header-unknown-method-404',
    description: '-32601 is sent with HTTP 400 instead of 404',
    transport: 'http',
  },
  // --- core request rules ----------------------------------------------------------------------------
  {
    name: 'missing-meta-served',
    requirement: '2026-meta-missing-32602',
    description: 'a request without io.modelcontextprotocol/protocolVersion or clientCapabilities in _meta is served',
  },
  {
    name: 'unsupported-version-served',
    requirement: '2026-version-unsupported-32022',
    description: 'a request naming a protocol version the server does not implement is served instead of -32022',
  },
  {
    name: 'initialize-error-no-versions',
    requirement: '2026-version-modern-initialize-error',
    description: 'initialize is answered -32601 "Method not found" without naming the supported protocol versions',
  },
  {
    name: 'version-from-prior-request',
    requirement: '2026-stateless-no-prior-context',
    description:
      'a request naming a protocol version the server does not implement is served when an earlier request of the same client (requestor and clientInfo) named a supported one',
  },
  {
    name: 'task-without-id-resolved',
    requirement: '2026-stateless-explicit-identifier',
    description: "tasks/get, tasks/update and tasks/cancel without params.taskId act on the requestor's most recently created task",
  },
  { name: 'discover-not-implemented', requirement: '2026-discover-implement', description: 'server/discover answers -32601' },
  // --- security ------------------------------------------------------------------------------------
  { name: 'sequential-task-ids', requirement: '2026-security-ids-entropy', description: 'task ids are a counter (task-1, task-2, …)' },
  {
    name: 'foreign-task-visible',
    requirement: '2026-security-auth-binding',
    description: 'a task is served to any authenticated requestor, not only to the one that created it',
    args: ['--token', 'alpha', '--token', 'beta'],
    transport: 'http',
  },
] as const satisfies readonly SwitchInfo[];

export const LATITUDES = [
  {
    name: 'sync-results',
    allows: '2026-caps-server-may-create',
    requirement: 'tasks.md "Capability Negotiation": the server MAY return CreateTaskResult, is the sole decider',
    description: 'tools/call is answered with the plain result (MRTR for the input tools) even to declaring clients; task_only still makes a task',
  },
  {
    name: 'alternate-results',
    allows: '2026-caps-server-may-create',
    requirement: 'tasks.md "Capability Negotiation": at its own discretion and on a per-request basis',
    description: 'every second tools/call of a tool that may run as a task is answered synchronously',
  },
  {
    name: 'seed-current-status',
    allows: 'RULINGS.md#ext-create-task-result-terminal-seed',
    requirement: 'tasks.md "Task Creation": the seed state is typically (though not necessarily) working',
    description:
      'the CreateTaskResult goes out after the work has run for up to 200 ms and shows the status then (completed, failed, input_required …), with what tasks/get shows in that status (result, error, inputRequests: RULINGS.md#ext-create-task-result-terminal-seed)',
  },
  {
    name: 'ttl-unlimited',
    allows: 'schema:Task.ttlMs',
    requirement: 'Task.ttlMs: null for unlimited',
    description: 'ttlMs is null; tasks are kept until the server exits (within the retention limit)',
  },
  {
    name: 'ttl-changes',
    allows: '2026-ttl-may-change',
    requirement: 'tasks.md "Task Polling": the value of ttlMs MAY change over the lifetime of a task',
    description: 'ttlMs grows by 1000 on every status change',
  },
  {
    name: 'poll-interval-changes',
    allows: '2026-poll-interval-may-change',
    requirement: 'tasks.md "Task Polling": pollIntervalMs MAY change over the lifetime of a task',
    description: 'pollIntervalMs doubles on every tasks/get (at most 1000)',
  },
  {
    name: 'no-poll-interval',
    allows: 'schema:Task.pollIntervalMs',
    requirement: 'Task.pollIntervalMs is optional',
    description: 'tasks carry no pollIntervalMs',
  },
  {
    name: 'rate-limit-polls',
    allows: '2026-poll-rate-limit',
    requirement: 'tasks.md "Task Polling": servers MAY rate-limit clients polling more frequently than pollIntervalMs',
    description: 'a tasks/get sooner than pollIntervalMs after the previous one of the same task is refused (-32603, data.retryAfterMs)',
  },
  {
    name: 'input-requests-any-get',
    allows: 'RULINGS.md#ext-input-requests-declared-capability',
    requirement: 'RULINGS.md#ext-input-requests-declared-capability',
    description:
      'a tasks/get of an input_required task is shown every outstanding request whatever its own capabilities declare (the requests were made under those of the tools/call that created the task)',
  },
  {
    name: 'input-requests-staggered',
    allows: '2026-get-input-requests-all-outstanding',
    requirement: '2026-get-input-requests-all-outstanding',
    description: 'the questions of one round become outstanding 150 ms apart (ask_two shows one inputRequest, then both)',
  },
  {
    name: 'supersede-on-partial',
    allows: '2026-update-partial',
    requirement: '2026-update-partial',
    description: 'after a partial tasks/update the requests left are reissued under new keys (the old keys superseded: tasks.md:379)',
  },
  {
    name: 'mrtr-state-only',
    allows: 'schema:InputRequiredResult.inputRequests',
    requirement: 'schema:InputRequiredResult.inputRequests',
    description:
      'the first InputRequiredResult of an MRTR exchange carries only requestState (mrtr.md: at least one of inputRequests and requestState); the retry with it is asked the question',
  },
  {
    name: 'rate-limit-custom-code',
    allows: 'RULINGS.md#ext-rate-limit-error-open',
    requirement: 'RULINGS.md#ext-rate-limit-error-open',
    description:
      'as rate-limit-polls, refused with an implementation-defined code: -31029 "Slow down: poll this task every N ms" (data.retryAfterMs), over HTTP with status 429',
  },
  {
    name: 'expiry-fails-first',
    allows: '2026-ttl-server-may-fail-after',
    requirement: 'tasks.md "Task Polling": servers MAY mark a task as failed after the TTL elapses, and subsequently delete it',
    description: 'at createdAt + ttlMs an unfinished task becomes failed; it is deleted one ttlMs later',
    args: ['--ttl-ms', '2000'],
  },
  {
    name: 'expiry-fails-any',
    allows: '2026-ttl-server-may-fail-after',
    requirement: 'tasks.md "Task Polling": servers MAY mark a task as failed at any point after the TTL elapses (RULINGS.md#ext-ttl-before-expiry)',
    description: 'at createdAt + ttlMs every task becomes failed, a completed or cancelled one too; it is deleted one ttlMs later',
    args: ['--ttl-ms', '2000'],
  },
  {
    name: 'retain-expired',
    allows: 'RULINGS.md#ext-ttl-before-expiry',
    requirement: 'tasks.md "Protocol Errors" note: servers are not required to retain tasks indefinitely (nor to purge them)',
    description: 'tasks are not deleted when their ttlMs elapses',
  },
  {
    name: 'lazy-expiry',
    allows: 'RULINGS.md#ext-ttl-before-expiry',
    requirement: 'tasks.md: the server may discard the task after the TTL elapses (when is its choice)',
    description: 'an expired task is removed only when it is next asked for',
  },
  {
    name: 'delete-on-cancel',
    allows: '2026-ttl-server-may-fail-after',
    requirement: 'tasks.md "Task Cancellation": clients need not poll again after cancel; tasks need not be retained',
    description: 'a task is deleted as soon as tasks/cancel is acknowledged',
  },
  {
    name: 'cancel-later',
    allows: '2026-cancel-may-stay-nonterminal',
    requirement: 'tasks.md "Task Cancellation": eventually consistent; the status MAY remain working after the ack',
    description: 'tasks/cancel takes effect 500 ms after the acknowledgement',
  },
  {
    name: 'cancel-ignored',
    allows: '2026-cancel-may-end-otherwise',
    requirement: 'tasks.md "Task Cancellation": cooperative; the server is not obligated to stop the work',
    description: 'tasks/cancel is acknowledged and the work runs to its own end',
  },
  {
    name: 'update-applies-later',
    allows: '2026-update-ack-before-visible',
    requirement: 'tasks.md "Task Update Requests": the ack is eventually consistent',
    description: 'tasks/update is acknowledged at once, its responses are taken 300 ms later',
  },
  {
    name: 'partial-ignored',
    allows: '2026-update-partial',
    requirement: 'tasks.md "Task Update Requests": a server MAY accept a partial set of responses',
    description: 'a tasks/update answering only some of the outstanding keys is acknowledged and ignored; a full set is taken',
  },
  {
    name: 'extra-fields',
    allows: 'schema:Result._meta',
    requirement: 'schema: Result and Task allow further members; _meta carries vendor keys',
    description: 'results (not the acks: RULINGS.md#ext-empty-ack), tasks and notifications carry an unknown member, results a vendor _meta key',
  },
  {
    name: 'status-message-always',
    allows: 'schema:Task.statusMessage',
    requirement: 'Task.statusMessage is optional, for any status',
    description: 'every task carries a statusMessage',
  },
  {
    name: 'high-latency',
    allows: 'RULINGS.md#response-time',
    requirement: 'no timing is prescribed',
    description: 'every answer is delayed by --latency-ms (default 300)',
  },
  {
    name: 'sse-responses',
    allows: 'spec:2026-07-28/basic-transports-streamable-http.md:88',
    requirement: 'streamable-http "Sending Messages": the server returns application/json or text/event-stream',
    description: 'every request is answered with an SSE stream carrying its one response (an error too, with its HTTP status)',
    transport: 'http',
  },
  {
    name: 'mcp-name-optional',
    allows: 'RULINGS.md#ext-mcp-name-task-id',
    requirement: 'RULINGS.md#ext-mcp-name-task-id: whether a server rejects a task request that lacks Mcp-Name is its latitude',
    description: 'tasks/get, tasks/update, tasks/cancel without an Mcp-Name header are served (a present one must still equal params.taskId)',
    transport: 'http',
  },
  {
    name: 'inline-result-bare',
    allows: 'schema:CompletedTask.result',
    requirement:
      'tasks.md: the result is "the final result of the task" (CallToolResult, whose resultType is required) while its examples inline it without resultType',
    description: 'the result inlined in a completed task has no resultType',
  },
  {
    name: 'listen-snapshot',
    allows: '2026-notify-may-push',
    requirement: 'tasks.md "Task Status Notifications": servers MAY push status updates',
    description: 'each subscribed task is sent as it is right after the acknowledgement',
  },
  {
    name: 'listen-ends-when-done',
    allows: '2026-cancellation-listen-teardown',
    requirement: 'subscriptions.md "Cancellation": the server may tear a subscription down (e.g. during shutdown)',
    description: 'a subscription is ended once every task it agreed to is terminal: notifications/cancelled for it, then its successful response',
  },
  {
    name: 'listen-refused',
    allows: 'RULINGS.md#ext-listen-optional',
    requirement:
      'tasks.md "Task Status Notifications": servers MAY push status updates; one that pushes none need not open a stream for them (RULINGS.md#ext-listen-optional)',
    description:
      "a declaring client's subscriptions/listen for task ids is answered -32601 (Method not found, HTTP 404): tasks are followed through tasks/get only (a non-declaring client still gets -32021)",
  },
  {
    name: 'initialize-unanswered',
    allows: 'RULINGS.md#response-time',
    requirement:
      'basic-versioning.md "Backward Compatibility": the SHOULD binds only an error a modern-only server returns to initialize; no keyword requires one (RULINGS.md#response-time: a missing answer is time, never a verdict)',
    description: 'initialize is never answered (the request stays open until the client cancels it or goes away); modern requests are served as usual',
  },
  {
    name: 'nondeterministic-output',
    allows: '2026-exec-result-exact',
    requirement: '2026-exec-result-exact',
    description: 'every tool result carries the time and a random request id (the fail tool: in error.data), so no two calls of a tool return the same',
  },
  {
    name: 'task-only-fails',
    allows: '2026-exec-error-exact',
    requirement: '2026-exec-error-exact',
    description: 'the fail tool runs only as a task (like task_only): a client without the extension gets -32021, a declaring one a task that fails',
  },
  {
    name: 'timestamps-naive',
    allows: 'RULINGS.md#ext-timestamps-iso8601',
    requirement: 'RULINGS.md#ext-timestamps-iso8601',
    description: "createdAt and lastUpdatedAt as Python's naive isoformat() of the UTC time: microseconds, no zone (2026-07-28T10:30:00.123000)",
  },
  {
    name: 'timestamps-mixed-precision',
    allows: 'RULINGS.md#ext-timestamps-iso8601',
    requirement: 'RULINGS.md#ext-timestamps-iso8601',
    description: 'createdAt in whole seconds (…T10:30:00Z), lastUpdatedAt in milliseconds with an offset (…T10:30:00.123+00:00)',
  },
  {
    name: 'http-level-refusals',
    allows: '2026-security-auth-binding',
    requirement: '2026-security-auth-binding',
    description:
      "another requestor's tasks/get, tasks/update, tasks/cancel are refused with a bare HTTP 403 and a header mismatch with a bare HTTP 400, no JSON-RPC body (as an authorization layer or an intermediary in front would)",
    args: ['--token', 'alpha', '--token', 'beta'],
    transport: 'http',
  },
  {
    name: 'listen-agrees-none',
    allows: '2026-subscribe-client-check-ack',
    requirement: 'tasks.md "Task Status Notifications": the ack lists the task ids the server agreed to, if any',
    description: 'the acknowledgement agrees to no task ids and no notifications/tasks are sent',
  },
] as const satisfies readonly SwitchInfo[];

/**
 * The stdio cell of the no-false-verdict matrix (suites/2026-07-28/receiver/latitudes.test.ts): the latitudes that
 * can show over stdio together, the server spawned over stdio, but those that hide what other checks need to see
 * (no task, no notification, no cancelled task, no partial answer taken, no answer to initialize, no plain answer to compare
 * a task's outcome with; each has its own cell), so that every
 * check is exercised there.
 */
export const STDIO_CELL_LEAVES_OUT: readonly LatitudeName[] = [
  'sync-results',
  'alternate-results',
  'listen-agrees-none',
  'listen-refused',
  'delete-on-cancel',
  'partial-ignored',
  'cancel-ignored',
  'initialize-unanswered',
  'nondeterministic-output',
  'task-only-fails',
];
export const STDIO_LATITUDE_CELL: readonly LatitudeName[] = LATITUDES.filter(
  (l) => !('transport' in l && l.transport === 'http') && !STDIO_CELL_LEAVES_OUT.includes(l.name),
).map((l) => l.name);

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
