// Arranging an input_required task: a needsInput task on its own connection whose input requests are
// held until released, and the answer a well-behaved requestor gives to them.
import type { CheckContext } from '../engine/check.ts';
import type { Message, Response, Scope } from '../wire/peer.ts';
import { isTaskStatus, RELATED_TASK_META, type TaskStatus } from '../../schema/protocol.ts';
import { elicitationContent } from '../wire/elicitation.ts';
import { cancelQuietly, createTask } from './arrange.ts';
import { timeLeft } from './budget.ts';
import { delay, observe, type Observation, type ObserveOptions } from './poll.ts';

/** A needsInput task on its own connection, with the input requests it sends held until released. */
export interface InputRun {
  session: Scope;
  taskId: string;
  created: any;
  statuses: TaskStatus[];
  /** elicitation/create requests received on this connection, in order. */
  requests: Message[];
  /** Status polled while the first input request was held unanswered (undefined if not polled). */
  statusWhileHeld?: TaskStatus;
  /** Outstanding tasks/result, if sent. */
  result?: Promise<Response | Error>;
  release(): void;
}

export async function startInputTask(ctx: CheckContext): Promise<InputRun> {
  const session = await ctx.openSession();
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const requests: Message[] = [];
  session.onRequest(async (req) => {
    if (req.method !== 'elicitation/create') return undefined;
    requests.push(req);
    await gate;
    return { result: { action: 'accept', content: elicitationContent(req.params, 'conformance') } };
  });
  const c = await createTask(ctx, 'needsInput', { peer: session });
  const statuses: TaskStatus[] = isTaskStatus(c.task.status) ? [c.task.status] : [];
  return { session, taskId: c.taskId, created: c.task, statuses, requests, release };
}

/** Runs `body` on a fresh needsInput task; afterwards its input is released and the task cancelled. */
export async function withInputTask(ctx: CheckContext, body: (run: InputRun) => Promise<string>): Promise<string> {
  const run = await startInputTask(ctx);
  try {
    return await body(run);
  } finally {
    run.release();
    await cancelQuietly(ctx, run.taskId, run.session);
  }
}

/** Polls until the task leaves `working` (or an input request arrives), bounded (`boundMs` scaled to the run: ctx.bound). */
export async function awaitInputRequired(ctx: CheckContext, run: InputRun, boundMs: number, onFailure?: ObserveOptions['onFailure']): Promise<Observation> {
  return observe(ctx, run.taskId, (t) => t.status !== 'working' || run.requests.length > 0, {
    boundMs: ctx.bound(boundMs),
    peer: run.session,
    into: run.statuses,
    onFailure,
    label: 'waiting for input_required',
  });
}

/** Opens tasks/result (the way input requests are delivered) and waits for the first input request, bounded (`boundMs` scaled to the run: ctx.bound). */
export async function awaitInputRequest(ctx: CheckContext, run: InputRun, waitMs: number): Promise<Message | undefined> {
  if (run.requests.length) return run.requests[0];
  const boundMs = ctx.bound(waitMs);
  if (!run.result) {
    run.result = run.session
      .request('tasks/result', { taskId: run.taskId }, { timeoutMs: Math.max(boundMs, timeLeft(ctx, { marginMs: 4_000, floorMs: 2_000 })) })
      .catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))));
  }
  const deadline = Date.now() + boundMs;
  let settled = false;
  void run.result.then(() => (settled = true));
  while (Date.now() < deadline && !settled && run.requests.length === 0) await delay(20);
  return run.requests[0];
}

/** The check that judges an input request delivered to another connection than its task's requestor's. */
export const ROUTING_JUDGED_BY = 'lifecycle.input-to-own-requestor';

/** Input requests naming task `taskId` that arrived on the run's shared connection instead of the task's own. */
export function inputElsewhere(ctx: CheckContext, taskId: string): Message[] {
  return ctx.peer.peer.transcript
    .filter((e) => e.dir === 'in')
    .map((e) => e.message as Message)
    .filter((m) => m && typeof m === 'object' && typeof m.method === 'string' && 'id' in m && m.params?._meta?.[RELATED_TASK_META]?.taskId === taskId);
}

/** A task's input request went to another connection: not exercised here, judged once by ROUTING_JUDGED_BY. */
export function skipIfMisrouted(ctx: CheckContext, taskId: string): void {
  const elsewhere = inputElsewhere(ctx, taskId);
  if (elsewhere.length)
    ctx.skip(`the task's input request (${elsewhere[0]!.method}) arrived on another connection, not on the one that created the task`, {
      judgedBy: ROUTING_JUDGED_BY,
      cause: "a task's input request delivered to another connection",
    });
}

/** The answer a well-behaved requestor gives to an input request for `taskId` (carries related-task, related-task-all-messages). */
export function inputAnswer(req: Message, taskId: string | undefined): { result: unknown } | undefined {
  const meta = taskId ? { _meta: { [RELATED_TASK_META]: { taskId } } } : {};
  if (req.method !== 'elicitation/create') return undefined; // not ours: the peer's default answer applies
  if (req.params?.mode === 'url') return { result: { action: 'accept', ...meta } };
  return { result: { action: 'accept', content: elicitationContent(req.params, 'conformance'), ...meta } };
}
