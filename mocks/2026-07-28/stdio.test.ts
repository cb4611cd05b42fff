// The reference extension server over stdio (in process, a stream pair): every tool role end to end, the
// per-request rules (_meta, version, capabilities, resultType), the extension's methods, and malformed input
// answered with the right JSON-RPC error while it keeps serving.
import { afterEach, describe, expect, it } from 'vitest';
import { createExtensionServer, type ReferenceExtensionServer, type ServerOptions } from './index.ts';
import { Meta, Method, TASKS_EXTENSION } from './protocol.ts';
import { callTool, createTask, DECLARING, getTask, meta, NON_DECLARING, pollTask, StreamClient } from './test-client.ts';

const FAST: ServerOptions = { timings: { completesMs: 30, slowMs: 5_000 }, pollIntervalMs: 20 };

let servers: ReferenceExtensionServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

function start(options: ServerOptions = {}) {
  const s = createExtensionServer({ ...FAST, ...options });
  servers.push(s);
  const { client, toServer, fromServer } = StreamClient.pair();
  s.stdio(toServer, fromServer);
  return { s, c: client };
}

const terminal = (t: Record<string, unknown>) => ['completed', 'failed', 'cancelled'].includes(t.status as string);

describe('discovery and per-request rules', () => {
  it('server/discover: versions, the extension, resultType, serverInfo', async () => {
    const { c } = start();
    const r = await c.request(Method.ServerDiscover, {}, { caps: {} });
    expect(r.result).toMatchObject({
      resultType: 'complete',
      supportedVersions: ['2026-07-28'],
      capabilities: { tools: {}, extensions: { [TASKS_EXTENSION]: {} } },
      _meta: { [Meta.ServerInfo]: { name: expect.any(String), version: expect.any(String) } },
    });
  });

  it('tools/list names every role and carries resultType', async () => {
    const { c } = start();
    const r = await c.request(Method.ToolsList);
    expect(r.result?.resultType).toBe('complete');
    expect((r.result!.tools as { name: string }[]).map((t) => t.name)).toEqual([
      'complete',
      'slow',
      'fail_rpc',
      'tool_error',
      'ask',
      'ask_two',
      'ask_rounds',
      'mrtr_then_task',
      'task_only',
    ]);
  });

  it('a request without the required _meta fields: -32602; an unknown version: -32022 with the supported list', async () => {
    const { c } = start();
    expect((await c.request(Method.ToolsList, { _meta: undefined })).error?.code).toBe(-32602);
    expect((await c.request(Method.ToolsList, { _meta: { [Meta.ProtocolVersion]: '2026-07-28' } })).error?.code).toBe(-32602);
    const v = await c.request(Method.ToolsList, { _meta: meta(DECLARING, '1900-01-01') });
    expect(v.error).toMatchObject({ code: -32022, data: { supported: ['2026-07-28'], requested: '1900-01-01' } });
  });

  it('initialize (legacy) is refused naming the supported versions; unknown methods, tasks/result and tasks/list: -32601', async () => {
    const { c } = start();
    const i = await c.request('initialize', { _meta: undefined, protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } });
    expect(i.error).toMatchObject({ code: -32022, data: { supported: ['2026-07-28'] } });
    expect(i.error?.message).toContain('2026-07-28');
    for (const m of ['tasks/result', 'tasks/list', 'nope/nothing', 'ping']) expect((await c.request(m, { taskId: 'x' })).error?.code).toBe(-32601);
  });
});

