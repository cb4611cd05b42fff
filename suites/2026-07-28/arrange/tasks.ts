// Arranging what a 2026-07-28 check needs, apart from judging it: a tools/call of a role (the server decides
// whether it becomes a task), a task created (MRTR answered on the way), a status reached by polling
// tasks/get, input answered through tasks/update, a task cancelled. A precondition that does not hold ends
// the check as not exercised (NotExercised) with what happened and, where one does, the check that judges it.
// The budget (suites/arrange/budget.ts), the live-task slots and back-pressure are those of 2025-11-25.
import { NotExercised, Violation, type CheckContext } from '../../engine/check.ts';
import type { ModernProfileRole } from '../../engine/profile.ts';
import { timeLeft } from '../../arrange/budget.ts';
import { pacedDelay, pastBound, seqText } from '../../arrange/poll.ts';
import { backoffMs, pollDelayMs } from '../../judge/pacing.ts';
import { isDeletion, jsonRpcTable, readLimit, type ErrorCodeTable } from '../../judge/error-codes.ts';
import { isLimitError, retryAfterLimit, retryEndedFirst, waitForSlot } from '../../arrange/arrange.ts';
import { isObj, short } from '../../engine/text.ts';
import { instantOf } from '../../judge/timestamps.ts';
import { elicitationContent } from '../../wire/elicitation.ts';
import { WireTimeoutError, type JsonRpcError, type Message } from '../../wire/peer.ts';
import {
  Field,
  MCP_DEFINED_CODES,
  isTaskStatus,
  isTerminal,
  TIMESTAMP_READING,
  Method,
  ResultType,
  type TaskStatus,
} from '../../../schema/2026-07-28/protocol.ts';
import { wire } from '../engine/check.ts';
import { CLIENT_CAPABILITIES, HttpNoAnswerError, type ModernRequestOptions, type ModernResponse, type ModernScope } from '../wire/peer.ts';

/** The checks that judge what arranging stumbles over (named as `judgedBy` when a precondition fails). */
export const JUDGED_BY = {
  creation: '2026-creation.result-type-task',
  durable: '2026-creation.durable',
  get: '2026-get.working',
} as const;

/** Roles whose tasks run until stopped or answered: cancelled when the check ends. */
const LONG_RUNNING: readonly ModernProfileRole[] = ['slow', 'needsInput', 'needsTwoInputs', 'needsInputTwice'];

/** Is this tools/call answer a task (a CreateTaskResult, or a task in the 2025-11-25 nesting)? */
export function answeredWithTask(result: unknown): boolean {
  if (!result || typeof result !== 'object') return false;
  const r = result as Record<string, any>;
  return r.resultType === ResultType.Task || typeof r.taskId === 'string' || typeof r.task?.taskId === 'string';
}

export interface CallOptions extends ModernRequestOptions {
  /** The connection to call on (default: the shared one). */
  scope?: ModernScope;
  /** Params added to the call (e.g. `inputResponses`, `requestState`, a legacy `task`). */
  extra?: Record<string, unknown>;
}

/** A tools/call of the role's tool, answered as is (no verdict). */
export function callRole(ctx: CheckContext, role: ModernProfileRole, opts: CallOptions = {}): Promise<ModernResponse> {
  const tool = ctx.tool(role);
  const { scope, extra, ...request } = opts;
  return (scope ?? wire(ctx)).request(Method.ToolsCall, { name: tool.name, arguments: tool.arguments ?? {}, ...(extra ?? {}) }, request);
}

/** The answers a well-behaved client gives to inputRequests: form content for elicitation, empty roots, a text message. */
export function answersFor(inputRequests: unknown, text = 'conformance'): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  if (!isObj(inputRequests)) return out;
  for (const [key, req] of Object.entries(inputRequests)) {
    if (!isObj(req)) continue;
    if (req.method === Method.ElicitationCreate)
      out[key] = req.params?.mode === 'url' ? { action: 'accept' } : { action: 'accept', content: elicitationContent(req.params, text) };
    else if (req.method === Method.RootsList) out[key] = { roots: [] };
    else if (req.method === Method.SamplingCreateMessage) out[key] = { role: 'assistant', content: { type: 'text', text }, model: 'conformance' };
  }
  return out;
}

