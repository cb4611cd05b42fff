// tasks/result of the reference receiver, and the route of every task-related message: on an open
// tasks/result request of the task (its SSE stream over HTTP), else on the connection that created it.
import { ErrorCode, isTerminal, RELATED_TASK_META } from '../../schema/protocol.ts';
import type { SessionPort } from './port.ts';
import { isObject, NO_REPLY, UnderlyingRequestError, type Params, type Reply, type RequestCtx } from './core.ts';
import { RpcError, type StoredTask } from './store.ts';
import { lookup, relatedMeta, wireTask } from './task-view.ts';

/** A route for task-related messages: an open tasks/result request (its SSE stream on HTTP). */
interface ResultStream {
  session: SessionPort;
  requestId: string | number;
}
const resultStreams = new WeakMap<StoredTask, ResultStream[]>();
function streamsOf(t: StoredTask): ResultStream[] {
  let s = resultStreams.get(t);
  if (!s) resultStreams.set(t, (s = []));
  return s;
}

/** Scenario hook result-error: the tasks whose one interrupted tasks/result was given. */
const failedResultOnce = new WeakSet<object>();

/** Sends a task-related message on an open tasks/result stream of the task if any, else on the creating connection. */
function sendForTask(t: StoredTask, message: { method: string; params: Params }): void {
  const streams = resultStreams.get(t);
  const open = streams?.find((x) => !x.session.closed);
  if (open) void open.session.notify(message.method, message.params, open.requestId);
  else {
    const origin = t.origin as SessionPort;
    if (!origin.closed) void origin.notify(message.method, message.params);
  }
}

/** notifications/tasks/status on every status change (optional; no related-task meta: notify-status-no-related-task). */
export function statusChanged(s: SessionPort, t: StoredTask): void {
  if (!s.core.statusNotifications) return;
  const params = s.core.switches.statusNotification(wireTask(s, t) as unknown as Params, relatedMeta(s, t));
  sendForTask(t, { method: 'notifications/tasks/status', params });
}

/** notifications/progress for a task, with related-task _meta (related-task-all-messages). */
export function sendProgress(s: SessionPort, t: StoredTask, params: Params): void {
  const meta = s.core.switches.dropsProgressRelatedTask() ? {} : { _meta: relatedMeta(s, t) };
  sendForTask(t, { method: 'notifications/progress', params: { ...params, ...meta } });
}

/** Severities of logging.md (RFC 5424), lowest first; a session's logging/setLevel sets the least it is sent. */
const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
const logLevels = new WeakMap<SessionPort, number>();
export function setLogLevel(s: SessionPort, level: unknown): void {
  const i = LOG_LEVELS.indexOf(String(level));
  if (i < 0) throw new RpcError(ErrorCode.InvalidParams, `Invalid params: unknown logging level ${JSON.stringify(level)}`);
  logLevels.set(s, i);
}
/** Whether a message of `level` goes to the session (logging/setLevel). */
export function logsAt(s: SessionPort, level: string): boolean {
  return LOG_LEVELS.indexOf(level) >= (logLevels.get(s) ?? 0);
}

/** notifications/message (logging) sent by a task's work, with related-task _meta (related-task-all-messages). */
export function sendLog(s: SessionPort, t: StoredTask, params: Params): void {
  if (!logsAt(s, String(params.level))) return;
  const meta = { _meta: { [RELATED_TASK_META]: { taskId: s.core.switches.logRelatedTaskId(s.core.switches.wireId(t)) } } };
  sendForTask(t, { method: 'notifications/message', params: { ...params, ...meta } });
}

/** The final result of a terminal task (result-terminal-returns-final, result-exact-success, result-exact-error). */
function resultOf(s: SessionPort, t: StoredTask): Record<string, unknown> {
  const sw = s.core.switches;
  const o = t.outcome!;
  if (sw.resultIsTask()) return { ...wireTask(s, t), _meta: relatedMeta(s, t) };
  // result-exact-error: the same JSON-RPC error the plain call would give.
  if (o.kind === 'error') {
    const bent = sw.errorAsResult(o.error, relatedMeta(s, t));
    if (bent) return bent;
    throw new UnderlyingRequestError(o.error.code, o.error.message, o.error.data);
  }
  const result = sw.result(o.result);
  if (sw.dropsResultRelatedTask()) return result;
  // related-task-result-must
  return { ...result, _meta: { ...(isObject(result._meta) ? result._meta : {}), ...relatedMeta(s, t) } };
}

