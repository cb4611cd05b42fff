// Task store of the reference receiver: ids, ownership, status transitions (through the one table in
// model.ts), TTL expiry with prompt cleanup, per-requestor limits, opaque list cursors.
import { abortWith, TaskAbort } from './abort.ts';
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { IllegalTransitionError, RpcError, type JsonRpcError } from '../errors.ts';
import { canTransition, ErrorCode, INITIAL_STATUS, isTerminal, type TaskStatus } from '../../schema/protocol.ts';

export { IllegalTransitionError, RpcError } from '../errors.ts';

/** Server error code (JSON-RPC implementation-defined range) for "limit reached". Documented in RECEIVER.md. */
export const LIMIT_ERROR_CODE = -32000;

export type JsonRpcErrorObject = JsonRpcError;

/** The final answer of the underlying request: a result or a JSON-RPC error. */
export type Outcome = { kind: 'result'; result: Record<string, unknown> } | { kind: 'error'; error: JsonRpcErrorObject };

/** An input request (e.g. elicitation/create) the task needs delivered to the requestor via tasks/result. */
export interface PendingInput {
  method: string;
  params: Record<string, unknown>;
  resolve(response: { result?: unknown; error?: JsonRpcErrorObject }): void;
  reject(err: Error): void;
  delivered: boolean;
}

export interface StoredTask {
  readonly taskId: string;
  readonly owner: string;
  readonly seq: number;
  readonly createdAtMs: number;
  readonly toolName: string;
  status: TaskStatus;
  statusMessage?: string;
  lastUpdatedAtMs: number;
  readonly ttl: number | null;
  readonly expiresAt: number | null;
  timer?: NodeJS.Timeout;
  outcome?: Outcome;
  /** Aborted on cancel, expiry or deletion: stops the work. */
  readonly abort: TaskAbort;
  /** Called on every change (status, outcome, queued input). */
  readonly listeners: Set<() => void>;
  readonly inputQueue: PendingInput[];
  /** Opaque tag of the creating connection (status notifications go there). */
  readonly origin: unknown;
  deleted: boolean;
}

export interface StoreOptions {
  /** Upper bound for a task's ttl in ms (requests above are capped). */
  maxTtl: number;
  /** ttl in ms when the request does not ask for one; null = unlimited (still capped by maxTtl when maxTtl is finite). */
  defaultTtl: number;
  /** Max non-terminal tasks per requestor. */
  maxConcurrentTasks: number;
  /** Max tasks (any status) retained per requestor; oldest terminal tasks are evicted first. */
  maxRetainedTasks: number;
  /** Predictable "1", "2", … ids (fault sequential-ids). */
  sequentialIds?: boolean;
  /** Called after each status change. */
  onStatusChange?: (t: StoredTask, from: TaskStatus) => void;
  /** Called when a task is deleted (expiry, eviction, session end). */
  onDelete?: (t: StoredTask, reason: 'expired' | 'evicted' | 'session-closed' | 'shutdown') => void;
  /** Where errors of background work (expiry timers) are reported. */
  onError?: (text: string) => void;
  /** Never delete expired tasks (fault expired-retained). */
  neverExpire?: boolean;
  /** Grant any requested ttl, ignoring maxTtl (fault ttl-uncapped). */
  uncappedTtl?: boolean;
  /** ttls up to 60 days, each armed on one timer that overflows beyond 2^31-1 ms (fault ttl-timer-overflow). */
  timerOverflow?: boolean;
  /** Delete expired tasks only in a sweep this often (ms), not at their ttl (latitude lazy-expiry). */
  lazySweepMs?: number;
  /** Cursors are the base64 of a position, decoded leniently (latitude stateless-cursors). */
  statelessCursors?: boolean;
  /** The error of a creation beyond maxConcurrentTasks (default LIMIT_ERROR_CODE, "Too many concurrent tasks …"; latitude task-cap-internal-error). */
  concurrencyError?: { code: number; message: string };
}

