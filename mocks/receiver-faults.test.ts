// One test per named fault: a direct observation that the fault changes the behaviour it names
// (the conformance checks prove it fully). In-process for speed; one test checks the CLI wiring.
import { describe, expect, it } from 'vitest';
import { parseMockArgs } from './receiver/args.ts';
import { RELATED_TASK_META } from '../schema/protocol.ts';
import { FAULTS, type FaultInfo, type FaultName } from './receiver/faults.ts';
import type { ReceiverOptions } from './receiver/index.ts';
import {
  createTask,
  firedOverflowingTimers,
  harness,
  ISO_8601,
  ok,
  onFakeClock,
  pollUntil,
  statusIs,
  until,
  type Harness,
  type Kind,
} from './receiver/test-helpers.ts';
import { WireTimeoutError, type Message, type Peer } from '../suites/wire/peer.ts';
import { ClientTaskReceiver, type ReceivableMethod } from './client/task-receiver.ts';

const info = (name: FaultName): FaultInfo => FAULTS.find((f) => f.name === name)!;

/** Receiver options for a fault: its registry `args` (e.g. --page-size 2), with or without the fault itself. */
function optionsFor(name: FaultName, withFault = true): ReceiverOptions {
  return parseMockArgs([...(info(name).args ?? []), ...(withFault ? ['--fault', name] : [])]).options;
}

/** The fault's transport (HTTP-only faults), else in memory. */
const kindOf = (name: FaultName): Kind => (info(name).transport === 'http' ? 'http' : 'memory');

async function withFault(fault: FaultName, body: (p: Peer, h: Harness) => Promise<void>): Promise<void> {
  const h = await harness(kindOf(fault), optionsFor(fault));
  try {
    await body(await h.peer(), h);
  } finally {
    await h.close();
  }
}

/** The test client's own work on a request it receives (its run time, not a wait of the test). */
const work = (ms: number) => new Promise((r) => setTimeout(r, ms));
const answerAll = (p: Peer, asked: any[] = []) =>
  p.onRequest((req) => {
    if (req.method !== 'elicitation/create') return undefined;
    asked.push(req);
    return { result: { action: 'accept', content: { answer: 'x' } } };
  });
const progressNotes = (p: Peer, token: string) => p.messages((m) => m.method === 'notifications/progress' && m.params?.progressToken === token);

/** The peer as a client task receiver (declaring `declared`), then a call of a requestor tool; returns the requests the receiver sent it. */
async function asClientReceiver(p: Peer, declared: ReceivableMethod[], tool: string, statusAtResult: string[] = []): Promise<Message[]> {
  const r = new ClientTaskReceiver(p, {
    declared,
    pollIntervalMs: 150,
    work: async (method, params, ctx) => {
      if (method === 'elicitation/create') {
        await ctx.awaitUser(600);
        return { action: 'accept', content: { answer: 'x' } };
      }
      await work(ctx.task ? 600 : 0);
      return { role: 'assistant', content: { type: 'text', text: 'x' }, model: 'm' };
    },
  });
  p.onRequest((req) => {
    if (req.method === 'tasks/result') statusAtResult.push(r.store.lookup('requestor', req.params?.taskId).status);
    return undefined;
  });
  expect(ok(await p.initialize(r.capabilities)).protocolVersion).toBeDefined();
  ok(await p.request('tools/call', { name: tool, arguments: {} }, { timeoutMs: 10_000 }));
  r.close();
  return p.messages((m) => typeof m.method === 'string' && 'id' in m);
}
const gaps = (ms: number[]) => ms.slice(1).map((t, i) => t - ms[i]!);