/**
 * A tools/call that runs MRTR to its end: while the answer is an InputRequiredResult, it is retried with the
 * answers (and the requestState) — at most `maxRounds` times. Returns every answer in order.
 */
export async function callThroughMrtr(ctx: CheckContext, role: ModernProfileRole, opts: CallOptions & { maxRounds?: number } = {}): Promise<ModernResponse[]> {
  const out: ModernResponse[] = [];
  let extra = opts.extra ?? {};
  for (let round = 0; round <= (opts.maxRounds ?? 4); round++) {
    const r = await callRole(ctx, role, { ...opts, extra });
    out.push(r);
    if (r.error || r.result?.[Field.resultType] !== ResultType.InputRequired) return out;
    const state = r.result.requestState;
    extra = { ...(opts.extra ?? {}), inputResponses: answersFor(r.result.inputRequests), ...(typeof state === 'string' ? { requestState: state } : {}) };
  }
  return out;
}

export interface Created {
  taskId: string;
  /** The CreateTaskResult as received. */
  task: Record<string, any>;
  response: ModernResponse;
  /** The answers before it (MRTR rounds, plain results the server chose instead of a task). */
  before: ModernResponse[];
  scope: ModernScope;
}

/**
 * Creates a task for a role: tools/call from a declaring client (MRTR answered), taking a live-task slot
 * (freed once the task is seen terminal or the check ends) with limit errors as back-pressure. The server
 * decides whether to answer with a task (2026-caps-server-may-create): a plain result is retried twice,
 * then the check is not exercised. No CreateTaskResult-like answer → not exercised.
 */
export async function createTask(ctx: CheckContext, role: ModernProfileRole, opts: CallOptions = {}): Promise<Created> {
  const scope = opts.scope ?? wire(ctx);
  const what = `tools/call of "${ctx.tool(role).name}" (role ${role})`;
  const on = (scope.scope ?? ctx.peer).peer;
  await waitForSlot(ctx, on);
  const slot = { held: ctx.taskSlots !== undefined };
  const before: ModernResponse[] = [];
  try {
    const backoff = { attempt: 0 };
    for (let attempt = 0; ;) {
      let answers: ModernResponse[];
      try {
        answers = await callThroughMrtr(ctx, role, { ...opts, scope });
      } catch (e) {
        if (e instanceof WireTimeoutError) ctx.skip(`${what} did not answer: ${e.message}`, { cause: 'tools/call did not answer' });
        throw e;
      }
      const r = answers[answers.length - 1]!;
      before.push(...answers.slice(0, -1));
      if (r.error && isLimitError(r.error) && (await retryAfterLimit(ctx, r.error, on, slot, backoff))) continue;
      if (r.error)
        ctx.skip(`${what} answered error ${r.error.code} ${r.error.message}`, { cause: `tools/call answered error ${r.error.code} ${r.error.message}` });
      const res = r.result;
      if (answeredWithTask(res) && typeof res[Field.taskId] === 'string') {
        const taskId = res[Field.taskId] as string;
        ctx.hold({ taskId, peer: scope.scope ?? ctx.peer, slot: slot.held, cancelAtEnd: LONG_RUNNING.includes(role) });
        slot.held = false; // the check's cleanup owns it now
        if (isTaskStatus(res[Field.status]) && isTerminal(res[Field.status])) ctx.finished(taskId);
        return { taskId, task: res, response: r, before, scope };
      }
      if (isObj(res) && res[Field.resultType] === ResultType.Task)
        ctx.skip(`${what} answered resultType "task" without a string taskId (got ${short(res)})`, {
          judgedBy: JUDGED_BY.creation,
          cause: 'a CreateTaskResult without a taskId',
        });
      before.push(r);
      if (++attempt >= 3 || Date.now() > ctx.deadline - 5_000)
        ctx.skip(`${what} was answered without a task ${attempt} time(s) (the server decides per request, 2026-caps-server-may-create); got ${short(res)}`, {
          cause: `the server answered ${role} without a task`,
        });
    }
  } finally {
    if (slot.held) ctx.taskSlots?.release(on);
  }
}

