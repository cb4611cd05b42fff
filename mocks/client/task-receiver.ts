// A client's task receiver for task-augmented sampling/createMessage and elicitation/create, on the
// reference receiver's store (mocks/receiver/store.ts: ids, ttl, transitions along the table of
// schema/protocol.ts, opaque cursors). Used by the reference client (scenario task-receiver) and by
// the suite's own client when it grades a server as requestor (suites/requestor/server-requestor.ts).
//
// It answers on a raw JSON-RPC Peer (suites/wire/peer.ts): a task-augmented request of a declared
// type creates a task in `working` and answers CreateTaskResult at once; tasks/get, tasks/result
// (blocks until terminal; the underlying answer with related-task _meta, or its JSON-RPC error),
// tasks/list, tasks/cancel. A request type it did not declare is processed normally, `task` ignored
// (support-undeclared-process-normally). Every Task carries `pollIntervalMs`.
import { ErrorCode, isTerminal, RELATED_TASK_META } from '../../schema/protocol.ts';
import type { JsonRpcError, Message, Peer } from '../../suites/wire/peer.ts';
import { RpcError, TaskStore, type Outcome, type StoredTask } from '../receiver/store.ts';

export type Answer = { result?: unknown; error?: JsonRpcError };

export const RECEIVABLE = ['sampling/createMessage', 'elicitation/create'] as const;
export type ReceivableMethod = (typeof RECEIVABLE)[number];

/** What the work of one request may do besides waiting. */
export interface WorkContext {
  /** Aborted on tasks/cancel, expiry or close. */
  signal: AbortSignal;
  /** The task, when the request runs as one. */
  task?: StoredTask;
  /**
   * The answer needs the user: as a task, it moves to input_required (input-required-move) until the
   * requestor calls tasks/result (input-required-call-result: the user is asked when the requestor
   * attends to the task) or `maxWaitMs` passes, then back to working. Plain: resolves at once.
   */
  awaitUser(maxWaitMs: number): Promise<void>;
}

export interface ClientTaskReceiverOptions {
  /** Request types declared in capabilities.tasks.requests (others: `task` is ignored). */
  declared: readonly ReceivableMethod[];
  pollIntervalMs: number;
  /** The underlying request's work: its result, or an RpcError for a JSON-RPC error. */
  work(method: ReceivableMethod, params: Record<string, any>, ctx: WorkContext): Promise<Record<string, unknown>>;
  pageSize?: number;
  log?: (line: string) => void;
  /** Faulty modes of the reference client as receiver (mocks/client/faults.ts, `receiver-*`). */
  faults?: ReadonlySet<string>;
  /**
   * Wait up to this long for a task's work before writing its CreateTaskResult, which then shows the status
   * reached (RULINGS.md#new-task-working: work that ends at once may end first). Absent: answer at once.
   */
  answerAfterWorkMs?: number;
}

const OWNER = 'requestor';
const CANCELLED_ERROR = { code: -32000, message: 'Task cancelled: The task was cancelled by request.' };

export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The client capabilities for the declared request types (plus sampling / elicitation themselves). */
export function receiverCapabilities(declared: readonly ReceivableMethod[]): Record<string, unknown> {
  const requests: Record<string, unknown> = {};
  if (declared.includes('sampling/createMessage')) requests.sampling = { createMessage: {} };
  if (declared.includes('elicitation/create')) requests.elicitation = { create: {} };
  return {
    sampling: {},
    elicitation: { form: {} },
    ...(declared.length ? { tasks: { list: {}, cancel: {}, requests } } : {}),
  };
}

export class ClientTaskReceiver {
  readonly store = new TaskStore({ maxTtl: 3_600_000, defaultTtl: 300_000, maxConcurrentTasks: 100, maxRetainedTasks: 1000 });
  /** Tasks whose result the requestor asked for (wakes awaitUser). */
  private readonly resultAsked = new WeakSet<StoredTask>();
  private readonly remove: () => void;

  constructor(
    peer: Peer,
    private readonly opts: ClientTaskReceiverOptions,
  ) {
    this.remove = peer.onRequest(async (req) => {
      try {
        return await this.handle(req);
      } catch (e) {
        if (e instanceof RpcError) return { error: e.toJSON() };
        throw e;
      }
    });
  }