const observations: Record<FaultName, (p: Peer, h: Harness) => Promise<void>> = {
  'cancelled-resurrects': async (p) => {
    const t = await createTask(p, 'slow', { ms: 100 });
    expect(ok(await p.request('tasks/cancel', { taskId: t.taskId })).status).toBe('cancelled');
    await pollUntil(p, t.taskId, statusIs('completed'), 1000);
  },
  'starts-completed': async (p) => {
    expect((await createTask(p, 'slow', { ms: 1000 })).status).toBe('completed');
  },
  'illegal-transition': async (p) => {
    const t = await createTask(p, 'fail', { ms: 0 });
    await pollUntil(p, t.taskId, statusIs('failed'), 3000);
    // The very next poll shows working; tasks/result and tasks/cancel still treat the task as failed.
    expect(ok(await p.request('tasks/get', { taskId: t.taskId })).status).toBe('working');
    expect(ok(await p.request('tasks/result', { taskId: t.taskId })).isError).toBe(true);
    expect((await p.request('tasks/cancel', { taskId: t.taskId })).error?.code).toBe(-32602);
  },
  'cancel-after-response': async (p) => {
    const t = await createTask(p, 'slow', { ms: 5000 });
    expect(ok(await p.request('tasks/cancel', { taskId: t.taskId })).status).toBe('working');
    await pollUntil(p, t.taskId, statusIs('cancelled'), 3000);
  },
  'cancel-terminal-ok': async (p) => {
    const t = await createTask(p, 'complete', { ms: 0 });
    await pollUntil(p, t.taskId, statusIs('completed'));
    expect(ok(await p.request('tasks/cancel', { taskId: t.taskId })).status).toBe('completed');
  },
  'unknown-task-32603': async (p) => {
    for (const m of ['tasks/get', 'tasks/result', 'tasks/cancel']) expect((await p.request(m, { taskId: 'nope' })).error?.code).toBe(-32603);
  },
  'bad-cursor-ignored': async (p) => {
    await createTask(p, 'complete', { ms: 0 });
    expect(ok(await p.request('tasks/list', { cursor: 'garbage' })).tasks.length).toBe(1);
  },
  'no-next-cursor': async (p) => {
    for (let i = 0; i < 3; i++) await createTask(p, 'complete', { ms: 0 });
    const r = ok(await p.request('tasks/list', {}));
    expect(r.tasks.length).toBe(2);
    expect(r.nextCursor).toBeUndefined();
  },
  'list-omits-task': async (p) => {
    const t = await createTask(p, 'complete', { ms: 0 });
    ok(await p.request('tasks/get', { taskId: t.taskId }));
    expect(ok(await p.request('tasks/list', {})).tasks.map((x: any) => x.taskId)).not.toContain(t.taskId);
  },
  'result-no-related-task': async (p) => {
    const t = await createTask(p, 'complete', { ms: 0 });
    const r = ok(await p.request('tasks/result', { taskId: t.taskId }));
    expect(r.content[0].text).toBe('done');
    expect(r._meta?.[RELATED_TASK_META]).toBeUndefined();
  },
  'result-not-blocking': async (p) => {
    const t = await createTask(p, 'slow', { ms: 5000 });
    const r = await p.request('tasks/result', { taskId: t.taskId }, { timeoutMs: 1000 });
    expect(r.result).toBeDefined();
    expect(ok(await p.request('tasks/get', { taskId: t.taskId })).status).toBe('working');
  },
  'result-differs': async (p) => {
    const plain = ok(await p.request('tools/call', { name: 'complete', arguments: { ms: 0 } }));
    const t = await createTask(p, 'complete', { ms: 0 });
    const { _meta, ...viaTask } = ok(await p.request('tasks/result', { taskId: t.taskId }));
    expect(viaTask).not.toEqual(plain);
  },
  'related-task-on-get': async (p) => {
    const t = await createTask(p, 'slow', { ms: 5000 });
    expect(ok(await p.request('tasks/get', { taskId: t.taskId }))._meta?.[RELATED_TASK_META]).toEqual({ taskId: t.taskId });
    expect(ok(await p.request('tasks/list', {}))._meta?.[RELATED_TASK_META]).toBeDefined();
    expect(ok(await p.request('tasks/cancel', { taskId: t.taskId }))._meta?.[RELATED_TASK_META]).toEqual({ taskId: t.taskId });
  },
  'required-runs-without-task': async (p) => {
    expect(ok(await p.request('tools/call', { name: 'required_task', arguments: { ms: 0 } })).content[0].text).toBe('done');
  },
  'forbidden-runs-as-task': async (p, h) => {
    const t = ok(await p.request('tools/call', { name: 'forbidden_task', arguments: { ms: 0 }, task: {} })).task;
    expect(t.status).toBe('working');
    expect(h.receiver!.runs.get('forbidden_task')).toBe(1);
  },
  'missing-created-at': async (p) => {
    const t = await createTask(p, 'complete', { ms: 0 });
    expect(t.createdAt).toBeUndefined();
    expect(ok(await p.request('tasks/get', { taskId: t.taskId })).createdAt).toBeUndefined();
  },
  'bad-timestamp': async (p) => {
    const t = await createTask(p, 'complete', { ms: 0 });
    expect(t.createdAt).toMatch(ISO_8601);
    expect(t.lastUpdatedAt).not.toMatch(ISO_8601);
  },
  'ttl-missing': async (p) => {
    const t = await createTask(p, 'complete', { ms: 0 });
    expect('ttl' in ok(await p.request('tasks/get', { taskId: t.taskId }))).toBe(false);
  },
  'ttl-counts-down': async (p) => {
    const t = await createTask(p, 'complete', { ms: 0 }, { ttl: 60_000 });
    await new Promise((r) => setTimeout(r, 50));
    expect(ok(await p.request('tasks/get', { taskId: t.taskId })).ttl).toBeLessThan(60_000);
  },
  'sequential-ids': async (p) => {
    const a = await createTask(p, 'complete', { ms: 0 });
    const b = await createTask(p, 'complete', { ms: 0 });
    expect([a.taskId, b.taskId]).toEqual(['1', '2']);
  },
  'no-isolation': async (p, h) => {
    const other = await h.peer();
    const t = await createTask(p, 'slow', { ms: 5000 });
    expect(ok(await other.request('tasks/get', { taskId: t.taskId })).taskId).toBe(t.taskId);
    expect(ok(await other.request('tasks/list', {})).tasks.map((x: any) => x.taskId)).toContain(t.taskId);
    expect(ok(await other.request('tasks/cancel', { taskId: t.taskId })).status).toBe('cancelled');
  },
  'progress-new-token': async (p) => {
    const t = await createTask(p, 'progress', { ms: 30 }, {}, { progressToken: 'tok-1' });
    ok(await p.request('tasks/result', { taskId: t.taskId }));
    const notes = p.messages((m) => m.method === 'notifications/progress');
    expect(notes.length).toBeGreaterThan(0);
    for (const n of notes) expect(n.params.progressToken).not.toBe('tok-1');
  },
  'meta-taskid-wins': async (p) => {
    const a = await createTask(p, 'complete', { ms: 0 });
    const b = await createTask(p, 'slow', { ms: 5000 });
    const r = ok(await p.request('tasks/get', { taskId: a.taskId, _meta: { [RELATED_TASK_META]: { taskId: b.taskId } } }));
    expect(r.taskId).toBe(b.taskId);
  },
  'input-no-related-task': async (p) => {
    const asked: any[] = [];
    p.onRequest((req) => {
      if (req.method !== 'elicitation/create') return undefined;
      asked.push(req);
      return { result: { action: 'accept', content: { answer: 'x' } } };
    });
    const t = await createTask(p, 'ask', { ms: 0 });
    ok(await p.request('tasks/result', { taskId: t.taskId }));
    expect(asked).toHaveLength(1);
    expect(asked[0].params._meta?.[RELATED_TASK_META]).toBeUndefined();
  },
  'input-to-every-session': async (p, h) => {
    const other = await h.peer();
    const strays: any[] = [];
    answerAll(other, strays);
    answerAll(p);
    const t = await createTask(p, 'ask', { ms: 0 });
    ok(await p.request('tasks/result', { taskId: t.taskId }));
    await other.request('ping');
    expect(strays.map((r) => r.params._meta?.[RELATED_TASK_META]?.taskId)).toEqual([t.taskId]);
  },
  'no-status-message-on-failure': async (p) => {
    const t = await createTask(p, 'fail', { ms: 0 });
    const r = await pollUntil(p, t.taskId, statusIs('failed'));
    expect(r.result.statusMessage).toBeUndefined();
  },
  'slow-create': async (p) => {
    const r = await p.request('tools/call', { name: 'slow', arguments: { ms: 250 }, task: {} });
    expect(r.elapsedMs).toBeGreaterThanOrEqual(200);
    expect(ok(await p.request('tasks/get', { taskId: ok(r).task.taskId })).status).toBe('completed');
  },
  'result-returns-task': async (p) => {
    const t = await createTask(p, 'complete', { ms: 0 });
    const r = ok(await p.request('tasks/result', { taskId: t.taskId }));
    expect(r.content).toBeUndefined();
    expect(r.taskId).toBe(t.taskId);
    expect(r.status).toBe('completed');
    expect(r._meta?.[RELATED_TASK_META]).toEqual({ taskId: t.taskId });
  },
  'cancelled-result-hangs': async (p) => {
    const t = await createTask(p, 'slow', { ms: 5000 });
    ok(await p.request('tasks/cancel', { taskId: t.taskId }));
    await expect(p.request('tasks/result', { taskId: t.taskId }, { timeoutMs: 300 })).rejects.toBeInstanceOf(WireTimeoutError);
  },
  'waiting-result-orphaned': async (p) => {
    const t = await createTask(p, 'slow', { ms: 5000 });
    const waiting = p.request('tasks/result', { taskId: t.taskId }, { timeoutMs: 500 });
    await p.request('ping');
    ok(await p.request('tasks/cancel', { taskId: t.taskId }));
    await expect(waiting).rejects.toBeInstanceOf(WireTimeoutError);
    expect(ok(await p.request('tasks/result', { taskId: t.taskId })).isError).toBe(true); // one sent afterwards answers
  },
  'input-result-orphaned': async (p) => {
    const asked: any[] = [];
    answerAll(p, asked);
    const t = await createTask(p, 'ask', { ms: 0 });
    const waiting = p.request('tasks/result', { taskId: t.taskId }, { timeoutMs: 1500 });
    await pollUntil(p, t.taskId, statusIs('completed'), 5000);
    await expect(waiting).rejects.toBeInstanceOf(WireTimeoutError);
  },
  'cancel-answer-only': async (p) => {
    const t = await createTask(p, 'slow', { ms: 100 });
    expect(ok(await p.request('tasks/cancel', { taskId: t.taskId })).status).toBe('cancelled');
    await pollUntil(p, t.taskId, statusIs('completed'), 2000);
  },
  'internal-error-custom-code': async (p) => {
    expect((await p.request('tasks/get', { taskId: 'x'.repeat(2000) })).error?.code).toBe(-32000);
    expect((await p.request('tasks/get', { taskId: 'x' })).error?.code).toBe(-32602);
  },
  'cancelled-gone-32603': async (p) => {
    const t = await createTask(p, 'slow', { ms: 5000 });
    expect(ok(await p.request('tasks/cancel', { taskId: t.taskId })).status).toBe('cancelled');
    expect((await p.request('tasks/get', { taskId: t.taskId })).error?.code).toBe(-32603);
    expect((await p.request('tasks/get', { taskId: 'no-such-task' })).error?.code).toBe(-32602);
  },
  'ids-per-session': async (p, h) => {
    const other = await h.peer();
    const a = await createTask(p, 'complete', { ms: 0 });
    const b = await createTask(other, 'complete', { ms: 0 });
    expect(b.taskId).toBe(a.taskId);
    expect(ok(await p.request('tasks/get', { taskId: a.taskId })).taskId).toBe(a.taskId);
  },
  'progress-shared-token': async (p) => {
    const a = await createTask(p, 'progress', { ms: 300 }, {}, { progressToken: 'tok-a' });
    const b = await createTask(p, 'progress', { ms: 30 }, {}, { progressToken: 'tok-b' });
    ok(await p.request('tasks/result', { taskId: b.taskId }));
    ok(await p.request('tasks/result', { taskId: a.taskId }));
    expect(progressNotes(p, 'tok-b')).toHaveLength(0);
    expect(progressNotes(p, 'tok-a').map((n) => n.params._meta?.[RELATED_TASK_META]?.taskId)).toContain(b.taskId);
  },
  'progress-decreasing': async (p) => {
    const t = await createTask(p, 'progress', { ms: 30 }, {}, { progressToken: 'tok-d' });
    ok(await p.request('tasks/result', { taskId: t.taskId }));
    await p.request('ping');
    expect(progressNotes(p, 'tok-d').map((n) => n.params.progress)).toEqual([3, 2, 1]);
  },
  'progress-no-related-task': async (p) => {
    const t = await createTask(p, 'progress', { ms: 30 }, {}, { progressToken: 'tok-p' });
    ok(await p.request('tasks/result', { taskId: t.taskId }));
    await p.request('ping');
    const notes = progressNotes(p, 'tok-p');
    expect(notes.length).toBe(3);
    for (const n of notes) expect(n.params._meta?.[RELATED_TASK_META]).toBeUndefined();
  },
  'cancel-keeps-running': (p) =>
    onFakeClock(async (pass) => {
      const t = await createTask(p, 'progress', { ms: 300 }, {}, { progressToken: 'tok-c' });
      const c = await p.request('tasks/cancel', { taskId: t.taskId });
      expect(ok(c).status).toBe('cancelled');
      await pass(400); // past the 300 ms the work would have run
      await p.request('ping');
      const after = p.transcript.filter(
        (e) => e.dir === 'in' && (e.message as any)?.method === 'notifications/progress' && e.seq > p.transcript.find((x) => x.message === c.message)!.seq,
      );
      expect(after.length).toBe(3);
      expect(ok(await p.request('tasks/get', { taskId: t.taskId })).status).toBe('cancelled');
    }),
  'progress-after-terminal': async (p) => {
    const t = await createTask(p, 'progress', { ms: 30 }, {}, { progressToken: 'tok-l' });
    await pollUntil(p, t.taskId, statusIs('completed'));
    await p.request('ping');
    const notes = progressNotes(p, 'tok-l');
    expect(notes.length).toBe(4);
    expect(notes[3]!.params.progress).toBe(4);
  },
  'ttl-timer-overflow': async (p) => {
    const t = await createTask(p, 'complete', { ms: 0 }, { ttl: 30 * 24 * 3600 * 1000 });
    expect(t.ttl).toBe(30 * 24 * 3600 * 1000);
    await firedOverflowingTimers();
    expect((await p.request('tasks/get', { taskId: t.taskId })).error?.code).toBe(-32602);
  },
  'expired-retained': (p) =>
    onFakeClock(async (pass) => {
      const t = await createTask(p, 'complete', { ms: 0 }, { ttl: 30 });
      await pass(120); // past its ttl
      expect(ok(await p.request('tasks/get', { taskId: t.taskId })).taskId).toBe(t.taskId);
      expect(ok(await p.request('tasks/list', {})).tasks.map((x: any) => x.taskId)).toContain(t.taskId);
    }),
  'generic-error-messages': async (p) => {
    expect((await p.request('tasks/get', { taskId: 'nope' })).error).toEqual({ code: -32602, message: 'Invalid params' });
    expect((await p.request('tasks/list', { cursor: 'nope' })).error).toEqual({ code: -32602, message: 'Invalid params' });
    // The underlying request's own error is returned as is by tasks/result (result-exact-error).
    const t = await createTask(p, 'complete', { ms: -1 });
    expect((await p.request('tasks/result', { taskId: t.taskId })).error?.message).toMatch(/"ms"/);
  },
  'get-sse': async (p) => {
    const t = await createTask(p, 'complete', { ms: 0 });
    expect((await p.request('tasks/get', { taskId: t.taskId })).httpContentType).toBe('text/event-stream');
  },
  'disconnect-cancels': async (p) => {
    const t = await createTask(p, 'slow', { ms: 400 });
    const waiting = p.request('tasks/result', { taskId: t.taskId }, { id: 'dropped-result' }).catch((e: Error) => e);
    await p.request('ping');
    expect(p.dropResponse('dropped-result')).toBe(true);
    await waiting;
    const end = await pollUntil(p, t.taskId, (r) => ['completed', 'cancelled'].includes(r.result?.status));
    expect(end.result.status).toBe('cancelled');
  },
  'log-wrong-related-task': async (p) => {
    const t = await createTask(p, 'log', { ms: 30 });
    await pollUntil(p, t.taskId, (r) => r.result?.status === 'completed');
    const logs = p.messages((m) => m.method === 'notifications/message');
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.every((m) => m.params?._meta?.[RELATED_TASK_META]?.taskId === `${t.taskId}-elsewhere`)).toBe(true);
  },
  'ttl-uncapped': async (p) => {
    const tenYears = 10 * 365 * 24 * 3600 * 1000;
    expect((await createTask(p, 'complete', { ms: 0 }, { ttl: tenYears })).ttl).toBe(tenYears);
  },
  'caps-not-objects': async (_p, h) => {
    const fresh = await h.peer({ initialize: false });
    const init = ok(await fresh.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } }));
    expect(init.capabilities.tasks).toEqual({ list: true, cancel: true, requests: { tools: { call: true } } });
  },
  'undeclared-creates-task': async (_p, h) => {
    const fresh = await h.peer({ initialize: false });
    const init = ok(await fresh.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } }));
    expect(init.capabilities.tasks).toBeUndefined();
    const t = await createTask(fresh, 'complete', { ms: 0 });
    expect(t.status).toBe('working');
    expect(ok(await fresh.request('tasks/result', { taskId: t.taskId })).content[0].text).toBe('done');
  },
  'ignores-task': async (p) => {
    const r = ok(await p.request('tools/call', { name: 'complete', arguments: { ms: 0 }, task: {} }));
    expect(r).toEqual({ content: [{ type: 'text', text: 'done' }] });
  },
  'plain-call-creates-task': async (p) => {
    expect(ok(await p.request('tools/call', { name: 'complete', arguments: { ms: 0 } })).task.status).toBe('working');
  },
  'numeric-task-id': async (p) => {
    const t = await createTask(p, 'complete', { ms: 0 });
    expect(typeof t.taskId).toBe('number');
    expect(Number.isSafeInteger(t.taskId)).toBe(true);
    expect(ok(await p.request('tasks/get', { taskId: t.taskId })).taskId).toBe(t.taskId);
    expect(ok(await p.request('tasks/result', { taskId: t.taskId }))._meta[RELATED_TASK_META].taskId).toBe(t.taskId);
  },
  'duplicate-ids': async (p) => {
    const all = await Promise.all([1, 2, 3, 4].map(() => createTask(p, 'complete', { ms: 0 })));
    expect(new Set(all.map((t) => t.taskId)).size).toBeLessThan(4);
  },
  'adopts-requestor-id': async (p) => {
    expect((await createTask(p, 'complete', { ms: 0 }, { taskId: 'requestor-chosen-1' })).taskId).toBe('requestor-chosen-1');
  },
  'unknown-status': async (p) => {
    const t = await createTask(p, 'slow', { ms: 5000 });
    expect(t.status).toBe('working');
    expect(ok(await p.request('tasks/get', { taskId: t.taskId })).status).toBe('running');
  },
  'completed-resumes': async (p) => {
    const t = await createTask(p, 'complete', { ms: 0 });
    await pollUntil(p, t.taskId, statusIs('completed'));
    expect(ok(await p.request('tasks/get', { taskId: t.taskId })).status).toBe('completed');
    expect(ok(await p.request('tasks/get', { taskId: t.taskId })).status).toBe('working');
    expect(ok(await p.request('tasks/result', { taskId: t.taskId })).content[0].text).toBe('done');
  },
  'no-input-required': async (p) => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const asked: any[] = [];
    p.onRequest(async (req) => {
      if (req.method !== 'elicitation/create') return undefined;
      asked.push(req);
      await gate;
      return { result: { action: 'accept', content: { answer: 'x' } } };
    });
    const t = await createTask(p, 'ask', { ms: 0 });
    const result = p.request('tasks/result', { taskId: t.taskId });
    await p.waitFor((m) => m.method === 'elicitation/create', 5000, 'the input request', true);
    expect(ok(await p.request('tasks/get', { taskId: t.taskId })).status).toBe('working');
    release();
    ok(await result);
  },
  'input-stuck': async (p) => {
    const asked: any[] = [];
    answerAll(p, asked);
    const t = await createTask(p, 'ask', { ms: 0 });
    void p.request('tasks/result', { taskId: t.taskId }, { timeoutMs: 15_000 }).catch(() => undefined);
    const input = await p.waitFor((m) => m.method === 'elicitation/create', 5000, 'the input request', true);
    // Our answer sent, then a round trip: the receiver has read the answer before the ping (one connection, in order).
    await until(
      () => p.transcript.some((e) => e.dir === 'out' && (e.message as Message | undefined)?.id === input.id && 'result' in (e.message as Message)),
      5000,
      'our answer to the input request',
    );
    await p.request('ping');
    expect(ok(await p.request('tasks/get', { taskId: t.taskId })).status).toBe('input_required');
    await p.request('tasks/cancel', { taskId: t.taskId });
  },
  'last-updated-backwards': async (p) => {
    const t = await createTask(p, 'complete', { ms: 0 });
    expect(t.lastUpdatedAt).toMatch(ISO_8601);
    expect(Date.parse(t.lastUpdatedAt)).toBeLessThan(Date.parse(t.createdAt));
  },
  'result-error-as-result': async (p) => {
    const t = await createTask(p, 'complete', { ms: 'not-a-number' });
    await pollUntil(p, t.taskId, statusIs('failed'), 3000);
    const r = await p.request('tasks/result', { taskId: t.taskId });
    expect(r.error).toBeUndefined();
    expect(ok(r).isError).toBe(true);
  },
  'created-input-required': async (p) => {
    expect((await createTask(p, 'slow', { ms: 1000 })).status).toBe('input_required');
    expect((await createTask(p, 'complete', { ms: 0 })).status).toBe('input_required');
  },
  'task-on-undeclared-types': async (p) => {
    expect((await p.request('tools/list', { task: {} })).error?.code).toBe(-32600);
    expect(ok(await p.request('tools/list', {})).tools.length).toBeGreaterThan(0);
  },
  'deleted-early': async (p) => {
    const t = await createTask(p, 'complete', { ms: 0 }, { ttl: 60_000 });
    await pollUntil(p, t.taskId, statusIs('completed'), 3000);
    const gone = await pollUntil(p, t.taskId, (r) => r.error !== undefined, 3000);
    expect(gone.error?.code).toBe(-32602);
  },
  'last-updated-frozen': async (p) => {
    const t = await createTask(p, 'complete', { ms: 20 });
    const done = await pollUntil(p, t.taskId, statusIs('completed'), 3000);
    expect(ok(done).lastUpdatedAt).toBe(t.createdAt);
  },
  'status-notification-related-task': async (p) => {
    const t = await createTask(p, 'complete', { ms: 0 });
    const n = await p.waitFor((m) => m.method === 'notifications/tasks/status' && m.params?.taskId === t.taskId, 3000, 'status notification', true);
    expect(n.params._meta?.[RELATED_TASK_META]).toEqual({ taskId: t.taskId });
  },
  'status-notification-wrong-status': async (p) => {
    const t = await createTask(p, 'fail', { ms: 0 });
    const n = await p.waitFor((m) => m.method === 'notifications/tasks/status' && m.params?.taskId === t.taskId, 3000, 'status notification', true);
    expect(n.params.status).toBe('completed');
    expect(ok(await p.request('tasks/get', { taskId: t.taskId })).status).toBe('failed');
  },
  // The receiver as requestor (requestor.ts): peers are client task receivers, not initialized by the harness.
  'requestor-fast-poll': async (_p, h) => {
    const p = await h.peer({ initialize: false });
    await asClientReceiver(p, ['sampling/createMessage'], 'sample_via_client');
    const times = p.transcript.filter((e) => e.dir === 'in' && (e.message as Message)?.method === 'tasks/get').map((e) => e.ms);
    expect(Math.min(...gaps(times))).toBeLessThan(120);
  },
  'requestor-stops-polling': async (_p, h) => {
    const p = await h.peer({ initialize: false });
    const sent = await asClientReceiver(p, ['sampling/createMessage'], 'sample_via_client');
    expect(sent.filter((m) => m.method === 'sampling/createMessage' && m.params?.task)).toHaveLength(1);
    expect(sent.filter((m) => m.method === 'tasks/get' || m.method === 'tasks/result')).toEqual([]);
  },
  'requestor-no-result-on-input': async (_p, h) => {
    const p = await h.peer({ initialize: false });
    const statuses: string[] = [];
    await asClientReceiver(p, ['elicitation/create'], 'elicit_via_client', statuses);
    expect(statuses).toEqual(['completed']);
  },
  'requestor-related-task-in-requests': async (_p, h) => {
    const p = await h.peer({ initialize: false });
    const sent = await asClientReceiver(p, ['sampling/createMessage'], 'sample_via_client');
    const gets = sent.filter((m) => m.method === 'tasks/get');
    expect(gets.length).toBeGreaterThan(0);
    for (const g of gets) expect(g.params._meta?.[RELATED_TASK_META]).toEqual({ taskId: g.params.taskId });
  },
  'requestor-augments-undeclared': async (_p, h) => {
    const p = await h.peer({ initialize: false });
    const sent = await asClientReceiver(p, [], 'elicit_via_client');
    expect(sent.filter((m) => m.method === 'elicitation/create' && m.params?.task !== undefined)).toHaveLength(1);
  },
};

