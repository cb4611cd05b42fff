// Arranging what a check needs, apart from judging it: one way to create a task, reach a status, call a
// role and clean up. A precondition that does not hold ends the check as not exercised (NotExercised),
// with what happened and the id of the check that judges that behaviour; never as a violation of the
// check's own requirement.
import { randomUUID } from 'node:crypto';
import { hasPath, type CheckContext } from '../engine/check.ts';
import { WireTimeoutError, type JsonRpcError, type Message, type Response, type Scope } from '../wire/peer.ts';
import { isTaskStatus, isTerminal, type TaskStatus } from '../../schema/protocol.ts';
import type { ProfileRole } from '../engine/profile.ts';
import { timeLeft } from './budget.ts';
import { CODES, delay, observe, pollDelay, seqText, type ObserveOptions } from './poll.ts';
import { backoffMs } from '../judge/pacing.ts';
import { creationErrorKind, isLimitError, readLimit } from '../judge/error-codes.ts';
import { isObj, short } from '../engine/text.ts';

/** ttl asked for by the checks' tasks: short, so that a target keeps nothing of ours for long. */
export const TTL_MS = 60_000;

/** The check that judges whether a task-augmented request creates a task (create-returns-createtaskresult). */
export const CREATION_JUDGED_BY = 'creation.create-task-result';

export interface CreatedTask {
  taskId: string;
  response: Response;
  /** The task object of the CreateTaskResult. */
  task: any;
}

export interface TaskRequestOptions {
  peer?: Scope;
  /** The `task` field as sent (default `{ ttl: TTL_MS }`); `ttl` overrides its ttl. */
  task?: Record<string, unknown>;
  ttl?: number;
  /** `_meta` of the request. */
  meta?: Record<string, unknown>;
  timeoutMs?: number;
}

/**
 * The task-augmented request for a role, answered as is (no verdict): a tools/call of the role's tool, or
 * for a client target the request of TargetInfo.taskRequest (sampling/createMessage, elicitation/create).
 */
export function requestTask(ctx: CheckContext, role: ProfileRole, opts: TaskRequestOptions = {}): Promise<Response> {
  const tool = ctx.tool(role);
  const task: Record<string, unknown> = { ...(opts.task ?? { ttl: TTL_MS }) };
  if (opts.ttl !== undefined) task.ttl = opts.ttl;
  const custom = ctx.info.taskRequest?.(role, task);
  const params: Record<string, unknown> = custom ? { ...custom.params } : { name: tool.name, arguments: tool.arguments ?? {}, task };
  // Every task-augmented tools/call carries a progressToken of its own, so that any progress the target
  // sends is judged wherever it appears (progress.every-notification).
  if (!custom) params._meta = { progressToken: `conformance-${randomUUID()}` };
  if (opts.meta) params._meta = { ...((params._meta as object) ?? {}), ...opts.meta };
  return (opts.peer ?? ctx.peer).request(custom?.method ?? 'tools/call', params, opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {});
}

/** Plain (non-task) call of a role: tools/call, or for a client target the request without `task`. */
export function callRole(ctx: CheckContext, role: ProfileRole, peer: Scope = ctx.peer): Promise<Response> {
  const tool = ctx.tool(role);
  const custom = ctx.info.taskRequest?.(role);
  if (custom) return peer.request(custom.method, custom.params);
  return peer.request('tools/call', { name: tool.name, arguments: tool.arguments ?? {} });
}

export { isLimitError };

/**
 * What an error answer to a task-augmented request of a declared type says (create-returns-createtaskresult),
 * read by suites/judge (creationErrorKind with 2025-11-25's codes): `refused` — -32700, -32600, -32601, -32602
 * (e.g. "Method not found"): the receiver did not take the request it declared task support for, a violation;
 * `limit` — back-pressure; `internal` — -32603, the receiver's own failure (the page's code for internal errors,
 * errors-internal-32603), not a refusal; `outcome` — an application's own code (e.g. -1, a user who declined;
 * -32042): the request's own outcome, no CreateTaskResult to judge.
 */
export function creationError(e: JsonRpcError): 'refused' | 'limit' | 'internal' | 'outcome' {
  return creationErrorKind(e, CODES);
}