/** tasks/get on a scope. */
export function getTask(scope: ModernScope, taskId: unknown, opts: ModernRequestOptions = {}): Promise<ModernResponse> {
  return scope.request(Method.TasksGet, { taskId }, opts);
}

/** An answer, or a refusal at the HTTP level: an HTTP 4xx whose body holds no JSON-RPC response (`httpRefusal`: its status). */
export type AnswerOrRefusal = ModernResponse & { httpRefusal?: number };

/**
 * `request`'s answer, with a bare HTTP 4xx (no JSON-RPC body: an intermediary's refusal, which need carry no
 * JSON-RPC error, basic-transports-streamable-http.md "Server Validation" note; or an authorization layer's 403/404)
 * read as a refusal instead of a request that could not complete. Anything else rejects as before.
 */
export async function answerOrRefusal(request: Promise<ModernResponse>): Promise<AnswerOrRefusal> {
  try {
    return await request;
  } catch (e) {
    const status = e instanceof HttpNoAnswerError ? e.exchange.status : undefined;
    if (status !== undefined && status >= 400 && status < 500) return { httpStatus: status, httpRefusal: status } as AnswerOrRefusal;
    throw e;
  }
}

/** How a refused or answered request reads in a message. */
export const answerText = (r: AnswerOrRefusal) =>
  r.httpRefusal !== undefined ? `HTTP ${r.httpRefusal} (no JSON-RPC body)` : r.error ? `${r.httpStatus ?? ''} ${r.error.code}`.trim() : `served`;

/** The delay before the next poll: the task's pollIntervalMs, never sooner (2026-poll-respect-interval; suites/judge/pacing.ts). */
export function pollDelay(_ctx: unknown, task: unknown): number {
  return pollDelayMs(isObj(task) ? task[Field.pollIntervalMs] : undefined);
}

/** The error codes of 2026-07-28 as suites/judge reads them (JSON-RPC's own, and those basic-index.md defines). */
export const CODES: ErrorCodeTable = jsonRpcTable(MCP_DEFINED_CODES);

export interface Watch {
  /** Statuses in the order seen. */
  statuses: TaskStatus[];
  /** Every tasks/get result (a DetailedTask each). */
  tasks: Record<string, any>[];
  last: Record<string, any> | undefined;
  /** tasks/get answered -32602 and `allowGone` was given. */
  gone?: JsonRpcError;
  timedOut: boolean;
  elapsedMs: number;
}

export interface WatchOptions {
  scope?: ModernScope;
  boundMs?: number;
  /** A -32602 ends the watch as `gone` (a task may be deleted after cancel or expiry). */
  allowGone?: boolean;
  label?: string;
  /** A tasks/get error or a status outside the five: the check's own violation, or (default) not exercised. */
  onFailure?: 'violation' | 'not-exercised';
  /** Statuses seen before (appended to). */
  into?: TaskStatus[];
}

/**
 * Polls tasks/get at the task's pollIntervalMs until `done(task, polls)` holds or the bound passes. A poll answered
 * with a limit (throttling in any shape, suites/judge/error-codes.ts) is retried after backing off, as often as the
 * bound allows; any other error but -32602 once (rate limiting has no defined error: RULINGS.md#ext-rate-limit-error-open).
 */
