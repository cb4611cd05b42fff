// The MCP Tasks state machine and protocol constants (spec 2025-11-25, tasks.md), stated once.
// Shared by the reference receiver, the receiver checks and the property model.
import { SPEC_REVISION } from './spec.ts';
import { taskStateMachine } from './state-machine.ts';
import type { TimestampReading } from './timestamp.ts';

/** How createdAt / lastUpdatedAt are read: RFC 3339 with a zone (RULINGS.md#timestamps-rfc3339). */
export const TIMESTAMP_READING = 'rfc3339' satisfies TimestampReading;

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

export const TASK_STATUSES: readonly TaskStatus[] = ['working', 'input_required', 'completed', 'failed', 'cancelled'];

/** Statuses a task may never leave (tasks.md "Task Status Lifecycle"). */
export const TERMINAL_STATUSES: readonly TaskStatus[] = ['completed', 'failed', 'cancelled'];

/** The one transition table: from → allowed next statuses (lifecycle-valid-paths, lifecycle-terminal-sticky). */
export const TRANSITIONS: Readonly<Record<TaskStatus, readonly TaskStatus[]>> = {
  working: ['input_required', 'completed', 'failed', 'cancelled'],
  input_required: ['working', 'completed', 'failed', 'cancelled'],
  completed: [],
  failed: [],
  cancelled: [],
};

/** Tasks begin in this status (lifecycle-begin-working). */
export const INITIAL_STATUS: TaskStatus = 'working';

/** The state machine of this revision (schema/state-machine.ts), built from TRANSITIONS. */
export const TASK_MACHINE = taskStateMachine(TRANSITIONS, INITIAL_STATUS);

export const isTaskStatus = TASK_MACHINE.isStatus;
export const isTerminal = TASK_MACHINE.isTerminal;
export const canTransition = TASK_MACHINE.canTransition;
export const firstIllegalStep = TASK_MACHINE.firstIllegalStep;

/** The protocolVersion our peers speak: the judged revision. */
export const PROTOCOL_VERSION = SPEC_REVISION;

/** `_meta` key associating messages with a task. */
export const RELATED_TASK_META = 'io.modelcontextprotocol/related-task';
export const MODEL_IMMEDIATE_RESPONSE_META = 'io.modelcontextprotocol/model-immediate-response';

/** JSON-RPC error codes used by the Tasks page. */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
} as const;

export const TASK_METHODS = ['tasks/get', 'tasks/result', 'tasks/list', 'tasks/cancel'] as const;
export type TaskMethod = (typeof TASK_METHODS)[number];

/** Request types that may be task-augmented, with their capability path under `capabilities.tasks.requests`. */
export const AUGMENTABLE_REQUESTS = {
  'tools/call': ['tools', 'call'],
  'sampling/createMessage': ['sampling', 'createMessage'],
  'elicitation/create': ['elicitation', 'create'],
} as const;

export type TaskSupport = 'required' | 'optional' | 'forbidden';

/** The task object as it travels (schema `Task`; `ttl` nullable per upstream erratum 357adac4). */
export interface Task {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttl: number | null;
  pollInterval?: number;
}