/** The root cause of a task creation answered with an error (shared by every check that meets it). */
export function creationErrorCause(e: JsonRpcError): string {
  return isLimitError(e) ? `task creation refused at the receiver's limit: ${e.message}` : `task creation answered error ${e.code} ${e.message}`;
}

/** Waits for one of the run's live-task slots (on connection `on`) while a creation could still complete within the check's budget; else skip. */
export async function waitForSlot(ctx: CheckContext, on: object): Promise<void> {
  if (ctx.taskSlots && !(await ctx.taskSlots.acquire(ctx.deadline - Math.min(ctx.options.requestTimeoutMs, (ctx.deadline - Date.now()) / 2), undefined, on))) {
    ctx.skip(`no live-task slot freed within the check's budget (the run keeps at most ${ctx.taskSlots.maxTasks} tasks live; --max-tasks)`, {
      cause: 'the run was at its live-task bound',
    });
  }
}

/**
 * After a creation refused at a limit (`error`, readLimit) while the caller holds a slot on `on`: true when it is
 * to be retried. A capacity limit gives the slot back and waits for one under the bound learned from it
 * (runner/task-slots.ts), FIFO with the other waiters; a throttling limit, or one with none of the run's tasks
 * live, is waited out in time within the check's budget (backoffMs: the target's retry hint, else exponential;
 * `backoff.attempt` counts them). The limit is reported once.
 */
export async function retryAfterLimit(
  ctx: CheckContext,
  error: JsonRpcError,
  on: object,
  slot: { held: boolean },
  backoff: { attempt: number },
): Promise<boolean> {
  const what = `${error.code} ${error.message}`;
  ctx.limitSeen?.(what);
  if (slot.held && ctx.taskSlots?.refused(on, what)) {
    ctx.taskSlots.release(on);
    slot.held = false;
    await waitForSlot(ctx, on);
    slot.held = true;
    return true;
  }
  const wait = backoffMs(++backoff.attempt, { retryAfterMs: readLimit(error)?.retryAfterMs });
  if (Date.now() + wait >= ctx.deadline - 3_000) return false;
  await delay(wait);
  return true;
}

/**
 * Sends the task-augmented request for a role, gently: it takes one of the run's live-task slots (freed
 * once the task is seen terminal, or when the check ends after cancelling what it left running), and a
 * limit error is back-pressure: wait for a slot under the learned bound, or in time (retryAfterLimit).
 * Returns the last answer as is: judging it is the caller's business.
 */
export function sendTaskRequest(ctx: CheckContext, role: ProfileRole, opts: TaskRequestOptions = {}): Promise<Response> {
  // Tasks of the long-running roles are cancelled when the check ends; the others end on their own.
  return sendTaskAugmented(ctx, () => requestTask(ctx, role, opts), { peer: opts.peer, cancelAtEnd: role === 'slow' || role === 'needsInput' });
}

/**
 * Any task-augmented request (`send`, on `opts.peer` or the check's connection) as sendTaskRequest sends a role's:
 * within a live-task slot, a limit refusal waited on (retryAfterLimit), the task it creates held by the check.
 */
export async function sendTaskAugmented(
  ctx: CheckContext,
  send: () => Promise<Response>,
  opts: { peer?: Scope; cancelAtEnd?: boolean } = {},
): Promise<Response> {
  const on = (opts.peer ?? ctx.peer).peer;
  await waitForSlot(ctx, on);
  const slot = { held: ctx.taskSlots !== undefined };
  try {
    const backoff = { attempt: 0 };
    for (;;) {
      const r = await send();
      if (r.error && isLimitError(r.error) && (await retryAfterLimit(ctx, r.error, on, slot, backoff))) continue;
      const t = r.result?.task;
      if (isObj(t) && typeof t.taskId === 'string') {
        ctx.hold({ taskId: t.taskId, peer: opts.peer ?? ctx.peer, slot: slot.held, cancelAtEnd: opts.cancelAtEnd === true });
        slot.held = false; // now owned by the check's cleanup
        if (isTaskStatus(t.status) && isTerminal(t.status)) ctx.finished(t.taskId);
      }
      return r;
    }
  } finally {
    if (slot.held) ctx.taskSlots?.release(on);
  }
}