describe('tool roles, declaring client (tasks)', () => {
  it('complete: CreateTaskResult (flat Task, resultType task), tasks/get resolves at once, then completed with the result inlined', async () => {
    const { c } = start();
    const r = await callTool(c, 'complete');
    expect(r.result).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 60_000, pollIntervalMs: 20 });
    expect((await callTool(c, 'ask')).result).toMatchObject({ resultType: 'task', status: 'working' });
    expect(r.result?.taskId).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(r.result?.createdAt as string)).not.toBeNaN();
    const first = await getTask(c, r.result!.taskId as string);
    expect(first.result).toMatchObject({ resultType: 'complete', taskId: r.result!.taskId });
    const done = await pollTask(c, r.result!.taskId as string, terminal);
    expect(done).toMatchObject({
      status: 'completed',
      resultType: 'complete',
      result: { resultType: 'complete', content: [{ type: 'text', text: 'done' }], isError: false },
    });
    expect(done).not.toHaveProperty('error');
  });

  it('fail_rpc: failed with the JSON-RPC error and a statusMessage; tool_error: completed with isError', async () => {
    const { c } = start();
    const f = await pollTask(c, await createTask(c, 'fail_rpc'), terminal);
    expect(f).toMatchObject({ status: 'failed', error: { code: -32603, message: expect.any(String) }, statusMessage: expect.any(String) });
    expect(f).not.toHaveProperty('result');
    const e = await pollTask(c, await createTask(c, 'tool_error'), terminal);
    expect(e).toMatchObject({ status: 'completed', result: { isError: true } });
  });

  it('slow: tasks/cancel acks empty, the task ends cancelled and stays so', async () => {
    const { c, s } = start();
    const id = await createTask(c, 'slow');
    const ack = await c.request(Method.TasksCancel, { taskId: id });
    expect(ack.result).toEqual({ resultType: 'complete', _meta: expect.any(Object) });
    expect(Object.keys(ack.result!).sort()).toEqual(['_meta', 'resultType']);
    expect((await getTask(c, id)).result).toMatchObject({ status: 'cancelled' });
    expect((await c.request(Method.TasksCancel, { taskId: id })).result?.resultType).toBe('complete');
    expect(s.server.store.peek(id)?.status).toBe('cancelled');
  });

  it('ask: input_required with one elicitation, tasks/update acks, then completed with the answer', async () => {
    const { c } = start();
    const id = await createTask(c, 'ask');
    const t = await pollTask(c, id, (x) => x.status === 'input_required');
    const keys = Object.keys(t.inputRequests as object);
    expect(keys).toHaveLength(1);
    expect((t.inputRequests as Record<string, any>)[keys[0]!]).toMatchObject({ method: 'elicitation/create', params: { mode: 'form' } });
    const again = await getTask(c, id);
    expect(Object.keys(again.result!.inputRequests as object)).toEqual(keys);
    const ack = await c.request(Method.TasksUpdate, { taskId: id, inputResponses: { [keys[0]!]: { action: 'accept', content: { answer: 'Luca' } } } });
    expect(ack.result?.resultType).toBe('complete');
    const done = await pollTask(c, id, terminal);
    expect(done).toMatchObject({ status: 'completed', result: { content: [{ text: 'answer: Luca' }] } });
  });

  it('ask_two: both requests outstanding; a partial answer keeps it input_required with the other; unknown and answered keys are ignored', async () => {
    const { c } = start();
    const id = await createTask(c, 'ask_two');
    const t = await pollTask(c, id, (x) => x.status === 'input_required');
    const [k1, k2] = Object.keys(t.inputRequests as object);
    expect(k2).toBeDefined();
    await c.request(Method.TasksUpdate, { taskId: id, inputResponses: { [k1!]: { action: 'accept', content: { answer: 'A' } }, nope: { whatever: 1 } } });
    const mid = (await getTask(c, id)).result!;
    expect(mid.status).toBe('input_required');
    expect(Object.keys(mid.inputRequests as object)).toEqual([k2]);
    await c.request(Method.TasksUpdate, {
      taskId: id,
      inputResponses: { [k1!]: { action: 'accept', content: { answer: 'CHANGED' } }, [k2!]: { action: 'accept', content: { answer: 'B' } } },
    });
    expect(await pollTask(c, id, terminal)).toMatchObject({ status: 'completed', result: { content: [{ text: 'first: A, second: B' }] } });
  });

  it('ask_rounds: the second question has a new key', async () => {
    const { c } = start();
    const id = await createTask(c, 'ask_rounds');
    const t1 = await pollTask(c, id, (x) => x.status === 'input_required');
    const [k1] = Object.keys(t1.inputRequests as object);
    await c.request(Method.TasksUpdate, { taskId: id, inputResponses: { [k1!]: { action: 'accept', content: { answer: 'A' } } } });
    const t2 = await pollTask(c, id, (x) => x.status === 'input_required' && !(k1! in (x.inputRequests as object)));
    const [k2] = Object.keys(t2.inputRequests as object);
    expect(k2).not.toBe(k1);
    await c.request(Method.TasksUpdate, { taskId: id, inputResponses: { [k2!]: { action: 'decline' } } });
    expect(await pollTask(c, id, terminal)).toMatchObject({ result: { content: [{ text: 'first: A, second: (declined)' }] } });
  });

  it('mrtr_then_task: an InputRequiredResult on the tools/call, the retry with the answer creates the task', async () => {
    const { c } = start();
    const r1 = await callTool(c, 'mrtr_then_task');
    expect(r1.result).toMatchObject({ resultType: 'input_required', requestState: expect.any(String) });
    const [key] = Object.keys(r1.result!.inputRequests as object);
    const missing = await callTool(c, 'mrtr_then_task', {}, DECLARING, { requestState: r1.result!.requestState });
    expect(missing.result?.resultType).toBe('input_required');
    const tampered = await callTool(c, 'mrtr_then_task', {}, DECLARING, {
      requestState: `${r1.result!.requestState}x`,
      inputResponses: { [key!]: { action: 'accept', content: { answer: 'y' } } },
    });
    expect(tampered.error?.code).toBe(-32602);
    const r2 = await callTool(c, 'mrtr_then_task', {}, DECLARING, {
      requestState: r1.result!.requestState,
      inputResponses: { [key!]: { action: 'accept', content: { answer: 'yes' } } },
    });
    expect(r2.result?.resultType).toBe('task');
    expect(await pollTask(c, r2.result!.taskId as string, terminal)).toMatchObject({ status: 'completed', result: { content: [{ text: 'confirmed: yes' }] } });
  });

  it('task_only: a task for a declaring client', async () => {
    const { c } = start();
    expect(await pollTask(c, await createTask(c, 'task_only'), terminal)).toMatchObject({ status: 'completed' });
  });
});

