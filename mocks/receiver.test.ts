// The reference receiver's own tests: each tasks.md rule over stdio AND Streamable HTTP (raw JSON-RPC
// through suites/wire/peer.ts), plus HTTP session/token isolation and stdio garbage handling.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELATED_TASK_META } from '../schema/protocol.ts';
import {
  createTask,
  firedOverflowingTimers,
  harness,
  ISO_8601,
  ok,
  onFakeClock,
  pollUntil,
  statusIs,
  type Harness,
  type Kind,
} from './receiver/test-helpers.ts';
import { within, type Peer } from '../suites/wire/peer.ts';
import type { TapEvent } from './receiver/port.ts';

const OPTIONS = { pageSize: 3, maxTtl: 60_000, defaultTtl: 30_000, maxConcurrentTasks: 4, pollInterval: 50 };

describe.each<Kind>(['stdio', 'http'])('reference receiver over %s', (kind) => {
  let h: Harness;
  let p: Peer;
  beforeAll(async () => {
    h = await harness(kind, OPTIONS);
    p = await h.peer();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('initialize declares the tasks capability; ping; unknown method → -32601', async () => {
    const fresh = await h.peer({ initialize: false });
    const init = ok(await fresh.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } }));
    expect(init.protocolVersion).toBe('2025-11-25');
    expect(init.serverInfo.name).toBe('mcp-tasks-reference-receiver');
    expect(init.capabilities).toMatchObject({ tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } });
    fresh.transport.setProtocolVersion?.('2025-11-25');
    await fresh.notify('notifications/initialized');
    expect(ok(await fresh.request('ping'))).toEqual({});
    expect((await fresh.request('no/such/method', {})).error?.code).toBe(-32601);
  });

  it('tools/list gives object input schemas and execution.taskSupport', async () => {
    const tools = ok(await p.request('tools/list', {})).tools as any[];
    const by = Object.fromEntries(tools.map((t) => [t.name, t]));
    for (const t of tools) expect(t.inputSchema.type).toBe('object');
    expect(by.complete.execution).toEqual({ taskSupport: 'optional' });
    expect(by.required_task.execution).toEqual({ taskSupport: 'required' });
    expect(by.forbidden_task.execution).toEqual({ taskSupport: 'forbidden' });
    expect(by.plain.execution).toBeUndefined();
    for (const n of ['slow', 'fail', 'ask', 'progress']) expect(by[n].execution.taskSupport).toBe('optional');
  });

  it('task-augmented call: CreateTaskResult at once, working → completed, tasks/result = plain result + related-task meta', async () => {
    const plain = ok(await p.request('tools/call', { name: 'complete', arguments: { ms: 30 } }));
    expect(plain).toEqual({ content: [{ type: 'text', text: 'done' }] });
    const created = ok(await p.request('tools/call', { name: 'complete', arguments: { ms: 30 }, task: { ttl: 20_000 } }));
    const t = created.task;
    expect(t.status).toBe('working');
    expect(typeof t.taskId).toBe('string');
    expect(t.createdAt).toMatch(ISO_8601);
    expect(t.lastUpdatedAt).toMatch(ISO_8601);
    expect(t.ttl).toBe(20_000);
    expect(t.pollInterval).toBe(50);
    const done = await pollUntil(p, t.taskId, statusIs('completed'));
    expect(done.result._meta).toBeUndefined(); // SHOULD NOT on tasks/get
    expect(done.result.createdAt).toBe(t.createdAt);
    expect(Date.parse(done.result.lastUpdatedAt)).toBeGreaterThanOrEqual(Date.parse(t.createdAt));
    const res = ok(await p.request('tasks/result', { taskId: t.taskId }));
    expect(res._meta?.[RELATED_TASK_META]).toEqual({ taskId: t.taskId });
    const { _meta, ...rest } = res;
    expect(rest).toEqual(plain);
  });

  it('tasks/result blocks until terminal', async () => {
    const t = await createTask(p, 'slow', { ms: 300 });
    const r = await p.request('tasks/result', { taskId: t.taskId });
    expect(r.elapsedMs).toBeGreaterThanOrEqual(200);
    expect(ok(r).content[0].text).toBe('slow done');
    expect(ok(await p.request('tasks/get', { taskId: t.taskId })).status).toBe('completed');
  });

  it('isError result → failed with statusMessage; tasks/result returns the same isError result', async () => {
    const plain = ok(await p.request('tools/call', { name: 'fail', arguments: { ms: 0 } }));
    expect(plain.isError).toBe(true);
    const t = await createTask(p, 'fail', { ms: 0 });
    const r = await pollUntil(p, t.taskId, statusIs('failed'));
    expect(typeof r.result.statusMessage).toBe('string');
    const res = ok(await p.request('tasks/result', { taskId: t.taskId }));
    const { _meta, ...rest } = res;
    expect(rest).toEqual(plain);
    expect(_meta[RELATED_TASK_META].taskId).toBe(t.taskId);
  });

  it('a JSON-RPC error of the underlying request → failed, and tasks/result returns that same error', async () => {
    const plain = await p.request('tools/call', { name: 'complete', arguments: { ms: 'soon' } });
    expect(plain.error?.code).toBe(-32602);
    const t = await createTask(p, 'complete', { ms: 'soon' });
    await pollUntil(p, t.taskId, statusIs('failed'));
    const r = await p.request('tasks/result', { taskId: t.taskId });
    expect(r.error).toEqual(plain.error);
  });

  it('tool-level negotiation: required without task, forbidden/plain with task → -32601', async () => {
    expect((await p.request('tools/call', { name: 'required_task', arguments: {} })).error?.code).toBe(-32601);
    const t = await createTask(p, 'required_task', { ms: 0 });
    expect(t.status).toBe('working');
    for (const name of ['forbidden_task', 'plain']) {
      expect((await p.request('tools/call', { name, arguments: {}, task: {} })).error?.code).toBe(-32601);
      expect(ok(await p.request('tools/call', { name, arguments: { ms: 0 } })).content[0].text).toBe('done');
    }
  });

  it('bad params: unknown tool, bad task field, bad taskId → -32602', async () => {
    expect((await p.request('tools/call', { name: 'nope', arguments: {} })).error?.code).toBe(-32602);
    for (const task of [5, 'x', [], { ttl: -1 }, { ttl: 'long' }]) {
      expect((await p.request('tools/call', { name: 'complete', arguments: {}, task })).error?.code).toBe(-32602);
    }
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
      const unknown = await p.request(method, { taskId: 'no-such-task' });
      expect(unknown.error?.code).toBe(-32602);
      expect(unknown.error?.message).toMatch(/not found/i);
      expect((await p.request(method, {})).error?.code).toBe(-32602);
      expect((await p.request(method, { taskId: 42 })).error?.code).toBe(-32602);
    }
  });

  it('params.taskId wins over related-task _meta', async () => {
    const a = await createTask(p, 'complete', { ms: 0 });
    const b = await createTask(p, 'slow', { ms: 5000 });
    const r = ok(await p.request('tasks/get', { taskId: a.taskId, _meta: { [RELATED_TASK_META]: { taskId: b.taskId } } }));
    expect(r.taskId).toBe(a.taskId);
    const c = ok(await p.request('tasks/cancel', { taskId: b.taskId, _meta: { [RELATED_TASK_META]: { taskId: a.taskId } } }));
    expect(c.taskId).toBe(b.taskId);
  });

  it('cancel: cancelled before the response, sticky, terminal → -32602', async () => {
    const t = await createTask(p, 'slow', { ms: 5000 });
    const c = ok(await p.request('tasks/cancel', { taskId: t.taskId }));
    expect(c.status).toBe('cancelled');
    expect(c._meta).toBeUndefined();
    expect(ok(await p.request('tasks/get', { taskId: t.taskId })).status).toBe('cancelled');
    const again = await p.request('tasks/cancel', { taskId: t.taskId });
    expect(again.error?.code).toBe(-32602);
    expect(again.error?.message).toBe("Cannot cancel task: already in terminal status 'cancelled'");
    const res = ok(await p.request('tasks/result', { taskId: t.taskId }));
    expect(res.isError).toBe(true);
    expect(res._meta[RELATED_TASK_META].taskId).toBe(t.taskId);
    const done = await createTask(p, 'complete', { ms: 0 });
    await pollUntil(p, done.taskId, statusIs('completed'));
    const e = await p.request('tasks/cancel', { taskId: done.taskId });
    expect(e.error).toEqual({ code: -32602, message: "Cannot cancel task: already in terminal status 'completed'" });
  });

  it('tasks/list: pages in creation order, opaque cursors, nextCursor iff more, bad cursor → -32602', async () => {
    const q = await h.peer();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await createTask(q, 'complete', { ms: 0 })).taskId);
    const seen: string[] = [];
    let cursor: string | undefined;
    const sizes: number[] = [];
    for (let i = 0; i < 10; i++) {
      const r = ok(await q.request('tasks/list', cursor ? { cursor } : {}));
      expect(r._meta).toBeUndefined();
      sizes.push(r.tasks.length);
      seen.push(...r.tasks.map((t: any) => t.taskId));
      cursor = r.nextCursor;
      if (!cursor) break;
      expect(typeof cursor).toBe('string');
    }
    expect(sizes).toEqual([3, 3, 1]);
    expect(seen).toEqual(ids);
    const first = ok(await q.request('tasks/list', {}));
    const c: string = first.nextCursor;
    const tampered = c.slice(0, -1) + (c.endsWith('A') ? 'B' : 'A');
    for (const bad of ['garbage', tampered, 'MQ.xxxxxxxxxxxxxxxxxxxxxx', 17]) {
      expect((await q.request('tasks/list', { cursor: bad })).error?.code).toBe(-32602);
    }
  });

  it('ttl: honoured, capped at maxTtl, default when absent; expired tasks are gone (-32602) and unlisted', async () => {
    expect((await createTask(p, 'complete', { ms: 0 }, { ttl: 10_000 })).ttl).toBe(10_000);
    expect((await createTask(p, 'complete', { ms: 0 }, { ttl: 10_000_000 })).ttl).toBe(60_000);
    expect((await createTask(p, 'complete', { ms: 0 }, {})).ttl).toBe(30_000);
    const t = await createTask(p, 'complete', { ms: 0 }, { ttl: 150 });
    expect(t.ttl).toBe(150);
    const gone = await pollUntil(p, t.taskId, (r) => r.error !== undefined, 5000);
    expect(gone.error?.code).toBe(-32602);
    expect(gone.error?.message).toMatch(/expired|not found/i);
    expect((await p.request('tasks/result', { taskId: t.taskId })).error?.code).toBe(-32602);
    const all: string[] = [];
    let cursor: string | undefined;
    do {
      const r = ok(await p.request('tasks/list', cursor ? { cursor } : {}));
      all.push(...r.tasks.map((x: any) => x.taskId));
      cursor = r.nextCursor;
    } while (cursor);
    expect(all).not.toContain(t.taskId);
  });

  it('progress: same token throughout, related-task meta, increasing, none after terminal', async () => {
    const token = `prog-${kind}`;
    const t = await createTask(p, 'progress', { ms: 150 }, {}, { progressToken: token });
    const res = ok(await p.request('tasks/result', { taskId: t.taskId }));
    expect(res.content[0].text).toBe('progress done');
    ok(await p.request('ping'));
    const notes = p.messages((m) => m.method === 'notifications/progress' && m.params?._meta?.[RELATED_TASK_META]?.taskId === t.taskId);
    expect(notes.length).toBe(3);
    for (const n of notes) expect(n.params.progressToken).toBe(token);
    const values = notes.map((n) => n.params.progress);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(new Set(values).size).toBe(values.length);
  });

  it('input_required: elicitation with related-task meta delivered through tasks/result, then completes', async () => {
    const asked: any[] = [];
    const off = p.onRequest((req) => {
      if (req.method !== 'elicitation/create') return undefined;
      asked.push(req);
      return { result: { action: 'accept', content: { answer: `yes-${kind}` } } };
    });
    try {
      const t = await createTask(p, 'ask', { ms: 0 });
      await pollUntil(p, t.taskId, statusIs('input_required'));
      expect(asked).toHaveLength(0); // nothing is sent before the requestor opens tasks/result
      const res = ok(await p.request('tasks/result', { taskId: t.taskId }));
      expect(res.content[0].text).toBe(`answer: yes-${kind}`);
      expect(res._meta[RELATED_TASK_META].taskId).toBe(t.taskId);
      expect(asked).toHaveLength(1);
      expect(asked[0].params._meta[RELATED_TASK_META]).toEqual({ taskId: t.taskId });
      expect(asked[0].params.mode).toBe('form');
      expect(asked[0].params.requestedSchema.type).toBe('object');
      expect(ok(await p.request('tasks/get', { taskId: t.taskId })).status).toBe('completed');
      // Plain (non-task) ask: the elicitation goes along the tools/call request, without task meta.
      const plain = ok(await p.request('tools/call', { name: 'ask', arguments: { ms: 0 } }));
      expect(plain.content[0].text).toBe(`answer: yes-${kind}`);
      expect(asked[1].params._meta).toBeUndefined();
    } finally {
      off();
    }
  });

  it('limits: more than maxConcurrentTasks non-terminal tasks → error -32000', async () => {
    const q = await h.peer();
    for (let i = 0; i < 4; i++) await createTask(q, 'slow', { ms: 10_000 });
    const r = await q.request('tools/call', { name: 'slow', arguments: {}, task: {} });
    expect(r.error?.code).toBe(-32000);
    expect(r.error?.message).toMatch(/concurrent/);
  });
});

