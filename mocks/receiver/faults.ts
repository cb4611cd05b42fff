// The fault registry of the reference receiver. Each fault breaks exactly ONE requirement of the Tasks
// page (tasks.md / progress.md), so that every conformance check can be shown to fail against a
// receiver that is wrong in exactly the way the check is about. `requirement` is the catalog id
// (schema/requirements.json). Where a fault acts: mocks/receiver/fault-switches.ts. Which checks it
// kills: the checks' own `killedBy` (suites/engine/check.ts), held exact by suites/receiver/faults.test.ts.
import { SwitchSet } from './switch-set.ts';

export interface FaultInfo {
  name: string;
  requirement: string;
  description: string;
  /** Receiver options the fault needs to be observable (mock CLI flags, e.g. ['--page-size', '2']). */
  args?: readonly string[];
  /** The only transport on which the fault shows (default: any, including in process). */
  transport?: 'http';
  /**
   * Failures besides the checks citing `requirement`, each with the reason it must be so (keep this short:
   * collateral damage is a sign that a fault breaks more than one requirement).
   *  - `checks`: checks that fail too because the fault breaks their requirement by its nature (those that
   *    always do name the fault in their `killedBy`; the others may fail).
   *  - `message`: failures of any check whose message shows only the fault's own requirement, observed as
   *    that check's precondition (e.g. "did not return a CreateTaskResult" in a check that needs a task).
   *    These are not kills.
   */
  alsoFails?: readonly { checks?: readonly string[]; message?: RegExp; why: string }[];
  /** The fault breaks a requestor rule of the requestor tools (requestor.ts), seen by `server` with the requestor roles. */
  asRequestor?: true;
}

const SCHEMA = 'schema.messages-valid';