describe('tool roles, non-declaring client (no tasks)', () => {
  it('complete, fail_rpc, tool_error answer directly; task_only: -32021 with requiredCapabilities', async () => {
    const { c } = start();
    expect((await callTool(c, 'complete', {}, NON_DECLARING)).result).toMatchObject({ resultType: 'complete', content: [{ text: 'done' }] });
    expect((await callTool(c, 'fail_rpc', {}, NON_DECLARING)).error).toMatchObject({ code: -32603 });
    expect((await callTool(c, 'tool_error', {}, NON_DECLARING)).result).toMatchObject({ resultType: 'complete', isError: true });
    const t = await callTool(c, 'task_only', {}, NON_DECLARING);
    expect(t.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } });
    // the 2025-11-25 capability does not count
    expect((await callTool(c, 'task_only', {}, { tasks: { requests: { tools: { call: {} } } } })).error?.code).toBe(-32021);
  });

  it('ask through MRTR on the tools/call; without the elicitation capability: -32021', async () => {
    const { c } = start();
    const r1 = await callTool(c, 'ask', {}, NON_DECLARING);
    expect(r1.result?.resultType).toBe('input_required');
    const [key] = Object.keys(r1.result!.inputRequests as object);
    const r2 = await callTool(c, 'ask', {}, NON_DECLARING, {
      requestState: r1.result!.requestState,
      inputResponses: { [key!]: { action: 'accept', content: { answer: 'x' } } },
    });
    expect(r2.result).toMatchObject({ resultType: 'complete', content: [{ text: 'answer: x' }] });
    expect((await callTool(c, 'ask', {}, {})).error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } } });
  });

  it('tasks/get, tasks/update, tasks/cancel and listen with taskIds: -32021 for a non-declaring client', async () => {
    const { c } = start();
    const id = await createTask(c, 'slow');
    for (const [m, p] of [
      [Method.TasksGet, { taskId: id }],
      [Method.TasksUpdate, { taskId: id, inputResponses: {} }],
      [Method.TasksCancel, { taskId: id }],
      [Method.SubscriptionsListen, { notifications: { taskIds: [id] } }],
    ] as const) {
      expect((await c.request(m, p, { caps: NON_DECLARING })).error).toMatchObject({
        code: -32021,
        data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
      });
    }
  });

  it('notifications/cancelled stops a synchronous call, which gets no response', async () => {
    const { c } = start();
    const id = c.id();
    c.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'slow', arguments: {}, _meta: meta(NON_DECLARING) } });
    c.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id } });
    const after = await c.request(Method.ToolsList);
    expect(after.result).toBeDefined();
    expect(c.received.some((m) => m.id === id)).toBe(false);
  });
});

