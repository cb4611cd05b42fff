// Reads a scenario's recorded transcript into what the requestor checks judge: per receiver session,
// the exchanges (requests with their responses, both directions), the receiver's declared
// capabilities and tools, and per task: how it was created, every status shown to the client (with
// its pollInterval and time), and the client's tasks/get, tasks/result, tasks/cancel for it.
import { short as shortText } from '../engine/text.ts';
import { AUGMENTABLE_REQUESTS, isTaskStatus, isTerminal, RELATED_TASK_META, type TaskStatus } from '../../schema/protocol.ts';
import type { Message } from '../wire/peer.ts';
import type { RecordedEntry, ScenarioRun } from './harness.ts';

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
const isObj = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);

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
  const show = (task: any, ms: number, via: string) => {
    if (!isObj(task) || typeof task.taskId !== 'string' || !isTaskStatus(task.status)) return;
    s.tasks.get(task.taskId)?.shown.push({ status: task.status, pollInterval: num(task.pollInterval), ms, via });
  };
  for (const x of clientRequests) {
    const tid = x.params?.taskId;
    const v = typeof tid === 'string' ? s.tasks.get(tid) : undefined;
    if (x.method === 'tasks/get' && v) {
      v.gets.push(x);
      if (x.response) show(x.result, x.response.ms, 'tasks/get');
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

/** The last status shown to the client before `ms` (or overall). */
export function lastShown(t: TaskView, beforeMs = Infinity): StatusShown | undefined {
  let last: StatusShown | undefined;
  for (const s of t.shown) if (s.ms <= beforeMs) last = s;
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
