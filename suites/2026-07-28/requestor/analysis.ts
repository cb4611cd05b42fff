// Reads a 2026-07-28 scenario's recorded messages into what the requestor checks judge: the exchanges (each
// request of the client with the server's answer and the HTTP headers it came with), and per task: the
// request that created it, every state shown to the client (status, pollIntervalMs, inputRequests, time),
// and the client's tasks/get, tasks/update, tasks/cancel for it.
import { isTaskStatus, ResultType, type TaskStatus } from '../../../schema/2026-07-28/protocol.ts';
import { short as shortText } from '../../engine/text.ts';
import { actWindowMs } from '../../requestor/analysis.ts';
import type { RecordedEntry, ScenarioRun } from './harness.ts';
import { isObj } from '../../../schema/json.ts';

export interface Exchange {
  method: string;
  id: unknown;
  params: any;
  request: RecordedEntry;
  /** HTTP request headers (lower-case names); undefined on stdio. */
  headers?: Record<string, string>;
  response?: RecordedEntry;
  result?: any;
  error?: { code: number; message: string; data?: unknown };
  sentMs: number;
  answeredMs?: number;
}

export interface StateShown {
  status: TaskStatus;
  pollIntervalMs?: number;
  inputRequests?: Record<string, unknown>;
  ms: number;
  /** 'create' (the CreateTaskResult), 'tasks/get', 'notifications/tasks'. */
  via: string;
  /** The exchange whose answer showed it (none for a notification). */
  by?: Exchange;
}

export interface TaskView {
  taskId: string;
  /** The request answered with the CreateTaskResult. */
  created: Exchange;
  shown: StateShown[];
  gets: Exchange[];
  updates: Exchange[];
  cancels: Exchange[];
}

export interface Analysis extends ScenarioRun {
  /** Requests the client sent, with the server's answers, in order. */
  requests: Exchange[];
  /** Notifications the client sent. */
  notifications: RecordedEntry[];
  /** Notifications the server sent (acknowledgements, notifications/tasks). */
  serverNotifications: RecordedEntry[];
  /** Tasks created by a CreateTaskResult to a tools/call. */
  tasks: Map<string, TaskView>;
  /** CreateTaskResults that answered a request other than tools/call (invalid answers), by task id. */
  invalidTasks: Map<string, Exchange>;
  /** Results whose resultType no revision defines, carrying a taskId (scenario unknown-result-type), by task id. */
  unknownResults: Map<string, Exchange>;
}

const key = (id: unknown) => JSON.stringify(id);

