// The ports of a reference-receiver session: what a session needs from the receiver (ReceiverCore), what
// the method modules use of a connection (SessionPort, implemented by connection.ts), the dispatcher a
// connection is handed, and the scenario hooks of client grading. Types only, so that the modules stand
// in one direction: connection.ts (transport, sending, ownership, teardown) is handed dispatch.ts
// (JSON-RPC methods and errors) → execution.ts (tools/call, task creation and the work) and
// task-methods.ts (tasks/get, tasks/list, tasks/cancel) → result-delivery.ts (tasks/result and the route
// of task-related messages) → task-view.ts (the Task on the wire). Every named fault acts in
// fault-switches.ts, nowhere else.
import type { FaultSet } from './faults.ts';
import type { FaultSwitches } from './fault-switches.ts';
import type { LatitudeSwitches } from './latitude-switches.ts';
import type { JsonRpcErrorObject, TaskStore } from './store.ts';
import type { ToolDef } from './tools.ts';
import type { Params, Reply, RequestCtx } from './core.ts';

/** A response of the requestor to a request the receiver sent. */
export type PeerResponse = { result?: unknown; error?: JsonRpcErrorObject };

/** What the method modules use of a connection (connection.ts). */
export interface SessionPort {
  readonly core: ReceiverCore;
  readonly localId: string;
  /** The session part of the ownership key: the HTTP session id, else this connection. */
  readonly sessionKey: string;
  readonly initialized: boolean;
  readonly closed: boolean;
  clientCapabilities: Params;
  /** Plain (non-task) requests under way, by JSON id: notifications/cancelled aborts them. */
  readonly inflight: Map<string, AbortController>;
  /** Open tasks/result requests: each is released (unanswered) when the connection closes. */
  readonly waitingResults: Set<() => void>;
  /** The requestor has a standalone GET SSE stream open (HTTP). */
  readonly standaloneStreamOpen: boolean;
  /** Scenario hook: whether task-augmented tools/call is declared (with the tasks capability). */
  readonly toolsCallTasks: boolean;
  /** The longest the peer took from one of our responses to its next message (ms): its latency as this session sees it. */
  readonly peerReactionMs: number;
  /** Scenario hook: records into the tap, if any. */
  tap(dir: TapEvent['dir'], message?: unknown, note?: string): void;
  notify(method: string, params: Params, relatedRequestId?: string | number): Promise<void>;
  /** Sends a request to the peer; resolves with its response (result or error). */
  request(method: string, params: Params, relatedRequestId?: string | number): { sent: Promise<boolean>; response: Promise<PeerResponse> };
  /** Runs background work (timers, post-response steps) so that an error is logged, never thrown. */
  guard(what: string, fn: () => void): void;
}

/** The answer to one request (dispatch.ts): its result (and work to do once it is sent), its error, or none at all. */
export type Dispatcher = (s: SessionPort, method: string, params: unknown, ctx: RequestCtx) => Promise<Reply | { error: JsonRpcErrorObject }>;

/** What a session needs from the receiver. */
export interface ReceiverCore {
  readonly store: TaskStore;
  readonly faults: FaultSet;
  /** Where the active faults bend the receiver (fault-switches.ts). */
  readonly switches: FaultSwitches;
  /** Where the active latitudes use the freedoms the spec leaves (latitude-switches.ts). */
  readonly latitude: LatitudeSwitches;
  readonly tools: ReadonlyMap<string, ToolDef>;
  readonly tasksCapability: boolean;
  readonly statusNotifications: boolean;
  readonly pageSize: number;
  readonly pollInterval: number;
  /** How many times each tool's work started (tests: "the tool must not run"). */
  readonly runs: Map<string, number>;
  /** Every open session (fault input-to-every-session). */
  readonly sessions: ReadonlySet<SessionPort>;
  /** Scenario hooks for client grading (optional; see ScenarioHooks). */
  readonly scenario?: ScenarioHooks;
  audit(event: string, fields: Record<string, unknown>): void;
  logError(text: string): void;
  sessionClosed(s: SessionPort): void;
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
  /**
   * The pollInterval (ms) of the task in the CreateTaskResult, longer than the one tasks/get shows: a requestor's
   * first poll counts from the CreateTaskResult, and a long first interval keeps a poll sent at once far below it
   * however slow the machine makes the client (poll-respect-interval).
   */
  createdPollInterval?: number;
}
// --- end of scenario hooks -------------------------------------------------------------------
