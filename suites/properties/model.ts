// A model of an MCP Tasks receiver (spec 2025-11-25, tasks.md), stated from the spec, for the
// property-based tests. Two forms:
//
//  * ReceiverModel — for sequential command runs (state-machine property). Per task it keeps the set
//    of statuses the task may be in given everything observed so far ("narrowings", each naming the
//    requirement that makes it binding), and each method's postconditions: what tasks/get, tasks/result,
//    tasks/cancel and tasks/list must answer in each state, list/get consistency and the related-task
//    `_meta` rules.
//  * checkHistory (history.ts) — for concurrent operations (races property): a linearizability-lite
//    oracle over a history of requests with their send and receive times.
//
// Transitions come from the one table in schema/protocol.ts (TRANSITIONS / canTransition); nothing here
// restates it. Every violation names the catalog requirement ids (schema/requirements.json) it
// enforces. Legitimate freedom is allowed for: timing (a task may finish at any moment), TTL overrides
// (the granted ttl is the one that counts), deletion after the ttl (ttl-delete-after-expiry-may) and of
// cancelled tasks at any time (cancel-delete-may), and receivers that choose what tasks/result returns
// for a cancelled task (it must be the same every time).
import { short as shortText } from '../engine/text.ts';
import {
  canTransition,
  isTaskStatus,
  isTerminal,
  RELATED_TASK_META,
  TASK_STATUSES,
  TERMINAL_STATUSES,
  TRANSITIONS,
  type TaskStatus,
} from '../../schema/protocol.ts';
import { type ProfileRole } from '../engine/profile.ts';
import type { Response } from '../wire/peer.ts';
import { judgeFirstStatus } from '../arrange/arrange.ts';
import { isIso8601DateTime } from '../../schema/validate.ts';

// --- findings ------------------------------------------------------------------------------------

/** A MUST-level postcondition failed. Thrown from a command; fails the property. */
export class PropertyViolation extends Error {
  readonly requirements: string[];
  /** MUST → the check fails; SHOULD → it warns (e.g. JSON-RPC 2.0 error codes, which are not Tasks rules). */
  readonly level: 'MUST' | 'SHOULD';
  constructor(requirements: string[], message: string, level: 'MUST' | 'SHOULD' = 'MUST') {
    super(`[${[...new Set(requirements)].join(', ')}] ${message}`);
    this.name = 'PropertyViolation';
    this.requirements = [...new Set(requirements)];
    this.level = level;
  }
}

export function isPropertyViolation(e: unknown): e is PropertyViolation {
  return e instanceof Error && e.name === 'PropertyViolation' && Array.isArray((e as PropertyViolation).requirements);
}

/** A SHOULD / SHOULD NOT finding: reported as a warning, never fails the property. */
export interface Finding {
  requirements: string[];
  message: string;
}

/** Warning-level findings of a whole property run (deduplicated by message, bounded). */
export class Findings {
  readonly list: Finding[] = [];
  private readonly keys = new Set<string>();
  add(requirements: string[], message: string): void {
    const key = `${requirements.join(',')}|${message}`;
    if (this.keys.has(key) || this.list.length >= 20) return;
    this.keys.add(key);
    this.list.push({ requirements, message });
  }
}

// --- the status space --------------------------------------------------------------------------

/** Every status reachable from `from` along TRANSITIONS (including `from`). */
export function reachable(from: TaskStatus): Set<TaskStatus> {
  const out = new Set<TaskStatus>([from]);
  const queue: TaskStatus[] = [from];
  while (queue.length) {
    const s = queue.shift()!;
    for (const n of TRANSITIONS[s]) {
      if (!out.has(n)) {
        out.add(n);
        queue.push(n);
      }
    }
  }
  return out;
}

const TERMINAL = new Set<TaskStatus>(TERMINAL_STATUSES);

/** What an observation of `status` allows afterwards, with the requirements that make it binding. */
function afterSeeing(status: TaskStatus): { allowed: Set<TaskStatus>; requirements: string[] } {
  return { allowed: reachable(status), requirements: isTerminal(status) ? ['lifecycle-terminal-sticky', 'lifecycle-valid-paths'] : ['lifecycle-valid-paths'] };
}

