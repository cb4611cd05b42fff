// The reference client: a spec-exact MCP Tasks requestor written on raw JSON-RPC (suites/wire/peer.ts), that
// implements the scenario contract of `mcp-tasks-conformance client` (docs/CLIENTS.md):
//
//   tsx mocks/client/reference-client.ts [--fault <name>]… [--latitude <name>]… <server URL | server command line>
//   env: MCP_CONFORMANCE_SCENARIO=<scenario>   CLIENT_FAULT=<fault>[,<fault>…]   CLIENT_LATITUDE=<latitude>[,…]
//
// The last argument is the Streamable HTTP URL, or (stdio) the server's command line, which the client
// spawns. Exit code 0 when the scenario ran to its end. Faulty modes: mocks/client/faults.ts; freedoms
// the spec leaves a requestor, as switches: mocks/client/latitudes.ts.
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { runClientWhenMain, type ReferenceClientOptions } from '../command.ts';
import { isTerminal, PROTOCOL_VERSION, RELATED_TASK_META, type TaskStatus } from '../../schema/protocol.ts';
import { elicitationContent } from '../../suites/wire/elicitation.ts';
import { RpcError } from '../receiver/store.ts';
import { abortableSleep, ClientTaskReceiver, RECEIVABLE, type ReceivableMethod, type WorkContext } from './task-receiver.ts';
import { Peer, type Message, type Response } from '../../suites/wire/peer.ts';
import { connectHttp, connectStdio, splitCommand } from '../../suites/wire/connect.ts';

import { CLIENT_FAULT_NAMES, isClientFault, type ClientFaultName } from './faults.ts';
import { CLIENT_LATITUDE_NAMES, isClientLatitude, type ClientLatitudeName } from './latitudes.ts';

export const CLIENT_NAME = 'mcp-tasks-reference-client';
export const CLIENT_VERSION = '0.1.0';

export type { ReferenceClientOptions };

const REQUEST_TIMEOUT_MS = 15_000;
// Below the scenarios' 20 s bound: a tasks/result that never answers ends the run (exit 1) before the harness kills it.
const RESULT_TIMEOUT_MS = 12_000;