function ready(t: StoredTask): boolean {
  return t.outcome !== undefined && isTerminal(t.status);
}

export function tasksResult(s: SessionPort, params: Params, ctx: RequestCtx): Reply | Promise<Reply> {
  const sw = s.core.switches;
  const t = lookup(s, params, ctx, 'result');
  s.core.audit('task.result-requested', { task: t.taskId, status: t.status, requestor: ctx.auth ?? ctx.sessionLabel });
  if (ready(t) && !sw.resultHangs(t)) return { result: resultOf(s, t) };
  if (s.core.scenario?.failFirstResult && !failedResultOnce.has(t)) {
    // scenario hook result-error: one interrupted tasks/result per task (a -32603 internal error).
    failedResultOnce.add(t);
    throw new RpcError(
      ErrorCode.InternalError,
      'Internal error: the result stream was interrupted (scenario result-error); keep polling tasks/get and call tasks/result again',
    );
  }
  const early = sw.resultBeforeTerminal(t, relatedMeta(s, t));
  if (early) return early;
  // result-blocks-nonterminal: answer only once terminal; meanwhile deliver queued input requests here.
  const stream: ResultStream = { session: s, requestId: ctx.id };
  const arrivedAt = Date.now();
  const streams = streamsOf(t);
  streams.push(stream);
  return new Promise<Reply>((resolve, reject) => {
    const done = () => {
      t.listeners.delete(check);
      s.waitingResults.delete(onClose);
      const i = streams.indexOf(stream);
      if (i >= 0) streams.splice(i, 1);
    };
    const onClose = () => {
      done();
      resolve(NO_REPLY);
    };
    let sawInput = false;
    const check = () => {
      try {
        if (t.status === 'input_required') sawInput = true;
        if (sw.dropsWaitingResult(t, ready(t)) || sw.dropsResultAfterInput(sawInput, ready(t))) {
          t.listeners.delete(check); // never answered (until the session ends)
          return;
        }
        if (ready(t) && sw.resultHangs(t)) {
          t.listeners.delete(check); // never answered (until the session ends)
          return;
        }
        if (ready(t)) {
          // RULINGS.md#response-time (result-wakes-per-interval): the answer waits for the request's next wake-up.
          const wake = s.core.latitude.resultWakeDelayMs(arrivedAt, s.core.pollInterval);
          if (wake > 0) {
            t.listeners.delete(check);
            setTimeout(() => {
              done();
              resolve({ result: resultOf(s, t) });
            }, wake);
            return;
          }
          done();
          resolve({ result: resultOf(s, t) });
          return;
        }
        if (t.deleted) {
          done();
          reject(new RpcError(ErrorCode.InvalidParams, 'Failed to retrieve task: Task has expired'));
          return;
        }
        for (const p of t.inputQueue) {
          if (p.delivered) continue;
          p.delivered = true;
          const standalone = s.core.scenario?.inputOnStandaloneStream === true && s.standaloneStreamOpen; // scenario hook
          const { sent, response } = s.request(p.method, p.params, standalone ? undefined : ctx.id);
          if (sw.inputToEverySession()) {
            for (const other of s.core.sessions)
              if (other !== s && other.initialized && !other.closed) void other.request(p.method, p.params).response.catch(() => undefined);
          }
          void sent.then((ok) => {
            if (!ok) p.delivered = false; // stream gone: deliver on the next tasks/result
          });
          response.then(
            (r) => {
              const i = t.inputQueue.indexOf(p);
              if (i >= 0) t.inputQueue.splice(i, 1);
              p.resolve(r);
            },
            () => undefined,
          );
        }
      } catch (e) {
        done();
        reject(e);
      }
    };
    t.listeners.add(check);
    s.waitingResults.add(onClose);
    check();
  });
}