/** A constraint on a task's status, from one observation or answer, and why it binds. */
export interface Narrowing {
  kind: 'seen' | 'cancelled' | 'terminal';
  allowed: ReadonlySet<TaskStatus>;
  requirements: string[];
  because: string;
}

export function hasRelatedTask(container: unknown): boolean {
  const meta = (container as { _meta?: unknown } | null | undefined)?._meta;
  return meta !== null && typeof meta === 'object' && RELATED_TASK_META in (meta as object);
}
export function relatedTaskId(container: unknown): unknown {
  return ((container as { _meta?: Record<string, { taskId?: unknown }> } | null | undefined)?._meta?.[RELATED_TASK_META] as { taskId?: unknown } | undefined)
    ?.taskId;
}

/** Values in counterexamples, cut shorter than in check messages. */
export function short(v: unknown, max = 160): string {
  return shortText(v, max);
}

export function describeAnswer(r: Response): string {
  return r.error ? `error ${r.error.code} ${short(r.error.message, 100)}` : `result ${short(r.result)}`;
}

/**
 * The fields every Task on the wire carries: createdAt / lastUpdatedAt as RFC 3339 date-times
 * (ttl-created-at, ttl-last-updated-at; RULINGS.md#timestamps-rfc3339) and, in tasks/get results, the actual ttl
 * (a non-negative integer, or null for unlimited: ttl-actual-in-get, RULINGS.md#ttl-null).
 */
export function checkTaskFields(task: any, via: string, inGet: boolean): void {
  for (const [key, req] of [
    ['createdAt', 'ttl-created-at'],
    ['lastUpdatedAt', 'ttl-last-updated-at'],
  ] as const) {
    const v = task?.[key];
    if (typeof v !== 'string' || !isIso8601DateTime(v)) {
      throw new PropertyViolation([req], `${via}: the task's ${key} is ${v === undefined ? 'missing' : short(v)}, not an ISO 8601 / RFC 3339 date-time`);
    }
  }
  if (inGet) {
    const ttl = task?.ttl;
    if (!(ttl === null || (typeof ttl === 'number' && Number.isInteger(ttl) && ttl >= 0))) {
      throw new PropertyViolation(
        ['ttl-actual-in-get'],
        `${via}: the task's ttl is ${ttl === undefined ? 'missing' : short(ttl)}; a tasks/get result must carry the actual ttl (milliseconds, or null for unlimited)`,
      );
    }
  }
}

// --- one task ----------------------------------------------------------------------------------

export class ModelTask {
  /** Statuses observed, in order, with where they were seen. */
  readonly seen: { status: TaskStatus; via: string }[] = [];
  narrowings: Narrowing[] = [];
  /** Our tasks/cancel answered `cancelled`. */
  cancelled = false;
  /** A -32602 for it was accepted as a (permitted) deletion. */
  gone = false;
  /**
   * A first `input_required` of a role not known to ask (RULINGS.md#new-task-working): judged by what follows,
   * as judgeInputRequiredByWhatFollows does for the fixed checks. Set at creation, cleared by an input request
   * for the task; "working" next with no input request asked is the violation.
   */
  unaskedInputRequired?: string;
  /** The first final answer of tasks/result (result or error), for the "same every time" rule. */
  finalAnswer?: { answer: { result?: unknown; error?: unknown }; via: string };

  constructor(
    /** Creation order in the run: #0, #1, … */
    readonly index: number,
    readonly taskId: string,
    readonly role: ProfileRole,
    /** Local time (ms) just before the creating request was sent: the task cannot be older. */
    readonly createdSentAt: number,
    /** The granted ttl (ms); null = unlimited; undefined = not reported (no retention judgement). */
    readonly ttl: number | null | undefined,
  ) {}

  get label(): string {
    return `#${this.index} (${this.role}, ${this.taskId.length > 40 ? this.taskId.slice(0, 40) + '…' : this.taskId})`;
  }

  /** The statuses the task may be in now. */
  get possible(): Set<TaskStatus> {
    let s = new Set<TaskStatus>(TASK_STATUSES);
    for (const n of this.narrowings) s = new Set([...s].filter((x) => n.allowed.has(x)));
    return s;
  }

  get last(): TaskStatus | undefined {
    return this.seen[this.seen.length - 1]?.status;
  }

  /** Every status it may be in is terminal. */
  knownTerminal(): boolean {
    const p = this.possible;
    return p.size > 0 && [...p].every((s) => isTerminal(s));
  }

