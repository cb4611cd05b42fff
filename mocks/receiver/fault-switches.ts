// Every place a named fault (faults.ts) bends the reference receiver, and nothing else. The session
// modules (connection, dispatch, execution, task-methods, result-delivery) are spec-exact; they ask
// these switches at the one point where a fault deviates, and with no fault active every switch leaves
// the exact behaviour as is. A new fault: its entry in faults.ts, its switch here, one call at the point
// where it acts. Each switch names the requirement it breaks (the fault's `requirement`).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { ErrorCode, isTerminal, RELATED_TASK_META, type Task, type TaskStatus } from '../../schema/protocol.ts';
import { abortableSleep, type Params, type Reply } from './core.ts';
import type { Abortable } from './abort.ts';
import type { FaultSet } from './faults.ts';
import type { JsonRpcErrorObject, StoredTask, TaskStore } from './store.ts';

/** The fault requestor-fast-poll polls the client's task this often (ms). */
export const REQUESTOR_FAST_POLL_MS = 50;

/** How long the fault input-stuck keeps a task input_required after its input arrived (the check allows 10 s). */
export const INPUT_STUCK_MS = 11_500;
/** How long after it ends a task lives under the fault deleted-early. */
export const DELETED_EARLY_MS = 1_000;

// --- state of named faults (per task, or per store = per receiver) ---------------------------
/** Status a fault reports instead of the real one (illegal-transition, completed-resumes); the store keeps the real one. */
const reportedAs = new WeakMap<StoredTask, { status: TaskStatus; atMs: number }>();
/** How many tasks/get have shown the task in a terminal status. */
const terminalGets = new WeakMap<StoredTask, number>();
/** The progressToken of a task and the last progress value sent (progress-after-terminal). */
const progressOf = new WeakMap<StoredTask, { token: unknown; last: number; total?: number }>();
/** The first progressToken of each connection (progress-shared-token). */
const firstToken = new WeakMap<object, unknown>();
/** The last task creation of a receiver (duplicate-ids). */
const lastCreation = new WeakMap<TaskStore, { owner: string; key: string; ms: number; taskId: string }>();
/** Generic messages by code (generic-error-messages). */
const GENERIC_MESSAGES: Record<number, string> = {
  [ErrorCode.ParseError]: 'Parse error',
  [ErrorCode.InvalidRequest]: 'Invalid request',
  [ErrorCode.MethodNotFound]: 'Method not found',
  [ErrorCode.InvalidParams]: 'Invalid params',
  [ErrorCode.InternalError]: 'Internal error',
};

export class FaultSwitches {
  constructor(private readonly f: FaultSet) {}

  // --- the receiver (index.ts, store.ts) --------------------------------------------------------
  /** security-crypto-ids (sequential-ids), resource-cleanup-expired (expired-retained), resource-max-ttl (ttl-uncapped), ttl-actual-in-get (ttl-timer-overflow). */
  storeOptions(): { sequentialIds: boolean; neverExpire: boolean; uncappedTtl: boolean; timerOverflow: boolean } {
    return {
      sequentialIds: this.f.has('sequential-ids'),
      neverExpire: this.f.has('expired-retained'),
      uncappedTtl: this.f.has('ttl-uncapped'),
      timerOverflow: this.f.has('ttl-timer-overflow'),
    };
  }

  /** sse-get-no-upgrade (get-sse): SSE answers over Streamable HTTP, tasks/get included. */
  sseAnswers(): boolean {
    return this.f.has('get-sse');
  }

  /** sse-disconnect-not-cancel (disconnect-cancels): a tasks/result whose HTTP response the client closed cancels its task. */
  disconnectCancels(): boolean {
    return this.f.has('disconnect-cancels');
  }

  // --- dispatch ------------------------------------------------------------------------------------
  /** errors-informative-message (generic-error-messages): protocol errors of tasks/* carry only their code's generic message. */
  protocolError(method: string, error: JsonRpcErrorObject, underlying: boolean): JsonRpcErrorObject {
    if (this.f.has('generic-error-messages') && method.startsWith('tasks/') && !underlying)
      return { code: error.code, message: GENERIC_MESSAGES[error.code] ?? 'Internal error' };
    return error;
  }