export async function watch(
  ctx: CheckContext,
  taskId: string,
  done: (task: Record<string, any>, polls: number) => boolean,
  opts: WatchOptions = {},
): Promise<Watch> {
  const scope = opts.scope ?? wire(ctx);
  const started = Date.now();
  let boundMs = opts.boundMs ?? timeLeft(ctx);
  const statuses = opts.into ?? [];
  const tasks: Record<string, any>[] = [];
  let last: Record<string, any> | undefined;
  let polls = 0;
  let retried = false;
  let limits = 0;
  const fail = (message: string, cause: string): never => {
    if (opts.onFailure === 'violation') throw new Violation(message, { cause });
    throw new NotExercised(message, { cause, judgedBy: JUDGED_BY.get });
  };
  for (;;) {
    const r = await getTask(scope, taskId);
    polls++;
    const elapsed = () => Date.now() - started;
    if (r.error) {
      const limit = readLimit(r.error);
      if (isDeletion(r.error, CODES)) {
        ctx.finished(taskId);
        if (opts.allowGone) return { statuses, tasks, last, gone: r.error, timedOut: false, elapsedMs: elapsed() };
      } else if (limit || !retried) {
        // A limit, or once any other error (RULINGS.md#ext-rate-limit-error-open): wait, then poll again.
        retried = true;
        if (limit) ctx.limitSeen?.(`${r.error.code} ${r.error.message}`);
        const wait = backoffMs(++limits, { retryAfterMs: limit?.retryAfterMs, pollMs: 2 * pollDelay(ctx, last) });
        if (pastBound(ctx, elapsed(), wait, boundMs)) return { statuses, tasks, last, timedOut: true, elapsedMs: elapsed() };
        boundMs += (await pacedDelay(ctx, wait, `tasks/get of task ${taskId} answered ${r.error.code} (${limit ? `a limit: ${limit.shown}` : 'retried once'})`))
          .grownMs;
        continue;
      }
      fail(
        `tasks/get for task ${taskId} answered error ${r.error.code} ${r.error.message} while ${opts.label ?? 'polling'} (statuses so far: ${seqText(statuses) || 'none'})`,
        `tasks/get of a live task answered ${r.error.code}`,
      );
    }
    retried = false;
    limits = 0;
    last = r.result;
    if (!isTaskStatus(last?.[Field.status]))
      fail(
        `tasks/get for task ${taskId} returned status ${short(last?.[Field.status])}, none of working, input_required, completed, failed, cancelled`,
        `tasks/get returned status ${short(last?.[Field.status])}`,
      );
    const status = last![Field.status] as TaskStatus;
    statuses.push(status);
    tasks.push(last!);
    if (isTerminal(status)) ctx.finished(taskId);
    if (done(last!, polls)) return { statuses, tasks, last, timedOut: false, elapsedMs: elapsed() };
    const wait = pollDelay(ctx, last);
    if (pastBound(ctx, elapsed(), wait, boundMs)) return { statuses, tasks, last, timedOut: true, elapsedMs: elapsed() };
    boundMs += (await pacedDelay(ctx, wait, `polling task ${taskId} at its pollIntervalMs (${wait} ms)`)).grownMs;
  }
}

/** Polls until `pred` holds: a precondition (not reached within the bound → not exercised). */
export async function reach(
  ctx: CheckContext,
  taskId: string,
  pred: (task: Record<string, any>) => boolean,
  what: string,
  opts: WatchOptions = {},
): Promise<Watch & { last: Record<string, any> }> {
  const w = await watch(ctx, taskId, (t) => pred(t) || (isTerminal(t[Field.status]) && !pred(t)), {
    boundMs: timeLeft(ctx, { marginMs: 4_000, floorMs: 2_000 }),
    label: `waiting for ${what}`,
    ...opts,
  });
  if (w.gone) ctx.skip(`task ${taskId} was gone (${w.gone.code} ${w.gone.message}) before ${what} (seen ${seqText(w.statuses) || 'nothing'})`);
  if (w.timedOut || !w.last || !pred(w.last))
    ctx.skip(`task ${taskId} did not reach ${what} within ${w.elapsedMs} ms (seen ${seqText(w.statuses) || 'nothing'})`, {
      cause: `a task did not reach ${what} (last status ${w.last?.[Field.status]})`,
    });
  return w as Watch & { last: Record<string, any> };
}

/** Polls until the task is terminal (a precondition). */
export function reachTerminal(ctx: CheckContext, taskId: string, opts: WatchOptions = {}): Promise<Watch & { last: Record<string, any> }> {
  return reach(ctx, taskId, (t) => isTerminal(t[Field.status]), 'a terminal status', opts);
}