  /** May the receiver have deleted it by local time `at`? (cancel-delete-may, ttl-delete-after-expiry-may) */
  mayBeGone(at: number, slackMs: number): boolean {
    if (this.cancelled || this.last === 'cancelled') return true;
    if (this.ttl === undefined) return true;
    if (this.ttl === null) return false;
    return at + slackMs >= this.createdSentAt + this.ttl;
  }

  history(): string {
    return this.seen.map((s) => `${s.status} (${s.via})`).join(' → ') || '(nothing yet)';
  }

  /**
   * Applies an observed status. Throws PropertyViolation when an earlier observation or answer rules
   * it out (naming the requirements of those), or when it is not a task status at all.
   */
  observe(status: unknown, via: string): void {
    if (!isTaskStatus(status)) {
      throw new PropertyViolation(
        ['lifecycle-valid-paths'],
        `${via} reports task ${this.label} in status ${short(status)}, which is not one of ${TASK_STATUSES.join(', ')}`,
      );
    }
    const broken = this.narrowings.filter((n) => !n.allowed.has(status));
    if (broken.length) {
      const last = this.last;
      const illegal = last !== undefined && !canTransition(last, status) ? ` (${last} → ${status} is not an allowed transition)` : '';
      throw new PropertyViolation(
        broken.flatMap((n) => n.requirements),
        `${via} reports task ${this.label} "${status}"${illegal}, but ${broken.map((n) => n.because).join('; and ')}. Observed so far: ${this.history()}`,
      );
    }
    if (this.unaskedInputRequired && status !== 'input_required') {
      const v = this.unaskedInputRequired;
      this.unaskedInputRequired = undefined;
      if (status === 'working')
        throw new PropertyViolation(
          ['lifecycle-begin-working'],
          `${v}; ${via} then shows it "working" with no input request sent for it (it never needed input). Observed so far: ${this.history()}`,
        );
    }
    this.seen.push({ status, via });
    const a = afterSeeing(status);
    this.narrowings = this.narrowings.filter((n) => n.kind !== 'seen');
    if (a.allowed.size < TASK_STATUSES.length) {
      this.narrowings.push({
        kind: 'seen',
        allowed: a.allowed,
        requirements: a.requirements,
        because: `it was "${status}" earlier (${via}) and a terminal status is final`,
      });
    }
  }

  /** Adds a constraint that holds from now on. */
  narrow(n: Narrowing): void {
    this.narrowings.push(n);
  }
}

// --- the receiver ------------------------------------------------------------------------------

export interface ModelCapabilities {
  list: boolean;
  cancel: boolean;
}

/** JSON-RPC "server error" range: a receiver at a limit (e.g. too many tasks). Not judged. */
export function isServerDefinedError(code: number): boolean {
  return code <= -32000 && code >= -32099;
}

/**
 * The requestor's view of one receiver during a sequential run. Commands do the I/O and hand each
 * answer to the matching `on…` method, which checks the postconditions (throwing PropertyViolation)
 * and updates the state.
 */
export class ReceiverModel {
  readonly tasks: ModelTask[] = [];
  /** Cursors the receiver issued (tasks/list nextCursor), for tampering. */
  readonly issuedCursors: string[] = [];
  /** Task ids an input request named (related-task _meta), possibly before their CreateTaskResult arrived. */
  readonly inputAskedFor = new Set<string>();
  /** Violations found outside a command (e.g. in an elicitation handler), thrown at the next step. */
  readonly deferred: PropertyViolation[] = [];

  constructor(
    readonly caps: ModelCapabilities,
    readonly findings: Findings,
    /** Clock slack when judging deletions against the ttl (ms). */
    readonly slackMs = 10,
  ) {}

  /** An input request named task `id`: a first input_required of it is explained (RULINGS.md#new-task-working). */
  onInputRequest(id: string): void {
    this.inputAskedFor.add(id);
    const t = this.byId(id);
    if (t) t.unaskedInputRequired = undefined;
  }

  taskAt(i: number): ModelTask {
    return this.tasks[i % this.tasks.length]!;
  }
  byId(id: unknown): ModelTask | undefined {
    return typeof id === 'string' ? this.tasks.find((t) => t.taskId === id) : undefined;
  }

  throwDeferred(): void {
    const v = this.deferred.shift();
    if (v) throw v;
  }

