// One test per named fault: a direct observation that the fault changes the behaviour it names
// (the conformance checks prove it fully). In-process for speed; one test checks the CLI wiring.
import { describe, expect, it } from 'vitest';
import { RELATED_TASK_META } from './model.ts';
import { FAULTS, type FaultName } from './receiver/faults.ts';
import type { ReceiverOptions } from './receiver/index.ts';
import { createTask, harness, ISO_8601, ok, pollUntil, statusIs, type Harness } from './receiver/test-helpers.ts';
import type { Peer } from './wire.ts';

async function withFault(fault: FaultName, body: (p: Peer, h: Harness) => Promise<void>, extra: ReceiverOptions = {}): Promise<void> {
  const h = await harness('memory', { faults: [fault], ...extra });
  try {
    await body(await h.peer(), h);
  } finally {
    await h.close();
  }
}

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
    await pollUntil(p, t.taskId, statusIs('failed'), 3000, 1);
    await pollUntil(p, t.taskId, statusIs('working'), 1000);
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
    await createTask(p, 'complete', { ms: 0 });
    await createTask(p, 'complete', { ms: 0 });
    const r = ok(await p.request('tasks/list', {}));
    expect(r.tasks.length).toBe(1);
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
  'is-error-completes': async (p) => {
    const t = await createTask(p, 'fail', { ms: 0 });
    const r = ok(await p.request('tasks/result', { taskId: t.taskId }));
    expect(r.isError).toBe(true);
    expect(ok(await p.request('tasks/get', { taskId: t.taskId })).status).toBe('completed');
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
};

const EXTRA: Partial<Record<FaultName, ReceiverOptions>> = { 'no-next-cursor': { pageSize: 1 } };

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
    await withFault(name, observations[name], EXTRA[name]);
  });

  it('the same observations fail against the faultless receiver (each fault is a real change)', async () => {
    const failing: string[] = [];
    for (const f of FAULTS) {
      const h = await harness('memory', EXTRA[f.name] ?? {});
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
      const h = await harness('memory', { faults: [f.name], errorLog: (l) => errors.push(l), ...(EXTRA[f.name] ?? {}) });
      try {
        const p = await h.peer();
        p.onRequest((req) => (req.method === 'elicitation/create' ? { result: { action: 'accept', content: { answer: 'x' } } } : undefined));
        const ids: string[] = [];
        for (const name of ['complete', 'fail', 'ask', 'progress', 'echo']) {
          const r = await p.request('tools/call', { name, arguments: { ms: 0 }, task: {}, _meta: { progressToken: `${name}-tok` } });
          if (typeof r.result?.task?.taskId === 'string') ids.push(String(r.result.task.taskId));
        }
        await Promise.all(ids.map((taskId) => p.request('tasks/result', { taskId }, { timeoutMs: 3000 }).catch(() => undefined)));
        await new Promise((r) => setTimeout(r, 50));
        expect(ok(await p.request('ping')), f.name).toEqual({});
        expect(errors.filter((l) => !/send failed/.test(l)), f.name).toEqual([]);
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
