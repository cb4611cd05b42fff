// The protocol vocabulary of the reference extension server (MCP 2026-07-28 + io.modelcontextprotocol/tasks).
// Names mirror schema/2026-07-28/protocol.ts (the revision's constants, stated once); until that module is
// on main this file holds the subset the server uses, after that it re-exports it. Server-local additions
// at the end.

export const REVISION = '2026-07-28';
export const PROTOCOL_VERSION = REVISION;
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

export const Method = {
  ServerDiscover: 'server/discover',
  ToolsList: 'tools/list',
  ToolsCall: 'tools/call',
  SubscriptionsListen: 'subscriptions/listen',
  SubscriptionsAcknowledged: 'notifications/subscriptions/acknowledged',
  ElicitationCreate: 'elicitation/create',
  Cancelled: 'notifications/cancelled',
  Progress: 'notifications/progress',
  Message: 'notifications/message',
  TasksGet: 'tasks/get',
  TasksUpdate: 'tasks/update',
  TasksCancel: 'tasks/cancel',
  TasksNotification: 'notifications/tasks',
  TasksResult: 'tasks/result',
  TasksList: 'tasks/list',
} as const;
export const TASK_METHODS = [Method.TasksGet, Method.TasksUpdate, Method.TasksCancel] as const;
export const REMOVED_TASK_METHODS = [Method.TasksResult, Method.TasksList] as const;

export const ResultType = { Complete: 'complete', InputRequired: 'input_required', Task: 'task' } as const;

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

export const Header = { ProtocolVersion: 'MCP-Protocol-Version', Method: 'Mcp-Method', Name: 'Mcp-Name', ParamPrefix: 'Mcp-Param-' } as const;
export const BASE64_SENTINEL = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/;

export const Meta = {
  ProtocolVersion: 'io.modelcontextprotocol/protocolVersion',
  ClientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  ClientInfo: 'io.modelcontextprotocol/clientInfo',
  LogLevel: 'io.modelcontextprotocol/logLevel',
  SubscriptionId: 'io.modelcontextprotocol/subscriptionId',
  ServerInfo: 'io.modelcontextprotocol/serverInfo',
  ProgressToken: 'progressToken',
} as const;

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
export const TRANSITIONS: Readonly<Record<TaskStatus, readonly TaskStatus[]>> = {
  working: ['input_required', 'completed', 'failed', 'cancelled'],
  input_required: ['working', 'completed', 'failed', 'cancelled'],
  completed: [],
  failed: [],
  cancelled: [],
};
export const TERMINAL_STATUSES: readonly TaskStatus[] = ['completed', 'failed', 'cancelled'];
export const isTerminal = (s: TaskStatus): boolean => TERMINAL_STATUSES.includes(s);
export const canTransition = (from: TaskStatus, to: TaskStatus): boolean => from === to || TRANSITIONS[from].includes(to);

export function tasksExtensionCapabilities(): { extensions: { [TASKS_EXTENSION]: Record<string, never> } } {
  return { extensions: { [TASKS_EXTENSION]: {} } };
}
export function missingTasksCapabilityData(): { requiredCapabilities: ReturnType<typeof tasksExtensionCapabilities> } {
  return { requiredCapabilities: tasksExtensionCapabilities() };
}

// --- server-local -------------------------------------------------------------------------------------
/** The protocol versions this server implements (UnsupportedProtocolVersionError data.supported). */
export const SUPPORTED_VERSIONS: readonly string[] = [PROTOCOL_VERSION];
/** The legacy handshake; a modern-only server names its versions in the error (basic-versioning.md). */
export const INITIALIZE = 'initialize';
/** Where `Mcp-Name` comes from, by method (streamable-http "Standard Request Headers"; tasks.md "Routing Headers"). */
export const MCP_NAME_SOURCE: Readonly<Record<string, string>> = {
  'tools/call': 'name',
  'resources/read': 'uri',
  'prompts/get': 'name',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};