/**
 * Creates a task for a role: the one way checks get a task (sendTaskRequest, then a CreateTaskResult is
 * required). Failing to create one (no tasks capability, an error, no CreateTaskResult, no answer)
 * ends the check as not exercised: creation itself is judged by creation.create-task-result.
 */
export async function createTask(ctx: CheckContext, role: ProfileRole, opts: TaskRequestOptions = {}): Promise<CreatedTask> {
  const tool = ctx.tool(role);
  const custom = ctx.info.taskRequest?.(role, {});
  // A receiver that does not declare task support for tools/call processes `task` normally
  // (support-undeclared-process-normally): no task to observe.
  if (!custom && !hasPath(ctx.info.serverCapabilities, 'tasks.requests.tools.call'))
    ctx.skip('target does not declare tasks.requests.tools.call, so no task can be created');
  const what = custom ? `task-augmented ${custom.method} (role ${role})` : `task-augmented tools/call of "${tool.name}" (role ${role})`;
  let r: Response;
  try {
    r = await sendTaskRequest(ctx, role, opts);
  } catch (e) {
    // Time alone is never a verdict (RULINGS.md#response-time): an unanswered creation leaves the check not exercised.
    if (e instanceof WireTimeoutError)
      ctx.skip(`${what} did not answer: ${e.message}`, { cause: 'task creation did not answer within the bound', timedOut: true });
    throw e;
  }
  if (r.error) {
    const limit = isLimitError(r.error);
    ctx.skip(`${what} answered error ${r.error.code} ${r.error.message}${limit ? " (a resource limit; retried until the check's budget ran out)" : ''}`, {
      judgedBy: limit ? undefined : CREATION_JUDGED_BY,
      cause: creationErrorCause(r.error),
    });
  }
  const t = r.result?.task;
  if (!isObj(t) || typeof t.taskId !== 'string') {
    ctx.skip(`${what} did not return a CreateTaskResult with task.taskId (got ${short(r.result)})`, {
      judgedBy: CREATION_JUDGED_BY,
      cause: 'task creation returned no CreateTaskResult with a string taskId',
    });
  }
  return { taskId: t.taskId, response: r, task: t };
}

/**
 * Polls until the task is terminal: a precondition. A task that does not get there within the budget (e.g.
 * a `completes` tool that waits for input), or a tasks/get error, ends the check as not exercised.
 */
export async function reachTerminal(
  ctx: CheckContext,
  taskId: string,
  opts: { peer?: Scope; initial?: any; boundMs?: number; into?: TaskStatus[]; wake?: Promise<unknown>; role?: ProfileRole } = {},
): Promise<any> {
  const into = opts.into ?? (isTaskStatus(opts.initial?.status) ? [opts.initial.status] : []);
  const o = await observe(ctx, taskId, (t) => isTerminal(t.status), {
    boundMs: opts.boundMs ?? timeLeft(ctx, { marginMs: 4_000, floorMs: 2_000 }),
    peer: opts.peer,
    into,
    wake: opts.wake,
    label: 'waiting for it to end',
  });
  if (o.timedOut) {
    const role = opts.role ? ` (role ${opts.role}: the profile says it ends)` : '';
    ctx.skip(`task ${taskId} did not reach a terminal status within ${o.elapsedMs} ms${role} (seen ${seqText(o.statuses)})`, {
      cause: `a ${opts.role ?? ''} task did not end within the check's budget (last status ${o.last?.status})`.replace('a  task', 'a task'),
      timedOut: true,
    });
  }
  return o.last;
}

/** Creates a task for a role and waits until it is terminal (both preconditions). */
export async function createSettled(ctx: CheckContext, role: ProfileRole, opts: TaskRequestOptions = {}): Promise<CreatedTask & { last: any }> {
  const c = await createTask(ctx, role, opts);
  const last = await reachTerminal(ctx, c.taskId, { peer: opts.peer, initial: c.task, role });
  return { ...c, last };
}