/** Creates a task for a role and waits until it is terminal (both preconditions). */
export async function createSettled(
  ctx: CheckContext,
  role: ModernProfileRole,
  opts: CallOptions = {},
): Promise<Created & { last: Record<string, any>; statuses: TaskStatus[]; gets: Record<string, any>[] }> {
  const c = await createTask(ctx, role, opts);
  const into: TaskStatus[] = isTaskStatus(c.task[Field.status]) ? [c.task[Field.status]] : [];
  // Even a terminal seed is read back through tasks/get: the checks judge what tasks/get answers.
  const w = await reachTerminal(ctx, c.taskId, { scope: c.scope, into });
  return { ...c, last: w.last, statuses: w.statuses, gets: w.tasks };
}

/** Creates a task for an input role and polls until it is input_required with inputRequests (preconditions). */
export async function createInputRequired(
  ctx: CheckContext,
  role: ModernProfileRole,
  opts: CallOptions = {},
): Promise<Created & { last: Record<string, any>; statuses: TaskStatus[] }> {
  const c = await createTask(ctx, role, opts);
  const into: TaskStatus[] = [];
  const w = await reach(ctx, c.taskId, (t) => t[Field.status] === 'input_required' && isObj(t[Field.inputRequests]), 'input_required with inputRequests', {
    scope: c.scope,
    into,
  });
  return { ...c, last: w.last, statuses: w.statuses };
}

/**
 * The input_required task once `want` requests are outstanding together: a server may make the requests of one
 * round outstanding milliseconds apart, so a first tasks/get listing fewer is polled a few times more (at its
 * pollIntervalMs) until it lists `want`, leaves input_required, or 4 more polls have shown no more. Returns the
 * observation listing the most keys (2026-get-input-requests-all-outstanding judges what is outstanding, not when).
 */
export async function withInputsOutstanding(ctx: CheckContext, c: Created & { last: Record<string, any> }, want: number): Promise<Record<string, any>> {
  if (inputKeys(c.last).length >= want) return c.last;
  const w = await watch(ctx, c.taskId, (t, n) => t[Field.status] !== 'input_required' || inputKeys(t).length >= want || n >= 4, {
    scope: c.scope,
    boundMs: timeLeft(ctx, { marginMs: 6_000, floorMs: 1_000, capMs: 10_000 }),
    label: `waiting for ${want} inputRequests`,
  });
  return [c.last, ...w.tasks].filter((t) => t[Field.status] === 'input_required').reduce((a, b) => (inputKeys(b).length > inputKeys(a).length ? b : a), c.last);
}

/** tasks/update with these inputResponses. */
export function updateTask(
  scope: ModernScope,
  taskId: string,
  inputResponses: Record<string, unknown>,
  opts: ModernRequestOptions = {},
): Promise<ModernResponse> {
  return scope.request(Method.TasksUpdate, { taskId, inputResponses }, opts);
}

/** tasks/cancel. */
export function cancelTask(scope: ModernScope, taskId: string, opts: ModernRequestOptions = {}): Promise<ModernResponse> {
  return scope.request(Method.TasksCancel, { taskId }, opts);
}

export interface FreshCancel {
  /** The task the cancel is about (the second when the first ended before its cancel took effect). */
  created: Created;
  /** The tasks/cancel answer, as is (an error is the caller's to judge or leave: RULINGS.md#ext-cancel-terminal). */
  ack: ModernResponse;
  /** tasks/get until terminal after an acknowledged cancel; absent when the cancel answered an error. */
  watched?: Watch & { last: Record<string, any> };
  /** The first task, when it ended (status) before its cancel took effect and a second was cancelled instead. */
  endedFirst?: { created: Created; status: TaskStatus };
  /** The second ended otherwise before its cancel too (a server may let the work finish: 2026-cancel-may-end-otherwise). */
  endedTwice?: boolean;
}

