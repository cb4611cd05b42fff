// The wire of MCP 2026-07-28 with the Tasks extension `io.modelcontextprotocol/tasks` (SEP-2663), stated
// once: the names, codes and the transition table that the reference peers, the checks and the property
// model share. Sources (vendored): schema/spec/ext-tasks/{tasks.md,schema.ts} and
// schema/spec/2026-07-28/{schema.ts,basic-*.md,server-*.md}; pinned by protocol.test.ts next to this file.
// Not wire-compatible with 2025-11-25 (schema/protocol.ts): no `params.task`, no tasks/result, no tasks/list.
import { taskStateMachine } from '../state-machine.ts';
import type { TimestampReading } from '../timestamp.ts';
import { isObj } from '../json.ts';

/** The revision (core protocol version) this module states. */
export const REVISION = '2026-07-28';
/** `io.modelcontextprotocol/protocolVersion` in every request's `_meta`, and the `MCP-Protocol-Version` header. */
export const PROTOCOL_VERSION = REVISION;
/** The extension identifier (tasks.md "Extension Identifier"); key under `capabilities.extensions`. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** How createdAt / lastUpdatedAt are read: "ISO 8601 timestamp" (tasks.md:129-133; RULINGS.md#ext-timestamps-iso8601). */
export const TIMESTAMP_READING = 'iso8601' satisfies TimestampReading;

/** Method and notification names the Tasks flows use. */
export const Method = {
  // core 2026-07-28
  ServerDiscover: 'server/discover',
  ToolsList: 'tools/list',
  ToolsCall: 'tools/call',
  SubscriptionsListen: 'subscriptions/listen',
  SubscriptionsAcknowledged: 'notifications/subscriptions/acknowledged',
  ElicitationCreate: 'elicitation/create',
  SamplingCreateMessage: 'sampling/createMessage',
  RootsList: 'roots/list',
  /** Must not be used for task cancellation (tasks.md "Task Cancellation"). */
  Cancelled: 'notifications/cancelled',
  /** Must not be sent on the subscriptions/listen stream for a task. */
  Progress: 'notifications/progress',
  /** Must not be sent on the subscriptions/listen stream for a task. */
  Message: 'notifications/message',
  // the extension
  TasksGet: 'tasks/get',
  TasksUpdate: 'tasks/update',
  TasksCancel: 'tasks/cancel',
  TasksNotification: 'notifications/tasks',
  // removed (2025-11-25 only): answered with -32601 (SEP-2663 "Backwards Compatibility")
  TasksResult: 'tasks/result',
  TasksList: 'tasks/list',
} as const;
export type MethodName = (typeof Method)[keyof typeof Method];

/** The extension's request methods (tasks.md: "three methods"). */
export const TASK_METHODS = [Method.TasksGet, Method.TasksUpdate, Method.TasksCancel] as const;
export type TaskMethod = (typeof TASK_METHODS)[number];
/** The 2025-11-25 task methods this revision removed; a call gets -32601 (Method not found). */
export const REMOVED_TASK_METHODS = [Method.TasksResult, Method.TasksList] as const;
/** Requests a server may answer with a CreateTaskResult (tasks.md "Supported Methods"). */
export const TASK_AUGMENTABLE_METHODS = [Method.ToolsCall] as const;
/** Prefixes reserved for the extension (tasks.md "Reservations"). */
export const RESERVED_METHOD_PREFIX = 'tasks/';
export const RESERVED_NOTIFICATION_PREFIX = 'notifications/tasks/';

/** `resultType`, on every result of this revision (schema.ts `Result.resultType`; "task" is the extension's). */
export const ResultType = {
  Complete: 'complete',
  InputRequired: 'input_required',
  Task: 'task',
} as const;
export type ResultTypeValue = (typeof ResultType)[keyof typeof ResultType];