  /** support-undeclared-process-normally (task-on-undeclared-types): a request other than tools/call carrying `task` is refused. */
  refusesTaskOn(method: string, params: Params): boolean {
    return this.f.has('task-on-undeclared-types') && method !== 'tools/call' && method !== 'initialize' && params.task !== undefined;
  }

  /** support-undeclared-process-normally (undeclared-creates-task): tasks are created and served without the capability. */
  tasksWithoutCapability(): boolean {
    return this.f.has('undeclared-creates-task');
  }

  /** caps-declare (caps-not-objects): the tasks capability declared with booleans. */
  tasksCapability(declared: Params): Params {
    return this.f.has('caps-not-objects') ? { list: true, cancel: true, requests: { tools: { call: true } } } : declared;
  }

  // --- tools/call and task creation -------------------------------------------------------------
  /** tool-forbidden-should-32601 (forbidden-runs-as-task). */
  runsForbiddenAsTask(): boolean {
    return this.f.has('forbidden-runs-as-task');
  }

  /** create-returns-createtaskresult (ignores-task): an "optional" tool ignores `task`. */
  ignoresTask(): boolean {
    return this.f.has('ignores-task');
  }

  /** create-returns-createtaskresult (plain-call-creates-task): an "optional" tool called without `task` creates one. */
  plainCallCreatesTask(): boolean {
    return this.f.has('plain-call-creates-task');
  }

  /** tool-required-must-32601 (required-runs-without-task). */
  runsRequiredWithoutTask(): boolean {
    return this.f.has('required-runs-without-task');
  }

  /** lifecycle-begin-working (starts-completed). */
  initialStatus(exact: TaskStatus): TaskStatus {
    return this.f.has('starts-completed') ? 'completed' : exact;
  }

  /** A task id chosen by a fault (id-receiver-generated, id-unique, id-string); undefined: the store's UUID. */
  taskId(store: TaskStore, req: { toolName: string; args: Params; taskParam: Params; owner: string; progressToken: unknown }): string | undefined {
    const { taskParam } = req;
    if (this.f.has('adopts-requestor-id') && typeof taskParam.taskId === 'string' && taskParam.taskId.length > 0) return taskParam.taskId;
    if (this.f.has('duplicate-ids')) {
      const key = JSON.stringify([req.toolName, req.args, taskParam]); // the same request (its _meta aside)
      const now = Date.now();
      const last = lastCreation.get(store);
      if (last && last.owner === req.owner && last.key === key && last.ms === now) return last.taskId;
      const taskId = randomUUID();
      lastCreation.set(store, { owner: req.owner, key, ms: now, taskId });
      return taskId;
    }
    // 53 random bits: a safe integer, sent as a JSON number.
    if (this.f.has('numeric-task-id')) return String(Number(randomBytes(8).readBigUInt64BE() >> 11n) || 1);
    return undefined;
  }

  /**
   * create-asap (slow-create): the CreateTaskResult (its task as at creation) only once the work has ended,
   * or waits for input, which the requestor could never give without the task id. Undefined: answer at once.
   */
  holdCreateResult(t: StoredTask, work: Promise<void>): Promise<void> | undefined {
    if (!this.f.has('slow-create')) return undefined;
    let onChange = () => {};
    const blocked = new Promise<void>((resolve) => {
      onChange = () => {
        if (t.inputQueue.length > 0 || t.deleted) resolve();
      };
      t.listeners.add(onChange);
    });
    return Promise.race([work, blocked]).then(() => {
      t.listeners.delete(onChange);
    });
  }

  /**
   * lifecycle-begin-working (created-input-required): every new task's CreateTaskResult shows input_required,
   * whatever its tool (one that asks for no input included: RULINGS.md#new-task-working), while the task runs
   * on as working: as if it had moved input_required → working at once (lastUpdatedAt moves by 1 ms).
   * Undefined: the task as created.
   */
  createdTask(t: StoredTask, wire: () => Task): Task | undefined {
    if (!this.f.has('created-input-required')) return undefined;
    const shown = { ...wire(), status: 'input_required' as const };
    t.lastUpdatedAtMs += 1;
    return shown;
  }

  // --- the Task on the wire ----------------------------------------------------------------------
  /** id-string (numeric-task-id): the id as a JSON number; id-unique (ids-per-session): the requestor's n-th task has the same id in every session. */
  wireId(t: { taskId: string; owner: string }): string | number {
    if (this.f.has('ids-per-session')) return this.perSessionId(t);
    return this.f.has('numeric-task-id') ? Number(t.taskId) : t.taskId;
  }

