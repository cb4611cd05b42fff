// The reference extension server over Streamable HTTP (2026-07-28): POST only, no session, the standard
// headers validated against the body (Mcp-Name = taskId for tasks/*), the HTTP status of each error, SSE for
// subscriptions/listen, access (Host, Origin, bearer token) safe on a developer machine, and bad bodies
// answered while it keeps serving.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtensionServer, type ReferenceExtensionServer, type WireEvent } from './index.ts';
import { Meta, Method, TASKS_EXTENSION } from './protocol.ts';
import { callTool, createTask, DECLARING, HttpClient, meta, NON_DECLARING, pollTask, type Msg } from './test-client.ts';

const terminal = (t: Record<string, unknown>) => ['completed', 'failed', 'cancelled'].includes(t.status as string);

let s: ReferenceExtensionServer;
let c: HttpClient;
let url: string;
const wire: WireEvent[] = [];
beforeAll(async () => {
  s = createExtensionServer({ timings: { completesMs: 30, slowMs: 5_000 }, pollIntervalMs: 20, onWire: (e) => wire.push(e) });
  ({ url } = await s.listenHttp(0));
  c = new HttpClient(url);
});
afterAll(async () => {
  await s?.close();
});

const body = (method: string, params: Record<string, unknown> = {}, caps: Record<string, unknown> = DECLARING, id: number | string = 1) => ({
  jsonrpc: '2.0',
  id,
  method,
  params: { ...params, _meta: meta(caps) },
});

describe('requests and tool roles over HTTP', () => {
  it('binds to loopback; server/discover as application/json with no session id', async () => {
    expect(new URL(url).hostname).toBe('127.0.0.1');
    const r = await c.send(body(Method.ServerDiscover, {}, {}), { 'mcp-session-id': 'abc' });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toContain('application/json');
    expect(r.headers['mcp-session-id']).toBeUndefined();
    expect(r.body?.result).toMatchObject({ resultType: 'complete', capabilities: { extensions: { [TASKS_EXTENSION]: {} } } });
  });

  it('complete, ask (tasks/update), fail_rpc end to end', async () => {
    expect(await pollTask(c, await createTask(c, 'complete'), terminal)).toMatchObject({ status: 'completed', result: { content: [{ text: 'done' }] } });
    const id = await createTask(c, 'ask');
    const t = await pollTask(c, id, (x) => x.status === 'input_required');
    const [k] = Object.keys(t.inputRequests as object);
    expect(
      (await c.request(Method.TasksUpdate, { taskId: id, inputResponses: { [k!]: { action: 'accept', content: { answer: 'h' } } } })).result,
    ).toMatchObject({ resultType: 'complete' });
    expect(await pollTask(c, id, terminal)).toMatchObject({ result: { content: [{ text: 'answer: h' }] } });
    expect(await pollTask(c, await createTask(c, 'fail_rpc'), terminal)).toMatchObject({ status: 'failed', error: { code: -32603 } });
  });

  it('HTTP status per error: 404 for -32601, 400 for -32021 / -32022 / missing _meta, 200 for an in-band -32602', async () => {
    const nf = await c.send(body('tasks/result', { taskId: 'x' }));
    expect([nf.status, nf.body?.error?.code]).toEqual([404, -32601]);
    const cap = await c.send(body(Method.ToolsCall, { name: 'task_only' }, NON_DECLARING));
    expect([cap.status, cap.body?.error?.code]).toEqual([400, -32021]);
    const v = { jsonrpc: '2.0', id: 2, method: Method.ToolsList, params: { _meta: meta(DECLARING, '1900-01-01') } };
    const ver = await c.send(v);
    expect([ver.status, ver.body?.error?.code]).toEqual([400, -32022]);
    const noMeta = await c.send({ jsonrpc: '2.0', id: 3, method: Method.ToolsList, params: {} }, { 'mcp-protocol-version': '2026-07-28' });
    expect([noMeta.status, noMeta.body?.error?.code]).toEqual([400, -32602]);
    const unknown = await c.send(body(Method.TasksGet, { taskId: 'nope' }));
    expect([unknown.status, unknown.body?.error?.code]).toEqual([200, -32602]);
  });
});

