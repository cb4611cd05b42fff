// The model of the Tasks extension's server side for the property runs of 2026-07-28: per task, what has been
// observed and what may still be seen, each rule naming the requirement that makes it binding. It allows what
// the texts allow: a task may finish at any moment, a cancel is eventually consistent and may end otherwise
// (2026-cancel-may-stay-nonterminal, 2026-cancel-may-end-otherwise), a partial answer may be taken or not, a
// cancelled task may be deleted, and after createdAt + ttlMs anything may happen (RULINGS.md#ext-ttl-before-expiry).
import { isObj, short } from '../../engine/text.ts';
import { instantOf } from '../../judge/timestamps.ts';
import {
  ErrorCode,
  Field,
  isTaskStatus,
  isTerminal,
  TIMESTAMP_READING,
  ResultType,
  TRANSITIONS,
  type TaskStatus,
} from '../../../schema/2026-07-28/protocol.ts';

/** A broken rule: its requirement ids and what was seen. */
export class ModelViolation extends Error {
  constructor(
    readonly requirements: readonly string[],
    message: string,
  ) {
    super(`[${requirements.join(', ')}] ${message}`);
    this.name = 'ModelViolation';
  }
}

/** The requirement ids the model judges (what a property run reports). */
export const MODEL_REQUIREMENTS = [
  '2026-result-type-task',
  '2026-get-by-status',
  '2026-get-input-required',
  '2026-get-completed-result',
  '2026-get-failed-error',
  '2026-get-result-type-complete',
  '2026-input-keys-unique',
  '2026-input-key-no-two-requests',
  '2026-input-key-no-reuse-after-response',
  '2026-update-ack-empty',
  '2026-cancel-ack-empty',
  '2026-errors-get-unknown-32602',
  '2026-security-ids-entropy',
] as const;

/** Members an acknowledgement may carry (RULINGS.md#ext-empty-ack). */
const ACK_MEMBERS = new Set([Field.resultType, '_meta']);

export interface TaskState {
  readonly taskId: string;
  readonly role: string;
  /** Statuses observed, in the order the observations were made. */
  readonly statuses: TaskStatus[];
  /** createdAt + ttlMs (epoch ms) as last seen; undefined: unlimited. */
  expiresAt?: number;
  /** tasks/cancel was sent (the task may be deleted from then on). */
  cancelRequested: boolean;
  /** Request object (method + params, JSON) per inputRequests key over the task's life. */
  readonly keys: Map<string, string>;
  /** Keys we answered (tasks/update acknowledged while the key was listed). */
  readonly answered: Set<string>;
  /** Keys listed on the previous observation. */
  listed: Set<string>;
  /** Keys that were listed and then not. */
  readonly vanished: Set<string>;
  /** The task answered -32602 (deleted) once. */
  gone: boolean;
}

/** The terminal status a task was observed in, if any. */
export function terminalOf(t: TaskState): TaskStatus | undefined {
  return t.statuses.find((s) => isTerminal(s));
}

/** Is `to` reachable from `from` through the transition table (itself included)? */
export function reachable(from: TaskStatus, to: TaskStatus): boolean {
  if (from === to) return true;
  const seen = new Set<TaskStatus>([from]);
  const queue: TaskStatus[] = [from];
  while (queue.length) {
    for (const n of TRANSITIONS[queue.shift()!]) {
      if (n === to) return true;
      if (!seen.has(n)) {
        seen.add(n);
        queue.push(n);
      }
    }
  }
  return false;
}

export class ExtensionModel {
  readonly tasks = new Map<string, TaskState>();
  readonly notes: string[] = [];

  /** A tools/call answer that is a task: a CreateTaskResult. Returns the new task's state. */
  created(role: string, result: unknown, now = Date.now()): TaskState {
    if (!isObj(result) || result[Field.resultType] !== ResultType.Task || typeof result[Field.taskId] !== 'string')
      throw new ModelViolation(
        ['2026-result-type-task'],
        `a task answer to tools/call of ${role} is not a CreateTaskResult with resultType "task" (${short(result)})`,
      );
    const id = result[Field.taskId] as string;
    if (this.tasks.has(id)) throw new ModelViolation(['2026-security-ids-entropy'], `task id ${id} was issued twice`);
    const t: TaskState = {
      taskId: id,
      role,
      statuses: [],
      cancelRequested: false,
      keys: new Map(),
      answered: new Set(),
      listed: new Set(),
      vanished: new Set(),
      gone: false,
    };
    this.tasks.set(id, t);
    this.expiry(t, result, now);
    if (isTaskStatus(result[Field.status])) t.statuses.push(result[Field.status]);
    return t;
  }

  private expiry(t: TaskState, task: Record<string, any>, now: number): void {
    const created = instantOf(task[Field.createdAt], TIMESTAMP_READING);
    const ttl = task[Field.ttlMs];
    if (ttl === null) t.expiresAt = undefined;
    else if (typeof ttl === 'number') t.expiresAt = (Number.isNaN(created) ? now : created) + ttl;
  }