/** JSON-RPC error codes (schema.ts of 2026-07-28, renumbered upstream in August 2026). */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
} as const;
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * The numbering of the draft before the August 2026 renumbering (changelog.md item 12): earlier code → the code
 * judged now. A server built from the earlier text answers these; checks name it (RULINGS.md#ext-error-renumbering).
 */
export const EARLIER_NUMBERING: Readonly<Record<number, number>> = {
  [-32001]: ErrorCode.HeaderMismatch,
  [-32003]: ErrorCode.MissingRequiredClientCapability,
  [-32004]: ErrorCode.UnsupportedProtocolVersion,
};

/** Where `got` is `expected` under the earlier numbering: the words that tell that server apart, else ''. */
export function earlierNumbering(got: unknown, expected: number): string {
  return typeof got === 'number' && EARLIER_NUMBERING[got] === expected
    ? ` (${got} is ${expected} in the numbering before August 2026: the server follows the earlier draft; RULINGS.md#ext-error-renumbering)`
    : '';
}

/** JSON-RPC 2.0's own codes (-32700, -32600 … -32603: "MCP uses the standard JSON-RPC 2.0 error codes", basic-index.md "Error Codes"). */
export const JSONRPC_STANDARD_CODES: readonly number[] = [
  ErrorCode.ParseError,
  ErrorCode.InvalidRequest,
  ErrorCode.MethodNotFound,
  ErrorCode.InvalidParams,
  ErrorCode.InternalError,
];
/** The codes this revision defines in its reserved sub-range (basic-index.md "MCP defines the following error codes"). */
export const MCP_DEFINED_CODES: readonly number[] = [ErrorCode.HeaderMismatch, ErrorCode.MissingRequiredClientCapability, ErrorCode.UnsupportedProtocolVersion];
/** basic-index.md "Error Codes": -32000 … -32019, allocated by implementations before the policy (2026-codes-legacy-range). */
export const LEGACY_CODE_RANGE = { min: -32019, max: -32000 } as const;
/** basic-index.md "Error Codes": -32020 … -32099, defined only by the MCP specification (2026-codes-no-undefined-reserved). */
export const RESERVED_CODE_RANGE = { min: -32099, max: -32020 } as const;
/** Codes of earlier revisions this one must not emit (2026-codes-retired), with what they meant. */
export const RETIRED_CODES: Readonly<Record<number, string>> = {
  [-32002]: 'resource not found (2025-11-25 and earlier; replaced by -32602)',
  [-32042]: 'URL elicitation required (2025-11-25 only)',
};

/** HTTP status that accompanies HeaderMismatch, MissingRequiredClientCapability, UnsupportedProtocolVersion. */
export const HTTP_BAD_REQUEST = 400;
/** HTTP status for an unimplemented method (with -32601), Streamable HTTP "Protocol Version Header". */
export const HTTP_NOT_FOUND = 404;

/** Streamable HTTP request headers (basic-transports-streamable-http.md "Request Metadata"). */
export const Header = {
  ProtocolVersion: 'MCP-Protocol-Version',
  Method: 'Mcp-Method',
  /** For tasks/get, tasks/update, tasks/cancel: `params.taskId` (tasks.md "Streamable HTTP: Routing Headers"). */
  Name: 'Mcp-Name',
  /** `Mcp-Param-{Name}` for tool parameters marked for header mirroring. */
  ParamPrefix: 'Mcp-Param-',
} as const;
/** The sentinel encoding of `Mcp-Name` / `Mcp-Param-*` values that are not plain ASCII: `=?base64?…?=`. */
export const BASE64_SENTINEL = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/;

/** Reserved `_meta` keys (schema.ts RequestMetaObject, NotificationMetaObject, ResultMetaObject). */
export const Meta = {
  /** Required on every request. */
  ProtocolVersion: 'io.modelcontextprotocol/protocolVersion',
  /** Required on every request: the capabilities for this request only (servers must not infer them from earlier requests). */
  ClientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  ClientInfo: 'io.modelcontextprotocol/clientInfo',
  LogLevel: 'io.modelcontextprotocol/logLevel',
  /** On every notification delivered on a subscriptions/listen stream: the id of that request. */
  SubscriptionId: 'io.modelcontextprotocol/subscriptionId',
  ServerInfo: 'io.modelcontextprotocol/serverInfo',
  ProgressToken: 'progressToken',
} as const;
// The extension defines no related-task `_meta` key: a notifications/tasks carries its task inline
// (`params.taskId`), and tasks/get, tasks/update, tasks/cancel name it in `params.taskId`. The
// 2025-11-25 key `io.modelcontextprotocol/related-task` (schema/protocol.ts) has no meaning here.

/** Field names of the extension's messages (one spelling, used by builders and checks alike). */
export const Field = {
  taskId: 'taskId',
  status: 'status',
  statusMessage: 'statusMessage',
  createdAt: 'createdAt',
  lastUpdatedAt: 'lastUpdatedAt',
  ttlMs: 'ttlMs',
  pollIntervalMs: 'pollIntervalMs',
  inputRequests: 'inputRequests',
  inputResponses: 'inputResponses',
  result: 'result',
  error: 'error',
  resultType: 'resultType',
  /** `error.data.requiredCapabilities` of a -32021 error. */
  requiredCapabilities: 'requiredCapabilities',
  /** `params.notifications.taskIds` of subscriptions/listen and of its acknowledgement. */
  taskIds: 'taskIds',
  /** `params.notifications` of subscriptions/listen and of its acknowledgement. */
  notifications: 'notifications',
  extensions: 'extensions',
  /** server/discover result. */
  supportedVersions: 'supportedVersions',
  capabilities: 'capabilities',
  /** `error.data.supported` / `error.data.requested` of a -32022 error. */
  supported: 'supported',
  requested: 'requested',
} as const;
/** The 2025-11-25 names this revision dropped: `params.task` (servers must ignore it), `ttl`, `pollInterval`, capability `tasks`. */
export const LegacyField = { task: 'task', ttl: 'ttl', pollInterval: 'pollInterval', tasksCapability: 'tasks' } as const;

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/**
 * The one transition table of the extension (tasks.md "Task Status State Diagram"): from → allowed next
 * statuses; "terminal" expanded to the statuses of its note. Pinned to the diagram by protocol.test.ts.
 */
export const TRANSITIONS: Readonly<Record<TaskStatus, readonly TaskStatus[]>> = {
  working: ['input_required', 'completed', 'failed', 'cancelled'],
  input_required: ['working', 'completed', 'failed', 'cancelled'],
  completed: [],
  failed: [],
  cancelled: [],
};
/** The diagram's initial state. A CreateTaskResult is "typically (though not necessarily)" working. */
export const INITIAL_STATUS: TaskStatus = 'working';

export const TASK_MACHINE = taskStateMachine(TRANSITIONS, INITIAL_STATUS);
export const TASK_STATUSES: readonly TaskStatus[] = TASK_MACHINE.statuses;
export const TERMINAL_STATUSES: readonly TaskStatus[] = TASK_MACHINE.terminal;
export const isTaskStatus = TASK_MACHINE.isStatus;
export const isTerminal = TASK_MACHINE.isTerminal;
export const canTransition = TASK_MACHINE.canTransition;
export const firstIllegalStep = TASK_MACHINE.firstIllegalStep;

/** The task object as it travels (ext-tasks schema.ts `Task`). */
export interface Task {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  /** Integer milliseconds from creation; null for unlimited. May change over the task's life. */
  ttlMs: number | null;
  /** Integer milliseconds. May change over the task's life. */
  pollIntervalMs?: number;
}

/** A server-to-client request inside `inputRequests` (schema.ts InputRequest: sampling, roots, elicitation). */
export interface InputRequest {
  method: typeof Method.ElicitationCreate | typeof Method.SamplingCreateMessage | typeof Method.RootsList;
  params?: Record<string, unknown>;
}
export type InputRequests = Record<string, InputRequest>;
/** The client's result for each key of `inputRequests` (ElicitResult, CreateMessageResult, ListRootsResult). */
export type InputResponses = Record<string, Record<string, unknown>>;

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** The status-specific shapes of tasks/get results and notifications/tasks params (ext-tasks schema.ts). */
export type DetailedTask =
  | (Task & { status: 'working' })
  | (Task & { status: 'input_required'; inputRequests: InputRequests })
  | (Task & { status: 'completed'; result: Record<string, unknown> })
  | (Task & { status: 'failed'; error: JsonRpcErrorObject })
  | (Task & { status: 'cancelled' });

/** The answer to a tools/call the server chose to run as a task: a flat Task with resultType "task". */
export type CreateTaskResult = Task & { resultType: typeof ResultType.Task; _meta?: Record<string, unknown> };
export type GetTaskResult = DetailedTask & { resultType: typeof ResultType.Complete; _meta?: Record<string, unknown> };
/** tasks/update and tasks/cancel answer with an empty acknowledgement. */
export type AckResult = { resultType: typeof ResultType.Complete; _meta?: Record<string, unknown> };

/** The extension's capability declaration: an empty object indicates support (tasks.md "Capability Negotiation"). */
export function tasksExtensionCapabilities(): { extensions: { [TASKS_EXTENSION]: Record<string, never> } } {
  return { extensions: { [TASKS_EXTENSION]: {} } };
}

/** `error.data` of the -32021 a non-declaring client gets (tasks.md "Capability Negotiation", "Protocol Errors"). */
export function missingTasksCapabilityData(): { requiredCapabilities: ReturnType<typeof tasksExtensionCapabilities> } {
  return { requiredCapabilities: tasksExtensionCapabilities() };
}

/**
 * True when a request's params declare the extension in their per-request capabilities
 * (`_meta["io.modelcontextprotocol/clientCapabilities"].extensions["io.modelcontextprotocol/tasks"]` is an object).
 * Only that request's declaration counts (servers must not infer capabilities from prior requests); the
 * 2025-11-25 `capabilities.tasks` does not count (SEP-2663: such a client is non-declaring).
 */
export function declaresTasksExtension(params: unknown): boolean {
  if (!isObj(params) || !isObj(params._meta)) return false;
  const caps = params._meta[Meta.ClientCapabilities];
  return isObj(caps) && isObj(caps.extensions) && isObj(caps.extensions[TASKS_EXTENSION]);
}

/** The `_meta` every request of this revision carries: the version and the capabilities of this request. */
export function requestMeta(capabilities: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { [Meta.ProtocolVersion]: PROTOCOL_VERSION, [Meta.ClientCapabilities]: capabilities, ...extra };
}

/** The definition (schema/tasks-2026-07-28.schema.json) each request of the Tasks flows is validated against. */
export const REQUEST_DEFINITION: Readonly<Record<string, string>> = {
  [Method.ServerDiscover]: 'DiscoverRequest',
  [Method.ToolsList]: 'ListToolsRequest',
  [Method.ToolsCall]: 'CallToolRequest',
  [Method.SubscriptionsListen]: 'SubscriptionsListenRequest',
  [Method.TasksGet]: 'GetTaskRequest',
  [Method.TasksUpdate]: 'UpdateTaskRequest',
  [Method.TasksCancel]: 'CancelTaskRequest',
};

/** The definition of the standard ("complete") result of each request. */
export const RESULT_DEFINITION: Readonly<Record<string, string>> = {
  [Method.ServerDiscover]: 'DiscoverResult',
  [Method.ToolsList]: 'ListToolsResult',
  [Method.ToolsCall]: 'CallToolResult',
  [Method.SubscriptionsListen]: 'SubscriptionsListenResult',
  [Method.TasksGet]: 'GetTaskResult',
  [Method.TasksUpdate]: 'UpdateTaskResult',
  [Method.TasksCancel]: 'CancelTaskResult',
};

/**
 * The definition a result of `method` is validated against, chosen by its `resultType` (the polymorphic
 * results of tasks.md and MRTR): "task" → CreateTaskResult, "input_required" → InputRequiredResult, otherwise
 * the method's standard result. Undefined for a method outside the table. Whether "task" is allowed for that
 * method and client is for the checks to judge (2026-result-type-task-only-create, 2026-caps-no-task-for-non-declaring).
 */
export function resultDefinition(method: string, result: unknown): string | undefined {
  const type = isObj(result) ? result[Field.resultType] : undefined;
  if (type === ResultType.Task) return 'CreateTaskResult';
  if (type === ResultType.InputRequired) return 'InputRequiredResult';
  return RESULT_DEFINITION[method];
}
