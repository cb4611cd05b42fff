// Reads a scenario's recorded transcript into what the requestor checks judge: per receiver session,
// the exchanges (requests with their responses, both directions), the receiver's declared
// capabilities and tools, and per task: how it was created, every status shown to the client (with
// its pollInterval and time), and the client's tasks/get, tasks/result, tasks/cancel for it.
import { short as shortText } from '../engine/text.ts';
import { AUGMENTABLE_REQUESTS, isTaskStatus, isTerminal, RELATED_TASK_META, type TaskStatus } from '../../schema/protocol.ts';
import type { Message } from '../wire/peer.ts';
import type { RecordedEntry, ScenarioRun } from './harness.ts';
import { isObj } from '../../schema/json.ts';

export interface Exchange {
  method: string;
  id: unknown;
  params: any;
  request: RecordedEntry;
  response?: RecordedEntry;
  result?: any;
  error?: { code: number; message: string; data?: unknown };
  /** ms since the scenario started. */
  sentMs: number;
  answeredMs?: number;
}

export interface StatusShown {
  status: TaskStatus;
  pollInterval?: number;
  ms: number;
  /** The message that showed it: 'create', 'tasks/get', 'tasks/cancel', 'tasks/list', 'notifications/tasks/status'. */
  via: string;
  /** The request whose response showed it (not for notifications). */
  of?: Exchange;
}

export interface TaskView {
  taskId: string;
  session: string;
  /** The request whose answer was the CreateTaskResult. */
  created: Exchange;
  shown: StatusShown[];
  gets: Exchange[];
  results: Exchange[];
  cancels: Exchange[];
  /** Requests the receiver sent on behalf of the task (related-task _meta), e.g. elicitation/create. */
  inputRequests: Exchange[];
}

export interface SessionView {
  id: string;
  entries: RecordedEntry[];
  /** Requests the client sent, with the receiver's responses. */
  clientRequests: Exchange[];
  /** Requests the receiver sent, with the client's responses. */
  serverRequests: Exchange[];
  clientNotifications: RecordedEntry[];
  serverNotifications: RecordedEntry[];
  receiverCapabilities: any;
  clientCapabilities: any;
  /** Tools as the receiver listed them (by name). */
  tools: Map<string, any>;
  tasks: Map<string, TaskView>;
  /** The client opened the standalone GET SSE stream (HTTP). */
  openedGetStream: boolean;
}

export interface Analysis extends ScenarioRun {
  sessions: SessionView[];
}

const msg = (e: RecordedEntry): Message => (e.message ?? {}) as Message;
const key = (id: unknown) => JSON.stringify(id);

export function isRequest(m: Message): boolean {
  return typeof m.method === 'string' && 'id' in m;
}
export function isNotification(m: Message): boolean {
  return typeof m.method === 'string' && !('id' in m);
}
export function isResponse(m: Message): boolean {
  return typeof m.method !== 'string' && 'id' in m && ('result' in m || 'error' in m);
}

/** Does the request carry task augmentation (`params.task` present)? */
export function augmented(ex: Exchange): boolean {
  return isObj(ex.params) && 'task' in ex.params;
}

/** related-task `_meta` taskId of a params/result object, or undefined; `present` tells whether the key is there at all. */
export function relatedTask(container: unknown): { present: boolean; taskId: unknown } {
  const meta = isObj(container) ? container._meta : undefined;
  if (!isObj(meta) || !(RELATED_TASK_META in meta)) return { present: false, taskId: undefined };
  return { present: true, taskId: isObj(meta[RELATED_TASK_META]) ? meta[RELATED_TASK_META].taskId : undefined };
}

/** Methods the receiver declared task augmentation for (capabilities.tasks.requests). */
export function declaredAugmentable(caps: any): string[] {
  const req = caps?.tasks?.requests;
  return Object.entries(AUGMENTABLE_REQUESTS)
    .filter(([, [a, b]]) => isObj(req) && isObj(req[a]) && req[a][b] !== undefined && req[a][b] !== null && req[a][b] !== false)
    .map(([m]) => m);
}

export function toolSupport(s: SessionView, name: unknown): 'required' | 'optional' | 'forbidden' | undefined | 'unlisted' {
  if (typeof name !== 'string' || !s.tools.has(name)) return 'unlisted';
  return s.tools.get(name)?.execution?.taskSupport;
}