describe.each<Kind>(['stdio', 'http'])('status notifications over %s', (kind) => {
  let h: Harness;
  afterAll(async () => {
    await h?.close();
  });
  it('notifications/tasks/status carries the full task, no related-task meta', async () => {
    h = await harness(kind, { statusNotifications: true });
    const p = await h.peer();
    const t = await createTask(p, 'complete', { ms: 50 });
    const n = await p.waitFor(
      (m) => m.method === 'notifications/tasks/status' && m.params?.taskId === t.taskId && m.params.status === 'completed',
      5000,
      'status notification',
      true,
    );
    expect(n.params.createdAt).toBe(t.createdAt);
    expect(n.params.ttl).toBe(t.ttl);
    expect(n.params._meta).toBeUndefined();
  });
});

describe('Streamable HTTP sessions and authorization context', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness('http', { pageSize: 50 });
  });
  afterAll(async () => {
    await h?.close();
  });

  it("two sessions cannot see or touch each other's tasks", async () => {
    const a = await h.peer();
    const b = await h.peer();
    const t = await createTask(a, 'slow', { ms: 5000 });
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
      const r = await b.request(method, { taskId: t.taskId });
      expect(r.error?.code).toBe(-32602);
    }
    expect(ok(await b.request('tasks/list', {})).tasks.map((x: any) => x.taskId)).not.toContain(t.taskId);
    expect(ok(await a.request('tasks/get', { taskId: t.taskId })).status).toBe('working');
    expect(ok(await a.request('tasks/list', {})).tasks.map((x: any) => x.taskId)).toContain(t.taskId);
  });

  it('a bearer token binds tasks to its context, across sessions with the same token', async () => {
    const a1 = await h.peer({ token: 'alice-token' });
    const a2 = await h.peer({ token: 'alice-token' });
    const bob = await h.peer({ token: 'bob-token' });
    const anon = await h.peer();
    const t = await createTask(a1, 'complete', { ms: 0 });
    expect(ok(await a2.request('tasks/get', { taskId: t.taskId })).taskId).toBe(t.taskId);
    expect(ok(await a2.request('tasks/list', {})).tasks.map((x: any) => x.taskId)).toContain(t.taskId);
    for (const other of [bob, anon]) {
      expect((await other.request('tasks/get', { taskId: t.taskId })).error?.code).toBe(-32602);
      expect(ok(await other.request('tasks/list', {})).tasks.map((x: any) => x.taskId)).not.toContain(t.taskId);
    }
  });

  it('HTTP session rules: no session id → 400, unknown → 404, DELETE ends the session', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect((await fetch(h.url!, { method: 'POST', headers, body })).status).toBe(400);
    expect((await fetch(h.url!, { method: 'POST', headers: { ...headers, 'mcp-session-id': 'nope' }, body })).status).toBe(404);
    const p = await h.peer();
    const sid = (p.transport as any).sessionId as string;
    expect(typeof sid).toBe('string');
    const del = await fetch(h.url!, { method: 'DELETE', headers: { ...headers, 'mcp-session-id': sid } });
    expect(del.status).toBe(200);
    expect((await fetch(h.url!, { method: 'POST', headers: { ...headers, 'mcp-session-id': sid }, body })).status).toBe(404);
    expect((await fetch(h.url!, { method: 'POST', headers, body: '{not json' })).status).toBe(400);
  });
});