/** tasks/cancel if the target declares it; never throws (cleanup). */
export async function cancelQuietly(ctx: CheckContext, taskId: string, peer: Scope = ctx.peer): Promise<Response | undefined> {
  if (!hasPath(ctx.info.serverCapabilities, 'tasks.cancel')) return undefined;
  try {
    return await peer.request('tasks/cancel', { taskId });
  } catch {
    return undefined;
  }
}

export interface FreshCancel {
  /** The task the cancel is about (the second one when the first ended before its cancel). */
  created: CreatedTask;
  /** The tasks/cancel answer, as is: an error other than "the task had ended" is the caller's to judge. */
  cancel: Response;
  /** The first task, when it ended (status) before its tasks/cancel arrived and a second was cancelled instead. */
  endedFirst?: { created: CreatedTask; status: TaskStatus };
}

/** How a task showed that it ended otherwise before its tasks/cancel could stop it (retryEndedFirst). */
export interface EndedBeforeCancel {
  /** The terminal status it reached (not cancelled). */
  status: TaskStatus;
  /** What the cancel did not do in time: "arrived" (refused as of a terminal task), "took effect" (acknowledged, 2026-07-28). */
  missed: 'arrived' | 'took effect';
  /** What showed it, e.g. "cancel answered -32602". */
  shown: string;
}

/**
 * The one retry of the arrangements that cancel a new running task, in either revision: `attempt(n)` (n = 1, 2)
 * creates a task, cancels it and says whether the task ended otherwise before the cancel could stop it (on a
 * loaded machine the round trips can outlast a slow role). Then that is noted and tried once more with a new
 * task; a second that ended first too leaves the check not exercised, or with `keepSecond` is returned as it
 * is (the caller judges what it shows). Time alone is never a verdict: a race only costs a second task.
 */
export async function retryEndedFirst<T>(
  ctx: CheckContext,
  role: string,
  attempt: (n: number) => Promise<{ out: T; ended?: EndedBeforeCancel }>,
  opts: { keepSecond?: boolean } = {},
): Promise<{ out: T; endedFirst?: { out: T; status: TaskStatus }; endedTwice?: EndedBeforeCancel }> {
  const first = await attempt(1);
  if (!first.ended) return { out: first.out };
  const e = first.ended;
  ctx.note(`the first ${role} task reached "${e.status}" before its tasks/cancel ${e.missed} (${e.shown}): tried again with a new one`);
  const second = await attempt(2);
  const s = second.ended;
  if (s && !opts.keepSecond)
    ctx.skip(`the ${role} task reached "${s.status}" before tasks/cancel ${s.missed}, twice (${s.shown}): it ends before a cancel can reach it`);
  return { out: second.out, endedFirst: { out: first.out, status: e.status }, ...(s ? { endedTwice: s } : {}) };
}

/**
 * tasks/cancel of a new running task of `role`, the arranging step of the checks about cancelled tasks. A task
 * that ended otherwise before its cancel arrived (the cancel refused, tasks/get shows it terminal, not
 * cancelled) is tried once more with a new one, cancelled at once (retryEndedFirst); if that one ended first
 * too, the check is not exercised. `before` runs between a task's creation and its cancel (attempt 1, 2).
 */
export async function cancelFresh(
  ctx: CheckContext,
  role: ProfileRole,
  opts: { before?: (c: CreatedTask, attempt: number) => Promise<void>; peer?: Scope } = {},
): Promise<FreshCancel> {
  const peer = opts.peer ?? ctx.peer;
  const r = await retryEndedFirst(ctx, role, async (attempt) => {
    const created = await createTask(ctx, role, { peer });
    if (isTaskStatus(created.task.status) && isTerminal(created.task.status))
      ctx.skip(`the ${role} task was already "${created.task.status}" in its CreateTaskResult; nothing to cancel`);
    await opts.before?.(created, attempt);
    const cancel = await peer.request('tasks/cancel', { taskId: created.taskId });
    const out = { created, cancel };
    if (!cancel.error) return { out };
    const g = await peer.request('tasks/get', { taskId: created.taskId });
    const st = g.result?.status;
    if (g.error || !isTaskStatus(st) || !isTerminal(st) || st === 'cancelled') return { out };
    ctx.finished(created.taskId);
    return { out, ended: { status: st, missed: 'arrived', shown: `cancel answered ${cancel.error.code}` } };
  });
  return { ...r.out, ...(r.endedFirst ? { endedFirst: { created: r.endedFirst.out.created, status: r.endedFirst.status } } : {}) };
}

