// tools/call of the reference receiver: tool-level negotiation, plain runs, task creation and the work of a
// task (progress, input through tasks/result, the terminal status it ends in).
import { ErrorCode, isTerminal, MODEL_IMMEDIATE_RESPONSE_META, type TaskStatus } from '../../schema/protocol.ts';
import type { SessionPort } from './port.ts';
import { abortableSleep, isObject, NO_REPLY, raceAbort, type Params, type Reply, type RequestCtx } from './core.ts';
import { probeClientReceiver } from './client-probe.ts';
import { logsAt, sendLog, sendProgress } from './result-delivery.ts';
import { RpcError, type JsonRpcErrorObject, type Outcome, type PendingInput, type StoredTask } from './store.ts';
import { relatedMeta, wireTask } from './task-view.ts';
import type { FaultSwitches } from './fault-switches.ts';
import type { ToolContext, ToolDef } from './tools.ts';

/** Scenario hook servesAnyToolAs: an unlisted tool name is served by the scenario's tool, under the name called. */
function servedAs(s: SessionPort, name: string): ToolDef | undefined {
  const as = s.core.scenario?.servesAnyToolAs;
  const base = as === undefined ? undefined : s.core.tools.get(as);
  if (!base) return undefined;
  s.tap('event', undefined, `tool "${name}" (not listed) served as "${base.name}" (taskSupport ${base.taskSupport ?? 'absent'})`);
  return { ...base, name, title: name };
}

