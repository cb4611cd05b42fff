// Everything the reference extension server writes validates against the revision's schema
// (schema/tasks-2026-07-28.schema.json): each result against the definition its method and resultType name,
// each error response, each notification — with no switch, under every latitude, and the schema faults are
// caught by that same validation.
import { afterAll, describe, expect, it } from 'vitest';
import { validatorFor } from '../../schema/validate.ts';
import { LATITUDES, createExtensionServer, type LatitudeName, type ReferenceExtensionServer, type WireEvent } from './index.ts';
import { Method, REQUEST_DEFINITION, resultDefinition } from './protocol.ts';
import { callTool, meta, NON_DECLARING, StreamClient, until, type Msg } from './test-client.ts';

const validator = validatorFor('2026-07-28');
const terminal = (t: Record<string, unknown>) => ['completed', 'failed', 'cancelled'].includes(t.status as string);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const servers: ReferenceExtensionServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** Runs every role once (declaring and not), a subscription, a cancel and a few errors; returns the wire. */
async function scenario(opts: { faults?: string[]; latitudes?: LatitudeName[] } = {}): Promise<WireEvent[]> {
  const wire: WireEvent[] = [];
  const s = createExtensionServer({ timings: { completesMs: 20, slowMs: 400 }, pollIntervalMs: 10, latencyMs: 10, ...opts, onWire: (e) => wire.push(e) });
  servers.push(s);
  const { toServer, fromServer } = s.inProcess();
  const c = new StreamClient(toServer, fromServer);
  const poll = async (id: string, pred: (t: Record<string, unknown>) => boolean) =>
    until(
      async () => {
        const r = await c.request(Method.TasksGet, { taskId: id });
        if (typeof r.error?.data?.retryAfterMs === 'number') await pause(r.error.data.retryAfterMs);
        return r.result ?? (r.error ? { status: 'failed' } : {});
      },
      pred,
      10_000,
      10,
    );
  const answerAll = async (name: string) => {
    let r = await callTool(c, name);
    while (r.result?.resultType === 'input_required') {
      const keys = Object.keys((r.result.inputRequests ?? {}) as object);
      r = await callTool(c, name, {}, undefined, {
        requestState: r.result.requestState,
        inputResponses: Object.fromEntries(keys.map((k) => [k, { action: 'accept', content: { answer: 'a' } }])),
      });
    }
    if (r.result?.resultType !== 'task') return;
    const id = r.result.taskId as string;
    const answered = new Set<string>();
    for (;;) {
      const t = await poll(id, (x) => terminal(x) || Object.keys((x.inputRequests ?? {}) as object).some((k) => !answered.has(k)));
      if (terminal(t) || t.status !== 'input_required') break;
      const fresh = Object.keys(t.inputRequests as object).filter((k) => !answered.has(k));
      fresh.forEach((k) => answered.add(k));
      await c.request(Method.TasksUpdate, {
        taskId: id,
        inputResponses: Object.fromEntries(fresh.map((k) => [k, { action: 'accept', content: { answer: 'a' } }])),
      });
    }
  };
  await c.request(Method.ServerDiscover, {}, { caps: {} });
  await c.request(Method.ToolsList);
  // a subscription over the ask task's life
  const ask = await callTool(c, 'complete', { ms: 150 });
  if (ask.result?.taskId)
    c.send({ jsonrpc: '2.0', id: 'sub', method: Method.SubscriptionsListen, params: { notifications: { taskIds: [ask.result.taskId] }, _meta: meta() } });
  for (const name of ['complete', 'fail_rpc', 'tool_error', 'ask', 'ask_two', 'ask_rounds', 'mrtr_then_task', 'task_only']) await answerAll(name);
  const slow = await callTool(c, 'slow');
  if (slow.result?.taskId) await c.request(Method.TasksCancel, { taskId: slow.result.taskId as string });
  for (const name of ['complete', 'fail_rpc', 'tool_error', 'task_only']) await callTool(c, name, {}, NON_DECLARING);
  await c.request(Method.TasksGet, { taskId: 'no-such-task' });
  await c.request(Method.TasksResult, { taskId: 'x' });
  await c.request(Method.ToolsList, { _meta: undefined });
  if (ask.result?.taskId) await poll(ask.result.taskId as string, terminal);
  await c.close();
  return wire;
}

/** Every schema complaint about what the server wrote (by message). */
function complaints(wire: WireEvent[]): string[] {
  const methodOf = new Map<string, string>();
  for (const e of wire) {
    const m = e.message as Msg;
    if (e.dir === 'in' && typeof m === 'object' && m && typeof m.method === 'string' && 'id' in m) methodOf.set(JSON.stringify(m.id), m.method);
  }
  const out: string[] = [];
  const check = (def: string | undefined, value: unknown, what: string) => {
    if (!def) return;
    const v = validator.validate(def, value);
    if (!v.valid) out.push(`${what} (${def}): ${v.errors.join('; ')}`);
  };
  for (const e of wire) {
    const m = e.message as Msg;
    if (e.dir === 'in') {
      // our own requests too (the client of this test), except the one sent without _meta on purpose
      const deliberate = !(m.params as Msg | undefined)?._meta;
      if (typeof m.method === 'string' && 'id' in m && !deliberate) check(REQUEST_DEFINITION[m.method], m, `request ${m.method}`);
      continue;
    }
    if ('error' in m) check('JSONRPCErrorResponse', m, `error ${m.error?.code}`);
    else if ('result' in m) {
      const method = methodOf.get(JSON.stringify(m.id)) ?? '';
      check(resultDefinition(method, m.result), m.result, `result of ${method}`);
    } else if (m.method === Method.TasksNotification) check('TaskStatusNotification', m, 'notifications/tasks');
    else if (m.method === Method.SubscriptionsAcknowledged) check('SubscriptionsAcknowledgedNotification', m, 'acknowledged');
    else if (m.method === Method.Cancelled) check('CancelledNotification', m, 'notifications/cancelled');
  }
  return out;
}

describe('the wire of the reference extension server validates against the 2026-07-28 schema', () => {
  it('with no switch: every result, error and notification', async () => {
    const wire = await scenario();
    expect(wire.filter((e) => e.dir === 'out').length).toBeGreaterThan(40);
    expect(wire.some((e) => (e.message as Msg).method === Method.TasksNotification)).toBe(true);
    expect(complaints(wire)).toEqual([]);
  });

  for (const l of LATITUDES.filter((x) => !('transport' in x))) {
    it(`under the latitude ${l.name}`, async () => {
      expect(complaints(await scenario({ latitudes: [l.name] }))).toEqual([]);
    });
  }

  for (const f of ['create-result-nested', 'legacy-field-names', 'notification-not-detailed']) {
    it(`the schema fault ${f} is caught by the same validation`, async () => {
      expect(complaints(await scenario({ faults: [f] })).length).toBeGreaterThan(0);
    });
  }
});