export const FAULTS = [
  {
    name: 'cancelled-resurrects',
    requirement: 'cancel-sticky',
    description: 'tasks/cancel does not stop the work; when the work finishes the cancelled task becomes completed',
    alsoFails: [
      {
        checks: ['lifecycle.terminal-sticky-cancelled', 'lifecycle.every-status'],
        why: 'cancelled → completed leaves a terminal status: cancel-sticky is the cancel case of lifecycle-terminal-sticky',
      },
    ],
  },
  {
    name: 'starts-completed',
    requirement: 'lifecycle-begin-working',
    description: 'a new task starts in status "completed" instead of "working"',
    alsoFails: [
      {
        checks: ['creation.prompt'],
        why: 'a slow task that starts completed was not running when its CreateTaskResult came: the SHOULD of returning it while the work runs (creation.prompt) sees the same observation',
      },
    ],
  },
  {
    name: 'created-input-required',
    requirement: 'lifecycle-begin-working',
    description: 'every new task shows input_required in its CreateTaskResult, whatever its tool (one that asks for no input too), and runs on as working',
  },
  {
    name: 'illegal-transition',
    requirement: 'lifecycle-valid-paths',
    description:
      'a failed task is reported as "working" again once a tasks/get has shown it failed (polling alone sees failed → working; the task stays failed inside: tasks/result and tasks/cancel treat it as failed)',
    alsoFails: [
      {
        checks: ['lifecycle.terminal-sticky-failed'],
        why: 'failed → working is illegal because failed is terminal: the same observation breaks lifecycle-terminal-sticky',
      },
    ],
  },
  {
    name: 'cancel-answer-only',
    requirement: 'cancel-sticky',
    description: 'tasks/cancel answers with the task "cancelled", but cancels nothing: the task runs on and completes',
    alsoFails: [
      {
        checks: ['lifecycle.terminal-sticky-cancelled', 'lifecycle.every-status'],
        why: 'cancelled, then working and completed, leaves a terminal status: cancel-sticky is the cancel case of lifecycle-terminal-sticky',
      },
      {
        checks: ['cancel.stops-work'],
        why: 'the task runs on after its cancel was answered: its progress after the answer is what cancel.stops-work (a SHOULD) reads',
      },
      { checks: ['lifecycle.paths-cancelled'], why: 'cancelled → working is outside the transition graph (lifecycle-valid-paths) by the same observation' },
      {
        checks: ['cancel.cancelled-before-response'],
        why: 'the tasks/get after the answer still shows working: the transition the answer claims never happened (cancel-transition-before-response)',
      },
    ],
  },
  {
    name: 'cancel-after-response',
    requirement: 'cancel-transition-before-response',
    description: 'tasks/cancel answers with the task still "working" and moves it to "cancelled" only after the response',
  },
  {
    name: 'cancel-terminal-ok',
    requirement: 'cancel-terminal-32602',
    description: 'cancelling a task in a terminal status succeeds (returns the task) instead of -32602',
  },
  {
    name: 'cancelled-gone-32603',
    requirement: 'errors-invalid-taskid-32602',
    description: 'a cancelled task is deleted at once (allowed), and tasks/get, tasks/result and tasks/cancel naming it then answer -32603 instead of -32602',
    alsoFails: [
      {
        checks: ['lifecycle.paths-cancelled'],
        why: 'it judges every tasks/get answer while it polls the cancelled task, and the one for the deleted task is the wrong -32603',
      },
    ],
  },
  {
    name: 'internal-error-custom-code',
    requirement: 'errors-internal-32603',
    description:
      'a taskId longer than 1024 characters makes tasks/get, tasks/result and tasks/cancel fail inside, answered with the non-standard code -32000 instead of -32603',
  },
  {
    name: 'unknown-task-32603',
    requirement: 'errors-invalid-taskid-32602',
    description: 'an unknown/invalid taskId in tasks/get, tasks/result, tasks/cancel gives -32603 instead of -32602',
  },
  {
    name: 'bad-cursor-ignored',
    requirement: 'errors-invalid-cursor-32602',
    description: 'an invalid tasks/list cursor returns the first page instead of -32602',
    args: ['--page-size', '2'],
  },
  {
    name: 'no-next-cursor',
    requirement: 'list-next-cursor',
    description: 'tasks/list omits nextCursor although more tasks remain',
    args: ['--page-size', '2'],
  },
  {
    name: 'list-omits-task',
    requirement: 'list-get-implies-list',
    description: "the requestor's first task is retrievable via tasks/get but missing from tasks/list",
    args: ['--page-size', '2'],
    alsoFails: [
      {
        checks: ['list.next-cursor'],
        why: 'a complete walk that misses a fetchable task ended without a nextCursor while more tasks were available: list-next-cursor by nature',
      },
    ],
  },
  {
    name: 'result-no-related-task',
    requirement: 'related-task-result-must',
    description: 'tasks/result responses lack _meta["io.modelcontextprotocol/related-task"]',
  },
  {
    name: 'result-not-blocking',
    requirement: 'result-blocks-nonterminal',
    description: 'tasks/result on a non-terminal task answers at once (a "not ready" CallToolResult) instead of blocking',
  },
  { name: 'result-differs', requirement: 'result-exact-success', description: 'tasks/result returns a result different from what the non-task call returns' },
  {
    name: 'result-error-as-result',
    requirement: 'result-exact-error',
    description:
      'tasks/result of a task whose request ended in a JSON-RPC error (e.g. invalid arguments) returns a CallToolResult with isError and the error message instead of that error',
  },
  {
    name: 'related-task-on-get',
    requirement: 'related-task-get-list-cancel-should-not',
    description: 'tasks/get, tasks/list and tasks/cancel results carry related-task _meta (SHOULD NOT)',
  },
  {
    name: 'required-runs-without-task',
    requirement: 'tool-required-must-32601',
    description: 'a taskSupport "required" tool called without `task` runs normally instead of -32601',
  },
  {
    name: 'forbidden-runs-as-task',
    requirement: 'tool-forbidden-should-32601',
    description: 'a taskSupport "forbidden" (or absent) tool called with `task` creates a task instead of -32601',
  },
  {
    name: 'missing-created-at',
    requirement: 'ttl-created-at',
    description: 'tasks omit createdAt',
    alsoFails: [
      { checks: [SCHEMA, 'creation.create-task-result'], why: 'a Task without createdAt is not schema-valid, so neither is the CreateTaskResult carrying it' },
    ],
  },
  {
    name: 'bad-timestamp',
    requirement: 'ttl-last-updated-at',
    description: 'lastUpdatedAt is not an ISO 8601 / RFC 3339 timestamp (a Date.toString() string)',
    alsoFails: [
      {
        checks: [SCHEMA, 'creation.create-task-result'],
        why: 'a non-ISO 8601 lastUpdatedAt is a schema violation of every message carrying the Task, the CreateTaskResult included',
      },
    ],
  },
  {
    name: 'ttl-missing',
    requirement: 'ttl-actual-in-get',
    description: 'tasks/get results omit ttl',
    alsoFails: [{ checks: [SCHEMA], why: 'GetTaskResult requires ttl' }],
  },
  { name: 'sequential-ids', requirement: 'security-crypto-ids', description: 'task ids are predictable sequential numbers "1", "2", "3", …' },
  {
    name: 'no-isolation',
    requirement: 'security-bind-context',
    description: 'tasks are not bound to the session/authorization context: every requestor sees and touches every task',
    alsoFails: [
      {
        checks: ['security.list-without-identity'],
        why: 'a receiver that does not tell requestors apart yet declares tasks.list: the SHOULD NOT of erratum 7b5513e1 (security.list-without-identity) holds for it by the same observation',
      },
    ],
  },
  {
    name: 'progress-new-token',
    requirement: 'progress-same-token',
    description: 'progress notifications after CreateTaskResult use a different progressToken',
  },
  {
    name: 'meta-taskid-wins',
    requirement: 'related-task-receiver-ignore',
    description: 'tasks/get, tasks/result, tasks/cancel use the related-task _meta taskId over params.taskId',
  },
  {
    name: 'input-no-related-task',
    requirement: 'input-required-related-task',
    description: 'the elicitation/create request of an input_required task lacks related-task _meta',
  },
  {
    name: 'input-to-every-session',
    requirement: 'security-bind-context',
    description:
      'the input request (elicitation/create) of an input_required task goes to every open session of the receiver, not only to the requestor of that task',
    alsoFails: [
      {
        checks: ['lifecycle.input-related-task', 'related-task.input-request'],
        why: "their own sessions receive the input requests of other sessions' tasks too, and a foreign one may come first: the same misrouting, seen from the requestor that gets it",
      },
    ],
  },
  { name: 'no-status-message-on-failure', requirement: 'exec-failed-status-message', description: 'a failed task has no statusMessage' },
  {
    name: 'slow-create',
    requirement: 'create-asap',
    description: 'CreateTaskResult (with the task as created) is sent only after the work has finished, or once it waits for input',
  },
  {
    name: 'result-returns-task',
    requirement: 'result-terminal-returns-final',
    description: 'tasks/result for a terminal task returns the Task object (with related-task _meta) instead of the final result of the underlying request',
    alsoFails: [
      {
        checks: ['result.exact-success', 'result.exact-fails', 'result.exact-error'],
        why: 'anything but the final result also differs from what the plain call returns (result-exact)',
      },
      { checks: [SCHEMA], why: 'a Task object is not a valid CallToolResult' },
    ],
  },
  {
    name: 'waiting-result-orphaned',
    requirement: 'result-blocks-nonterminal',
    description:
      'a tasks/result waiting on a non-terminal task is never answered when the task is cancelled, fails or expires (one sent afterwards is answered)',
  },
  {
    name: 'input-result-orphaned',
    requirement: 'result-blocks-nonterminal',
    description: 'a tasks/result that was waiting when its task went input_required (it carried the input request) is never answered once the task completes',
  },
  {
    name: 'cancelled-result-hangs',
    requirement: 'result-terminal-returns-final',
    description: 'tasks/result for a cancelled task never answers',
  },
  {
    name: 'progress-shared-token',
    requirement: 'progress-same-token',
    description: "the progress of every task of a connection goes out under the first progressToken that connection gave (the progress tool's first task)",
  },
  { name: 'progress-decreasing', requirement: 'progress-increase', description: 'the progress values of a task count down (3, 2, 1 of 3) instead of up' },
  { name: 'progress-no-related-task', requirement: 'related-task-all-messages', description: 'notifications/progress for a task lack related-task _meta' },
  {
    name: 'log-wrong-related-task',
    requirement: 'related-task-all-messages',
    description: 'notifications/message (logging) sent by a task carry related-task _meta naming another task id (the tool "log")',
  },
  {
    name: 'cancel-keeps-running',
    requirement: 'cancel-attempt-stop',
    description: 'after tasks/cancel the work keeps running and keeps sending notifications/progress (the status stays cancelled)',
    alsoFails: [
      {
        checks: ['progress.stop-after-terminal'],
        why: 'progress after the cancel is progress after a terminal status (cancelled) — progress-stop-after-terminal by nature; the check itself watches a completing task, so it rarely sees it',
      },
    ],
  },
  {
    name: 'progress-after-terminal',
    requirement: 'progress-stop-after-terminal',
    description: "one more notifications/progress with the task's token after a tasks/get has shown the task completed",
  },
  {
    name: 'deleted-early',
    requirement: 'ttl-actual-in-get',
    description: 'completed and failed tasks are deleted one second after they end, whatever ttl they report',
  },
  {
    name: 'ttl-counts-down',
    requirement: 'ttl-actual-in-get',
    description: 'tasks/get reports as ttl the time the task has left (ttl minus the time since creation), not its duration from creation',
  },
  {
    name: 'ttl-timer-overflow',
    requirement: 'ttl-actual-in-get',
    description:
      'ttls up to 60 days are granted, and each expiry timer is armed with the ttl as is: beyond 2^31-1 ms (about 24.8 days) it fires at once, so such a task is deleted about 1 ms after it is created (as SDK task stores do)',
  },
  {
    name: 'expired-retained',
    requirement: 'resource-cleanup-expired',
    description: 'expired tasks are never deleted (tasks/get keeps answering after the ttl)',
  },
  {
    name: 'generic-error-messages',
    requirement: 'errors-informative-message',
    description: 'every protocol error of tasks/* has only the generic message of its code ("Invalid params", "Internal error", …)',
  },
  {
    name: 'get-sse',
    requirement: 'sse-get-no-upgrade',
    description: 'over Streamable HTTP every POST with requests, tasks/get included, is answered with an SSE stream (as --sse-responses)',
    transport: 'http',
  },
  {
    name: 'disconnect-cancels',
    requirement: 'sse-disconnect-not-cancel',
    description:
      'over Streamable HTTP, a tasks/result whose HTTP response the client closes before it is answered cancels its task (the disconnect taken for a cancellation)',
    transport: 'http',
  },
  { name: 'ttl-uncapped', requirement: 'resource-max-ttl', description: 'no maximum ttl: any requested ttl is granted (ten years included)' },
  {
    name: 'caps-not-objects',
    requirement: 'caps-declare',
    description: 'the tasks capability is declared with booleans: tasks: { list: true, cancel: true, requests: { tools: { call: true } } }',
    alsoFails: [{ checks: [SCHEMA], why: 'the schema types every tasks capability as an object: the InitializeResult is invalid' }],
  },
  {
    name: 'undeclared-creates-task',
    requirement: 'support-undeclared-process-normally',
    description: 'with --no-tasks-capability, a tools/call carrying `task` still creates a task (CreateTaskResult; tasks/* answer as usual)',
    args: ['--no-tasks-capability'],
    alsoFails: [
      {
        checks: ['capabilities.declared-if-supported'],
        why: 'creating tasks without declaring tasks.requests.tools.call also breaks "declare the capability if supported" (caps-declare)',
      },
    ],
  },
  {
    name: 'task-on-undeclared-types',
    requirement: 'support-undeclared-process-normally',
    description:
      'a request other than tools/call (tools/list, tasks/get, tasks/list, ping …) carrying `task` is refused with -32600 instead of processed normally',
  },
  {
    name: 'ignores-task',
    requirement: 'create-returns-createtaskresult',
    description: 'a task-augmented tools/call of an "optional" tool is processed normally: the plain CallToolResult, no task',
    alsoFails: [
      {
        message: /did not return a CreateTaskResult|no CreateTaskResult when/,
        why: 'checks that need a task report its missing CreateTaskResult under their own requirement (mustCreate / helpers.createTask fail instead of skipping)',
      },
      { checks: ['creation.id-string'], why: 'a plain CallToolResult has no task id, string or not' },
      {
        message: /no response to tools\/call/,
        why: 'the needsInput tool, run plainly, waits for its elicitation, which checks that hold input requests until their task exists do not answer: the tools/call never returns',
      },
      { checks: ['creation.id-unique'], why: 'check-side false positive: it counts the missing ids of plain answers as one id repeated ("undefined ×10")' },
    ],
  },
  {
    name: 'plain-call-creates-task',
    requirement: 'create-returns-createtaskresult',
    description:
      'a tools/call of an "optional" tool without `task` is answered with a CreateTaskResult (a task with the default ttl) instead of its CallToolResult',
  },
  {
    name: 'numeric-task-id',
    requirement: 'id-string',
    description: 'task ids travel as JSON numbers (random 53-bit integers) in CreateTaskResult, tasks/get and every Task; numeric ids are accepted back',
    alsoFails: [
      {
        message: /did not return a CreateTaskResult with task\.taskId/,
        why: 'checks that need a task reject a CreateTaskResult whose taskId is not a string (their precondition), under their own requirement',
      },
      {
        checks: [SCHEMA, 'creation.create-task-result'],
        why: 'the schema types taskId as a string (the schema check maps it to id-string): the CreateTaskResult is not valid',
      },
    ],
  },
  {
    name: 'ids-per-session',
    requirement: 'id-unique',
    description:
      'task ids look random (UUID-shaped hashes) but are drawn from a sequence that starts over for every session: the first task of each session has the same id',
  },
  {
    name: 'duplicate-ids',
    requirement: 'id-unique',
    description: 'tasks created by one requestor in the same millisecond with the same request share one task id',
    alsoFails: [
      {
        checks: ['related-task.param-wins-cancel', 'cancel.stays-cancelled', 'lifecycle.every-status'],
        why: 'they create twin tasks with the same request at once; when both land in one millisecond they are one task, and cancelling one cancels the other',
      },
      {
        checks: ['get.last-updated-moves'],
        why: "its slow task can be another check's created in the same millisecond, which that check cancels at once: a status change in the millisecond of creation, so lastUpdatedAt cannot move",
      },
    ],
  },
  { name: 'adopts-requestor-id', requirement: 'id-receiver-generated', description: 'params.task.taskId, when the requestor sends one, becomes the task id' },
  {
    name: 'unknown-status',
    requirement: 'lifecycle-valid-paths',
    description: 'tasks/get reports the status "running" (not a task status) while a task is working',
    alsoFails: [
      {
        message: /returned status "running", (which is none of|not a task status)/,
        why: 'every check that polls rejects a status outside the five while polling (its precondition), under its own requirement',
      },
      { checks: [SCHEMA], why: 'the schema enumerates the five statuses' },
    ],
  },
  {
    name: 'completed-resumes',
    requirement: 'lifecycle-terminal-sticky',
    description: 'a completed task is reported "working" once two tasks/get have shown it completed (the task stays completed inside)',
    alsoFails: [
      {
        checks: ['lifecycle.paths-completes', 'lifecycle.paths-input'],
        why: 'completed → working leaves a terminal status: the same observation is outside the allowed graph (lifecycle-valid-paths)',
      },
    ],
  },
  {
    name: 'no-input-required',
    requirement: 'input-required-move',
    description: 'a task stays "working" while its input request (elicitation/create) waits for the answer',
  },
  {
    name: 'input-stuck',
    requirement: 'input-required-resume',
    description: 'after its input arrives the task stays input_required for 11.5 s, then completes',
  },
  { name: 'last-updated-backwards', requirement: 'ttl-last-updated-at', description: 'lastUpdatedAt is one second before createdAt' },
  { name: 'last-updated-frozen', requirement: 'ttl-last-updated-at', description: 'lastUpdatedAt always equals createdAt, however the task changes' },
  {
    name: 'status-notification-related-task',
    requirement: 'notify-status-no-related-task',
    description: 'notifications/tasks/status carry related-task _meta',
    args: ['--status-notifications'],
  },
  {
    name: 'status-notification-wrong-status',
    requirement: 'lifecycle-valid-paths',
    description: 'the notifications/tasks/status of a task that fails says "completed"',
    args: ['--status-notifications'],
  },
  // The receiver as requestor toward its client (requestor.ts: sample_via_client, elicit_via_client).
  {
    name: 'requestor-fast-poll',
    requirement: 'poll-respect-interval',
    description: "the requestor tools poll the client's task every 50 ms, whatever its pollInterval says",
    asRequestor: true,
  },
  {
    name: 'requestor-stops-polling',
    requirement: 'poll-until-terminal',
    description: "the requestor tools take the client's CreateTaskResult for the end: no tasks/get, no tasks/result",
    asRequestor: true,
  },
  {
    name: 'requestor-no-result-on-input',
    requirement: 'input-required-call-result',
    description:
      "while the client's task is input_required the requestor tools keep polling tasks/get (then fetch the result once it is terminal), never tasks/result before",
    asRequestor: true,
  },
  {
    name: 'requestor-related-task-in-requests',
    requirement: 'related-task-requestor-omit-in-requests',
    description: 'the requestor tools put related-task _meta into their tasks/get and tasks/result requests',
    asRequestor: true,
  },
  {
    name: 'requestor-augments-undeclared',
    requirement: 'caps-requestor-only-declared',
    description: 'the requestor tools task-augment sampling/createMessage and elicitation/create although the client declared no tasks capability for them',
    asRequestor: true,
  },
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
export class FaultSet extends SwitchSet<FaultName> {
  constructor(names: Iterable<string> = []) {
    super('fault', FAULT_NAMES, names);
  }
}
