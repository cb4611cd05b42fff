// Task store of the reference extension server: crypto-random ids, the owner each task is bound to, the
// status machine (every change through canTransition), ttlMs expiry, per-owner limits, and the input
// requests of a task (keys unique over the task's life, partial answers). Our own code; no SDK.
import { randomBytes, randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { IllegalTransitionError, RpcError, type JsonRpcError } from '../errors.ts';
import { canTransition, ErrorCode, isTerminal, type TaskStatus } from './protocol.ts';

export { IllegalTransitionError, RpcError, type JsonRpcError } from '../errors.ts';
export type JsonObject = Record<string, unknown>;
/** A server-to-client request carried in inputRequests (elicitation/create here). */
export type InputRequest = { method: string; params: JsonObject };

/** A limit of the store was hit (documented in README.md): a server condition, answered as -32603 with data.limit. */
export function limitError(limit: string, max: number, message: string): RpcError {
  return new RpcError(ErrorCode.InternalError, message, { limit, max });
}

export interface StoredTask {
  readonly taskId: string;
  readonly owner: string;
  readonly toolName: string;
  readonly createdAtMs: number;
  status: TaskStatus;
  statusMessage?: string;
  lastUpdatedAtMs: number;
  ttlMs: number | null;
  pollIntervalMs?: number;
  result?: JsonObject;
  error?: JsonRpcError;
  /** Input requests not yet answered, by key. */
  readonly outstanding: Map<string, InputRequest>;
  /** Every key ever issued for this task (a key is never issued twice). */
  readonly issuedKeys: Set<string>;
  /** Answers received, by key. */
  readonly answers: Map<string, JsonObject>;
  /** Stops the work (cancel, expiry, shutdown). */
  readonly abort: AbortController;
  /** Resolves the wait of the work for its outstanding input. */
  inputWaiter?: { resolve(): void; reject(e: Error): void };
  /** Requests of the current round not yet made outstanding (latitude input-requests-staggered). */
  staggered?: number;
  /** A superseded key → the key of the request that replaced it (latitude supersede-on-partial). */
  readonly superseded: Map<string, string>;
  /** Set by tasks/cancel (also when the cancellation takes effect later). */
  cancelRequested: boolean;
  /** The number of tasks/get answered for this task. */
  gets: number;
  lastGetMs?: number;
  expiryTimer?: NodeJS.Timeout;
}

export interface StoreOptions {
  /** ttlMs of new tasks (null: unlimited). */
  ttlMs: number | null;
  /** pollIntervalMs of new tasks (undefined: omitted). */
  pollIntervalMs: number | undefined;
  /** Non-terminal tasks per owner. */
  maxConcurrentTasks: number;
  /** Tasks of any status kept per owner; the oldest terminal one is dropped to make room. */
  maxRetained: number;
  /** Task ids: crypto-random (default) or a counter (fault sequential-task-ids). */
  sequentialIds?: boolean;
  /** What happens at createdAt + ttlMs: delete (default), fail first and delete one ttl later, or keep. */
  expiry?: 'delete' | 'fail-then-delete' | 'fail-any-then-delete' | 'keep';
}

/** Expired ids remembered for the "Task has expired" message (bounded). */
const EXPIRED_MEMORY = 10_000;

export class TaskStore extends EventEmitter<{ change: [StoredTask] }> {
  private readonly tasks = new Map<string, StoredTask>();
  private readonly expired = new Set<string>();
  private seq = 0;
  closed = false;

  constructor(readonly opts: StoreOptions) {
    super();
    this.setMaxListeners(0);
  }

  private newId(): string {
    if (this.opts.sequentialIds) return `task-${++this.seq}`;
    return randomUUID();
  }

  private ownedBy(owner: string): StoredTask[] {
    return [...this.tasks.values()].filter((t) => t.owner === owner);
  }

  /** Creates a task in `working`, enforcing the per-owner limits. It is retrievable when this returns. */
  create(owner: string, toolName: string, now = Date.now()): StoredTask {
    if (this.closed) throw new RpcError(ErrorCode.InternalError, 'Server is shutting down');
    const mine = this.ownedBy(owner);
    if (mine.filter((t) => !isTerminal(t.status)).length >= this.opts.maxConcurrentTasks) {
      throw limitError(
        'maxConcurrentTasks',
        this.opts.maxConcurrentTasks,
        `Task limit reached: at most ${this.opts.maxConcurrentTasks} unfinished tasks per requestor`,
      );
    }
    if (mine.length >= this.opts.maxRetained) {
      const victim = mine.find((t) => isTerminal(t.status));
      if (!victim) throw limitError('maxRetained', this.opts.maxRetained, `Task limit reached: at most ${this.opts.maxRetained} tasks per requestor`);
      this.delete(victim, false);
    }
    const task: StoredTask = {
      taskId: this.newId(),
      owner,
      toolName,
      createdAtMs: now,
      status: 'working',
      lastUpdatedAtMs: now,
      ttlMs: this.opts.ttlMs,
      ...(this.opts.pollIntervalMs !== undefined ? { pollIntervalMs: this.opts.pollIntervalMs } : {}),
      outstanding: new Map(),
      superseded: new Map(),
      issuedKeys: new Set(),
      answers: new Map(),
      abort: new AbortController(),
      cancelRequested: false,
      gets: 0,
    };
    this.tasks.set(task.taskId, task);
    this.scheduleExpiry(task);
    return task;
  }

  private scheduleExpiry(task: StoredTask): void {
    if (task.expiryTimer) clearTimeout(task.expiryTimer);
    task.expiryTimer = undefined;
    if (task.ttlMs === null || this.opts.expiry === 'keep') return;
    const due = task.createdAtMs + task.ttlMs - Date.now();
    task.expiryTimer = setTimeout(() => this.expire(task), Math.max(0, due));
    task.expiryTimer.unref();
  }

  /** ttlMs changed (it MAY change over the task's life): expiry follows. */
  setTtl(task: StoredTask, ttlMs: number | null): void {
    task.ttlMs = ttlMs;
    this.scheduleExpiry(task);
  }

  private expire(task: StoredTask): void {
    if (this.tasks.get(task.taskId) !== task) return;
    const failAny = this.opts.expiry === 'fail-any-then-delete' && task.status !== 'failed';
    if ((this.opts.expiry === 'fail-then-delete' && !isTerminal(task.status)) || failAny) {
      // "servers MAY mark a task as failed at any point after the TTL elapses, and subsequently delete it";
      // fail-any-then-delete: a task already terminal too (RULINGS.md#ext-ttl-before-expiry: after the TTL anything may happen).
      const error = { code: ErrorCode.InternalError, message: 'Task expired before it finished' };
      if (isTerminal(task.status)) {
        task.error = error;
        this.forceStatus(task, 'failed', 'Task expired: its ttlMs elapsed');
      } else this.finish(task, { error }, 'Task expired: its ttlMs elapsed');
      task.expiryTimer = setTimeout(() => this.delete(task, true), task.ttlMs ?? 0);
      task.expiryTimer.unref();
      return;
    }
    this.delete(task, true);
  }

  private delete(task: StoredTask, expired: boolean): void {
    if (task.expiryTimer) clearTimeout(task.expiryTimer);
    this.tasks.delete(task.taskId);
    task.abort.abort();
    task.inputWaiter?.reject(new Error('task deleted'));
    task.inputWaiter = undefined;
    if (expired) {
      this.expired.add(task.taskId);
      if (this.expired.size > EXPIRED_MEMORY) this.expired.delete(this.expired.values().next().value!);
    }
  }

  /** Removes a task now (latitude delete-on-cancel). */
  remove(task: StoredTask): void {
    this.delete(task, false);
  }

  /**
   * The task `taskId` as seen by `owner`: a task of another owner is reported exactly like an unknown one
   * (auth binding). `verb` words the message ("retrieve", "update", "cancel").
   */
  lookup(taskId: unknown, owner: string, verb: string): StoredTask {
    if (typeof taskId !== 'string' || taskId.length === 0)
      throw new RpcError(ErrorCode.InvalidParams, `Failed to ${verb} task: taskId must be a non-empty string`);
    const task = this.tasks.get(taskId);
    if (task && task.owner === owner) return task;
    if (this.expired.has(taskId) && !task) throw new RpcError(ErrorCode.InvalidParams, `Failed to ${verb} task: Task has expired`);
    throw new RpcError(ErrorCode.InvalidParams, `Failed to ${verb} task: Task not found`);
  }

  /** Any task by id regardless of owner (faults only). */
  peek(taskId: string): StoredTask | undefined {
    return this.tasks.get(taskId);
  }

  /** A status change through the table. */
  transition(task: StoredTask, to: TaskStatus, statusMessage?: string): void {
    if (!canTransition(task.status, to)) throw new IllegalTransitionError(task.status, to, task.taskId);
    this.forceStatus(task, to, statusMessage);
  }

  /** A status change that skips the table: only named faults call this directly. */
  forceStatus(task: StoredTask, to: TaskStatus, statusMessage?: string): void {
    const changed = task.status !== to || task.statusMessage !== statusMessage;
    task.status = to;
    if (statusMessage === undefined) delete task.statusMessage;
    else task.statusMessage = statusMessage;
    if (changed) {
      task.lastUpdatedAtMs = Math.max(Date.now(), task.lastUpdatedAtMs);
      this.emit('change', task);
    }
  }

  /** The outcome of the underlying request: completed with its result or failed with its JSON-RPC error. Ignored once terminal (sticky). */
  finish(task: StoredTask, outcome: { result: JsonObject } | { error: JsonRpcError }, statusMessage?: string): boolean {
    if (isTerminal(task.status)) return false;
    task.outstanding.clear();
    if ('result' in outcome) {
      task.result = outcome.result;
      this.transition(task, 'completed', statusMessage);
    } else {
      task.error = outcome.error;
      this.transition(task, 'failed', statusMessage ?? `Request failed: ${outcome.error.message}`);
    }
    return true;
  }

  /** Cancels a non-terminal task now: status cancelled, work stopped, pending input dropped. */
  cancelNow(task: StoredTask, statusMessage = 'The task was cancelled by request.'): void {
    if (isTerminal(task.status)) return;
    task.outstanding.clear();
    this.transition(task, 'cancelled', statusMessage);
    task.abort.abort();
    task.inputWaiter?.reject(new Error('task cancelled'));
    task.inputWaiter = undefined;
  }

  /** A key for a new input request of `task`: never issued before for this task. */
  newKey(task: StoredTask, label: string): string {
    for (;;) {
      const key = `${label}-${randomBytes(4).toString('hex')}`;
      if (!task.issuedKeys.has(key)) return key;
    }
  }

  /**
   * The work of `task` needs input: the requests become outstanding, the task input_required; resolves
   * once every one of them is answered (partial answers keep it input_required), rejects on cancel/expiry.
   */
  requestInput(task: StoredTask, requests: Record<string, InputRequest>, statusMessage: string, staggerMs = 0): Promise<void> {
    if (isTerminal(task.status) || task.abort.signal.aborted) return Promise.reject(new Error('task ended'));
    const entries = Object.entries(requests);
    for (const [key] of entries) task.issuedKeys.add(key);
    // staggerMs: each further request becomes outstanding staggerMs after the one before (latitude input-requests-staggered).
    const now = staggerMs > 0 ? entries.slice(0, 1) : entries;
    for (const [key, req] of now) task.outstanding.set(key, req);
    task.staggered = entries.length - now.length;
    entries.slice(now.length).forEach(([key, req], i) =>
      setTimeout(
        () => {
          if (isTerminal(task.status)) return;
          task.outstanding.set(key, req);
          task.staggered = Math.max(0, (task.staggered ?? 1) - 1);
          task.lastUpdatedAtMs = Math.max(Date.now(), task.lastUpdatedAtMs);
          this.emit('change', task);
        },
        staggerMs * (i + 1),
      ).unref(),
    );
    const waiting = new Promise<void>((resolve, reject) => (task.inputWaiter = { resolve, reject }));
    this.transition(task, 'input_required', statusMessage);
    return waiting;
  }

  /** The outstanding request under `key` is replaced by the same request under `newKey` (latitude supersede-on-partial). */
  supersede(task: StoredTask, key: string, newKey: string): void {
    const req = task.outstanding.get(key);
    if (!req) return;
    task.outstanding.delete(key);
    task.issuedKeys.add(newKey);
    task.outstanding.set(newKey, req);
    task.superseded.set(key, newKey);
    task.lastUpdatedAtMs = Math.max(Date.now(), task.lastUpdatedAtMs);
    this.emit('change', task);
  }

  /** The key a request was last issued under (through every supersession). */
  currentKey(task: StoredTask, key: string): string {
    let k = key;
    while (task.superseded.has(k)) k = task.superseded.get(k)!;
    return k;
  }

  /**
   * tasks/update: each response whose key is outstanding is taken; any other key (never issued, already
   * answered, superseded) is ignored. Returns the keys taken.
   */
  answer(task: StoredTask, responses: Record<string, JsonObject>): string[] {
    const taken: string[] = [];
    for (const [key, value] of Object.entries(responses)) {
      if (!task.outstanding.has(key)) continue;
      task.outstanding.delete(key);
      task.answers.set(key, value);
      taken.push(key);
    }
    if (taken.length && task.outstanding.size === 0 && !task.staggered && task.status === 'input_required') {
      this.transition(task, 'working');
      const w = task.inputWaiter;
      task.inputWaiter = undefined;
      w?.resolve();
    }
    return taken;
  }

  /** Stops every task (shutdown). */
  close(): void {
    this.closed = true;
    for (const t of this.tasks.values()) {
      if (t.expiryTimer) clearTimeout(t.expiryTimer);
      t.abort.abort();
      t.inputWaiter?.reject(new Error('server closed'));
    }
  }

  /** The owner's most recently created task (fault task-without-id-resolved). */
  latestOf(owner: string): StoredTask | undefined {
    return this.ownedBy(owner).reduce<StoredTask | undefined>((a, t) => (!a || t.createdAtMs >= a.createdAtMs ? t : a), undefined);
  }

  eachTask(fn: (t: StoredTask) => void): void {
    for (const t of this.tasks.values()) fn(t);
  }

  get size(): number {
    return this.tasks.size;
  }
}