function pair(entries: readonly RecordedEntry[]): { requests: Exchange[]; notifications: RecordedEntry[]; serverNotifications: RecordedEntry[] } {
  const requests: Exchange[] = [];
  const notifications: RecordedEntry[] = [];
  const serverNotifications: RecordedEntry[] = [];
  const open = new Map<string, Exchange[]>();
  for (const e of entries) {
    const m = e.message as any;
    if (!isObj(m)) continue;
    if (e.dir === 'in' && typeof m.method === 'string') {
      if (!('id' in m)) {
        notifications.push(e);
        continue;
      }
      const x: Exchange = { method: m.method, id: m.id, params: m.params, request: e, sentMs: e.ms, ...(e.headers ? { headers: e.headers } : {}) };
      requests.push(x);
      const k = `${e.session} ${key(m.id)}`;
      open.set(k, [...(open.get(k) ?? []), x]);
    } else if (e.dir === 'out' && typeof m.method === 'string' && !('id' in m)) {
      serverNotifications.push(e);
    } else if (e.dir === 'out' && typeof m.method !== 'string' && 'id' in m) {
      const k = `${e.session} ${key(m.id)}`;
      const waiting = open.get(k);
      const x = waiting?.shift();
      if (!x) continue;
      x.response = e;
      x.answeredMs = e.ms;
      if (isObj(m.error)) x.error = m.error as Exchange['error'];
      else x.result = m.result;
    }
  }
  return { requests, notifications, serverNotifications };
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function stateOf(t: any, ms: number, via: string, by?: Exchange): StateShown | undefined {
  if (!isObj(t) || !isTaskStatus(t.status)) return undefined;
  return {
    ...(by ? { by } : {}),
    status: t.status,
    ...(num(t.pollIntervalMs) !== undefined ? { pollIntervalMs: num(t.pollIntervalMs) } : {}),
    ...(isObj(t.inputRequests) ? { inputRequests: t.inputRequests } : {}),
    ms,
    via,
  };
}

export function analyse(run: ScenarioRun): Analysis {
  const { requests, notifications, serverNotifications } = pair(run.entries);
  const tasks = new Map<string, TaskView>();
  const invalidTasks = new Map<string, Exchange>();
  const unknownResults = new Map<string, Exchange>();
  const known: unknown[] = [undefined, ResultType.Complete, ResultType.InputRequired, ResultType.Task];
  for (const x of requests) {
    const r = x.result;
    if (isObj(r) && !known.includes(r.resultType) && typeof r.taskId === 'string') unknownResults.set(r.taskId, x);
    if (!isObj(r) || r.resultType !== ResultType.Task || typeof r.taskId !== 'string' || !x.response) continue;
    if (x.method !== 'tools/call') {
      invalidTasks.set(r.taskId, x);
      continue;
    }
    const v: TaskView = { taskId: r.taskId, created: x, shown: [], gets: [], updates: [], cancels: [] };
    const s = stateOf(r, x.response.ms, 'create', x);
    if (s) v.shown.push(s);
    tasks.set(r.taskId, v);
  }
  for (const x of requests) {
    const v = typeof x.params?.taskId === 'string' ? tasks.get(x.params.taskId) : undefined;
    if (!v) continue;
    if (x.method === 'tasks/get') {
      v.gets.push(x);
      const s = x.response && !x.error ? stateOf(x.result, x.response.ms, 'tasks/get', x) : undefined;
      if (s) v.shown.push(s);
    } else if (x.method === 'tasks/update') v.updates.push(x);
    else if (x.method === 'tasks/cancel') v.cancels.push(x);
  }
  for (const e of serverNotifications) {
    const m = e.message as any;
    if (m.method !== 'notifications/tasks') continue;
    const v = typeof m.params?.taskId === 'string' ? tasks.get(m.params.taskId) : undefined;
    const s = v ? stateOf(m.params, e.ms, 'notifications/tasks') : undefined;
    if (v && s) v.shown.push(s);
  }
  for (const v of tasks.values()) v.shown.sort((a, b) => a.ms - b.ms);
  return { ...run, requests, notifications, serverNotifications, tasks, invalidTasks, unknownResults };
}

export function allTasks(a: Analysis): TaskView[] {
  return [...a.tasks.values()];
}

/** The last state shown to the client at or before `ms` (or overall). */
export function lastShown(t: TaskView, atMs = Infinity): StateShown | undefined {
  let last: StateShown | undefined;
  for (const s of t.shown) if (s.ms <= atMs) last = s;
  return last;
}

/** The last state shown to the client before it sent `x` (not the one `x`'s own answer showed). */
export function shownBefore(t: TaskView, x: Exchange): StateShown | undefined {
  let last: StateShown | undefined;
  for (const s of t.shown) if (s.ms <= x.sentMs && s.by !== x) last = s;
  return last;
}

/** The client's task requests for `t` (get, update, cancel) in the order sent. */
export function taskRequests(t: TaskView): Exchange[] {
  return [...t.gets, ...t.updates, ...t.cancels].sort((a, b) => a.sentMs - b.sentMs);
}

/** The last request of the client for the task was answered with an error (the client may have given up for that reason). */
export function endedOnError(t: TaskView): Exchange | undefined {
  const last = taskRequests(t).at(-1);
  return last?.error ? last : undefined;
}

export function short(v: unknown, max = 160): string {
  return shortText(v, max);
}

export function at(ms: number | undefined): string {
  return ms === undefined ? '(never)' : `+${Math.round(ms)} ms`;
}

export function createdBy(t: TaskView): string {
  return `tools/call "${String(t.created.params?.name)}"`;
}

/** When the client's run ended, ms from its start: its last recorded message, or its exit (a kill at the bound) if later. */
function runEndMs(run: Analysis): number {
  return Math.max(0, run.exit.durationMs, ...run.entries.map((e) => e.ms));
}

/**
 * Why "after `sinceMs` the client did not …" is no verdict (RULINGS.md#response-time): it was killed at the
 * scenario's bound within `windowMs` of `sinceMs`, so only time stopped it. Undefined: judge it (a client that
 * stopped on its own and waited to be killed ended later than that; one that exited, even with an error, ended
 * on its own).
 */
export function endedTooSoon(run: Analysis, sinceMs: number, windowMs: number, doing = 'before it could act'): string | undefined {
  if (!run.exit.timedOut) return undefined;
  const gap = runEndMs(run) - sinceMs;
  if (gap > windowMs) return undefined;
  return `cut at the scenario's bound ${doing} (killed at its ${run.timeoutMs} ms bound, ${Math.max(0, Math.round(gap))} ms after ${at(sinceMs)}, within ${Math.round(windowMs)} ms)`;
}

/**
 * Why the client did not follow task `t` to its end through no fault of its own, or undefined: its run was cut
 * at the scenario's bound while it was still polling: it had seen or polled the task
 * (or sent `sinceMs`'s request) within the time a poll at the last pollIntervalMs takes. Time alone is never a verdict.
 */
export function cutWhileFollowing(run: Analysis, t: TaskView, sinceMs = 0): string | undefined {
  const last = Math.max(sinceMs, t.gets.at(-1)?.sentMs ?? 0, lastShown(t)?.ms ?? 0, t.created.answeredMs ?? 0);
  const pi = lastShown(t)?.pollIntervalMs;
  const late = endedTooSoon(run, last, actWindowMs(pi), 'while still polling');
  return late ? `task ${t.taskId} (last seen or polled at ${at(last)}, pollIntervalMs ${pi ?? 'none'}): ${late}` : undefined;
}
