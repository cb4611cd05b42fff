// The reference receiver as task REQUESTOR toward its client: the tools `sample_via_client` and
// `elicit_via_client` (tools.ts) send sampling/createMessage / elicitation/create to the client that
// called them, task-augmented exactly when the client declared tasks.requests.sampling.createMessage /
// tasks.requests.elicitation.create (caps-requestor-only-declared), then follow the client's task as
// tasks.md asks of requestors: poll tasks/get no faster than pollInterval (poll-respect-interval)
// until terminal (poll-until-terminal), call tasks/result on input_required (input-required-call-result)
// and at the end, never related-task _meta in tasks/* requests (related-task-requestor-omit-in-requests).
// Named faults (faults.ts, `requestor-*`) break one rule each, through fault-switches.ts.
import { AUGMENTABLE_REQUESTS, isTaskStatus, isTerminal, type TaskStatus } from '../../schema/protocol.ts';
import type { FaultSwitches } from './fault-switches.ts';
import type { JsonRpcErrorObject } from './store.ts';
import { isObj } from '../../schema/json.ts';

export type ClientRequestMethod = 'sampling/createMessage' | 'elicitation/create';

export interface RequestorContext {
  clientCapabilities: Record<string, unknown>;
  switches: FaultSwitches;
  signal: AbortSignal;
  sleep(ms: number): Promise<void>;
  /** Sends a request to the client (related to the tools/call) and waits for its answer. */
  send(method: string, params: Record<string, unknown>): Promise<{ result?: unknown; error?: JsonRpcErrorObject }>;
}

/** Poll delay when the client's Task gives no pollInterval (ms). */
export const DEFAULT_CLIENT_POLL_MS = 1000;
/** Longest the requestor follows a client task (ms). */
export const FOLLOW_LIMIT_MS = 60_000;
/** The fault requestor-no-result-on-input polls this many times while input_required before it gives up. */
const POLLS_WHILE_INPUT = 10;

/** Did the client declare task augmentation for `method` (capabilities.tasks.requests)? */
export function clientDeclares(caps: Record<string, unknown>, method: ClientRequestMethod): boolean {
  const [a, b] = AUGMENTABLE_REQUESTS[method];
  const req = (caps as any)?.tasks?.requests;
  return isObj(req) && isObj(req[a]) && req[a][b] !== undefined && req[a][b] !== null && req[a][b] !== false;
}

export interface FollowOutcome {
  /** The underlying answer (from the plain response or tasks/result), or the error. */
  result?: unknown;
  error?: JsonRpcErrorObject;
  /** What happened, for the tool's text. */
  log: string[];
}

/** Sends the request to the client and follows the task it may create; never throws for a misbehaving client. */
/** `confirmTerminal`: one more tasks/get once the task was seen terminal (a requestor may poll again; a terminal status must stay). */
export async function requestFromClient(
  ctx: RequestorContext,
  method: ClientRequestMethod,
  params: Record<string, unknown>,
  opts: { confirmTerminal?: boolean } = {},
): Promise<FollowOutcome> {
  const sw = ctx.switches;
  const log: string[] = [];
  // caps-requestor-only-declared
  const augment = clientDeclares(ctx.clientCapabilities, method) || sw.augmentsUndeclared();
  const first = await ctx.send(method, augment ? { ...params, task: { ttl: FOLLOW_LIMIT_MS } } : params);
  if (first.error) return { error: first.error, log: [...log, `${method}: error ${first.error.code}`] };
  const task = isObj(first.result) && isObj(first.result.task) ? first.result.task : undefined;
  if (!task || typeof task.taskId !== 'string') return { result: first.result, log: [...log, `${method} answered directly`] };
  const taskId = task.taskId;
  log.push(`task ${taskId} created (${String(task.status)})`);
  // related-task-requestor-omit-in-requests: { taskId } only
  const taskParams = sw.clientTaskParams(taskId);
  const fetchResult = async (): Promise<FollowOutcome> => {
    const r = await ctx.send('tasks/result', taskParams);
    log.push(r.error ? `tasks/result: error ${r.error.code}` : 'tasks/result answered');
    return r.error ? { error: r.error, log } : { result: r.result, log };
  };
  // poll-until-terminal
  if (sw.stopsPolling()) return { result: { task }, log: [...log, 'not followed'] };
  let status: TaskStatus | undefined = isTaskStatus(task.status) ? task.status : undefined;
  let pollInterval = typeof task.pollInterval === 'number' && task.pollInterval >= 0 ? task.pollInterval : DEFAULT_CLIENT_POLL_MS;
  let inputPolls = 0;
  const until = Date.now() + FOLLOW_LIMIT_MS;
  while (Date.now() < until) {
    if (status !== undefined && isTerminal(status)) {
      if (opts.confirmTerminal) {
        await ctx.sleep(pollInterval);
        await ctx.send('tasks/get', taskParams);
      }
      return fetchResult();
    }
    if (status === 'input_required') {
      // input-required-call-result (the fault keeps polling instead, for a while)
      if (!sw.pollsThroughInput()) return fetchResult();
      if (++inputPolls > POLLS_WHILE_INPUT) return { error: { code: -32603, message: `client task ${taskId} stayed input_required` }, log };
    }
    // poll-respect-interval
    await ctx.sleep(sw.clientPollDelay(pollInterval));
    const g = await ctx.send('tasks/get', taskParams);
    if (g.error || !isObj(g.result)) return { error: g.error ?? { code: -32603, message: 'tasks/get answered no Task' }, log: [...log, 'tasks/get failed'] };
    if (isTaskStatus(g.result.status)) status = g.result.status;
    if (typeof g.result.pollInterval === 'number' && g.result.pollInterval >= 0) pollInterval = g.result.pollInterval;
  }
  return { error: { code: -32603, message: `client task ${taskId} not terminal after ${FOLLOW_LIMIT_MS} ms` }, log };
}