  /** ids-per-session: random-looking ids drawn from a sequence that starts over for every requestor. */
  private readonly perSession = { wire: new Map<string, string>(), internal: new Map<string, string>(), count: new Map<string, number>() };
  private perSessionId(t: { taskId: string; owner: string }): string {
    const m = this.perSession;
    let w = m.wire.get(t.taskId);
    if (w === undefined) {
      const n = (m.count.get(t.owner) ?? 0) + 1;
      m.count.set(t.owner, n);
      const h = createHash('sha256').update(`ids-per-session ${n}`).digest('hex');
      w = `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
      m.wire.set(t.taskId, w);
      m.internal.set(`${t.owner} ${w}`, t.taskId);
    }
    return w;
  }

  /** The task id a tasks/* request names: related-task-receiver-ignore (meta-taskid-wins); numeric ids accepted back (numeric-task-id); ids-per-session. */
  requestedTaskId(params: Params, metaTaskId: unknown, owner: string): unknown {
    let taskId = params.taskId;
    if (this.f.has('ids-per-session') && typeof taskId === 'string') taskId = this.perSession.internal.get(`${owner} ${taskId}`) ?? taskId;
    if (this.f.has('numeric-task-id') && typeof taskId === 'number') taskId = String(taskId);
    if (this.f.has('meta-taskid-wins') && (typeof metaTaskId === 'string' || (typeof metaTaskId === 'number' && this.f.has('numeric-task-id'))))
      taskId = String(metaTaskId);
    return taskId;
  }

  /** errors-invalid-taskid-32602 (unknown-task-32603). */
  /** errors-internal-32603 (internal-error-custom-code): a taskId too long for the store to index fails inside, answered -32000. */
  internalFailure(taskId: unknown): JsonRpcErrorObject | undefined {
    if (!this.f.has('internal-error-custom-code') || typeof taskId !== 'string' || taskId.length <= 1024) return undefined;
    return { code: -32000, message: 'Server error: task index failure' };
  }

  unknownTaskCode(exact: number, taskId?: unknown): number {
    if (this.f.has('cancelled-gone-32603') && typeof taskId === 'string' && this.cancelledGone.has(taskId)) return ErrorCode.InternalError;
    return this.f.has('unknown-task-32603') ? ErrorCode.InternalError : exact;
  }

  /** errors-invalid-taskid-32602 (cancelled-gone-32603): a cancelled task is deleted at once (a MAY), and asking for it then answers -32603. */
  private readonly cancelledGone = new Set<string>();
  afterCancel(t: StoredTask, store: TaskStore): void {
    if (!this.f.has('cancelled-gone-32603')) return;
    this.cancelledGone.add(t.taskId);
    store.delete(t, 'evicted');
  }

  /** security-bind-context (no-isolation): every requestor sees every task (null: no owner filter). */
  ownerScope(owner: string): string | null {
    return this.f.has('no-isolation') ? null : owner;
  }

  /**
   * The Task as it travels: ttl-created-at (missing-created-at), ttl-last-updated-at (bad-timestamp,
   * last-updated-backwards, last-updated-frozen), id-string (numeric-task-id), and the status a fault reports instead of the
   * real one (illegal-transition, completed-resumes).
   */
  task(t: StoredTask, exact: Task): Task {
    const reported = reportedAs.get(t);
    const f = this.f;
    if (
      !reported &&
      !f.has('numeric-task-id') &&
      !f.has('ids-per-session') &&
      !f.has('missing-created-at') &&
      !f.has('last-updated-backwards') &&
      !f.has('bad-timestamp') &&
      !f.has('last-updated-frozen')
    )
      return exact;
    const out: Record<string, unknown> = { taskId: this.wireId(t), status: reported?.status ?? exact.status };
    if (reported) out.statusMessage = 'Resumed';
    else if (exact.statusMessage !== undefined) out.statusMessage = exact.statusMessage;
    if (!f.has('missing-created-at')) out.createdAt = exact.createdAt;
    let updated = Math.max(t.lastUpdatedAtMs, reported?.atMs ?? 0);
    if (f.has('last-updated-backwards')) updated = t.createdAtMs - 1000;
    if (f.has('last-updated-frozen')) updated = t.createdAtMs; // never moves
    out.lastUpdatedAt = f.has('bad-timestamp') ? new Date(updated).toString() : new Date(updated).toISOString();
    out.ttl = exact.ttl;
    out.pollInterval = exact.pollInterval;
    return out as unknown as Task;
  }

  /** related-task-get-list-cancel-should-not (related-task-on-get): tasks/get, list and cancel results carry related-task _meta. */
  relatedTaskOnTaskResults(): boolean {
    return this.f.has('related-task-on-get');
  }

  // --- tasks/get ---------------------------------------------------------------------------------
  /**
   * The tasks/get answer: ttl-actual-in-get (ttl-missing, ttl-counts-down), lifecycle-valid-paths (unknown-status), and the
   * faults that act once a tasks/get has shown the task terminal, after the answer went out:
   * lifecycle-valid-paths (illegal-transition: failed → working, seen by the next poll),
   * lifecycle-terminal-sticky (completed-resumes: completed → working after two polls showed completed),
   * progress-stop-after-terminal (progress-after-terminal: one more progress after the completed task was seen).
   */
  tasksGet(t: StoredTask, r: Record<string, unknown>, then: { statusChanged(): void; sendProgress(p: Params): void }): Reply {
    const f = this.f;
    if (f.has('ttl-missing')) delete r.ttl;
    // ttl-counts-down: the time left, not the duration from creation.
    if (f.has('ttl-counts-down') && typeof r.ttl === 'number') r.ttl = Math.max(0, r.ttl - (Date.now() - t.createdAtMs));
    if (f.has('unknown-status') && r.status === 'working') r.status = 'running';
    const shown = r.status as TaskStatus;
    if (!isTerminal(shown) || !isTerminal(t.status)) return { result: r };
    // The count of terminal gets is for the faults below only (the hot path of a correct receiver skips it).
    if (!f.has('illegal-transition') && !f.has('completed-resumes') && !f.has('progress-after-terminal')) return { result: r };
    const n = (terminalGets.get(t) ?? 0) + 1;
    terminalGets.set(t, n);
    const after: (() => void)[] = [];
    // The reported status changes now (this answer is already made), so the next poll sees it; its status
    // notification follows the answer.
    const flip = () => {
      reportedAs.set(t, { status: 'working', atMs: Date.now() });
      after.push(() => then.statusChanged());
    };
    if (f.has('illegal-transition') && shown === 'failed' && n === 1) flip();
    if (f.has('completed-resumes') && shown === 'completed' && n === 2) flip();
    const p = progressOf.get(t);
    if (f.has('progress-after-terminal') && shown === 'completed' && n === 1 && p) {
      after.push(() =>
        then.sendProgress({ progressToken: p.token, progress: p.last + 1, ...(p.total !== undefined ? { total: p.total + 1 } : {}), message: 'late progress' }),
      );
    }
    return after.length ? { result: r, after: () => after.forEach((a) => a()) } : { result: r };
  }

  // --- tasks/list ----------------------------------------------------------------------------------
  /** errors-invalid-cursor-32602 (bad-cursor-ignored): an invalid cursor reads as the first page. */
  ignoresBadCursor(): boolean {
    return this.f.has('bad-cursor-ignored');
  }

  /**
   * A page cut from the whole list (no-isolation: everyone's tasks; list-omits-task, breaking
   * list-get-implies-list: without the requestor's first task); undefined: the store's own paging.
   */
  listPage(store: TaskStore, owner: string | null, after: number, size: number): { tasks: StoredTask[]; more: boolean } | undefined {
    if (owner !== null && !this.f.has('list-omits-task')) return undefined;
    let all = store.list(owner);
    if (this.f.has('list-omits-task')) all = all.slice(1);
    const rest = all.filter((t) => t.seq > after);
    const tasks = rest.slice(0, size);
    return { tasks, more: rest.length > tasks.length };
  }

  /** list-next-cursor (no-next-cursor). */
  omitsNextCursor(): boolean {
    return this.f.has('no-next-cursor');
  }

  // --- tasks/cancel and the work after it --------------------------------------------------------
  /** cancel-terminal-32602 (cancel-terminal-ok): cancelling a terminal task succeeds. */
  cancelsTerminal(): boolean {
    return this.f.has('cancel-terminal-ok');
  }

  /** cancel-transition-before-response (cancel-after-response): the answer shows the task as it was; the cancel follows the response. */
  deferCancel(snapshot: () => Record<string, unknown>, cancel: () => void): Reply | undefined {
    if (!this.f.has('cancel-after-response')) return undefined;
    return { result: snapshot(), after: () => setImmediate(cancel) };
  }

  /** cancel-sticky (cancel-answer-only): the answer shows the task cancelled, but nothing is cancelled: it runs on and completes. */
  cancelAnswerOnly(snapshot: () => Record<string, unknown>, statusMessage: string): Reply | undefined {
    if (!this.f.has('cancel-answer-only')) return undefined;
    return { result: { ...snapshot(), status: 'cancelled', statusMessage } };
  }

  /** cancel-attempt-stop (cancel-keeps-running) and cancel-sticky (cancelled-resurrects): the work is not stopped by tasks/cancel. */
  workOutlivesCancel(): boolean {
    return this.f.has('cancelled-resurrects') || this.f.has('cancel-keeps-running');
  }

  /** cancel-sticky (cancelled-resurrects): the cancelled task completes when its work ends. */
  resurrectsCancelled(): boolean {
    return this.f.has('cancelled-resurrects');
  }

  // --- the work: progress, input, the end ---------------------------------------------------------
  /** cancel-attempt-stop (cancel-keeps-running): progress keeps coming after the cancel. */
  progressAfterCancel(t: StoredTask): boolean {
    return t.status === 'cancelled' && this.f.has('cancel-keeps-running');
  }

  /**
   * progress-same-token (progress-new-token; progress-shared-token: the first progressToken a connection gave
   * is used for the progress of all its tasks); remembers the last progress for progress-after-terminal.
   */
  progressToken(t: StoredTask, token: unknown, progress: number, total: number | undefined): unknown {
    if (this.f.has('progress-after-terminal')) progressOf.set(t, { token, last: progress, ...(total !== undefined ? { total } : {}) });
    if (this.f.has('progress-shared-token') && firstToken.has(t.origin as object)) return firstToken.get(t.origin as object);
    return this.f.has('progress-new-token') ? `${String(token)}-task-${t.taskId}` : token;
  }

  /** A task was created from a request carrying `token` (progress-shared-token keeps the connection's first). */
  taskCreated(t: StoredTask, token: unknown): void {
    if (this.f.has('progress-shared-token') && token !== undefined && !firstToken.has(t.origin as object)) firstToken.set(t.origin as object, token);
  }

  /** progress-increase (progress-decreasing): the progress values of a task count down. */
  progressValue(progress: number, total: number | undefined): number {
    return this.f.has('progress-decreasing') && total !== undefined ? total - progress + 1 : progress;
  }

  /** related-task-all-messages (progress-no-related-task). */
  dropsProgressRelatedTask(): boolean {
    return this.f.has('progress-no-related-task');
  }

  /** related-task-all-messages (log-wrong-related-task): notifications/message sent by a task name another task. */
  logRelatedTaskId(exact: string | number): string | number {
    return this.f.has('log-wrong-related-task') ? `${exact}-elsewhere` : exact;
  }

  /** input-required-related-task (input-no-related-task). */
  dropsInputRelatedTask(): boolean {
    return this.f.has('input-no-related-task');
  }

  /** input-required-move (no-input-required): the task stays working while its input request waits. */
  staysWorkingForInput(): boolean {
    return this.f.has('no-input-required');
  }

  /** input-required-resume (input-stuck): the task stays input_required long after the answer; undefined: resume at once. */
  afterInput(signal: Abortable): Promise<void> | undefined {
    return this.f.has('input-stuck') ? abortableSleep(INPUT_STUCK_MS, signal) : undefined;
  }

  /** exec-failed-status-message (no-status-message-on-failure). */
  failureStatusMessage(exact: string | undefined): string | undefined {
    return this.f.has('no-status-message-on-failure') ? undefined : exact;
  }

  /** ttl-actual-in-get (deleted-early): an ended task vanishes long before the ttl it reports. */
  afterEnd(t: StoredTask, store: TaskStore): void {
    if (this.f.has('deleted-early')) setTimeout(() => store.delete(t, 'evicted'), DELETED_EARLY_MS).unref?.();
  }

  /** input-required-related-task (input-to-every-session): the input request also goes to every other open session. */
  inputToEverySession(): boolean {
    return this.f.has('input-to-every-session');
  }

  /** notify-status-no-related-task (status-notification-related-task), lifecycle-valid-paths (status-notification-wrong-status). */
  statusNotification(params: Params, relatedMeta: Record<string, unknown>): Params {
    if (this.f.has('status-notification-wrong-status') && params.status === 'failed') params.status = 'completed';
    if (this.f.has('status-notification-related-task')) params._meta = relatedMeta;
    return params;
  }

  // --- tasks/result -------------------------------------------------------------------------------
  /** result-terminal-returns-final (result-returns-task): tasks/result answers with the Task. */
  resultIsTask(): boolean {
    return this.f.has('result-returns-task');
  }

  /** result-exact-error (result-error-as-result): the underlying JSON-RPC error comes back as a tool error result. */
  errorAsResult(error: JsonRpcErrorObject, relatedMeta: Record<string, unknown>): Record<string, unknown> | undefined {
    if (!this.f.has('result-error-as-result')) return undefined;
    return { content: [{ type: 'text', text: error.message }], isError: true, _meta: relatedMeta };
  }

  /** result-blocks-nonterminal (waiting-result-orphaned): a waiting tasks/result is dropped when its task is cancelled, fails or expires. */
  dropsWaitingResult(t: StoredTask, ended: boolean): boolean {
    return this.f.has('waiting-result-orphaned') && (t.deleted || (ended && t.status !== 'completed'));
  }

  /** result-blocks-nonterminal (input-result-orphaned): a waiting tasks/result that saw the task input_required is dropped when the task ends. */
  dropsResultAfterInput(sawInput: boolean, ended: boolean): boolean {
    return this.f.has('input-result-orphaned') && sawInput && ended;
  }

  /** result-exact-success (result-differs). */
  result(exact: Record<string, unknown>): Record<string, unknown> {
    if (!this.f.has('result-differs')) return exact;
    const content = Array.isArray(exact.content) ? exact.content : [];
    return { ...exact, content: [...content, { type: 'text', text: '(delivered via tasks/result)' }] };
  }

  /** related-task-result-must (result-no-related-task). */
  dropsResultRelatedTask(): boolean {
    return this.f.has('result-no-related-task');
  }

  /** result-terminal-returns-final (cancelled-result-hangs): tasks/result of a cancelled task is never answered. */
  resultHangs(t: StoredTask): boolean {
    return t.status === 'cancelled' && this.f.has('cancelled-result-hangs');
  }

  /** result-blocks-nonterminal (result-not-blocking): a "not ready" answer at once; undefined: block. */
  resultBeforeTerminal(t: StoredTask, relatedMeta: Record<string, unknown>): Reply | undefined {
    if (!this.f.has('result-not-blocking')) return undefined;
    return { result: { content: [{ type: 'text', text: `not ready: task is ${t.status}` }], _meta: relatedMeta } };
  }

  // --- the receiver as requestor toward its client (requestor.ts) ---------------------------------
  /** caps-requestor-only-declared (requestor-augments-undeclared): task-augment whatever the client declared. */
  augmentsUndeclared(): boolean {
    return this.f.has('requestor-augments-undeclared');
  }

  /** poll-until-terminal (requestor-stops-polling): the CreateTaskResult is taken for the end. */
  stopsPolling(): boolean {
    return this.f.has('requestor-stops-polling');
  }

  /** input-required-call-result (requestor-no-result-on-input): keep polling while input_required. */
  pollsThroughInput(): boolean {
    return this.f.has('requestor-no-result-on-input');
  }

  /** poll-respect-interval (requestor-fast-poll): the wait before the next tasks/get of a client task. */
  clientPollDelay(pollInterval: number): number {
    return this.f.has('requestor-fast-poll') ? REQUESTOR_FAST_POLL_MS : pollInterval;
  }

  /** related-task-requestor-omit-in-requests (requestor-related-task-in-requests): params of tasks/get and tasks/result to the client. */
  clientTaskParams(taskId: string): Params {
    return this.f.has('requestor-related-task-in-requests') ? { taskId, _meta: { [RELATED_TASK_META]: { taskId } } } : { taskId };
  }
}