  /** CreateTaskResult of a task-augmented tools/call. Returns the new task, or undefined when the receiver declined at a limit. */
  onCreate(role: ProfileRole, toolName: string, sentAt: number, r: Response): ModelTask | undefined {
    if (r.error) {
      if (isServerDefinedError(r.error.code)) return undefined; // at capacity: allowed (resource-concurrency-limit)
      throw new PropertyViolation(
        ['create-returns-createtaskresult'],
        `task-augmented tools/call of "${toolName}" (role ${role}) answered ${describeAnswer(r)} instead of a CreateTaskResult`,
      );
    }
    const task = r.result?.task;
    if (!task || typeof task !== 'object') {
      throw new PropertyViolation(
        ['create-returns-createtaskresult'],
        `task-augmented tools/call of "${toolName}" answered ${describeAnswer(r)}: no CreateTaskResult.task`,
      );
    }
    if (typeof task.taskId !== 'string') throw new PropertyViolation(['id-string'], `CreateTaskResult.task.taskId is ${short(task.taskId)}, not a string`);
    const dup = this.byId(task.taskId);
    if (dup) throw new PropertyViolation(['id-unique'], `a new task got taskId ${short(task.taskId)}, the id of task ${dup.label}`);
    // RULINGS.md#new-task-working, as the fixed checks judge it (judgeFirstStatus).
    const first = judgeFirstStatus(task.status, [role]);
    const byWhatFollows = first.violation !== undefined && task.status === 'input_required';
    if (first.violation && !byWhatFollows)
      throw new PropertyViolation(['lifecycle-begin-working'], `the CreateTaskResult of a new "${toolName}" task (role ${role}): ${first.violation}`);
    checkTaskFields(task, `the CreateTaskResult of a new "${toolName}" task`, false);
    const ttl = typeof task.ttl === 'number' ? task.ttl : task.ttl === null ? null : undefined;
    const t = new ModelTask(this.tasks.length, task.taskId, role, sentAt, ttl);
    t.observe(task.status, 'CreateTaskResult');
    if (byWhatFollows && !this.inputAskedFor.has(task.taskId))
      t.unaskedInputRequired = `the CreateTaskResult of a new "${toolName}" task (role ${role}): ${first.violation}`;
    this.tasks.push(t);
    return t;
  }

  /**
   * A -32602 (or other error) for a task we created. Allowed only as a permitted deletion
   * (cancelled, or ttl elapsed). Returns normally when allowed.
   */
  onMissing(t: ModelTask, via: string, r: Response, receivedAt: number, requirementIfAlive: string[]): void {
    const err = r.error!;
    if (err.code === -32602 && t.mayBeGone(receivedAt, this.slackMs)) {
      t.gone = true;
      return;
    }
    const age = receivedAt - t.createdSentAt;
    if (err.code === -32602) {
      throw new PropertyViolation(
        ['ttl-delete-after-expiry-may', 'ttl-actual-in-get'],
        `${via} for task ${t.label} answered -32602 "${short(err.message, 80)}" at most ${age} ms after it was created, before its ttl of ${t.ttl} ms elapsed and without a successful cancel: ` +
          `a task may be deleted only after its ttl (ttl-delete-after-expiry-may), so the ttl the receiver reported is not the task's actual lifetime. Observed so far: ${t.history()}`,
      );
    }
    // Possibly deleted (ttl elapsed or cancelled): then the only right error is -32602 (errors-invalid-taskid-32602).
    if (t.mayBeGone(receivedAt, this.slackMs)) {
      throw new PropertyViolation(
        ['errors-invalid-taskid-32602'],
        `${via} for task ${t.label} (${age} ms old, ttl ${t.ttl} ms: it may have been deleted) answered ${describeAnswer(r)}; a task that is gone must be answered -32602. Observed so far: ${t.history()}`,
      );
    }
    throw new PropertyViolation(
      requirementIfAlive,
      `${via} for task ${t.label} (live, ${age} ms old) answered ${describeAnswer(r)}. Observed so far: ${t.history()}`,
    );
  }