const EXPIRED_MEMORY = 10_000;
/** Abort reasons, one per deletion reason: a new Error per deleted task costs a stack capture each. */
const ABORT_REASONS = {
  expired: new Error('task expired'),
  evicted: new Error('task evicted'),
  'session-closed': new Error('task session-closed'),
  shutdown: new Error('task shutdown'),
} as const;
/** Longest delay setTimeout honours (2^31-1 ms); larger ones overflow and fire at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export class TaskStore {
  private readonly tasks = new Map<string, StoredTask>();
  private readonly byOwner = new Map<string, StoredTask[]>();
  /** Non-terminal tasks per owner (kept by create, transition and delete: the only places a status is set). */
  private readonly activeByOwner = new Map<string, number>();
  /** Ids of tasks deleted by expiry (bounded), so lookups can say "has expired". */
  private readonly expired = new Map<string, string>();
  private seq = 0;
  private readonly cursorKey = randomBytes(32);

  private sweeper?: NodeJS.Timeout;

  constructor(readonly opts: StoreOptions) {}

  /** Whether a task counts as expired now: at its ttl, or (lazy-expiry) once a sweep found it expired. */
  private expiredNow(t: StoredTask, now: number): boolean {
    return t.expiresAt !== null && now >= t.expiresAt && !this.opts.neverExpire && this.opts.lazySweepMs === undefined;
  }

  /** lazy-expiry: one sweep deletes every task past its ttl. */
  private sweep(): void {
    const now = Date.now();
    for (const t of [...this.tasks.values()]) if (t.expiresAt !== null && now >= t.expiresAt) this.delete(t, 'expired');
  }

  /** Effective ttl for a requested one: honoured up to maxTtl (ttl-override-may, resource-max-ttl). */
  effectiveTtl(requested: number | undefined): number {
    const want = requested === undefined ? this.opts.defaultTtl : requested;
    const cap = this.opts.timerOverflow ? Math.max(this.opts.maxTtl, 60 * 24 * 3600 * 1000) : this.opts.maxTtl;
    return this.opts.uncappedTtl ? Math.max(0, Math.floor(want)) : Math.min(Math.max(0, Math.floor(want)), cap);
  }

  /** Creates a task in `working` (lifecycle-begin-working), enforcing per-requestor limits. */
  create(args: {
    owner: string;
    requestedTtl?: number;
    toolName: string;
    origin: unknown;
    initialStatus?: TaskStatus;
    /** Only named faults choose the id. */ taskId?: string;
  }): StoredTask {
    const mine = this.byOwner.get(args.owner) ?? [];
    const active = this.activeByOwner.get(args.owner) ?? 0;
    if (active >= this.opts.maxConcurrentTasks) {
      // resource-concurrency-limit: a server error, not a protocol misuse by the requestor.
      const e = this.opts.concurrencyError;
      throw e
        ? new RpcError(e.code, e.message)
        : new RpcError(LIMIT_ERROR_CODE, `Too many concurrent tasks: limit is ${this.opts.maxConcurrentTasks} non-terminal tasks per requestor`);
    }
    while (mine.length >= this.opts.maxRetainedTasks) {
      const victim = mine.find((t) => isTerminal(t.status));
      if (!victim) throw new RpcError(LIMIT_ERROR_CODE, `Too many retained tasks: limit is ${this.opts.maxRetainedTasks} tasks per requestor`);
      this.delete(victim, 'evicted');
    }
    const now = Date.now();
    const ttl = this.effectiveTtl(args.requestedTtl);
    const seq = ++this.seq;
    const task: StoredTask = {
      // security-crypto-ids: 122 bits of crypto randomness (UUID v4) unless the fault asks otherwise.
      taskId: args.taskId ?? (this.opts.sequentialIds ? String(seq) : randomUUID()),
      owner: args.owner,
      seq,
      createdAtMs: now,
      toolName: args.toolName,
      status: args.initialStatus ?? INITIAL_STATUS,
      lastUpdatedAtMs: now,
      ttl,
      expiresAt: now + ttl,
      abort: new TaskAbort(),
      listeners: new Set(),
      inputQueue: [],
      origin: args.origin,
      deleted: false,
    };
    // resource-cleanup-expired: a timer per task (unref'd: never keeps the process alive).
    this.armExpiry(task);
    this.tasks.set(task.taskId, task);
    mine.push(task);
    this.byOwner.set(args.owner, mine);
    if (!isTerminal(task.status)) this.countActive(task.owner, 1);
    return task;
  }

  /**
   * Sets the task's expiry timer. setTimeout takes at most 2^31-1 ms (~24.8 days; larger delays fire after
   * 1 ms), so a longer ttl is waited for in steps: the timer re-arms until the expiry instant is near.
   */
  private armExpiry(task: StoredTask): void {
    if (task.deleted || task.expiresAt === null || this.opts.neverExpire) return;
    if (this.opts.lazySweepMs !== undefined) {
      this.sweeper ??= setInterval(() => this.sweep(), this.opts.lazySweepMs);
      this.sweeper.unref?.();
      return;
    }
    const remaining = Math.max(0, task.expiresAt - Date.now());
    // ttl-timer-overflow: the delay as is; setTimeout fires a delay beyond MAX_TIMER_MS after 1 ms.
    const step = this.opts.timerOverflow ? (remaining > MAX_TIMER_MS ? 1 : remaining) : Math.min(remaining, MAX_TIMER_MS);
    task.timer = setTimeout(() => {
      try {
        if (Date.now() >= task.expiresAt! || this.opts.timerOverflow)
          this.delete(task, 'expired'); // a fired timer is expiry, to an overflowing store
        else this.armExpiry(task);
      } catch (e) {
        this.opts.onError?.(`expiry of task ${task.taskId} failed: ${e instanceof Error ? e.stack : String(e)}`);
      }
    }, step);
    task.timer.unref?.();
  }

  /**
   * Finds a task for a requestor. Unknown, expired and other requestors' tasks all give -32602
   * (errors-invalid-taskid-32602; security-reject-foreign-context: other owners' tasks are indistinguishable from unknown ones).
   */
  lookup(owner: string | null, taskId: unknown, code: number = ErrorCode.InvalidParams): StoredTask {
    if (typeof taskId !== 'string' || taskId.length === 0) {
      throw new RpcError(code, 'Failed to retrieve task: taskId must be a non-empty string');
    }
    const t = this.tasks.get(taskId);
    if (t && !t.deleted && (owner === null || t.owner === owner)) {
      if (this.expiredNow(t, Date.now())) {
        this.delete(t, 'expired');
        throw new RpcError(code, 'Failed to retrieve task: Task has expired');
      }
      return t;
    }
    const expiredOwner = this.expired.get(taskId);
    if (expiredOwner !== undefined && (owner === null || expiredOwner === owner)) {
      throw new RpcError(code, 'Failed to retrieve task: Task has expired');
    }
    throw new RpcError(code, 'Failed to retrieve task: Task not found');
  }

  /** The live task of this id whoever owns it, without a lookup's side effects (undefined: none). */
  peek(taskId: unknown): StoredTask | undefined {
    const t = typeof taskId === 'string' ? this.tasks.get(taskId) : undefined;
    return t && !t.deleted ? t : undefined;
  }

  /** The requestor's live tasks in creation order (owner null = everyone's). */
  list(owner: string | null): StoredTask[] {
    const now = Date.now();
    const all = owner === null ? [...this.tasks.values()] : [...(this.byOwner.get(owner) ?? [])];
    const live: StoredTask[] = [];
    for (const t of all) {
      if (this.expiredNow(t, now)) this.delete(t, 'expired');
      else if (!t.deleted) live.push(t);
    }
    return live.sort((a, b) => a.seq - b.seq);
  }

  /**
   * Moves a task to `to`, only along the table in model.ts (lifecycle-valid-paths, lifecycle-terminal-sticky).
   * Staying in the same status is a no-op (lastUpdatedAt unchanged). `unchecked` exists only for named faults.
   * Returns true when the status changed.
   */
  transition(t: StoredTask, to: TaskStatus, statusMessage?: string, opts: { unchecked?: boolean } = {}): boolean {
    if (t.deleted) return false;
    const from = t.status;
    if (from === to) {
      if (statusMessage !== undefined && statusMessage !== t.statusMessage) {
        t.statusMessage = statusMessage;
        this.fire(t);
      }
      return false;
    }
    if (!opts.unchecked && !canTransition(from, to)) throw new IllegalTransitionError(from, to, t.taskId);
    t.status = to;
    if (isTerminal(from) !== isTerminal(to)) this.countActive(t.owner, isTerminal(to) ? -1 : 1);
    if (statusMessage !== undefined) t.statusMessage = statusMessage;
    else delete t.statusMessage;
    t.lastUpdatedAtMs = Math.max(Date.now(), t.lastUpdatedAtMs);
    this.opts.onStatusChange?.(t, from);
    this.fire(t);
    return true;
  }

  /** Records the final answer of the underlying request (first one wins) and wakes waiters. */
  settle(t: StoredTask, outcome: Outcome): void {
    if (t.outcome) return;
    t.outcome = outcome;
    this.fire(t);
  }

  fire(t: StoredTask): void {
    for (const l of [...t.listeners]) {
      try {
        l();
      } catch {
        /* a listener's failure is its own */
      }
    }
  }

  delete(t: StoredTask, reason: 'expired' | 'evicted' | 'session-closed' | 'shutdown'): void {
    if (t.deleted) return;
    t.deleted = true;
    if (t.timer) clearTimeout(t.timer);
    if (!isTerminal(t.status)) this.countActive(t.owner, -1);
    abortWith(t.abort, ABORT_REASONS[reason]);
    // Two tasks share an id only under a fault (duplicate-ids, adopts-requestor-id): keep the other's entry.
    if (this.tasks.get(t.taskId) === t) this.tasks.delete(t.taskId);
    const mine = this.byOwner.get(t.owner);
    if (mine) {
      const i = mine.indexOf(t);
      if (i === 0)
        mine.shift(); // the oldest (expiry, eviction): O(1), where splice(0, 1) moves every element
      else if (i > 0) mine.splice(i, 1);
      if (mine.length === 0) this.byOwner.delete(t.owner);
    }
    if (reason === 'expired') {
      this.expired.set(t.taskId, t.owner);
      if (this.expired.size > EXPIRED_MEMORY) this.expired.delete(this.expired.keys().next().value!);
    }
    for (const p of t.inputQueue.splice(0)) p.reject(new Error(`task ${reason}`));
    this.opts.onDelete?.(t, reason);
    this.fire(t);
  }

  private countActive(owner: string, delta: number): void {
    const n = (this.activeByOwner.get(owner) ?? 0) + delta;
    if (n > 0) this.activeByOwner.set(owner, n);
    else this.activeByOwner.delete(owner);
  }

  /**
   * One tasks/list page: the owner's live tasks created after position `after` (a cursor's seq), at most
   * `size`, and whether live ones remain beyond. byOwner keeps each owner's tasks in creation order
   * (appended on create, never reordered), so this is a binary search plus the page: O(log n + size),
   * where list() + filter is O(n log n) per page and a full walk O(n² / size).
   */
  page(owner: string, after: number, size: number): { tasks: StoredTask[]; more: boolean } {
    const mine = this.byOwner.get(owner) ?? [];
    let lo = 0;
    let hi = mine.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (mine[mid]!.seq <= after) lo = mid + 1;
      else hi = mid;
    }
    const now = Date.now();
    const gone: StoredTask[] = [];
    const tasks: StoredTask[] = [];
    let more = false;
    for (let i = lo; i < mine.length; i++) {
      const t = mine[i]!;
      if (this.expiredNow(t, now)) gone.push(t);
      else if (t.deleted) continue;
      else if (tasks.length < size) tasks.push(t);
      else {
        more = true;
        break;
      }
    }
    for (const t of gone) this.delete(t, 'expired');
    return { tasks, more };
  }

  /** Deletes every task of an owner (session end for session-bound requestors). */
  deleteOwner(owner: string, reason: 'session-closed'): void {
    for (const t of [...(this.byOwner.get(owner) ?? [])]) this.delete(t, reason);
  }

  clear(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
    for (const t of [...this.byOwner.values()].flat()) this.delete(t, 'shutdown');
  }

  get size(): number {
    return this.tasks.size;
  }

  // --- opaque cursors (list-paginate): "<seq>.<hmac(owner|seq)>", base64url ---------------
  encodeCursor(owner: string | null, afterSeq: number): string {
    if (this.opts.statelessCursors) return Buffer.from(String(afterSeq)).toString('base64');
    const payload = Buffer.from(String(afterSeq)).toString('base64url');
    return `${payload}.${this.mac(owner, afterSeq)}`;
  }

  /** Returns the position encoded in a cursor, or throws -32602 (errors-invalid-cursor-32602). */
  decodeCursor(owner: string | null, cursor: unknown): number {
    const bad = () => new RpcError(ErrorCode.InvalidParams, 'Invalid cursor: not a cursor issued by this receiver for this requestor');
    if (typeof cursor !== 'string' || cursor.length > 200) throw bad();
    if (this.opts.statelessCursors) {
      // Lenient, as many stateless servers are: Node's base64 decoder skips what it cannot read.
      const n = Number.parseInt(Buffer.from(cursor, 'base64').toString('utf8'), 10);
      if (!Number.isSafeInteger(n) || n < 0) throw bad();
      return n;
    }
    const [payload, mac, extra] = cursor.split('.');
    if (!payload || !mac || extra !== undefined) throw bad();
    const text = Buffer.from(payload, 'base64url').toString('utf8');
    if (!/^\d{1,15}$/.test(text)) throw bad();
    const seq = Number(text);
    const want = Buffer.from(this.mac(owner, seq));
    const got = Buffer.from(mac);
    if (want.length !== got.length || !timingSafeEqual(want, got)) throw bad();
    return seq;
  }

  private mac(owner: string | null, seq: number): string {
    return createHmac('sha256', this.cursorKey)
      .update(`${owner ?? '*'}|${seq}`)
      .digest('base64url')
      .slice(0, 22);
  }
}