/**
 * tasks/cancel of a new running task of `role`, then tasks/get until it is terminal (reachTerminal, deletion
 * allowed): the arranging step of the checks about cancelled tasks. A task that reached another terminal status
 * first (the work finished before the cancel could take effect: on a loaded machine the round trips can outlast
 * a slow role) is tried once more with a new one (retryEndedFirst, as 2025-11-25's cancelFresh); the second is
 * returned whatever it shows, for the caller to judge as it would the first.
 */
export async function cancelFresh(ctx: CheckContext, role: ModernProfileRole, opts: CallOptions = {}): Promise<FreshCancel> {
  const r = await retryEndedFirst(
    ctx,
    role,
    async () => {
      const created = await createTask(ctx, role, opts);
      const ack = await cancelTask(created.scope, created.taskId);
      if (ack.error) {
        // An error for a task already terminal is allowed (RULINGS.md#ext-cancel-terminal): it may have ended first.
        const g = await getTask(created.scope, created.taskId);
        const st = g.result?.[Field.status];
        if (g.error || !isTaskStatus(st) || !isTerminal(st) || st === 'cancelled') return { out: { created, ack } };
        ctx.finished(created.taskId);
        return { out: { created, ack }, ended: { status: st, missed: 'arrived', shown: `cancel answered ${ack.error.code}` } };
      }
      const watched = await reachTerminal(ctx, created.taskId, { scope: created.scope, allowGone: true });
      const st = watched.last[Field.status] as TaskStatus;
      const out = { created, ack, watched };
      if (st === 'cancelled') return { out };
      return { out, ended: { status: st, missed: 'took effect', shown: `acknowledged, then tasks/get showed "${st}"` } };
    },
    { keepSecond: true },
  );
  return {
    ...r.out,
    ...(r.endedFirst ? { endedFirst: { created: r.endedFirst.out.created, status: r.endedFirst.status } } : {}),
    ...(r.endedTwice ? { endedTwice: true } : {}),
  };
}

/** tasks/cancel, never throwing (cleanup). */
export async function cancelQuietly(scope: ModernScope, taskId: string): Promise<void> {
  try {
    await cancelTask(scope, taskId, { timeoutMs: 2_000 });
  } catch {
    /* best effort */
  }
}

/**
 * True once the task's createdAt + ttlMs (as last seen) has passed, less a margin for transit: from then on the
 * server may fail or delete it, and nothing it shows is judged (RULINGS.md#ext-ttl-before-expiry).
 */
export function pastTtl(task: unknown, marginMs = 500): boolean {
  if (!isObj(task) || typeof task[Field.ttlMs] !== 'number') return false;
  const created = instantOf(task[Field.createdAt], TIMESTAMP_READING);
  return !Number.isNaN(created) && Date.now() > created + (task[Field.ttlMs] as number) - marginMs;
}

/** Ends the check as not exercised when the task's ttl has passed (what follows is not judged). */
export function skipPastTtl(ctx: CheckContext, taskId: string, task: unknown): void {
  if (pastTtl(task))
    ctx.skip(
      `task ${taskId} outlived its ttlMs (${short(isObj(task) ? task[Field.ttlMs] : undefined)}): after that the server may fail or delete it (RULINGS.md#ext-ttl-before-expiry)`,
    );
}

/** The keys of a task's inputRequests (none when absent). */
export function inputKeys(task: unknown): string[] {
  return isObj(task) && isObj(task[Field.inputRequests]) ? Object.keys(task[Field.inputRequests]) : [];
}

/** The capabilities of a client that does not declare the extension (as the driver names them). */
export const NON_DECLARING = CLIENT_CAPABILITIES.nonDeclaring;

/** notifications/tasks of one task among messages. */
export function taskNotifications(messages: readonly Message[], taskId: string): Message[] {
  return messages.filter((m) => m.method === Method.TasksNotification && m.params?.[Field.taskId] === taskId);
}

/** Members of an object besides the ones named. */
export function extraMembers(o: unknown, allowed: readonly string[]): string[] {
  return isObj(o) ? Object.keys(o).filter((k) => !allowed.includes(k)) : [];
}

/** A task id no server has issued (for the unknown-task errors). */
export function unknownTaskId(): string {
  return `conformance-unknown-${crypto.randomUUID()}`;
}