describe('task methods: errors', () => {
  it('unknown, malformed taskId: -32602 for get, update, cancel; missing inputResponses: -32602', async () => {
    const { c } = start();
    for (const m of [Method.TasksGet, Method.TasksCancel]) {
      expect((await c.request(m, { taskId: 'no-such-task' })).error?.code).toBe(-32602);
      expect((await c.request(m, { taskId: 7 })).error?.code).toBe(-32602);
    }
    expect((await c.request(Method.TasksUpdate, { taskId: 'no-such-task', inputResponses: {} })).error?.code).toBe(-32602);
    expect((await c.request(Method.TasksUpdate, { taskId: 'x' })).error?.code).toBe(-32602);
  });

  it('a malformed answer to an outstanding key: -32602, the task stays input_required', async () => {
    const { c } = start();
    const id = await createTask(c, 'ask');
    const t = await pollTask(c, id, (x) => x.status === 'input_required');
    const [k] = Object.keys(t.inputRequests as object);
    expect((await c.request(Method.TasksUpdate, { taskId: id, inputResponses: { [k!]: { action: 'maybe' } } })).error?.code).toBe(-32602);
    expect((await getTask(c, id)).result?.status).toBe('input_required');
  });

  it('a task expires at createdAt + ttlMs: then -32602 "Task has expired"', async () => {
    const { c } = start({ ttlMs: 150 });
    const id = await createTask(c, 'slow');
    const e = await pollTask(c, id, () => true).then(() => until());
    async function until() {
      for (let i = 0; i < 200; i++) {
        const r = await getTask(c, id);
        if (r.error) return r.error;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error('never expired');
    }
    expect(e).toMatchObject({ code: -32602, message: expect.stringContaining('expired') });
  });

  it('bad tool arguments and unknown tools: -32602 before anything runs', async () => {
    const { c, s } = start();
    expect((await callTool(c, 'complete', { ms: -1 })).error?.code).toBe(-32602);
    expect((await callTool(c, 'complete', { ms: 'x' })).error?.code).toBe(-32602);
    expect((await callTool(c, 'no_such_tool')).error?.code).toBe(-32602);
    expect(s.server.runs.get('complete')).toBeUndefined();
  });

  it('params.taskId names the task; a 2025-11-25 related-task _meta means nothing and is never sent', async () => {
    const { c } = start();
    const a = await createTask(c, 'slow');
    const b = await createTask(c, 'slow');
    const related = { 'io.modelcontextprotocol/related-task': { taskId: b } };
    const r = await c.request(Method.TasksGet, { taskId: a, _meta: { ...meta(), ...related } });
    expect(r.result?.taskId).toBe(a);
    await c.request(Method.TasksCancel, { taskId: a, _meta: { ...meta(), ...related } });
    expect((await getTask(c, b)).result?.status).toBe('working');
    expect((await getTask(c, a)).result?.status).toBe('cancelled');
    for (const m of c.received) expect(JSON.stringify(m)).not.toContain('related-task');
  });

  it('the 2025-11-25 task parameter is ignored', async () => {
    const { c } = start();
    expect((await callTool(c, 'complete', {}, DECLARING, { task: 'garbage' })).result?.resultType).toBe('task');
    expect((await callTool(c, 'complete', {}, NON_DECLARING, { task: { ttl: 1000 } })).result?.resultType).toBe('complete');
  });
});

describe('documented limits, enforced', () => {
  it('maxConcurrentTasks unfinished per requestor, maxRetained kept (oldest terminal one dropped): -32603 with data.limit', async () => {
    const { c } = start({ maxConcurrentTasks: 2, maxRetained: 3 });
    await createTask(c, 'slow');
    await createTask(c, 'slow');
    const over = await callTool(c, 'slow');
    expect(over.error).toMatchObject({ code: -32603, data: { limit: 'maxConcurrentTasks', max: 2 } });
    // a second requestor (another connection) has its own budget
    const { client: other, toServer, fromServer } = StreamClient.pair();
    servers[0]!.stdio(toServer, fromServer);
    expect((await callTool(other, 'slow')).result?.resultType).toBe('task');
    const { c: d } = start({ maxConcurrentTasks: 5, maxRetained: 2 });
    const first = await createTask(d, 'complete', { ms: 0 });
    await pollTask(d, first, terminal);
    await createTask(d, 'slow');
    await createTask(d, 'slow');
    expect((await getTask(d, first)).error?.code).toBe(-32602);
    expect((await callTool(d, 'slow')).error).toMatchObject({ code: -32603, data: { limit: 'maxRetained' } });
  });

  it('inputResponses, listen taskIds and open subscriptions are bounded', async () => {
    const { c } = start({ maxInputResponses: 2, maxListenTaskIds: 2, maxSubscriptions: 1 });
    const id = await createTask(c, 'ask');
    const many = { a: { action: 'cancel' }, b: { action: 'cancel' }, c: { action: 'cancel' } };
    expect((await c.request(Method.TasksUpdate, { taskId: id, inputResponses: many })).error?.code).toBe(-32602);
    expect((await c.request(Method.SubscriptionsListen, { notifications: { taskIds: ['a', 'b', 'c'] } })).error?.code).toBe(-32602);
    c.send({ jsonrpc: '2.0', id: 'l1', method: Method.SubscriptionsListen, params: { notifications: { taskIds: [id] }, _meta: meta() } });
    await c.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged');
    expect((await c.request(Method.SubscriptionsListen, { notifications: { taskIds: [id] } })).error).toMatchObject({
      code: -32603,
      data: { limit: 'maxSubscriptions' },
    });
  });
});

describe('notifications/tasks through subscriptions/listen', () => {
  it('ack first (subscription id, agreed task ids), then a DetailedTask per change; cancelled listen gets no response', async () => {
    const { c } = start();
    const id = await createTask(c, 'ask');
    const lid = c.id();
    const from = c.received.length;
    c.send({ jsonrpc: '2.0', id: lid, method: Method.SubscriptionsListen, params: { notifications: { taskIds: [id, 'unknown-id'] }, _meta: meta() } });
    const ack = await c.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged', 5000, from);
    expect(ack.params).toEqual({ _meta: { [Meta.SubscriptionId]: lid }, notifications: { taskIds: [id] } });
    const t = await pollTask(c, id, (x) => x.status === 'input_required');
    const [k] = Object.keys(t.inputRequests as object);
    await c.request(Method.TasksUpdate, { taskId: id, inputResponses: { [k!]: { action: 'accept', content: { answer: 'z' } } } });
    const working = await c.waitFor((m) => m.method === 'notifications/tasks' && (m.params as any).status === 'working', 5000, from);
    expect(c.received.indexOf(ack)).toBeLessThan(c.received.indexOf(working));
    expect(working.params).toMatchObject({ taskId: id, _meta: { [Meta.SubscriptionId]: lid } });
    const done = await c.waitFor((m) => m.method === 'notifications/tasks' && (m.params as any).status === 'completed', 5000, from);
    expect(done.params).toMatchObject({ result: { content: [{ text: 'answer: z' }] } });
    c.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: lid } });
    await c.request(Method.ToolsList);
    expect(c.received.some((m) => m.id === lid)).toBe(false);
  });

  it('the server closing ends the subscription with a result carrying the subscription id', async () => {
    const { c, s } = start();
    const lid = c.id();
    c.send({ jsonrpc: '2.0', id: lid, method: Method.SubscriptionsListen, params: { notifications: { taskIds: [] }, _meta: meta() } });
    await c.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged');
    await s.close();
    servers = [];
    expect(await c.waitFor((m) => m.id === lid)).toMatchObject({ result: { resultType: 'complete', _meta: { [Meta.SubscriptionId]: lid } } });
    expect(await c.waitFor((m) => m.method === 'notifications/cancelled')).toMatchObject({ params: { requestId: lid } });
  });
});