/**
 * Sends tasks/cancel and polls (observe, bounded) until tasks/get shows a terminal status or the task is gone.
 * `settled` is the status seen last; `deleted` when tasks/get answered -32602 (receivers MAY delete cancelled
 * tasks: RULINGS.md#delete-vs-sticky). Another tasks/get error or status is not exercised, as observe has it.
 */
export async function cancelAndSettle(
  ctx: CheckContext,
  taskId: string,
  peer: Scope = ctx.peer,
  /** The tasks/cancel answer when it was sent already (cancelFresh): then only the settling. */
  sent?: Response,
): Promise<{ cancel: Response; settled?: TaskStatus; deleted: boolean; getError?: Response['error'] }> {
  const cancel = sent ?? (await peer.request('tasks/cancel', { taskId }));
  const o = await observe(ctx, taskId, (t) => isTerminal(t.status), {
    peer,
    allowGone: true,
    boundMs: timeLeft(ctx, { floorMs: 1_000, capMs: Math.max(1_000, Math.min(5_000, ctx.options.checkTimeoutMs / 4)) }),
    label: 'waiting for the cancelled task to settle',
  });
  if (o.gone) return { cancel, deleted: true, getError: o.gone };
  return { cancel, settled: o.last?.status, deleted: false };
}

/**
 * A task of `role` cancelled and seen "cancelled": created and cancelled (cancelFresh), then tasks/get until it
 * settles (cancelAndSettle). The arranging step of the checks about cancelled tasks; not exercised, with one
 * wording, when the cancel is refused, the task is deleted at once (receivers MAY delete cancelled tasks:
 * cancel-delete-may) or it settles in another status (the cancel checks judge those).
 */
export async function cancelledTask(ctx: CheckContext, role: ProfileRole, peer: Scope = ctx.peer): Promise<{ created: CreatedTask; cancel: Response }> {
  const { created, cancel } = await cancelFresh(ctx, role, { peer });
  const k = await cancelAndSettle(ctx, created.taskId, peer, cancel);
  if (k.cancel.error) ctx.skip(`tasks/cancel answered error ${k.cancel.error.code} ${k.cancel.error.message} (task status then: ${k.settled ?? 'unknown'})`);
  if (k.deleted) ctx.skip(`the cancelled task was deleted at once (tasks/get: ${k.getError?.code}); receivers MAY do so (cancel-delete-may)`);
  if (k.settled !== 'cancelled') ctx.skip(`after tasks/cancel the task shows "${k.settled}", not "cancelled" (judged by cancel.cancelled-before-response)`);
  return { created, cancel: k.cancel };
}

/**
 * Sends tasks/result (which blocks until the task is terminal) and settles when it is answered, whatever
 * the answer. Given to observe() as `wake`, the tasks/get right after the answer sees the terminal status
 * at once, so a receiver that leaves it again shortly afterwards is still caught (plain polling could miss
 * a terminal status that lasts less than pollInterval); polling meanwhile still sees every status on the way.
 */
export function resultWake(ctx: CheckContext, taskId: string, peer: Scope = ctx.peer): Promise<void> {
  return peer.request('tasks/result', { taskId }, { timeoutMs: timeLeft(ctx, { marginMs: 4_000, floorMs: 2_000 }) }).then(
    () => undefined,
    () => undefined,
  );
}

/** Answers every elicitation/create from the target on this scope with `content`; returns a remover. */
export function answerElicitation(peer: Scope, content: Record<string, unknown> = { answer: 'conformance' }): () => void {
  return peer.onRequest((req: Message) => (req.method === 'elicitation/create' ? { result: { action: 'accept', content } } : undefined));
}

/**
 * Polls until terminal (a precondition: not reached within the budget → not exercised), then `extraPolls`
 * more polls (tolerating deletion). With `viaResult`, a tasks/result runs alongside (see resultWake).
 * `onFailure` says whether a tasks/get error or an unknown status is the check's own verdict.
 */