describe('Streamable HTTP responses', () => {
  const base = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
  /** A session of our own, opened with raw fetch (no GET stream unless the test opens one). */
  async function rawSession(url: string): Promise<{ post(body: unknown): Promise<globalThis.Response>; headers: Record<string, string> }> {
    const init = await fetch(url, {
      method: 'POST',
      headers: base,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: { elicitation: { form: {} } }, clientInfo: { name: 'raw', version: '1' } },
      }),
    });
    expect(init.headers.get('content-type')).toMatch(/^application\/json/);
    await init.text();
    const headers = { ...base, 'mcp-session-id': init.headers.get('mcp-session-id')! };
    const post = (body: unknown) => fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
    expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    return { post, headers };
  }

  it('answers are application/json (tasks/get never upgraded to SSE); input requests wait for the GET stream and go out on it', async () => {
    let resultArrived!: () => void;
    const arrived = new Promise<void>((r) => (resultArrived = r));
    const tap = (e: TapEvent) => void ((e.message as { method?: string } | undefined)?.method === 'tasks/result' && e.dir === 'in' && resultArrived());
    const h = await harness('http', { scenario: { tap } });
    try {
      const { post, headers } = await rawSession(h.url!);
      const created = await post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ask', arguments: { ms: 0 }, task: {} } });
      expect(created.headers.get('content-type')).toMatch(/^application\/json/);
      const taskId = (await created.json()).result.task.taskId;
      const get = await post({ jsonrpc: '2.0', id: 2, method: 'tasks/get', params: { taskId } });
      expect(get.headers.get('content-type')).toMatch(/^application\/json/);
      // tasks/result blocks (a JSON answer to come); its input request waits: no GET stream is open yet.
      const result = post({ jsonrpc: '2.0', id: 3, method: 'tasks/result', params: { taskId } });
      await within(arrived, 10_000, 'tasks/result at the receiver');
      // Now the GET stream: the queued elicitation/create arrives on it.
      const ac = new AbortController();
      const sse = await fetch(h.url!, { method: 'GET', headers: { ...headers, accept: 'text/event-stream' }, signal: ac.signal });
      expect(sse.status).toBe(200);
      const reader = sse.body!.getReader();
      let text = '';
      while (!text.includes('elicitation/create')) text += new TextDecoder().decode((await reader.read()).value);
      const req = JSON.parse(/data: (.*)/.exec(text)![1]!);
      expect(req.method).toBe('elicitation/create');
      expect(req.params._meta[RELATED_TASK_META]).toEqual({ taskId });
      expect((await post({ jsonrpc: '2.0', id: req.id, result: { action: 'accept', content: { answer: 'via GET' } } })).status).toBe(202);
      const answered = await result;
      expect(answered.headers.get('content-type')).toMatch(/^application\/json/);
      expect((await answered.json()).result.content[0].text).toBe('answer: via GET');
      ac.abort();
    } finally {
      await h.close();
    }
  });

  it('--sse-responses: every POST with requests is answered with an SSE stream', async () => {
    const h = await harness('http', { sseResponses: true });
    try {
      const p = await h.peer();
      const t = await createTask(p, 'complete', { ms: 0 });
      expect((await p.request('tasks/get', { taskId: t.taskId })).httpContentType).toBe('text/event-stream');
    } finally {
      await h.close();
    }
  });
});