describe('in process', () => {
  it('inProcess(): a stdio connection over in-memory streams, ended when its input ends', async () => {
    const s = createExtensionServer(FAST);
    servers.push(s);
    const { toServer, fromServer, connection } = s.inProcess();
    const c = new StreamClient(toServer, fromServer);
    expect((await c.request(Method.ServerDiscover)).result?.resultType).toBe('complete');
    await c.close();
    await connection.closed;
    await new Promise<void>((r) => (fromServer.readableEnded ? r() : fromServer.once('end', () => r())));
    expect(fromServer.readableEnded).toBe(true);
  });
});

describe('malformed input over stdio: the right error, then it keeps serving', () => {
  it('not JSON: -32700 without id; not a request: -32600; null id: -32600; batch: -32600; a response is dropped', async () => {
    const { c } = start();
    c.raw('{"jsonrpc": "2.0", "id": 1, "method": \n');
    c.raw('[1,2]\n');
    c.raw('{"jsonrpc":"2.0","id":null,"method":"tools/list"}\n');
    c.raw('{"jsonrpc":"2.0","id":5}\n');
    c.raw('{"jsonrpc":"1.0","id":6,"method":"tools/list"}\n');
    c.raw('{"jsonrpc":"2.0","id":99,"result":{}}\n');
    c.raw('\n   \n');
    c.raw('"just a string"\n');
    c.raw('{"jsonrpc":"2.0","id":7,"method":"tools/list","params":[1]}\n');
    const ok = await c.request(Method.ToolsList);
    expect(ok.result?.resultType).toBe('complete');
    const errors = c.received.filter((m) => 'error' in m).map((m) => [m.id, m.error!.code]);
    expect(errors).toEqual([
      [undefined, -32700],
      [undefined, -32600],
      [undefined, -32600],
      [5, -32600],
      [6, -32600],
      [undefined, -32600],
      [7, -32602],
    ]);
    for (const line of c.lines) expect(() => JSON.parse(line)).not.toThrow();
  });

  it('a line longer than the limit: -32600, the rest of the line skipped, then normal service', async () => {
    const { c } = start();
    c.raw('{"x":"' + 'a'.repeat(1024 * 1024 + 10));
    c.raw('aaaa"}\n');
    expect((await c.request(Method.ToolsList)).result?.resultType).toBe('complete');
    expect(c.received.filter((m) => m.error).map((m) => m.error!.code)).toEqual([-32600]);
  });

  it('a duplicate in-flight request id: -32600 for the second', async () => {
    const { c } = start();
    c.send({ jsonrpc: '2.0', id: 'dup', method: 'tools/call', params: { name: 'complete', arguments: { ms: 300 }, _meta: meta(NON_DECLARING) } });
    c.send({ jsonrpc: '2.0', id: 'dup', method: 'tools/list', params: { _meta: meta() } });
    const e = await c.waitFor((m) => m.id === 'dup' && !!m.error);
    expect(e.error?.code).toBe(-32600);
    expect((await c.waitFor((m) => m.id === 'dup' && !!m.result)).result).toMatchObject({ content: [{ text: 'done' }] });
  });
});