  /** tasks/get answer. */
  onGet(t: ModelTask, r: Response, receivedAt: number, via = 'tasks/get'): void {
    if (r.error) return this.onMissing(t, via, r, receivedAt, ['ttl-actual-in-get']);
    const res = r.result;
    if (!res || typeof res !== 'object' || res.taskId !== t.taskId) {
      throw new PropertyViolation(
        ['related-task-taskid-source-of-truth'],
        `${via} for taskId ${short(t.taskId)} answered a task with taskId ${short(res?.taskId)}`,
      );
    }
    if (hasRelatedTask(res))
      this.findings.add(
        ['related-task-get-list-cancel-should-not'],
        `the tasks/get result carries _meta["${RELATED_TASK_META}"] (SHOULD NOT: the taskId is already in the result)`,
      );
    t.observe(res.status, via);
    checkTaskFields(res, `${via} for task ${t.label}`, true);
  }

  /**
   * tasks/result answer (not a timeout), followed by the tasks/get the command sent right after it.
   * An answer means the task was terminal when it was sent (result-blocks-nonterminal), and it is the
   * task's final result, the same every time (result-terminal-returns-final).
   */
  onResult(t: ModelTask, r: Response, receivedAt: number, followUp: Response, followUpAt: number): void {
    if (followUp.error) {
      // The task is gone now; the tasks/result answer may have been the same "not found".
      this.onMissing(t, 'tasks/get (after tasks/result answered)', followUp, followUpAt, ['ttl-actual-in-get']);
      return;
    }
    if (r.error?.code === -32602 && !t.finalAnswer && t.mayBeGone(receivedAt, this.slackMs)) {
      // Either the underlying request's own -32602 or a "not found" of a task that may have expired
      // in between: both answers are allowed; keep nothing.
    } else {
      t.narrow({
        kind: 'terminal',
        allowed: TERMINAL,
        requirements: ['result-blocks-nonterminal'],
        because: `tasks/result answered (${describeAnswer(r)}), so the task was already terminal then — a tasks/result for a non-terminal task must block until it is terminal`,
      });
      if (!r.error) {
        const rel = relatedTaskId(r.result);
        if (rel !== t.taskId) {
          throw new PropertyViolation(
            ['related-task-result-must'],
            `tasks/result for task ${t.label} answered without _meta["${RELATED_TASK_META}"].taskId = ${short(t.taskId)} (got ${hasRelatedTask(r.result) ? short(rel) : 'no related-task _meta'})`,
          );
        }
      }
      const answer = r.error ? { error: r.error } : { result: r.result };
      if (!t.finalAnswer) t.finalAnswer = { answer, via: 'tasks/result' };
      else if (JSON.stringify(t.finalAnswer.answer) !== JSON.stringify(answer)) {
        throw new PropertyViolation(
          ['result-terminal-returns-final', 'result-blocks-nonterminal', 'result-exact'],
          `tasks/result for task ${t.label} answered ${short(answer, 200)}, but earlier ${short(t.finalAnswer.answer, 200)}: a task has one final result, ` +
            `so one of the answers came before the task was terminal (tasks/result must block until then) or the final result changed`,
        );
      }
    }
    this.onGet(t, followUp, followUpAt, 'tasks/get (right after tasks/result answered)');
  }

  /** tasks/result did not answer within `waitedMs`: only a violation when the task is known to be terminal. */
  onResultTimeout(t: ModelTask, waitedMs: number): void {
    if (t.knownTerminal() && !t.gone) {
      throw new PropertyViolation(
        ['result-terminal-returns-final'],
        `tasks/result for task ${t.label}, known to be terminal (${t.history()}), did not answer within ${waitedMs} ms: for a terminal task it must return the final result`,
      );
    }
  }