describe('stdio garbage', () => {
  let h: Harness;
  afterAll(async () => {
    await h?.close();
  });
  it('malformed JSON → -32700, invalid JSON-RPC → -32600 (no id), and the peer keeps serving', async () => {
    h = await harness('stdio');
    const p = await h.peer();
    await p.sendBytes('{this is not json');
    const parse = await p.waitFor((m) => !('id' in m) && m.error?.code === -32700, 5000, 'parse error', true);
    expect(parse.jsonrpc).toBe('2.0');
    await p.sendBytes('{"jsonrpc":"2.0","id":5,"method":7}');
    await p.waitFor((m) => !('id' in m) && m.error?.code === -32600, 5000, 'invalid request', true);
    expect(ok(await p.request('ping'))).toEqual({});
  });
});

describe('in-process', () => {
  it('a forbidden tool called as a task does not run; cancelled tasks stay cancelled', async () => {
    const h = await harness('memory');
    try {
      const p = await h.peer();
      expect((await p.request('tools/call', { name: 'forbidden_task', arguments: {}, task: {} })).error?.code).toBe(-32601);
      expect(h.receiver!.runs.get('forbidden_task') ?? 0).toBe(0);
      await onFakeClock(async (pass) => {
        const t = await createTask(p, 'slow', { ms: 100 });
        expect(ok(await p.request('tasks/cancel', { taskId: t.taskId })).status).toBe('cancelled');
        // The work would have finished by now had it not been stopped; the task must still be cancelled.
        for (let i = 0; i < 6; i++) {
          await pass(50);
          expect(ok(await p.request('tasks/get', { taskId: t.taskId })).status).toBe('cancelled');
        }
      });
    } finally {
      await h.close();
    }
  });

  it('without the tasks capability, `task` is ignored and tasks/* are unknown methods', async () => {
    const h = await harness('memory', { tasksCapability: false });
    try {
      const p = await h.peer();
      const init = ok(await p.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } }));
      expect(init.capabilities.tasks).toBeUndefined();
      const r = ok(await p.request('tools/call', { name: 'complete', arguments: { ms: 0 }, task: { ttl: 1000 } }));
      expect(r).toEqual({ content: [{ type: 'text', text: 'done' }] });
      expect(ok(await p.request('tools/call', { name: 'required_task', arguments: { ms: 0 }, task: {} })).content[0].text).toBe('done');
      expect((await p.request('tasks/list', {})).error?.code).toBe(-32601);
      // In-memory there is no transport-level schema check: params of the wrong type reach the receiver.
      expect((await p.request('tools/call', 'not-an-object' as any)).error?.code).toBe(-32602);
      expect((await p.request('tools/call', { name: 7 })).error?.code).toBe(-32602);
      expect((await p.request('tools/call', { name: 'complete', arguments: [1] })).error?.code).toBe(-32602);
    } finally {
      await h.close();
    }
  });

  it('retention limit evicts the oldest terminal task; audit log names the requestor', async () => {
    const lines: string[] = [];
    const h = await harness('memory', { maxRetainedTasks: 2, log: (l: string) => lines.push(l) });
    try {
      const p = await h.peer({ identity: { authToken: 'secret-token' } });
      const a = await createTask(p, 'complete', { ms: 0 });
      ok(await p.request('tasks/result', { taskId: a.taskId }));
      const b = await createTask(p, 'complete', { ms: 0 });
      ok(await p.request('tasks/result', { taskId: b.taskId }));
      const c = await createTask(p, 'complete', { ms: 0 });
      expect((await p.request('tasks/get', { taskId: a.taskId })).error?.code).toBe(-32602);
      expect(ok(await p.request('tasks/list', {})).tasks.map((t: any) => t.taskId)).toEqual([b.taskId, c.taskId]);
      expect(lines.some((l) => l.includes('task.created') && l.includes(a.taskId) && l.includes('requestor=bearer:sha256:'))).toBe(true);
      expect(lines.some((l) => l.includes('task.completed') && l.includes(a.taskId))).toBe(true);
      expect(lines.some((l) => l.includes('task.result-requested'))).toBe(true);
      expect(lines.join('\n')).not.toContain('secret-token');
    } finally {
      await h.close();
    }
  });

  it("a ttl beyond setTimeout's range (2^31-1 ms) does not expire the task at once", async () => {
    const h = await harness('memory', { maxTtl: 400_000_000_000 });
    try {
      const p = await h.peer();
      const t = await createTask(p, 'complete', { ms: 0 }, { ttl: 10 * 365 * 24 * 3600 * 1000 });
      expect(t.ttl).toBe(10 * 365 * 24 * 3600 * 1000);
      await firedOverflowingTimers();
      expect(ok(await p.request('tasks/get', { taskId: t.taskId })).taskId).toBe(t.taskId);
    } finally {
      await h.close();
    }
  });

  it('the store refuses transitions outside the model table', async () => {
    const h = await harness('memory');
    try {
      const s = h.receiver!.store;
      const t = s.create({ owner: 'x', toolName: 'complete', origin: { statusChanged() {} } });
      s.transition(t, 'completed');
      expect(() => s.transition(t, 'working')).toThrow(/illegal task transition/);
      expect(t.status).toBe('completed');
    } finally {
      await h.close();
    }
  });
});