describe('standard headers (streamable-http "Server Validation"): -32020 with HTTP 400', () => {
  it('MCP-Protocol-Version and Mcp-Method missing or different from the body', async () => {
    for (const h of [
      { 'mcp-protocol-version': undefined },
      { 'mcp-protocol-version': '2025-11-25' },
      { 'mcp-method': undefined },
      { 'mcp-method': 'tools/call' },
    ]) {
      const r = await c.send(body(Method.ToolsList), h);
      expect([r.status, r.body?.error?.code], JSON.stringify(h)).toEqual([400, -32020]);
    }
  });

  it('Mcp-Name must equal params.taskId on tasks/get, tasks/update, tasks/cancel (and params.name on tools/call); base64 sentinel values are decoded', async () => {
    const id = await createTask(c, 'slow');
    for (const [m, p] of [
      [Method.TasksGet, { taskId: id }],
      [Method.TasksUpdate, { taskId: id, inputResponses: {} }],
      [Method.TasksCancel, { taskId: id }],
    ] as const) {
      for (const h of [{ 'mcp-name': undefined }, { 'mcp-name': 'another-task' }, { 'mcp-name': 'caf\u00e9' }]) {
        const r = await c.send(body(m, p), h);
        expect([r.status, r.body?.error?.code], `${m} ${JSON.stringify(h)}`).toEqual([400, -32020]);
      }
    }
    const enc = await c.send(body(Method.TasksGet, { taskId: id }), { 'mcp-name': `=?base64?${Buffer.from(id).toString('base64')}?=` });
    expect(enc.body?.result?.taskId).toBe(id);
    const tool = await c.send(body(Method.ToolsCall, { name: 'complete' }), { 'mcp-name': 'slow' });
    expect([tool.status, tool.body?.error?.code]).toEqual([400, -32020]);
    await c.request(Method.TasksCancel, { taskId: id });
  });

  it('a parameter mirrored by x-mcp-header (complete: region → Mcp-Param-Region) must be sent as a header equal to the body value', async () => {
    const listed = await c.request(Method.ToolsList);
    const complete = ((listed.result?.tools ?? []) as any[]).find((t) => t.name === 'complete');
    expect(complete.inputSchema.properties.region['x-mcp-header']).toBe('Region');
    const call = (region: unknown) => body(Method.ToolsCall, { name: 'complete', arguments: { region, ms: 0 } });
    for (const [region, h] of [
      ['us-west1', {}],
      ['us-west1', { 'mcp-param-region': 'us-east1' }],
      ['Z\u00fcrich', { 'mcp-param-region': 'Z\u00fcrich' }],
      ['Z\u00fcrich', { 'mcp-param-region': `=?base64?${Buffer.from('Zurich').toString('base64')}?=` }],
      [undefined, { 'mcp-param-region': 'caf\u00e9' }],
    ] as const) {
      const r = await c.send(call(region), h);
      expect([r.status, r.body?.error?.code], `${String(region)} ${JSON.stringify(h)}`).toEqual([400, -32020]);
    }
    for (const [region, h] of [
      ['us-west1', { 'mcp-param-region': 'us-west1' }],
      ['Z\u00fcrich', { 'mcp-param-region': `=?base64?${Buffer.from('Z\u00fcrich').toString('base64')}?=` }],
      [null, {}],
      [undefined, {}],
    ] as const) {
      const r = await c.send(call(region), h);
      expect([r.status, r.body?.error], `${String(region)} ${JSON.stringify(h)}`).toEqual([200, undefined]);
    }
  });
});

describe('subscriptions/listen over HTTP: an SSE stream', () => {
  it('ack, then notifications/tasks with the subscription id; closing the stream ends the subscription', async () => {
    const id = await createTask(c, 'ask');
    await pollTask(c, id, (x) => x.status === 'input_required');
    const events: Msg[] = [];
    const ac = new AbortController();
    let gotAck!: () => void;
    const acked = new Promise<void>((r) => (gotAck = r));
    let gotDone!: () => void;
    const completed = new Promise<void>((r) => (gotDone = r));
    const stream = c
      .send(body(Method.SubscriptionsListen, { notifications: { taskIds: [id] } }, DECLARING, 'listen-1'), {}, 'POST', {
        signal: ac.signal,
        onEvent: (m) => {
          events.push(m);
          if (m.method === Method.SubscriptionsAcknowledged) gotAck();
          if (m.method === Method.TasksNotification && (m.params as any).status === 'completed') gotDone();
        },
      })
      .catch((e: Error) => e);
    await acked;
    const t = (await c.request(Method.TasksGet, { taskId: id })).result!;
    const [k] = Object.keys(t.inputRequests as object);
    await c.request(Method.TasksUpdate, { taskId: id, inputResponses: { [k!]: { action: 'accept', content: { answer: 'q' } } } });
    await completed;
    expect(events[0]).toMatchObject({
      method: Method.SubscriptionsAcknowledged,
      params: { _meta: { [Meta.SubscriptionId]: 'listen-1' }, notifications: { taskIds: [id] } },
    });
    for (const e of events.slice(1))
      expect(e).toMatchObject({ method: Method.TasksNotification, params: { taskId: id, _meta: { [Meta.SubscriptionId]: 'listen-1' } } });
    ac.abort();
    await stream;
    expect(wire.some((w) => w.dir === 'out' && (w.message as Msg).id === 'listen-1')).toBe(false);
  });
});

