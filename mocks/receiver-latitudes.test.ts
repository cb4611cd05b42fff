// One test per named latitude: a direct observation that the latitude changes the behaviour it names (the
// mirror of receiver-faults.test.ts; suites/receiver/latitudes.test.ts proves that no check then fails or
// warns). In process; one test checks the CLI wiring.
import { describe, expect, it } from 'vitest';
import { parseMockArgs } from './receiver/args.ts';
import { LATITUDES, type LatitudeName } from './receiver/latitudes.ts';
import { createTask, harness, ok, onFakeClock, pollUntil, statusIs, type Harness } from './receiver/test-helpers.ts';
import type { Peer } from '../suites/wire/peer.ts';

async function withLatitude(name: LatitudeName | undefined, body: (p: Peer, h: Harness) => Promise<void>): Promise<void> {
  const h = await harness('memory', parseMockArgs(['--status-notifications', ...(name ? ['--latitude', name] : [])]).options);
  try {
    await body(await h.peer(), h);
  } finally {
    await h.close();
  }
}

const text = (r: any) => JSON.stringify(r.result ?? r.error);

const observations: Record<LatitudeName, (p: Peer, h: Harness) => Promise<void>> = {
  'custom-error-codes': async (p) => {
    const t = await createTask(p, 'fail', { ms: 0 });
    await pollUntil(p, t.taskId, statusIs('failed'));
    expect((await p.request('tasks/result', { taskId: t.taskId })).error?.code).toBe(-32000);
    expect((await p.request('tools/call', { name: 'complete', arguments: { ms: 'x' } })).error?.code).toBe(-32042);
  },
  'nondeterministic-output': async (p) => {
    const a = await p.request('tools/call', { name: 'complete', arguments: { ms: 0 } });
    const b = await p.request('tools/call', { name: 'complete', arguments: { ms: 0 } });
    expect(text(a)).not.toBe(text(b));
  },
  'fail-asks-first': async (p) => {
    const t = await createTask(p, 'fail', { ms: 200 });
    expect(t.status).toBe('input_required');
    p.onRequest((m) => (m.method === 'elicitation/create' ? { result: { action: 'decline' } } : undefined));
    const r = await p.request('tasks/result', { taskId: t.taskId });
    expect(p.messages((m) => m.method === 'elicitation/create' && m.params?._meta?.['io.modelcontextprotocol/related-task']?.taskId === t.taskId)).toHaveLength(
      1,
    );
    expect(r.result?.isError).toBe(true);
    expect(ok(await p.request('tasks/get', { taskId: t.taskId })).status).toBe('failed');
  },
  'slow-runs-minutes': (p) =>
    onFakeClock(async (pass) => {
      const t = await createTask(p, 'slow', { ms: 10 });
      await pass(200); // well past the 10 ms it was asked to run
      expect(ok(await p.request('tasks/get', { taskId: t.taskId })).status).toBe('working');
      await p.request('tasks/cancel', { taskId: t.taskId });
    }),
  'lazy-expiry': (p) =>
    onFakeClock(async (pass) => {
      const t = await createTask(p, 'complete', { ms: 0 }, { ttl: 30 });
      await pass(150); // past its ttl, before the sweep
      expect(ok(await p.request('tasks/get', { taskId: t.taskId })).taskId).toBe(t.taskId);
    }),
  'stateless-cursors': async (p) => {
    for (let i = 0; i < 12; i++) await createTask(p, 'complete', { ms: 0 });
    const c = ok(await p.request('tasks/list', {})).nextCursor;
    expect(Buffer.from(c, 'base64').toString()).toMatch(/^\d+$/);
    expect(ok(await p.request('tasks/list', { cursor: `${c}tampered` })).tasks.length).toBeGreaterThan(0);
    expect((await p.request('tasks/list', { cursor: 'conformance-garbage-cursor' })).error?.code).toBe(-32602);
  },
  'second-precision-timestamps': async (p) => {
    const t = await createTask(p, 'complete', { ms: 0 });
    expect(t.lastUpdatedAt).toMatch(/:\d\dZ$/);
    expect(t.createdAt).toMatch(/\.\d{3}Z$/);
    expect(ok(await p.request('tasks/get', { taskId: t.taskId })).createdAt).toMatch(/:\d\dZ$/);
  },
  'server-pings': async (p) => {
    await createTask(p, 'complete', { ms: 50 });
    await p.waitFor((m) => m.method === 'ping', 2000, 'a ping from the receiver', true);
  },
  'progress-before-create': async (p) => {
    const r = await p.request('tools/call', { name: 'progress', arguments: { ms: 30 }, task: {}, _meta: { progressToken: 'early' } });
    const created = p.transcript.find((e) => e.message === r.message)!.seq;
    const first = p.transcript.find((e) => (e.message as any)?.method === 'notifications/progress')!;
    expect(first.seq).toBeLessThan(created);
  },
  'delete-cancelled': async (p) => {
    const t = await createTask(p, 'slow', { ms: 5000 });
    ok(await p.request('tasks/cancel', { taskId: t.taskId }));
    expect((await p.request('tasks/get', { taskId: t.taskId })).error?.code).toBe(-32602);
  },
  'rate-limit': async (p) => {
    const rs = await Promise.all(Array.from({ length: 12 }, () => p.request('tools/call', { name: 'complete', arguments: { ms: 0 }, task: {} })));
    expect(rs.filter((r) => /Rate limit/.test(r.error?.message ?? '')).length).toBeGreaterThan(0);
  },
  'concurrency-limit': async (p) => {
    const rs = await Promise.all(Array.from({ length: 5 }, () => p.request('tools/call', { name: 'slow', arguments: { ms: 2000 }, task: {} })));
    expect(rs.filter((r) => r.error).length).toBe(1);
    for (const r of rs) if (r.result?.task) await p.request('tasks/cancel', { taskId: r.result.task.taskId });
  },
  'task-cap-internal-error': async (p) => {
    const rs = await Promise.all(Array.from({ length: 4 }, () => p.request('tools/call', { name: 'slow', arguments: { ms: 2000 }, task: {} })));
    expect(rs.filter((r) => r.error).map((r) => r.error)).toEqual([{ code: -32603, message: 'Maximum concurrent tasks exceeded' }]);
    for (const r of rs) if (r.result?.task) await p.request('tasks/cancel', { taskId: r.result.task.taskId });
  },
  'shared-session-tasks': async (p, h) => {
    const other = await h.peer();
    const t = await createTask(p, 'complete', { ms: 0 });
    expect(ok(await other.request('tasks/get', { taskId: t.taskId })).taskId).toBe(t.taskId);
    expect((await other.request('tasks/result', { taskId: t.taskId })).error?.code).toBe(-32602);
  },
  'no-status-notifications': async (p) => {
    const t = await createTask(p, 'complete', { ms: 0 });
    await pollUntil(p, t.taskId, statusIs('completed'));
    await p.request('ping');
    expect(p.messages((m) => m.method === 'notifications/tasks/status')).toEqual([]);
  },
  latency: async (p) => {
    const started = Date.now();
    ok(await p.request('ping'));
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  },
  'no-list': async (p, h) => {
    const fresh = await h.peer({ initialize: false });
    const init = ok(await fresh.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } }));
    expect(init.capabilities.tasks.list).toBeUndefined();
    expect(ok(await p.request('tasks/list', { cursor: 42 })).tasks).toEqual([]);
  },
  'no-cancel': async (p) => {
    const t = await createTask(p, 'complete', { ms: 0 });
    expect((await p.request('tasks/cancel', { taskId: t.taskId })).error?.code).toBe(-32601);
  },
  'no-poll-interval': async (p) => {
    expect('pollInterval' in (await createTask(p, 'complete', { ms: 0 }))).toBe(false);
  },
  'status-messages': async (p) => {
    expect(typeof (await createTask(p, 'complete', { ms: 0 })).statusMessage).toBe('string');
  },
  'poll-rate-limit': async (p) => {
    const t = await createTask(p, 'complete', { ms: 0 });
    // The second tasks/get comes too soon: refused with a limit error, which the suite's Peer waits out and sends again.
    ok(await p.request('tasks/get', { taskId: t.taskId }));
    ok(await p.request('tasks/get', { taskId: t.taskId }));
    await Promise.all(Array.from({ length: 7 }, () => p.request('tasks/list', {})));
    const limited = p.transcript.filter((e) => e.dir === 'in' && (e.message as any)?.error?.code === -32005).map((e) => (e.message as any).error.message);
    expect(limited.some((m) => /^Slow down/.test(m))).toBe(true);
    expect(limited.some((m) => /^Too many requests/.test(m))).toBe(true);
  },
  'foreign-context-custom-code': async (p, h) => {
    const t = await createTask(p, 'complete', { ms: 0 });
    const other = await h.peer({ token: 'conformance-other-requestor' });
    expect((await other.request('tasks/get', { taskId: t.taskId })).error?.code).toBe(-32001);
  },
  'tool-result-deviates': async (p) => {
    const t = await createTask(p, 'complete', { ms: 0 });
    await pollUntil(p, t.taskId, statusIs('completed'));
    expect(ok(await p.request('tasks/result', { taskId: t.taskId })).content[0].annotations).toEqual({ priority: 'high' });
  },
  'bound-sequential-ids': async (_p, h) => {
    const bound = await h.peer({ token: 'conformance-latitude-token' });
    const a = await createTask(bound, 'complete', { ms: 0 });
    const b = await createTask(bound, 'complete', { ms: 0 });
    expect([a.taskId, b.taskId]).toEqual([expect.stringMatching(/^task-\d+$/), `task-${Number(a.taskId.slice(5)) + 1}`]);
  },
  'long-poll-interval': async (p) => {
    expect((await createTask(p, 'complete', { ms: 0 })).pollInterval).toBe(5000);
  },
  'result-wakes-per-interval': async (p) => {
    const t = await createTask(p, 'complete', { ms: 100 });
    const sent = Date.now();
    ok(await p.request('tasks/result', { taskId: t.taskId }, { timeoutMs: 20_000 }));
    // Answered at the request's first wake-up, one pollInterval (8000 ms) after it arrived, not when the task ended.
    expect(Date.now() - sent).toBeGreaterThan(7_000);
  },
  'ttl-override': async (p) => {
    expect((await createTask(p, 'complete', { ms: 0 }, { ttl: 60_000 })).ttl).toBe(20_000);
  },
};

describe('named latitudes', () => {
  it('every registered latitude has an observation here', () => {
    expect(Object.keys(observations).sort()).toEqual(LATITUDES.map((l) => l.name).sort());
  });

  it.each(LATITUDES.map((l) => l.name))('%s changes the behaviour it names', async (name) => {
    await withLatitude(name, observations[name]);
  });

  it('the same observations fail without the latitude (each is a real change)', async () => {
    const failing: string[] = [];
    for (const l of LATITUDES) {
      try {
        await withLatitude(undefined, observations[l.name]);
      } catch {
        failing.push(l.name);
      }
    }
    expect(failing.sort()).toEqual(LATITUDES.map((l) => l.name).sort());
  }, 60_000);

  it('unknown latitudes are refused', () => {
    expect(() => parseMockArgs(['--latitude', 'no-such-latitude'])).toThrow(/unknown latitude/);
  });
});