class Aborted extends Error {}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Aborted('aborted'));
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(new Aborted('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function has(obj: any, path: string): boolean {
  let cur = obj;
  for (const k of path.split('.')) {
    if (cur === null || typeof cur !== 'object' || !(k in cur)) return false;
    cur = cur[k];
  }
  return cur !== undefined && cur !== null && cur !== false;
}

/** Latitude latency: every message leaves `ms` late, in the order sent. */
export const CLIENT_LATENCY_MS = 150;

function delaySends(peer: Peer, ms: number): void {
  const t = peer.transport;
  const send = t.send.bind(t);
  let queue: Promise<unknown> = Promise.resolve();
  t.send = (message, options) => {
    const due = Date.now() + ms;
    const sent = queue.then(() => sleep(Math.max(0, due - Date.now()))).then(() => send(message, options));
    queue = sent.catch(() => undefined);
    return sent;
  };
}

async function connect(serverArg: string, faults: ReadonlySet<ClientFaultName>, latitudes: ReadonlySet<ClientLatitudeName>): Promise<Peer> {
  let peer: Peer;
  if (/^https?:\/\//i.test(serverArg)) {
    if (!faults.has('ignore-get-stream') && !latitudes.has('no-get-stream')) peer = await connectHttp({ url: serverArg }, { label: 'reference client' });
    else {
      // A fetch that refuses GET: the SDK transport then does without the standalone stream (latitude
      // no-get-stream; the fault ignore-get-stream opens one of its own after initialize and ignores it).
      const noGet = async (url: string | URL, init?: RequestInit) =>
        (init?.method ?? 'GET').toUpperCase() === 'GET' ? new globalThis.Response(null, { status: 405 }) : fetch(url, init);
      const transport = new StreamableHTTPClientTransport(new URL(serverArg), { fetch: noGet });
      peer = new Peer(transport, { label: 'reference client (no GET stream)' });
      await transport.start();
    }
  } else {
    const { command, args } = splitCommand(serverArg);
    peer = await connectStdio({ command, args }, { label: 'reference client' });
  }
  if (latitudes.has('latency')) delaySends(peer, CLIENT_LATENCY_MS);
  return peer;
}

/**
 * Fault ignore-get-stream: opens the standalone GET SSE stream itself (so the server may deliver there)
 * and reads it without ever handing what arrives to the client: requests there go unanswered.
 */
function openIgnoredGetStream(serverArg: string, peer: Peer, signal: AbortSignal): void {
  const sessionId = (peer.transport as StreamableHTTPClientTransport).sessionId;
  const headers: Record<string, string> = { accept: 'text/event-stream', 'mcp-protocol-version': PROTOCOL_VERSION };
  if (sessionId) headers['mcp-session-id'] = sessionId;
  void (async () => {
    const res = await fetch(serverArg, { method: 'GET', headers, signal });
    for await (const _ of res.body ?? []) void _; // drained, never read
  })().catch(() => undefined);
}

/** Runs one scenario; resolves with the exit code (0: ran to its end). */
export async function runReferenceClient(o: ReferenceClientOptions): Promise<number> {
  const log = o.log ?? (() => undefined);
  const unknown = (o.faults ?? []).filter((f) => !isClientFault(f));
  if (unknown.length) {
    log(`unknown fault(s): ${unknown.join(', ')} (known: ${CLIENT_FAULT_NAMES.join(', ')})`);
    return 2;
  }
  const unknownLatitudes = (o.latitudes ?? []).filter((l) => !isClientLatitude(l));
  if (unknownLatitudes.length) {
    log(`unknown latitude(s): ${unknownLatitudes.join(', ')} (known: ${CLIENT_LATITUDE_NAMES.join(', ')})`);
    return 2;
  }
  const faults = new Set(o.faults as ClientFaultName[]);
  const latitudes = new Set(o.latitudes as ClientLatitudeName[]);
  let peer: Peer;
  try {
    peer = await connect(o.serverArg, faults, latitudes);
  } catch (e) {
    log(`cannot connect to ${o.serverArg}: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
  const streams = new AbortController();
  const onAbort = () => void peer.close();
  o.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const afterInit = () => {
      if (faults.has('ignore-get-stream') && /^https?:\/\//i.test(o.serverArg)) openIgnoredGetStream(o.serverArg, peer, streams.signal);
    };
    if (o.scenario === TASK_RECEIVER_SCENARIO) await new ReferenceTaskReceiver(peer, o.signal, log, latitudes, faults).run();
    else await new ReferenceRequestor(peer, faults, latitudes, o.scenario, o.signal, log, afterInit).run();
    return 0;
  } catch (e) {
    log(`scenario ${o.scenario} failed: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  } finally {
    streams.abort();
    o.signal?.removeEventListener('abort', onAbort);
    await peer.close();
  }
}

class ReferenceRequestor {
  private readonly receiver: ClientTaskReceiver;
  private caps: any = {};
  private lastTaskId: string | undefined;

  constructor(
    private readonly peer: Peer,
    private readonly faults: ReadonlySet<ClientFaultName>,
    private readonly latitudes: ReadonlySet<ClientLatitudeName>,
    private readonly scenario: string,
    private readonly signal: AbortSignal | undefined,
    private readonly log: (line: string) => void,
    private readonly afterInit: () => void = () => undefined,
  ) {
    // A task receiver too (declared for sampling/createMessage only): servers may send it task-augmented
    // requests while its tools/call runs (mocks/receiver/client-probe.ts). A task-augmented
    // elicitation/create (an undeclared type) goes to it too, and is processed normally there.
    // Latitude no-tasks-capability (caps-declare): it declares none, and processes every request normally.
    const undeclared = latitudes.has('no-tasks-capability') || faults.has('receiver-undeclared-tasks');
    this.receiver = new ClientTaskReceiver(peer, {
      declared: undeclared ? [] : ['sampling/createMessage'],
      pollIntervalMs: RECEIVER_POLL_INTERVAL_MS,
      work: roleWork,
      log,
      faults,
      ...receiverLatitudes(latitudes),
    });
    // Input requests of a task (elicitation/create): accept, echoing the task's related-task _meta
    // (related-task-all-messages: the response belongs to the task as much as the request).
    peer.onRequest((req) => {
      if (req.method !== 'elicitation/create' || req.params?.task !== undefined) return undefined; // with `task`: the receiver's
      const result: Record<string, unknown> = { action: 'accept', content: elicitationContent(req.params, 'reference client') };
      const rel = req.params?._meta?.[RELATED_TASK_META];
      if (rel && typeof rel.taskId === 'string' && !faults.has('elicitation-no-related-task')) result._meta = { [RELATED_TASK_META]: { taskId: rel.taskId } };
      // Latitude poll-on-events: the input given is an event of the task; look at its status at once.
      if (rel && typeof rel.taskId === 'string' && latitudes.has('poll-on-events')) setTimeout(() => void this.get(rel.taskId).catch(() => undefined), 10);
      return { result };
    });
  }

  async run(): Promise<void> {
    const init = await this.peer.initialize(this.receiver.capabilities, { name: CLIENT_NAME, version: CLIENT_VERSION }, REQUEST_TIMEOUT_MS);
    if (init.error) throw new Error(`initialize failed: ${init.error.code} ${init.error.message}`);
    this.afterInit();
    this.caps = init.result?.capabilities ?? {};
    const tools = await this.listTools();
    for (const tool of tools) await this.callTool(tool);
    if (this.scenario === 'list-pages') await this.listTasks();
  }

  private ok(r: Response, what: string): any {
    if (r.error) throw new Error(`${what}: error ${r.error.code} ${r.error.message}`);
    return r.result;
  }

  private async listTools(): Promise<any[]> {
    const tools: any[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 100; i++) {
      const r = this.ok(await this.peer.request('tools/list', cursor === undefined ? {} : { cursor }, { timeoutMs: REQUEST_TIMEOUT_MS }), 'tools/list');
      if (Array.isArray(r?.tools)) tools.push(...r.tools);
      if (typeof r?.nextCursor !== 'string') break;
      cursor = r.nextCursor;
    }
    return tools;
  }

  /** Tool-level negotiation (tasks.md "Tool-Level Negotiation"), bent only by the faults. */
  private augments(tool: any): boolean {
    const support = tool?.execution?.taskSupport;
    const taskable = support === 'required' || support === 'optional';
    const declared = has(this.caps, 'tasks.requests.tools.call');
    const f = this.faults;
    if (!declared) {
      if (taskable && f.has('ignore-tasks-capability') && this.caps.tasks === undefined) return true;
      if (taskable && f.has('ignore-tools-call-capability') && this.caps.tasks !== undefined) return true;
      return false; // tool-no-cap-must-not-augment, caps-no-tasks-should-not-create
    }
    if (support === 'required') return !f.has('no-augment-required'); // tool-required-must-augment
    if (support === 'optional') return !this.latitudes.has('plain-optional'); // tool-optional-may: this client prefers tasks (latitude plain-optional: not)
    return f.has('augment-forbidden'); // tool-forbidden-must-not-augment
  }

  private meta(taskId: string): Record<string, unknown> {
    return { _meta: { [RELATED_TASK_META]: { taskId } } };
  }

  private taskRequestParams(taskId: string): Record<string, unknown> {
    const p: Record<string, unknown> = { taskId };
    if (this.faults.has('related-task-in-requests')) Object.assign(p, this.meta(taskId));
    return p;
  }

  private get(taskId: string): Promise<Response> {
    const p = this.taskRequestParams(taskId);
    if (this.faults.has('augment-task-requests')) p.task = {};
    return this.peer.request('tasks/get', p, { timeoutMs: REQUEST_TIMEOUT_MS });
  }

  private result(taskId: string): Promise<Response> {
    const p = this.taskRequestParams(taskId);
    if (this.faults.has('augment-task-requests')) p.task = {};
    return this.peer.request('tasks/result', p, { timeoutMs: RESULT_TIMEOUT_MS });
  }

  private interval(task: any): number {
    if (this.faults.has('fast-poll')) return 50;
    const p = task?.pollInterval;
    const pi = typeof p === 'number' && Number.isFinite(p) && p >= 0 ? Math.min(p, 60_000) : 1000;
    return this.latitudes.has('slow-polling') ? pi * 2 : pi; // poll-respect-interval: a lower bound
  }

  private async callTool(tool: any): Promise<void> {
    const params: Record<string, unknown> = { name: tool.name, arguments: {} };
    // create-ttl-may: ask for a one-minute ttl (latitude no-ttl: ask for none).
    if (this.augments(tool)) params.task = this.latitudes.has('no-ttl') ? {} : { ttl: 60_000 };
    const r = await this.peer.request('tools/call', params, { timeoutMs: REQUEST_TIMEOUT_MS });
    const task = r.result?.task;
    if (!params.task || !task || typeof task.taskId !== 'string') {
      if (r.error) this.log(`tools/call ${tool.name}: error ${r.error.code} ${r.error.message}`);
      return; // a normal result (or an error): nothing to follow
    }
    this.lastTaskId = task.taskId;
    if (this.scenario === 'cancel') await this.cancel(task, r);
    else await this.follow(task);
  }

  /** Polls until terminal (poll-until-terminal, poll-respect-interval); tasks/result on input_required and at the end. */
  private async follow(task: any): Promise<void> {
    const taskId: string = task.taskId;
    let last = task;
    let inputPolls = 0;
    const events = this.latitudes.has('poll-on-events');
    for (;;) {
      const status = last?.status as TaskStatus;
      if (isTerminal(status)) {
        if (status !== 'cancelled' && !this.latitudes.has('skip-result')) {
          await this.result(taskId);
          if (events) await this.get(taskId); // the answer is an event of the task
        }
        return;
      }
      if (status === 'working' && this.latitudes.has('wait-on-result')) {
        // poll-not-stopped-by-result: a requestor waiting on tasks/result need not poll meanwhile.
        const r = await this.result(taskId);
        if (!r.error) return;
        this.log(`tasks/result for ${taskId} failed (${r.error.code} ${r.error.message}); polling again`);
      } else if (status === 'input_required') {
        if (this.faults.has('no-result-on-input-required')) {
          if (++inputPolls > 10) return;
        } else {
          // input-required-call-result: tasks/result delivers the input requests and blocks until the end.
          const r = await this.result(taskId);
          if (events) await this.get(taskId); // the answer (or its failure) is an event of the task
          if (!r.error) return;
          this.log(`tasks/result for ${taskId} failed (${r.error.code} ${r.error.message}); polling again`);
          // poll-not-stopped-by-result: no longer waiting on tasks/result, so poll again.
          if (this.faults.has('no-poll-after-result-error')) return;
        }
      } else if (this.faults.has('stop-polling')) {
        // Waits for a status notification that never comes, connected and idle, then checks the line is alive and gives up.
        await sleep(3 * this.interval(last) + 2_000, this.signal);
        await this.peer.request('ping', undefined, { timeoutMs: REQUEST_TIMEOUT_MS });
        return;
      }
      await sleep(this.interval(last), this.signal);
      const g = await this.get(taskId);
      if (g.error) {
        this.log(`tasks/get ${taskId}: error ${g.error.code} ${g.error.message}`);
        return;
      }
      last = g.result;
    }
  }

  /** Scenario cancel: one poll, tasks/cancel (cancellation-use-tasks-cancel), then confirm with tasks/get. */
  private async cancel(task: any, created: Response): Promise<void> {
    const taskId: string = task.taskId;
    await sleep(this.interval(task), this.signal);
    const g = await this.get(taskId);
    if (!g.error && isTerminal(g.result?.status)) return;
    if (this.faults.has('cancel-notification')) {
      await this.peer.notify('notifications/cancelled', { requestId: created.id, reason: 'the user cancelled the task' });
    } else {
      const c = await this.peer.request('tasks/cancel', this.taskRequestParams(taskId), { timeoutMs: REQUEST_TIMEOUT_MS });
      if (c.error) this.log(`tasks/cancel ${taskId}: error ${c.error.code} ${c.error.message}`);
    }
    await sleep(Math.min(this.interval(task), 200), this.signal);
    await this.get(taskId);
  }

  /** Walks every page of tasks/list (list-cursor-opaque: cursors go back exactly as received). */
  private async listTasks(): Promise<void> {
    let cursor: string | undefined;
    for (let page = 0; page < 100; page++) {
      const params: Record<string, unknown> = cursor === undefined ? {} : { cursor };
      if (this.faults.has('related-task-in-list') && this.lastTaskId) Object.assign(params, this.meta(this.lastTaskId));
      const r = await this.peer.request('tasks/list', params, { timeoutMs: REQUEST_TIMEOUT_MS });
      if (r.error) {
        this.log(`tasks/list: error ${r.error.code} ${r.error.message}`);
        return;
      }
      const next = r.result?.nextCursor;
      if (typeof next !== 'string') return;
      cursor = this.faults.has('modify-cursor') ? next.slice(0, -1) + (next.endsWith('A') ? 'B' : 'A') : next;
    }
  }
}

// --- scenario task-receiver: the client as a task receiver ---------------------------------------
// Declares tasks.requests.sampling.createMessage and tasks.requests.elicitation.create (with list and
// cancel) and serves until the connection closes. The role contract (docs/CLIENTS.md): a request whose
// text (sampling: the first message; elicitation: `message`) contains "slow" takes 3 s, "fail" ends in
// a JSON-RPC error (-1 "User rejected the request"), anything else completes at once. Results are
// deterministic, so a task-augmented request and a plain one return the same thing.

export const TASK_RECEIVER_SCENARIO = 'task-receiver';
export const RECEIVER_POLL_INTERVAL_MS = 100;
export const SLOW_MS = 3000;
export const FAIL_MS = 1500;

/** Bound the task receiver waits for a request's work before writing its CreateTaskResult (latitude instant-completion). */
export const INSTANT_COMPLETION_MS = 200;

/** Options of the client's task receiver that latitudes set. */
function receiverLatitudes(latitudes: ReadonlySet<ClientLatitudeName>): { answerAfterWorkMs?: number } {
  // RULINGS.md#new-task-working: work that ends at once may end before the CreateTaskResult is written.
  return latitudes.has('instant-completion') ? { answerAfterWorkMs: INSTANT_COMPLETION_MS } : {};
}

/** The work of a request under the role contract (deterministic given its text). */
async function roleWork(method: ReceivableMethod, p: Record<string, any>, ctx: WorkContext): Promise<Record<string, unknown>> {
  const text = String(method === 'sampling/createMessage' ? (p.messages?.[0]?.content?.text ?? '') : (p.message ?? ''));
  // A failing request takes a moment, so that a tasks/result can wait for its end (result.waiting-answered-on-fail).
  await abortableSleep(/slow/i.test(text) ? SLOW_MS : /fail/i.test(text) ? FAIL_MS : 20, ctx.signal);
  if (/fail/i.test(text)) throw new RpcError(-1, 'User rejected the request');
  if (method === 'elicitation/create') return { action: 'accept', content: elicitationContent(p, 'reference client') };
  return { role: 'assistant', content: { type: 'text', text: `reference client reply to: ${text}` }, model: 'reference-client-model', stopReason: 'endTurn' };
}

class ReferenceTaskReceiver {
  private readonly receiver: ClientTaskReceiver;

  constructor(
    private readonly peer: Peer,
    private readonly signal: AbortSignal | undefined,
    log: (line: string) => void,
    latitudes: ReadonlySet<ClientLatitudeName> = new Set(),
    faults: ReadonlySet<ClientFaultName> = new Set(),
  ) {
    // The receiver-* faults act here too (the task-receiver battery then sees them: e.g. receiver-rejects-task).
    this.receiver = new ClientTaskReceiver(peer, {
      declared: RECEIVABLE,
      pollIntervalMs: RECEIVER_POLL_INTERVAL_MS,
      work: roleWork,
      log,
      faults,
      ...receiverLatitudes(latitudes),
    });
  }

  async run(): Promise<void> {
    const init = await this.peer.initialize(this.receiver.capabilities, { name: CLIENT_NAME, version: CLIENT_VERSION }, REQUEST_TIMEOUT_MS);
    if (init.error) throw new Error(`initialize failed: ${init.error.code} ${init.error.message}`);
    // Serve until the connection closes or we are stopped.
    await new Promise<void>((resolve) => {
      this.signal?.addEventListener('abort', () => resolve(), { once: true });
      const wait = () => void this.peer.waitClosed(3_600_000).then((closed) => (closed ? resolve() : wait()));
      wait();
    });
    this.receiver.close();
  }
}

export type { Message };

runClientWhenMain(
  import.meta.url,
  'reference-client',
  'usage: MCP_CONFORMANCE_SCENARIO=<scenario> reference-client.ts [--fault <name>]… [--latitude <name>]… <server URL | server command line>',
  runReferenceClient,
);
