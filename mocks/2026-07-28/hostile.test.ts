// Hostile input (property run): whatever arrives on stdio, the reference extension server answers each request
// exactly once with a JSON-RPC response of its id (or an id-less error when no id could be read), writes nothing
// but JSON-RPC, never crashes, and still serves a well-formed request afterwards.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createExtensionServer } from './index.ts';
import { Meta, Method, TASKS_EXTENSION } from './protocol.ts';
import { HttpClient, meta, StreamClient } from './test-client.ts';

const s = createExtensionServer({ timings: { completesMs: 5, slowMs: 5 }, pollIntervalMs: 10 });
afterAll(() => s.close());

const methods = fc.constantFrom(...Object.values(Method).filter((m) => !m.startsWith('notifications/')), 'initialize', 'ping', 'tasks/', '', 'TOOLS/CALL');
const junk = fc.oneof(fc.jsonValue(), fc.string(), fc.constant(null), fc.array(fc.jsonValue(), { maxLength: 3 }));
const caps = fc.oneof(
  fc.constant({ extensions: { [TASKS_EXTENSION]: {} }, elicitation: {} }),
  fc.constant({}),
  fc.constant({ tasks: {} }),
  fc.constant({ extensions: { [TASKS_EXTENSION]: true } }),
  junk,
);
const params = fc.record(
  {
    _meta: fc.oneof(
      fc.constant(meta()),
      fc.record({ [Meta.ProtocolVersion]: fc.oneof(fc.constant('2026-07-28'), fc.string()), [Meta.ClientCapabilities]: caps }),
      junk,
    ),
    name: fc.oneof(fc.constantFrom('complete', 'ask', 'task_only', 'mrtr_then_task', 'fail_rpc'), junk),
    arguments: fc.oneof(fc.record({ ms: fc.oneof(fc.integer({ min: -5, max: 20 }), junk) }), junk),
    taskId: fc.oneof(fc.uuid(), junk),
    inputResponses: fc.oneof(fc.dictionary(fc.string({ maxLength: 8 }), junk, { maxKeys: 3 }), junk),
    requestState: fc.oneof(fc.string(), junk),
    notifications: fc.oneof(fc.record({ taskIds: fc.oneof(fc.array(fc.uuid(), { maxLength: 2 }), junk) }), junk),
    task: junk,
  },
  { requiredKeys: [] },
);
const request = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant('2.0'), junk),
    id: fc.oneof(fc.integer(), fc.string({ maxLength: 6 }), junk),
    method: methods,
    params: fc.oneof(params, junk),
  },
  { requiredKeys: ['method'] },
);
const line = fc.oneof(
  request.map((r) => JSON.stringify(r)),
  fc.string().filter((t) => !t.includes('\n')),
  junk.map((j) => JSON.stringify(j)),
);

describe('hostile input over stdio', () => {
  it('every request answered once with its id, only JSON-RPC out, and the server keeps serving', async () => {
    const { client, toServer, fromServer } = StreamClient.pair();
    s.stdio(toServer, fromServer);
    let seq = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 6 }), async (lines) => {
        const from = client.received.length;
        for (const l of lines) client.raw(l + '\n');
        // a well-formed request after the junk: answered (the server still serves)
        const probeId = `probe-${++seq}`;
        const probe = await client.request(Method.ToolsList, {}, { id: probeId });
        expect(probe.result?.resultType).toBe('complete');
        for (const m of client.received.slice(from)) {
          expect(m.jsonrpc).toBe('2.0');
          if ('error' in m) expect(typeof m.error?.code === 'number' && typeof m.error.message === 'string').toBe(true);
          else if (!('method' in m)) expect('result' in m).toBe(true);
        }
        // no id answered twice (ids that are still in flight may answer later, never twice)
        const ids = client.received
          .slice(from)
          .filter((m) => 'id' in m && m.id !== probeId && ('result' in m || 'error' in m))
          .map((m) => JSON.stringify(m.id));
        const counts = new Map<string, number>();
        for (const i of ids) counts.set(i, (counts.get(i) ?? 0) + 1);
        const sent = lines.map((l) => {
          try {
            return JSON.parse(l);
          } catch {
            return undefined;
          }
        });
        for (const [i, n] of counts) {
          const sameId = sent.filter((x) => x && typeof x === 'object' && !Array.isArray(x) && 'id' in x && JSON.stringify(x.id) === i).length;
          expect(n, `id ${i}`).toBeLessThanOrEqual(Math.max(1, sameId));
        }
      }),
      { numRuns: 150 },
    );
    for (const l of client.lines) expect(() => JSON.parse(l)).not.toThrow();
  });

  it('over HTTP: every POST gets an HTTP answer (a JSON-RPC body or 202), and the server keeps serving', async () => {
    const { url } = await s.listenHttp(0);
    const c = new HttpClient(url);
    await fc.assert(
      fc.asyncProperty(line, fc.boolean(), async (l, headers) => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(l);
        } catch {
          parsed = undefined;
        }
        // a subscriptions/listen that passes is an open stream: not a one-shot answer
        fc.pre(!(parsed && typeof parsed === 'object' && (parsed as Record<string, unknown>).method === Method.SubscriptionsListen));
        const r = await c.send(headers && parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : l);
        expect([200, 202, 400, 404]).toContain(r.status);
        if (r.status === 202) expect(r.text).toBe('');
        else expect(r.body?.jsonrpc).toBe('2.0');
        expect((await c.request(Method.ToolsList)).result?.resultType).toBe('complete');
      }),
      { numRuns: 60 },
    );
  });
});