export async function toTerminalAndBeyond(
  ctx: CheckContext,
  taskId: string,
  into: TaskStatus[],
  extraPolls: number,
  opts: { peer?: Scope; viaResult?: boolean; onFailure?: ObserveOptions['onFailure'] } = {},
): Promise<{ terminal: TaskStatus; after: TaskStatus[]; gone?: JsonRpcError }> {
  const { peer, onFailure } = opts;
  const wake = opts.viaResult ? resultWake(ctx, taskId, peer) : undefined;
  const bound = () => timeLeft(ctx, { marginMs: 4_000, floorMs: 2_000 });
  const o = await observe(ctx, taskId, (t) => isTerminal(t.status), { boundMs: bound(), peer, into, wake, onFailure, label: 'waiting for a terminal status' });
  if (o.timedOut)
    ctx.skip(`task ${taskId} did not reach a terminal status within ${o.elapsedMs} ms (seen ${seqText(into)})`, {
      cause: `a task did not end within the check's budget (last status ${o.last?.status})`,
      timedOut: true,
    });
  const terminal = o.last.status as TaskStatus;
  const before = into.length;
  let gone: JsonRpcError | undefined;
  if (extraPolls > 0) {
    await delay(pollDelay(ctx, o.last));
    const more = await observe(ctx, taskId, (_t, n) => n >= extraPolls, {
      boundMs: bound(),
      peer,
      into,
      allowGone: true,
      onFailure,
      label: 'polling after the terminal status',
    });
    gone = more.gone;
  }
  return { terminal, after: into.slice(before), gone };
}

/** Roles whose work cannot end before the CreateTaskResult is written: slow runs for seconds, needsInput waits for input. */
const NEVER_INSTANT: readonly ProfileRole[] = ['slow', 'needsInput'];
/** Roles whose work asks for input (and may do so before the CreateTaskResult is written). */
const ASKS_INPUT: readonly ProfileRole[] = ['needsInput'];

/**
 * RULINGS.md#new-task-working, the one judgement of a CreateTaskResult's status against lifecycle-begin-working ("Tasks MUST
 * begin in the working status"): `working` passes; a status the task's own work can reach at once is only
 * noted (terminal for a role that may end instantly: completes, fails; input_required for a role that asks for
 * input); one it cannot reach at once fails (terminal when every role runs a while or waits for input;
 * input_required when no role asks for input). `roles`: the profile roles the called tool plays (none known:
 * the tool may do anything, so only an unknown status fails).
 */
export function judgeFirstStatus(status: unknown, roles: readonly ProfileRole[]): { violation?: string; note?: string } {
  if (status === 'working') return {};
  const who = roles.join('/') || 'task';
  if (isTaskStatus(status) && isTerminal(status)) {
    const slow = roles.filter((r) => NEVER_INSTANT.includes(r));
    if (slow.length && slow.length === roles.length)
      return {
        violation: `a new ${slow.join('/')} task, which cannot end instantly, shows "${status}" in its CreateTaskResult, not "working" (RULINGS.md#new-task-working)`,
      };
    return { note: `a new ${who} shows "${status}" in its CreateTaskResult (it may have ended before the answer was written; RULINGS.md#new-task-working)` };
  }
  if (status === 'input_required') {
    if (roles.length && !roles.some((r) => ASKS_INPUT.includes(r)))
      return {
        violation: `a new ${who} task, which asks for no input, shows "input_required" in its CreateTaskResult, not "working" (RULINGS.md#new-task-working)`,
      };
    return {
      note: `a new ${who} shows "input_required" in its CreateTaskResult (it may have asked for input before the answer was written; RULINGS.md#new-task-working)`,
    };
  }
  return { violation: `a new task shows status ${short(status)} in its CreateTaskResult, not "working"` };
}

/** The profile roles a tool plays (several roles may share one tool). */
export function rolesOf(profile: { tools: Partial<Record<ProfileRole, { name: string }>> }, toolName: string): ProfileRole[] {
  return (Object.entries(profile.tools) as [ProfileRole, { name: string } | undefined][]).filter(([, t]) => t?.name === toolName).map(([r]) => r);
}