  /** Past its ttl (with a margin for clocks and transit): anything may happen from then on. */
  expired(t: TaskState, now = Date.now()): boolean {
    return t.expiresAt !== undefined && now > t.expiresAt - 250;
  }

  /**
   * A tasks/get answer. `after` is the status of the latest observation whose answer arrived before this
   * request was sent (the only order that binds under concurrency); sequential runs pass the last one seen.
   */
  observedGet(t: TaskState, response: { result?: any; error?: { code: number; message: string } }, after: TaskStatus | undefined, now = Date.now()): void {
    if (response.error) {
      if (response.error.code === ErrorCode.InvalidParams && (t.cancelRequested || this.expired(t, now))) {
        t.gone = true;
        return;
      }
      if (this.expired(t, now)) return;
      throw new ModelViolation(
        ['2026-get-by-status'],
        `tasks/get of task ${t.taskId} (${t.role}, never cancelled, before its ttl) answered ${response.error.code} ${response.error.message}`,
      );
    }
    const r = response.result;
    if (t.gone && !this.expired(t, now)) this.notes.push(`task ${t.taskId} answered again after a -32602`);
    if (!isObj(r) || r[Field.resultType] !== ResultType.Complete)
      throw new ModelViolation(['2026-get-result-type-complete'], `tasks/get of task ${t.taskId} has resultType ${short(r?.[Field.resultType])}`);
    const st = r[Field.status];
    if (!isTaskStatus(st) || r[Field.taskId] !== t.taskId)
      throw new ModelViolation(['2026-get-by-status'], `tasks/get of task ${t.taskId} answered ${short(r, 200)}`);
    const term = terminalOf(t);
    if (term && st !== term && !this.expired(t, now))
      throw new ModelViolation(['2026-get-by-status'], `task ${t.taskId} was ${term}, then tasks/get showed "${st}" (terminal statuses are final)`);
    if (after && !reachable(after, st) && !this.expired(t, now))
      throw new ModelViolation(['2026-get-by-status'], `task ${t.taskId} showed "${after}", then "${st}": not a path of the transition table`);
    if (st === 'input_required' && !isObj(r[Field.inputRequests]))
      throw new ModelViolation(['2026-get-input-required'], `input_required task ${t.taskId} has no inputRequests`);
    if (st === 'completed' && !isObj(r[Field.result])) throw new ModelViolation(['2026-get-completed-result'], `completed task ${t.taskId} has no result`);
    if (st === 'failed' && !(isObj(r[Field.error]) && Number.isInteger(r[Field.error].code)))
      throw new ModelViolation(['2026-get-failed-error'], `failed task ${t.taskId} has no JSON-RPC error`);
    this.keysSeen(t, r);
    this.expiry(t, r, now);
    t.statuses.push(st);
  }

  private keysSeen(t: TaskState, r: Record<string, any>): void {
    const reqs: Record<string, any> = isObj(r[Field.inputRequests]) ? r[Field.inputRequests] : {};
    const now = new Set(Object.keys(reqs));
    for (const k of t.listed) if (!now.has(k)) t.vanished.add(k);
    for (const [k, req] of Object.entries(reqs)) {
      const json = JSON.stringify({ method: req?.method, params: req?.params });
      const before = t.keys.get(k);
      if (before !== undefined && before !== json)
        throw new ModelViolation(['2026-input-key-no-two-requests', '2026-input-keys-unique'], `task ${t.taskId}: key ${k} named ${before}, now ${json}`);
      if (t.vanished.has(k) && t.answered.has(k))
        throw new ModelViolation(
          ['2026-input-key-no-reuse-after-response', '2026-input-keys-unique'],
          `task ${t.taskId}: answered key ${k} listed again after it was gone`,
        );
      t.keys.set(k, json);
    }
    t.listed = now;
  }

  /** A tasks/update or tasks/cancel acknowledgement (an error is allowed: the ack rule applies on success). */
  observedAck(t: TaskState, method: 'tasks/update' | 'tasks/cancel', response: { result?: any; error?: unknown }, answeredKeys: readonly string[] = []): void {
    if (response.error) return;
    const extra = isObj(response.result) ? Object.keys(response.result).filter((k) => !ACK_MEMBERS.has(k)) : ['(not an object)'];
    if (extra.length)
      throw new ModelViolation(
        [method === 'tasks/update' ? '2026-update-ack-empty' : '2026-cancel-ack-empty'],
        `${method} of task ${t.taskId} acknowledged with ${extra.join(', ')}`,
      );
    if (method === 'tasks/cancel') t.cancelRequested = true;
    for (const k of answeredKeys) if (t.listed.has(k)) t.answered.add(k);
  }

  /** A tasks/get of an id no task has: -32602 (2026-errors-get-unknown-32602). */
  observedUnknown(what: string, response: { result?: unknown; error?: { code: number; message: string } }): void {
    if (!response.error || response.error.code !== ErrorCode.InvalidParams)
      throw new ModelViolation(
        ['2026-errors-get-unknown-32602'],
        `tasks/get of ${what} answered ${response.error ? `${response.error.code} ${response.error.message}` : `a result ${short(response.result)}`}, not -32602`,
      );
  }
}