describe('HTTP mechanics and bad bodies', () => {
  const raw = (opts: { method?: string; path?: string; headers?: Record<string, string>; body?: string }) =>
    new Promise<{ status: number; headers: Record<string, unknown>; text: string }>((resolve, reject) => {
      const u = new URL(url);
      const req = request(
        {
          host: u.hostname,
          port: u.port,
          path: opts.path ?? u.pathname,
          method: opts.method ?? 'POST',
          headers: { 'content-type': 'application/json', ...opts.headers },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        },
      );
      req.on('error', reject);
      req.end(opts.body ?? '');
    });

  it('GET and DELETE: 405; another path: 404; not application/json: 415; a body too large: 413', async () => {
    expect((await raw({ method: 'GET' })).status).toBe(405);
    expect((await raw({ method: 'DELETE' })).status).toBe(405);
    expect((await raw({ path: '/other', body: '{}' })).status).toBe(404);
    expect((await raw({ headers: { 'content-type': 'text/plain' }, body: '{}' })).status).toBe(415);
    expect((await raw({ body: 'x'.repeat(1024 * 1024 + 1) })).status).toBe(413);
  });

  it('not JSON: 400 -32700; not a request: 400 -32600; a notification: 202; then normal service', async () => {
    const p = await raw({ body: '{"jsonrpc":' });
    expect([p.status, JSON.parse(p.text).error.code]).toEqual([400, -32700]);
    expect(JSON.parse(p.text)).not.toHaveProperty('id');
    const b = await raw({ body: '[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]' });
    expect([b.status, JSON.parse(b.text).error.code]).toEqual([400, -32600]);
    const n = await raw({ body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }) });
    expect([n.status, n.text]).toEqual([202, '']);
    expect((await c.request(Method.ToolsList)).result?.resultType).toBe('complete');
  });

  it('closing the connection of a synchronous call cancels it: no answer goes out', async () => {
    const ac = new AbortController();
    const pending = c.send(body(Method.ToolsCall, { name: 'slow' }, NON_DECLARING, 'to-cancel'), {}, 'POST', { signal: ac.signal }).catch((e: Error) => e);
    await new Promise<void>((r) => {
      const t = setInterval(() => wire.some((w) => w.dir === 'in' && (w.message as Msg).id === 'to-cancel') && (clearInterval(t), r()), 5);
    });
    ac.abort();
    expect(await pending).toBeInstanceOf(Error);
    expect((await c.request(Method.ToolsList)).result).toBeDefined();
    expect(wire.some((w) => w.dir === 'out' && (w.message as Msg).id === 'to-cancel')).toBe(false);
  });
});

describe('access: safe on a developer machine', () => {
  it('a foreign Origin or Host: 403 with a JSON-RPC error without id', async () => {
    for (const h of [{ origin: 'http://evil.example' }, { host: `evil.example:${new URL(url).port}` }, { origin: 'null' }]) {
      const r = await c.send(body(Method.ServerDiscover), h);
      expect(r.status, JSON.stringify(h)).toBe(403);
      expect(r.body).not.toHaveProperty('id');
    }
    expect((await c.send(body(Method.ServerDiscover), { origin: `http://localhost:${new URL(url).port}` })).status).toBe(200);
  });

  it('bearer tokens: required, and each token sees only its own tasks', async () => {
    const t = createExtensionServer({ timings: { completesMs: 30, slowMs: 5_000 } });
    try {
      const { url: u } = await t.listenHttp(0, '127.0.0.1', { tokens: ['alpha', 'beta'] });
      const none = new HttpClient(u);
      expect((await none.send(body(Method.ServerDiscover))).status).toBe(401);
      const a = new HttpClient(u, { authorization: 'Bearer alpha' });
      const b = new HttpClient(u, { authorization: 'Bearer beta' });
      const id = await createTask(a, 'slow');
      expect((await a.request(Method.TasksGet, { taskId: id })).result?.status).toBe('working');
      expect((await b.request(Method.TasksGet, { taskId: id })).error).toMatchObject({ code: -32602, message: expect.stringContaining('not found') });
      expect((await b.request(Method.TasksCancel, { taskId: id })).error?.code).toBe(-32602);
      expect((await callTool(a, 'complete', {}, NON_DECLARING)).result?.resultType).toBe('complete');
    } finally {
      await t.close();
    }
  });
});