function pair(entries: RecordedEntry[], reqDir: 'in' | 'out'): Exchange[] {
  const respDir = reqDir === 'in' ? 'out' : 'in';
  const open = new Map<string, Exchange>();
  const out: Exchange[] = [];
  for (const e of entries) {
    const m = msg(e);
    if (e.dir === reqDir && isRequest(m)) {
      const ex: Exchange = { method: m.method, id: m.id, params: m.params, request: e, sentMs: e.ms };
      out.push(ex);
      open.set(key(m.id), ex);
    } else if (e.dir === respDir && isResponse(m)) {
      const ex = open.get(key(m.id));
      if (!ex) continue;
      open.delete(key(m.id));
      ex.response = e;
      ex.answeredMs = e.ms;
      if ('error' in m && isObj(m.error)) ex.error = m.error as Exchange['error'];
      else ex.result = m.result;
    }
  }
  return out;
}

function sessionView(id: string, entries: RecordedEntry[]): SessionView {
  const clientRequests = pair(entries, 'in');
  const serverRequests = pair(entries, 'out');
  // initialize: sent by the requestor (a client under test) or by the receiver (the suite's client
  // grading a server as requestor); either way it carries both sides' capabilities.
  const init = clientRequests.find((x) => x.method === 'initialize');
  const receiverInit = init ? undefined : serverRequests.find((x) => x.method === 'initialize');
  const tools = new Map<string, any>();
  for (const x of clientRequests) {
    if (x.method === 'tools/list' && Array.isArray(x.result?.tools)) for (const t of x.result.tools) if (typeof t?.name === 'string') tools.set(t.name, t);
  }
  const s: SessionView = {
    id,
    entries,
    clientRequests,
    serverRequests,
    clientNotifications: entries.filter((e) => e.dir === 'in' && isNotification(msg(e))),
    serverNotifications: entries.filter((e) => e.dir === 'out' && isNotification(msg(e))),
    receiverCapabilities: (init ? init.result?.capabilities : receiverInit?.params?.capabilities) ?? {},
    clientCapabilities: (init ? init.params?.capabilities : receiverInit?.result?.capabilities) ?? {},
    tools,
    tasks: new Map(),
    openedGetStream: entries.some((e) => e.dir === 'event' && e.note?.startsWith('http GET')),
  };
  // Tasks: created by requests answered with a CreateTaskResult.
  for (const x of clientRequests) {
    const t = x.result?.task;
    if (!isObj(t) || typeof t.taskId !== 'string' || !x.response) continue;
    const v: TaskView = { taskId: t.taskId, session: id, created: x, shown: [], gets: [], results: [], cancels: [], inputRequests: [] };
    if (isTaskStatus(t.status)) v.shown.push({ status: t.status, pollInterval: num(t.pollInterval), ms: x.response.ms, via: 'create' });
    s.tasks.set(t.taskId, v);
  }
  const show = (task: any, ms: number, via: string, of?: Exchange) => {
    if (!isObj(task) || typeof task.taskId !== 'string' || !isTaskStatus(task.status)) return;
    s.tasks.get(task.taskId)?.shown.push({ status: task.status, pollInterval: num(task.pollInterval), ms, via, ...(of ? { of } : {}) });
  };
  for (const x of clientRequests) {
    const tid = x.params?.taskId;
    const v = typeof tid === 'string' ? s.tasks.get(tid) : undefined;
    if (x.method === 'tasks/get' && v) {
      v.gets.push(x);
      if (x.response) show(x.result, x.response.ms, 'tasks/get', x);
    } else if (x.method === 'tasks/result' && v) v.results.push(x);
    else if (x.method === 'tasks/cancel' && v) {
      v.cancels.push(x);
      if (x.response) show(x.result, x.response.ms, 'tasks/cancel');
    } else if (x.method === 'tasks/list' && x.response && Array.isArray(x.result?.tasks)) {
      for (const t of x.result.tasks) show(t, x.response.ms, 'tasks/list');
    }
  }
  for (const e of s.serverNotifications) {
    const m = msg(e);
    if (m.method === 'notifications/tasks/status') show(m.params, e.ms, 'notifications/tasks/status');
  }
  for (const x of serverRequests) {
    const r = relatedTask(x.params);
    if (typeof r.taskId === 'string') s.tasks.get(r.taskId)?.inputRequests.push(x);
  }
  for (const v of s.tasks.values()) v.shown.sort((a, b) => a.ms - b.ms);
  return s;
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

export function analyse(run: ScenarioRun): Analysis {
  const ids: string[] = [];
  const by = new Map<string, RecordedEntry[]>();
  for (const e of run.entries) {
    if (!by.has(e.session)) {
      by.set(e.session, []);
      ids.push(e.session);
    }
    by.get(e.session)!.push(e);
  }
  return { ...run, sessions: ids.map((id) => sessionView(id, by.get(id)!)) };
}

/** Every task of every session. */
export function allTasks(a: Analysis): TaskView[] {
  return a.sessions.flatMap((s) => [...s.tasks.values()]);
}

/** The last status shown to the client before `ms` (or overall), leaving out what the response to `except` showed. */
export function lastShown(t: TaskView, beforeMs = Infinity, except?: Exchange): StatusShown | undefined {
  let last: StatusShown | undefined;
  for (const s of t.shown) if (s.ms <= beforeMs && (except === undefined || s.of !== except)) last = s;
  return last;
}

export function terminal(s: StatusShown | undefined): boolean {
  return !!s && isTerminal(s.status);
}

/** Did the client cancel this task (tasks/cancel sent)? */
export function cancelledByClient(t: TaskView): boolean {
  return t.cancels.length > 0;
}

export function short(v: unknown, max = 160): string {
  return shortText(v, max);
}

/** What created a task: `tools/call "name"` or the request type (e.g. sampling/createMessage). */
export function createdBy(t: TaskView): string {
  return t.created.method === 'tools/call' ? `tools/call "${String(t.created.params?.name)}"` : t.created.method;
}

/** "+1234 ms" */
export function at(ms: number | undefined): string {
  return ms === undefined ? '(never)' : `+${Math.round(ms)} ms`;
}

/**
 * When (receiver-side ms) something happened for the task that a requestor may answer with a tasks/get at
 * once (RULINGS.md#poll-interval-frequency): the receiver sent a request or notification for it (an input
 * request, notifications/tasks/status, a message with its related-task _meta or progress for its creating
 * request), the requestor answered such a request, or a tasks/result / tasks/cancel for it was answered.
 */
export function taskEvents(s: SessionView, t: TaskView): number[] {
  const out: number[] = [];
  const token = t.created.params?._meta?.progressToken;
  for (const e of s.serverNotifications) {
    const m = msg(e);
    const p = m.params as any;
    if ((m.method === 'notifications/tasks/status' && p?.taskId === t.taskId) || relatedTask(p).taskId === t.taskId) out.push(e.ms);
    else if (m.method === 'notifications/progress' && token !== undefined && p?.progressToken === token) out.push(e.ms);
  }
  for (const x of t.inputRequests) {
    out.push(x.sentMs);
    if (x.answeredMs !== undefined) out.push(x.answeredMs);
  }
  for (const x of [...t.results, ...t.cancels]) if (x.answeredMs !== undefined) out.push(x.answeredMs);
  return out.sort((a, b) => a - b);
}

/** One poll judged against pollInterval: the gap since the previous poll (or since the CreateTaskResult was written). */
export interface PollGap {
  gap: number;
  pi: number;
  ms: number;
}

/**
 * A task's polling as RULINGS.md#poll-interval-frequency reads it: tasks/get sent after an event of the task
 * (since the requestor's previous tasks/get) are event-driven, not polls; the first poll is measured from the
 * CreateTaskResult as the receiver wrote it; the later polls form runs (split at events), each judged by the
 * sum of its gaps.
 */
export function polling(s: SessionView, t: TaskView): { first?: PollGap; runs: PollGap[][]; eventDriven: Exchange[] } {
  const events = taskEvents(s, t);
  const eventDriven: Exchange[] = [];
  const runs: PollGap[][] = [];
  let first: PollGap | undefined;
  let prevGet = t.created.answeredMs ?? t.created.sentMs;
  let lastPoll: number | undefined = t.created.answeredMs;
  let fromCreation = true;
  let run: PollGap[] = [];
  for (const g of t.gets) {
    const prompted = events.some((e) => e > prevGet && e <= g.sentMs);
    prevGet = g.sentMs;
    if (prompted) {
      eventDriven.push(g);
      // The polling after an event starts afresh: its first poll may follow a timer that ran meanwhile.
      if (run.length) runs.push(run);
      run = [];
      lastPoll = undefined;
      fromCreation = false;
      continue;
    }
    // The poll's own answer can share its millisecond: what it shows comes after the poll.
    const pi = lastShown(t, g.sentMs, g)?.pollInterval;
    if (lastPoll !== undefined && pi !== undefined) {
      const gap = { gap: g.sentMs - lastPoll, pi, ms: g.sentMs };
      if (fromCreation) first = gap;
      else run.push(gap);
    }
    fromCreation = false;
    lastPoll = g.sentMs;
  }
  if (run.length) runs.push(run);
  return { first, runs, eventDriven };
}

/** The receiver-side time (ms) at which the requestor's part of a session ended: its last recorded entry. */
function sessionEnd(run: Analysis, session?: string): number {
  const s = run.sessions.find((x) => x.id === session);
  return Math.max(0, ...(s?.entries ?? run.entries).map((e) => e.ms));
}

/** Why the requestor's run ended abnormally (killed at its bound, cut off by the suite, exited non-zero), or undefined. */
export function abnormalEnd(run: Analysis): string | undefined {
  if (run.exit.timedOut) return `killed at its ${run.timeoutMs} ms bound`;
  if (run.exit.startError) return 'it could not be started';
  if (run.exit.code !== 0) return `it exited with ${run.exit.code ?? run.exit.signal}`;
  return undefined;
}

/**
 * Why "after `sinceMs` the requestor did not …" is no verdict (RULINGS.md#response-time): its run ended
 * abnormally (killed at the bound, or exited with an error, e.g. its own request timed out on a starved
 * machine) within `windowMs` of `sinceMs`, so it had no time to do it. Undefined: judge it.
 */
export function endedTooSoon(run: Analysis, session: string, sinceMs: number, windowMs: number): string | undefined {
  const why = abnormalEnd(run);
  if (!why) return undefined;
  const end = sessionEnd(run, session);
  if (end - sinceMs > windowMs) return undefined;
  return `its run ended ${Math.max(0, Math.round(end - sinceMs))} ms later (${why}), within ${Math.round(windowMs)} ms`;
}

/**
 * The time a requestor takes to act on a task at its own pace: the act window of the last pollInterval shown, or
 * twice the longest gap it left between its own requests for the task and a second, whichever is longer (a slow
 * poller is within its rights: poll-respect-interval makes the interval a lower bound).
 */
export function ownPaceMs(t: TaskView): number {
  const times = [t.created.answeredMs ?? 0, ...t.gets.map((g) => g.sentMs)].sort((a, b) => a - b);
  const maxGap = Math.max(0, ...times.slice(1).map((x, i) => x - times[i]!));
  return Math.max(actWindowMs(lastShown(t)?.pollInterval), 2 * maxGap + 1_000);
}

/** The last moment the requestor acted on or saw the task (receiver-side ms). */
function lastActed(t: TaskView): number {
  return Math.max(t.gets[t.gets.length - 1]?.sentMs ?? 0, lastShown(t)?.ms ?? 0, t.created.answeredMs ?? 0);
}

/** A slow poller cut off (killed, or exited with an error) within its own pace after it last acted on the task, or undefined. */
export function slowPollerCutOff(run: Analysis, t: TaskView): string | undefined {
  const late = endedTooSoon(run, t.session, lastActed(t), ownPaceMs(t));
  return late ? `the requestor was still following task ${t.taskId} at its own pace (last seen or polled at ${at(lastActed(t))}): ${late}` : undefined;
}

/**
 * A requestor that returned control (tasks.md:175) and ended its session normally within its own pace after it last
 * acted on the task: it stopped following the task, which relies on no notification (notify-no-reliance). Undefined:
 * it stayed connected and idle longer, waiting for something, which is judged.
 */
export function returnedControl(run: Analysis, t: TaskView): string | undefined {
  if (abnormalEnd(run)) return undefined;
  const idle = sessionEnd(run, t.session) - lastActed(t);
  if (idle > ownPaceMs(t)) return undefined;
  return `task ${t.taskId}: the requestor ended its session ${Math.max(0, Math.round(idle))} ms after it last acted on the task (exit 0), before the task ended`;
}

/** The time a requestor polling at pollInterval needs to act on what it saw: twice the interval and a second (a busy machine). */
export function actWindowMs(pollInterval: number | undefined): number {
  return 2 * (pollInterval ?? 1000) + 1_000;
}

/**
 * Why the requestor did not reach a task's outcome through no fault of its own, or undefined: its run ended
 * abnormally (killed at the scenario's bound, cut off by the suite, or exited with an error) while it was
 * still following the task — its tasks/result was pending, or it had seen the task (or polled it) within the
 * time polling takes. Time alone is never a verdict.
 */
export function cutOffWhileFollowing(run: Analysis, t: TaskView): string | undefined {
  const why = abnormalEnd(run);
  if (!why) return undefined;
  const end = sessionEnd(run, t.session);
  if (t.results.some((x) => x.answeredMs === undefined))
    return `the requestor's tasks/result for task ${t.taskId} was still pending when its run ended at ${at(end)} (${why})`;
  const last = Math.max(t.gets[t.gets.length - 1]?.sentMs ?? 0, lastShown(t)?.ms ?? 0, t.created.answeredMs ?? 0);
  const pi = lastShown(t)?.pollInterval;
  const late = endedTooSoon(run, t.session, last, actWindowMs(pi));
  return late ? `the requestor was still following task ${t.taskId} (last seen or polled at ${at(last)}, pollInterval ${pi ?? 'none'} ms): ${late}` : undefined;
}