  get capabilities(): Record<string, unknown> {
    return receiverCapabilities(this.opts.declared);
  }

  close(): void {
    this.remove();
    this.store.clear();
  }

  private handle(req: Message): Promise<Answer | undefined> | Answer | undefined {
    const p = (req.params ?? {}) as Record<string, any>;
    // Fault receiver-undeclared-tasks: runs tasks although it declares no tasks capability.
    const tasksOn = this.opts.declared.length > 0 || this.opts.faults?.has('receiver-undeclared-tasks') === true;
    switch (req.method) {
      case 'sampling/createMessage':
      case 'elicitation/create':
        return this.request(req.method, p);
      case 'tasks/get':
        return tasksOn ? { result: this.get(this.lookup(p)) } : undefined;
      case 'tasks/result':
        return tasksOn ? this.result(this.lookup(p)) : undefined;
      case 'tasks/list':
        return tasksOn ? { result: this.list(p) } : undefined;
      case 'tasks/cancel':
        return tasksOn ? { result: this.cancel(this.lookup(p)) } : undefined;
      default:
        return undefined;
    }
  }

  private async request(method: ReceivableMethod, p: Record<string, any>): Promise<Answer> {
    const f = this.opts.faults;
    const declared = this.opts.declared.includes(method);
    if (p.task !== undefined && declared && f?.has('receiver-rejects-task'))
      return { error: { code: ErrorCode.MethodNotFound, message: `Method not found: ${method}` } };
    if (p.task !== undefined && !declared && f?.has('receiver-undeclared-rejects'))
      return { error: { code: ErrorCode.InvalidRequest, message: `Invalid request: task augmentation is not supported for ${method}` } };
    // support-undeclared-process-normally: `task` on an undeclared type is ignored (create-returns-createtaskresult for declared ones).
    const undeclaredTask = f?.has('receiver-undeclared-creates-task') === true || f?.has('receiver-undeclared-tasks') === true;
    const asTask = p.task !== undefined && (declared ? !f?.has('receiver-ignores-task') : undeclaredTask);
    if (!asTask) {
      try {
        const signal = new AbortController().signal;
        return { result: await this.opts.work(method, p, { signal, awaitUser: async () => undefined }) };
      } catch (e) {
        if (e instanceof RpcError) return { error: e.toJSON() };
        throw e;
      }
    }
    if (typeof p.task !== 'object' || p.task === null || Array.isArray(p.task))
      throw new RpcError(ErrorCode.InvalidParams, 'Invalid params: "task" must be an object');
    const ttl = p.task.ttl;
    if (ttl !== undefined && (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl < 0))
      throw new RpcError(ErrorCode.InvalidParams, 'Invalid params: "task.ttl" must be a non-negative number');
    // lifecycle-begin-working; ids from the store (security-crypto-ids)
    const t = this.store.create({ owner: OWNER, requestedTtl: ttl, toolName: method, origin: this });
    // create-asap, lifecycle-begin-working: the CreateTaskResult shows the task as created, before the work moves it
    // (with answerAfterWorkMs, as the work left it: RULINGS.md#new-task-working).
    let created = { task: this.wire(t) };
    const ctx: WorkContext = { signal: t.abort.signal, task: t, awaitUser: (maxWaitMs) => this.awaitUser(t, maxWaitMs) };
    const done = this.opts.work(method, p, ctx).then(
      (result) => this.finish(t, { kind: 'result', result }),
      (e) => {
        if (t.abort.signal.aborted || t.deleted) return;
        const error =
          e instanceof RpcError ? e.toJSON() : { code: ErrorCode.InternalError, message: `Internal error: ${e instanceof Error ? e.message : String(e)}` };
        this.finish(t, { kind: 'error', error });
      },
    );
    if (this.opts.answerAfterWorkMs) {
      await Promise.race([done, new Promise((r) => setTimeout(r, this.opts.answerAfterWorkMs))]);
      created = { task: this.wire(t) };
    }
    if (f?.has('receiver-starts-input-required')) created.task.status = 'input_required';
    if (f?.has('receiver-numeric-id')) created.task.taskId = t.seq;
    return { result: created };
  }