  /**
   * tasks/cancel answer. `followUp` is the tasks/get the command sends after a -32602 rejection
   * (to tell "terminal" from "deleted").
   */
  onCancel(t: ModelTask, r: Response, receivedAt: number, followUp?: { r: Response; at: number }): void {
    const wasTerminal = t.knownTerminal();
    if (r.error) {
      if (r.error.code !== -32602) {
        throw new PropertyViolation(
          wasTerminal ? ['cancel-terminal-32602'] : ['cancel-transition-before-response'],
          wasTerminal
            ? `tasks/cancel of task ${t.label}, already terminal (${t.history()}), answered ${describeAnswer(r)} instead of -32602`
            : `tasks/cancel of task ${t.label} (${t.history()}) answered ${describeAnswer(r)}: a valid cancellation must move the task to cancelled and answer with it; a terminal one gets -32602`,
        );
      }
      if (!followUp) return;
      if (followUp.r.error) return this.onMissing(t, 'tasks/get (after tasks/cancel answered -32602)', followUp.r, followUp.at, ['ttl-actual-in-get']);
      t.narrow({
        kind: 'terminal',
        allowed: TERMINAL,
        requirements: ['cancel-terminal-32602'],
        because: `tasks/cancel was rejected with -32602 (${short(r.error.message, 80)}), which is the answer for a task already terminal — a non-terminal task must be cancelled instead`,
      });
      this.onGet(t, followUp.r, followUp.at, 'tasks/get (right after tasks/cancel answered -32602)');
      return;
    }
    const res = r.result;
    if (!res || typeof res !== 'object' || res.taskId !== t.taskId) {
      throw new PropertyViolation(['related-task-taskid-source-of-truth'], `tasks/cancel for taskId ${short(t.taskId)} answered ${short(res)}`);
    }
    if (hasRelatedTask(res))
      this.findings.add(['related-task-get-list-cancel-should-not'], `the tasks/cancel result carries _meta["${RELATED_TASK_META}"] (SHOULD NOT)`);
    if (wasTerminal) {
      throw new PropertyViolation(
        ['cancel-terminal-32602'],
        `tasks/cancel of task ${t.label}, already terminal (${t.history()}), succeeded (${short(res)}) instead of being rejected with -32602`,
      );
    }
    if (res.status !== 'cancelled') {
      throw new PropertyViolation(
        isTaskStatus(res.status) && isTerminal(res.status) ? ['cancel-terminal-32602'] : ['cancel-transition-before-response'],
        isTaskStatus(res.status) && isTerminal(res.status)
          ? `tasks/cancel of task ${t.label} succeeded but shows it "${res.status}": a task already terminal must be rejected with -32602`
          : `tasks/cancel of task ${t.label} answered with the task still ${short(res.status)}: it must be "cancelled" before the response is sent`,
      );
    }
    t.observe('cancelled', 'tasks/cancel');
    checkTaskFields(res, `tasks/cancel result for task ${t.label}`, false);
    t.cancelled = true;
    t.narrow({
      kind: 'cancelled',
      allowed: new Set(['cancelled']),
      requirements: ['cancel-sticky'],
      because: 'tasks/cancel answered "cancelled", and a cancelled task stays cancelled',
    });
  }

  /**
   * A complete tasks/list walk: `entries` from every page in order; `recheck` re-reads a task with
   * tasks/get (to allow for deletion races, RULINGS.md#delete-vs-sticky).
   */
  async onListWalk(entries: { entry: any; page: number }[], pages: number, recheck: (t: ModelTask) => Promise<{ r: Response; at: number }>): Promise<void> {
    const seenIds = new Map<string, number>();
    for (const { entry, page } of entries) {
      const id = entry?.taskId;
      if (typeof id !== 'string') throw new PropertyViolation(['list-get-implies-list'], `a tasks/list entry (page ${page + 1}) has taskId ${short(id)}`);
      if (seenIds.has(id)) {
        throw new PropertyViolation(
          ['list-next-cursor'],
          `task ${short(id)} appears twice in one tasks/list walk (pages ${seenIds.get(id)! + 1} and ${page + 1}): following nextCursor must yield each task once`,
        );
      }
      seenIds.set(id, page);
      const t = this.byId(id);
      if (t) {
        t.observe(entry.status, `tasks/list page ${page + 1}`);
        checkTaskFields(entry, `tasks/list page ${page + 1}, task ${t.label}`, false);
      }
    }
    for (const t of this.tasks) {
      if (t.gone || seenIds.has(t.taskId)) continue;
      const { r, at } = await recheck(t);
      if (r.error) {
        this.onMissing(t, 'tasks/get (task missing from tasks/list)', r, at, ['list-get-implies-list']);
        continue;
      }
      this.onGet(t, r, at, 'tasks/get (task missing from tasks/list)');
      throw new PropertyViolation(
        ['list-get-implies-list', 'list-next-cursor'],
        `task ${t.label} is retrievable via tasks/get (status "${r.result?.status}") but missing from a complete tasks/list walk (${pages} page(s), ${entries.length} task(s), the last page without nextCursor)`,
      );
    }
  }
}
