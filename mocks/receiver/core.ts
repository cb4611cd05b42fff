// What the parts of a reference-receiver session share: the receiver it belongs to (ReceiverCore), the
// per-request context, the reply shape, and the scenario hooks of client grading. The session itself is
// split by concern: connection.ts (transport, sending, ownership, teardown), dispatch.ts (JSON-RPC
// methods and errors), execution.ts (tools/call, task creation and the work), task-methods.ts
// (tasks/get, tasks/list, tasks/cancel and the Task on the wire), result-delivery.ts (tasks/result and
// the route of task-related messages). Every named fault acts in fault-switches.ts, nowhere else.
import type { FaultSet } from './faults.ts';
import type { FaultSwitches } from './fault-switches.ts';
import type { ReceiverSession } from './connection.ts';
import { RpcError, type TaskStore } from './store.ts';
import type { CallToolResult, ToolDef } from './tools.ts';

export const SERVER_NAME = 'mcp-tasks-reference-receiver';
export const SERVER_VERSION = '0.1.0';

/** The result tasks/result gives for a cancelled task (documented in RECEIVER.md). */
export const CANCELLED_STATUS_MESSAGE = 'The task was cancelled by request.';
export function cancelledResult(): CallToolResult {
  return { content: [{ type: 'text', text: `Task cancelled: ${CANCELLED_STATUS_MESSAGE}` }], isError: true };
}

/** What a session needs from the receiver. */
export interface ReceiverCore {
  readonly store: TaskStore;
  readonly faults: FaultSet;
  /** Where the active faults bend the receiver (fault-switches.ts). */
  readonly switches: FaultSwitches;
  readonly tools: ReadonlyMap<string, ToolDef>;
  readonly tasksCapability: boolean;
  readonly statusNotifications: boolean;
  readonly pageSize: number;
  readonly pollInterval: number;
  /** How many times each tool's work started (tests: "the tool must not run"). */
  readonly runs: Map<string, number>;
  /** Every open session (fault input-to-every-session). */
  readonly sessions: ReadonlySet<ReceiverSession>;
  /** Scenario hooks for client grading (optional; see ScenarioHooks). */
  readonly scenario?: ScenarioHooks;
  audit(event: string, fields: Record<string, unknown>): void;
  logError(text: string): void;
  sessionClosed(s: ReceiverSession): void;
}

export interface SessionIdentity {
  /** A bearer token that binds this connection's tasks (in-process/stdio use; HTTP reads the Authorization header). */
  authToken?: string;
  /** Fixed ownership key (overrides everything); for tests. */
  owner?: string;
  /** Human label for logs. */
  label?: string;
}

export interface SessionOptions {
  /** Answer transport parse errors with JSON-RPC errors (stdio: the transport reports bad lines via onerror). */
  answerTransportErrors?: boolean;
  /**
   * Streamable HTTP with JSON responses: an `application/json` answer carries only the response, so
   * messages that belong to a request (input requests, progress and status notifications) go on the
   * standalone GET SSE stream instead ("clients SHOULD expect messages to be delivered on any SSE
   * stream, including the HTTP GET stream", tasks.md). Requests wait in a queue until one is open;
   * notifications sent while none is open are lost (as on any closed stream).
   */
  relatedOnStandalone?: boolean;
}

// --- scenario hooks (client grading: mocks/receiver/scenarios.ts, suites/requestor/) -------------
// Everything here is off unless a scenario asks for it; the receiver's default behaviour is unchanged.

/** One recorded message or fact of a session: `in` = the requestor sent it, `out` = the receiver sent it. */
export interface TapEvent {
  /** The session's localId. */
  session: string;
  dir: 'in' | 'out' | 'event';
  message?: unknown;
  note?: string;
  /** Date.now() when recorded. */
  time: number;
}

export interface ScenarioHooks {
  /** Called with every message in both directions, and with session open/close (and HTTP GET) events. */
  tap?: (e: TapEvent) => void;
  /** Declare (and honour) `tasks.requests.tools.call` when the tasks capability is on. Default true; false: `task` on tools/call is ignored. */
  toolsCallTasks?: boolean;
  /** List `execution.taskSupport` even when task-augmented tools/call is not declared (tests "regardless of taskSupport"). */
  listTaskSupportAlways?: boolean;
  /** The first tasks/result for each non-terminal task answers -32603 (an interrupted result stream), before delivering input. */
  failFirstResult?: boolean;
  /** Deliver queued input requests on the standalone (HTTP GET) stream instead of the tasks/result stream, once the requestor opened one. */
  inputOnStandaloneStream?: boolean;
  /** A tools/call of a tool the receiver does not list is served by this tool (its behaviour and taskSupport): clients call the tools they were written for. */
  servesAnyToolAs?: string;
  /** On the first tools/call, probe a client that declares tasks.requests for sampling/elicitation as a task receiver (client-probe.ts). */
  probeClientReceiver?: boolean;
}
// --- end of scenario hooks -------------------------------------------------------------------

export type Params = Record<string, unknown>;
export type Msg = Record<string, any>;
export type RequestCtx = { id: string | number; owner: string; auth: string | undefined; progressToken: unknown; sessionLabel: string };
export const NO_REPLY = Symbol('no-reply');
export type Reply = { result: Record<string, unknown>; after?: () => void } | typeof NO_REPLY;

/** The error of the underlying request, returned by tasks/result as is (not a protocol error of tasks/result). */
export class UnderlyingRequestError extends RpcError {}

export function isObject(v: unknown): v is Params {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason ?? new Error('aborted'));
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason ?? new Error('aborted'));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    timer.unref?.();
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export function raceAbort<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason ?? new Error('aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason ?? new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