  private async awaitUser(t: StoredTask, maxWaitMs: number): Promise<void> {
    if (t.deleted || isTerminal(t.status)) return;
    this.store.transition(t, 'input_required', 'Waiting for the user');
    let wake!: () => void;
    const asked = new Promise<void>((r) => (wake = r));
    const check = () => {
      if (this.resultAsked.has(t) || t.deleted || isTerminal(t.status)) wake();
    };
    t.listeners.add(check);
    check();
    try {
      await Promise.race([asked, abortableSleep(maxWaitMs, t.abort.signal)]);
    } finally {
      t.listeners.delete(check);
    }
    if (!t.deleted && t.status === 'input_required') this.store.transition(t, 'working');
  }

  private finish(t: StoredTask, outcome: Outcome): void {
    if (t.deleted || isTerminal(t.status)) return;
    this.store.settle(t, outcome);
    this.store.transition(
      t,
      outcome.kind === 'result' ? 'completed' : 'failed',
      outcome.kind === 'error' ? `Request failed: ${outcome.error.message}` : undefined,
    );
  }

  private lookup(p: Record<string, any>): StoredTask {
    return this.store.lookup(OWNER, p.taskId);
  }

  /** tasks/get shows completed ones (fault receiver-resumes). */
  private readonly shownCompleted = new WeakSet<StoredTask>();

  private get(t: StoredTask): Record<string, unknown> {
    const w = this.wire(t);
    if (this.opts.faults?.has('receiver-resumes') && t.status === 'completed') {
      if (this.shownCompleted.has(t)) w.status = 'working';
      this.shownCompleted.add(t);
    }
    return w;
  }

  private wire(t: StoredTask): Record<string, unknown> {
    return {
      taskId: t.taskId,
      status: t.status,
      ...(t.statusMessage !== undefined ? { statusMessage: t.statusMessage } : {}),
      ...(this.opts.faults?.has('receiver-no-created-at') ? {} : { createdAt: new Date(t.createdAtMs).toISOString() }),
      lastUpdatedAt: new Date(t.lastUpdatedAtMs).toISOString(),
      ttl: t.ttl,
      pollInterval: this.opts.pollIntervalMs,
    };
  }

  /** Blocks until terminal (result-blocks-nonterminal); the underlying answer with related-task _meta, or its JSON-RPC error. */
  private result(t: StoredTask): Promise<Answer> {
    this.resultAsked.add(t);
    this.store.fire(t);
    return new Promise((resolve) => {
      const check = () => {
        if (t.deleted) {
          t.listeners.delete(check);
          resolve({ error: { code: ErrorCode.InvalidParams, message: 'Failed to retrieve task: Task has expired' } });
          return;
        }
        if (!t.outcome || !isTerminal(t.status)) return;
        t.listeners.delete(check);
        const o = t.outcome;
        if (o.kind === 'error') resolve({ error: o.error });
        else if (this.opts.faults?.has('receiver-result-no-related-task')) resolve({ result: o.result });
        else resolve({ result: { ...o.result, _meta: { ...((o.result._meta as object) ?? {}), [RELATED_TASK_META]: { taskId: t.taskId } } } });
      };
      t.listeners.add(check);
      check();
    });
  }

  private list(p: Record<string, any>): Record<string, unknown> {
    const all = this.store.list(OWNER);
    const after = p.cursor === undefined ? 0 : this.store.decodeCursor(OWNER, p.cursor);
    const rest = all.filter((t) => t.seq > after);
    const page = rest.slice(0, this.opts.pageSize ?? 10);
    const out: Record<string, unknown> = { tasks: page.map((t) => this.wire(t)) };
    if (rest.length > page.length) out.nextCursor = this.store.encodeCursor(OWNER, page[page.length - 1]!.seq);
    return out;
  }

  private cancel(t: StoredTask): Record<string, unknown> {
    if (isTerminal(t.status)) throw new RpcError(ErrorCode.InvalidParams, `Cannot cancel task: already in terminal status '${t.status}'`);
    this.store.settle(t, { kind: 'error', error: CANCELLED_ERROR });
    this.store.transition(t, 'cancelled', 'The task was cancelled by request.');
    t.abort.abort(new Error('task cancelled'));
    this.opts.log?.(`task ${t.taskId} cancelled`);
    return this.wire(t);
  }
}