export async function toolsCall(s: SessionPort, params: Params, ctx: RequestCtx): Promise<Reply> {
  const sw = s.core.switches;
  if (typeof params.name !== 'string') throw new RpcError(ErrorCode.InvalidParams, 'Invalid params: "name" must be a string');
  const args = params.arguments ?? {};
  if (!isObject(args)) throw new RpcError(ErrorCode.InvalidParams, 'Invalid params: "arguments" must be an object');
  await probeClientReceiver(s, ctx); // scenario hook (client grading)
  const tool = s.core.tools.get(params.name) ?? servedAs(s, params.name);
  if (!tool) throw new RpcError(ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
  // support-undeclared-process-normally: without the tasks capability, `task` is ignored and the request processed normally.
  const tasksOn = s.core.tasksCapability || sw.tasksWithoutCapability();
  const task = tasksOn && s.toolsCallTasks ? params.task : undefined;
  const support = tool.taskSupport ?? 'forbidden';
  if (task !== undefined) {
    if (!isObject(task)) throw new RpcError(ErrorCode.InvalidParams, 'Invalid params: "task" must be an object');
    if (task.ttl !== undefined && (typeof task.ttl !== 'number' || !Number.isFinite(task.ttl) || task.ttl < 0)) {
      throw new RpcError(ErrorCode.InvalidParams, 'Invalid params: "task.ttl" must be a non-negative number of milliseconds');
    }
    // tool-forbidden-should-32601: never run a forbidden tool as a task.
    if (support === 'forbidden' && !sw.runsForbiddenAsTask()) {
      throw new RpcError(ErrorCode.MethodNotFound, `Method not found: tool "${tool.name}" does not support task-augmented execution (taskSupport "forbidden")`);
    }
    // create-returns-createtaskresult
    if (support === 'optional' && sw.ignoresTask()) return runPlain(s, tool, args, ctx);
    return createTask(s, tool, args, task, ctx);
  }
  if (support === 'optional' && tasksOn && s.toolsCallTasks && sw.plainCallCreatesTask()) return createTask(s, tool, args, {}, ctx);
  // tool-required-must-32601
  if (support === 'required' && s.core.tasksCapability && s.toolsCallTasks && !sw.runsRequiredWithoutTask()) {
    throw new RpcError(ErrorCode.MethodNotFound, `Method not found: tool "${tool.name}" requires task-augmented execution (taskSupport "required")`);
  }
  return runPlain(s, tool, args, ctx);
}

function bump(s: SessionPort, tool: ToolDef): void {
  s.core.runs.set(tool.name, (s.core.runs.get(tool.name) ?? 0) + 1);
}

async function runPlain(s: SessionPort, tool: ToolDef, args: Params, ctx: RequestCtx): Promise<Reply> {
  const key = JSON.stringify(ctx.id);
  const abort = new AbortController();
  s.inflight.set(key, abort);
  bump(s, tool);
  const toolCtx: ToolContext = {
    args,
    signal: abort.signal,
    sleep: (ms) => abortableSleep(ms, abort.signal),
    progress(progress, total, message) {
      if (ctx.progressToken === undefined || abort.signal.aborted) return;
      void s.notify(
        'notifications/progress',
        { progressToken: ctx.progressToken, progress, ...(total !== undefined ? { total } : {}), ...(message ? { message } : {}) },
        ctx.id,
      );
    },
    log(level, data) {
      if (abort.signal.aborted || !logsAt(s, level)) return;
      void s.notify('notifications/message', { level, logger: LOGGER, data }, ctx.id);
    },
    requestInput: async (method, p) => {
      const { response } = s.request(method, p, ctx.id);
      return raceAbort(response, abort.signal);
    },
    clientCapabilities: s.clientCapabilities,
    switches: s.core.switches,
  };
  try {
    const result = await tool.run(toolCtx);
    return { result };
  } catch (e) {
    if (abort.signal.aborted) return NO_REPLY; // cancelled: no response (cancellation.md)
    throw e;
  } finally {
    s.inflight.delete(key);
  }
}

async function createTask(s: SessionPort, tool: ToolDef, args: Params, taskParam: Params, ctx: RequestCtx): Promise<Reply> {
  const sw = s.core.switches;
  const store = s.core.store;
  const ttl = taskParam.ttl as number | undefined;
  s.core.latitude.rateLimit(ctx.owner); // security-rate-limit
  const t = store.create({
    owner: ctx.owner,
    requestedTtl: ttl,
    taskId: sw.taskId(store, { toolName: tool.name, args, taskParam, owner: ctx.owner, progressToken: ctx.progressToken }) ?? s.core.latitude.taskId(ctx.auth),
    toolName: tool.name,
    origin: s,
    initialStatus: sw.initialStatus('working'), // lifecycle-begin-working
  });
  sw.taskCreated(t, ctx.progressToken);
  s.core.audit('task.created', { task: t.taskId, tool: tool.name, ttl: t.ttl, requestor: ctx.auth ?? ctx.sessionLabel });
  bump(s, tool);
  // A background task must never take the receiver down: any error is logged (errorLog) and dropped.
  const work = runTask(s, t, tool, args, ctx.progressToken).catch((e: unknown) =>
    s.core.logError(`task ${t.taskId} (${tool.name}) failed in the background: ${e instanceof Error ? e.stack : String(e)}`),
  );
  // create-asap: answer at once; the work continues in the background.
  let task = wireTask(s, t, 'create');
  task = sw.createdTask(t, () => wireTask(s, t, 'create')) ?? task;
  const createdPoll = s.core.scenario?.createdPollInterval;
  if (createdPoll !== undefined && task.pollInterval !== undefined) task = { ...task, pollInterval: createdPoll }; // scenario hook (client grading)
  const early = s.core.latitude.progressBeforeCreate(tool.name, ctx.progressToken);
  if (early) await s.notify('notifications/progress', early, ctx.id); // RULINGS.md#progress-before-create
  const hold = sw.holdCreateResult(t, work);
  if (hold) await hold;
  return {
    result: {
      task,
      _meta: { [MODEL_IMMEDIATE_RESPONSE_META]: `Started task ${t.taskId} for tool "${tool.name}"; the result will be available via tasks/result.` },
    },
  };
}

/** The logger name of the reference receiver's notifications/message. */
const LOGGER = 'reference';

/** What a task's tool works with: one object per task, its methods shared (no closures made per task). */
class TaskToolContext implements ToolContext {
  readonly clientCapabilities: Params;
  readonly switches: FaultSwitches;

  constructor(
    private readonly s: SessionPort,
    private readonly t: StoredTask,
    readonly args: Params,
    private readonly progressToken: unknown,
  ) {
    this.clientCapabilities = s.clientCapabilities;
    this.switches = s.core.switches;
  }

  get signal(): AbortSignal {
    return this.t.abort.signal;
  }

  sleep(ms: number): Promise<void> {
    return abortableSleep(ms, this.t.abort);
  }

  progress(progress: number, total?: number, message?: string): void {
    const { s, t, progressToken, switches: sw } = this;
    // progress-same-token; progress-stop-after-terminal
    if (progressToken === undefined || t.deleted) return;
    if (isTerminal(t.status) && !sw.progressAfterCancel(t)) return;
    const token = sw.progressToken(t, progressToken, progress, total);
    sendProgress(s, t, {
      progressToken: token,
      progress: sw.progressValue(progress, total),
      ...(total !== undefined ? { total } : {}),
      ...(message ? { message } : {}),
    });
  }

  log(level: 'debug' | 'info' | 'notice' | 'warning', data: unknown): void {
    if (this.t.deleted || isTerminal(this.t.status)) return;
    sendLog(this.s, this.t, { level, logger: LOGGER, data });
  }

  requestInput(method: string, params: Params): Promise<{ result?: unknown; error?: JsonRpcErrorObject }> {
    return requestTaskInput(this.s, this.t, method, params);
  }
}

async function runTask(s: SessionPort, t: StoredTask, tool: ToolDef, args: Params, progressToken: unknown): Promise<void> {
  const abort = t.abort;
  const toolCtx = new TaskToolContext(s, t, args, progressToken);
  let outcome: Outcome;
  const pings = pingWhileRunning(s, t);
  try {
    outcome = { kind: 'result', result: await tool.run(toolCtx) };
  } catch (e) {
    clearInterval(pings);
    if (abort.aborted || t.deleted) return; // cancelled / expired: the status already says so
    outcome =
      e instanceof RpcError
        ? { kind: 'error', error: e.toJSON() }
        : { kind: 'error', error: { code: ErrorCode.InternalError, message: `Internal error: ${e instanceof Error ? e.message : String(e)}` } };
  }
  clearInterval(pings);
  finishTask(s, t, outcome);
}

/** RULINGS.md#related-task-exemptions (server-pings): a running task pings its requestor now and then. */
function pingWhileRunning(s: SessionPort, t: StoredTask): NodeJS.Timeout | undefined {
  const every = s.core.latitude.pingEveryMs();
  if (every === undefined) return undefined;
  const ping = () => void s.request('ping', {}).response.catch(() => undefined);
  ping();
  const timer = setInterval(() => {
    if (t.deleted || isTerminal(t.status)) return clearInterval(timer);
    ping();
  }, every);
  timer.unref?.();
  return timer;
}

function finishTask(s: SessionPort, t: StoredTask, outcome: Outcome): void {
  const sw = s.core.switches;
  const store = s.core.store;
  if (t.deleted) return;
  if (t.status === 'cancelled') {
    // cancel-sticky: a cancelled task stays cancelled even if the work completes.
    if (sw.resurrectsCancelled()) store.transition(t, 'completed', undefined, { unchecked: true });
    return;
  }
  if (isTerminal(t.status)) {
    // Reachable only under a fault that made the task terminal before its work ended (starts-completed):
    // terminal statuses are final, so the status stays; the outcome is kept for tasks/result.
    store.settle(t, outcome);
    return;
  }
  let to: TaskStatus = 'completed';
  let message: string | undefined;
  if (outcome.kind === 'error') {
    to = 'failed';
    message = `Request failed: ${outcome.error.message}`;
  } else if (outcome.result.isError === true) {
    // lowercase "should" (RULINGS.md#is-error-lowercase): isError → failed
    to = 'failed';
    const content = outcome.result.content as { type?: string; text?: string }[] | undefined;
    const first = Array.isArray(content) ? content.find((c) => c?.type === 'text')?.text : undefined;
    message = first ? String(first) : 'Tool execution failed';
  }
  if (to === 'failed') message = sw.failureStatusMessage(message); // exec-failed-status-message
  store.settle(t, outcome);
  store.transition(t, to, message);
  sw.afterEnd(t, store);
  s.core.audit(`task.${to}`, {
    task: t.taskId,
    tool: t.toolName,
    requestor: t.owner.startsWith('bearer:') ? `bearer:sha256:${t.owner.slice(7, 19)}` : t.owner,
  });
}

/** input-required flow: queue the request, move to input_required, deliver through tasks/result. */
async function requestTaskInput(s: SessionPort, t: StoredTask, method: string, params: Params): Promise<{ result?: unknown; error?: JsonRpcErrorObject }> {
  const sw = s.core.switches;
  const store = s.core.store;
  if (t.abort.aborted || t.deleted) throw new Error('task is no longer active');
  // input-required-related-task
  const withMeta = sw.dropsInputRelatedTask() ? params : { ...params, _meta: { ...(isObject(params._meta) ? params._meta : {}), ...relatedMeta(s, t) } };
  const answer = new Promise<{ result?: unknown; error?: JsonRpcErrorObject }>((resolve, reject) => {
    const p: PendingInput = { method, params: withMeta, resolve, reject, delivered: false };
    t.inputQueue.push(p);
  });
  answer.catch(() => undefined);
  // input-required-move
  if (t.status === 'working' && !sw.staysWorkingForInput()) store.transition(t, 'input_required', `Waiting for input: ${method}`);
  store.fire(t); // wake any open tasks/result to deliver it
  try {
    const r = await raceAbort(answer, t.abort);
    // input-required-resume
    const stuck = sw.afterInput(t.abort);
    if (stuck) await stuck;
    return r;
  } finally {
    if (!t.deleted && t.status === 'input_required' && t.inputQueue.length === 0) store.transition(t, 'working');
  }
}