describe('named faults', () => {
  it('every registered fault has an observation here, and the registry is well-formed', () => {
    expect(Object.keys(observations).sort()).toEqual(FAULTS.map((f) => f.name).sort());
    for (const f of FAULTS) {
      expect(f.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(f.requirement).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(f.description.length).toBeGreaterThan(10);
    }
  });

  it.each(FAULTS.map((f) => f.name))('%s changes the behaviour it names', async (name) => {
    await withFault(name, observations[name]);
  });

  it('the same observations fail against the faultless receiver (each fault is a real change)', async () => {
    const failing: string[] = [];
    for (const f of FAULTS) {
      const h = await harness(kindOf(f.name), optionsFor(f.name, false));
      try {
        await observations[f.name](await h.peer(), h);
      } catch {
        failing.push(f.name);
      } finally {
        await h.close();
      }
    }
    expect(failing.sort()).toEqual(FAULTS.map((f) => f.name).sort());
  }, 60_000);

  it('no fault crashes the receiver: every tool runs to its end as a task, errors go to errorLog', async () => {
    for (const f of FAULTS) {
      const errors: string[] = [];
      const h = await harness('memory', { ...optionsFor(f.name), errorLog: (l) => errors.push(l) });
      try {
        const p = await h.peer();
        p.onRequest((req) => (req.method === 'elicitation/create' ? { result: { action: 'accept', content: { answer: 'x' } } } : undefined));
        const ids: string[] = [];
        for (const name of ['complete', 'fail', 'ask', 'progress', 'echo']) {
          const r = await p.request('tools/call', { name, arguments: { ms: 0 }, task: {}, _meta: { progressToken: `${name}-tok` } });
          if (typeof r.result?.task?.taskId === 'string') ids.push(String(r.result.task.taskId));
        }
        await Promise.all(ids.map((taskId) => p.request('tasks/result', { taskId }, { timeoutMs: 3000 }).catch(() => undefined)));
        expect(ok(await p.request('ping')), f.name).toEqual({});
        expect(
          errors.filter((l) => !/send failed/.test(l)),
          f.name,
        ).toEqual([]);
      } finally {
        await h.close();
      }
    }
  }, 120_000);

  it('--fault reaches the receiver through the CLI (stdio)', async () => {
    const h = await harness('stdio', { faults: ['sequential-ids', 'ttl-missing'] });
    try {
      const p = await h.peer();
      const t = await createTask(p, 'complete', { ms: 0 });
      expect(t.taskId).toBe('1');
      expect('ttl' in ok(await p.request('tasks/get', { taskId: '1' }))).toBe(false);
    } finally {
      await h.close();
    }
  });
});
