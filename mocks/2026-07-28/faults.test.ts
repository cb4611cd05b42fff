// Every named fault of the reference extension server is observable: its probe sees the deviation with the
// fault on, and the exact behaviour with no fault (so the probe is not trivially true). The probes are the
// shortest observation of the one requirement each fault breaks; the conformance checks are the real judges.
import { afterAll, describe, expect, it } from 'vitest';
import { requirementsFor } from '../../schema/catalog.ts';
import { FAULTS, createExtensionServer, type FaultName, type ReferenceExtensionServer } from './index.ts';
import { Meta, Method } from './protocol.ts';
import { callTool, createTask, DECLARING, getTask, HttpClient, meta, NON_DECLARING, pollTask, StreamClient, type Client, type Msg } from './test-client.ts';

const terminal = (t: Record<string, unknown>) => ['completed', 'failed', 'cancelled'].includes(t.status as string);
const FAST = { timings: { completesMs: 30, slowMs: 5_000 }, pollIntervalMs: 20 };

interface Probe {
  http?: boolean;
  tokens?: string[];
  /** True when the deviation of the fault is seen. */
  seen(c: Client, extra: { stdio?: StreamClient; url?: string }): Promise<boolean>;
}

const keysOf = (t: Record<string, unknown>) => Object.keys((t.inputRequests ?? {}) as object);
const inputRequired = (c: Client, id: string) => pollTask(c, id, (x) => x.status === 'input_required' || terminal(x));
const accept = (answer: string) => ({ action: 'accept', content: { answer } });

/** Sends subscriptions/listen on stdio; resolves with the messages of that subscription once `enough` holds (bounded). */
async function listen(
  sc: StreamClient,
  params: Record<string, unknown>,
  caps: Record<string, unknown> = DECLARING,
  enough: (ms: Msg[]) => boolean = (ms) => ms.length > 0,
  timeoutMs = 3000,
): Promise<Msg[]> {
  const id = sc.id();
  const from = sc.received.length;
  sc.send({ jsonrpc: '2.0', id, method: Method.SubscriptionsListen, params: { ...params, _meta: meta(caps) } });
  const mine = () =>
    sc.received
      .slice(from)
      .filter(
        (m) => m.id === id || (m.params as any)?._meta?.[Meta.SubscriptionId] === id || m.method === Method.TasksNotification || m.method === Method.Progress,
      );
  // Checked as each message arrives; what came within the bound otherwise.
  await sc.waitFor(() => enough(mine()), timeoutMs, from).catch(() => undefined);
  return mine();
}

/** True when `pred` holds for the task within `ms` (bounded observation). */
async function seenWithin(c: Client, id: string, pred: (t: Record<string, unknown>) => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const r = await getTask(c, id);
    if (r.result && pred(r.result)) return true;
    await new Promise((x) => setTimeout(x, 20));
  }
  return false;
}

const PROBES: Record<FaultName, Probe> = {
  'task-to-undeclared': { seen: async (c) => (await callTool(c, 'complete', {}, NON_DECLARING)).result?.resultType === 'task' },
  'undeclared-wrong-code': { seen: async (c) => (await callTool(c, 'task_only', {}, NON_DECLARING)).error?.code !== -32021 },
  'no-required-capabilities': { seen: async (c) => (await callTool(c, 'task_only', {}, NON_DECLARING)).error?.data?.requiredCapabilities === undefined },
  'task-methods-undeclared': {
    seen: async (c) => {
      const id = await createTask(c, 'slow');
      return (await getTask(c, id, NON_DECLARING)).error?.code !== -32021;
    },
  },
  'listen-undeclared': {
    seen: async (_c, { stdio }) => {
      const ms = await listen(stdio!, { notifications: { taskIds: [] } }, NON_DECLARING);
      return !ms.some((m) => m.error?.code === -32021);
    },
  },
  'legacy-capability-counts': {
    seen: async (c) => (await callTool(c, 'task_only', {}, { tasks: { requests: { tools: { call: {} } } }, elicitation: {} })).error?.code !== -32021,
  },
  'task-param-validated': { seen: async (c) => (await callTool(c, 'complete', {}, DECLARING, { task: 'garbage' })).error?.code === -32602 },
  'create-result-type-complete': { seen: async (c) => (await callTool(c, 'complete')).result?.resultType !== 'task' },
  'get-result-type-task': { seen: async (c) => (await getTask(c, await createTask(c, 'slow'))).result?.resultType === 'task' },
  'update-no-result-type': {
    seen: async (c) => {
      const id = await createTask(c, 'ask');
      return !('resultType' in (await c.request(Method.TasksUpdate, { taskId: id, inputResponses: {} })).result!);
    },
  },
  'cancel-no-result-type': { seen: async (c) => !('resultType' in (await c.request(Method.TasksCancel, { taskId: await createTask(c, 'slow') })).result!) },
  'discover-no-result-type': { seen: async (c) => !('resultType' in (await c.request(Method.ServerDiscover)).result!) },
  'create-result-nested': { seen: async (c) => (await callTool(c, 'complete')).result?.taskId === undefined },
  'legacy-field-names': { seen: async (c) => !('ttlMs' in (await callTool(c, 'slow')).result!) },
  'create-before-durable': {
    seen: async (c) => {
      const r = await callTool(c, 'complete');
      return (await getTask(c, r.result!.taskId as string)).error !== undefined;
    },
  },
  'mrtr-after-task': { seen: async (c) => (await callTool(c, 'mrtr_then_task')).result?.resultType === 'task' },
  'completed-no-result': { seen: async (c) => !('result' in (await pollTask(c, await createTask(c, 'complete'), terminal))) },
  'failed-no-error': { seen: async (c) => !('error' in (await pollTask(c, await createTask(c, 'fail_rpc'), terminal))) },
  'input-required-no-requests': { seen: async (c) => !('inputRequests' in (await inputRequired(c, await createTask(c, 'ask')))) },
  'input-request-not-mrtr': {
    seen: async (c) =>
      Object.values((await inputRequired(c, await createTask(c, 'ask'))).inputRequests ?? {}).some((q) => (q as { method?: string }).method === 'ping'),
  },
  'input-requests-partial-list': { seen: async (c) => keysOf(await inputRequired(c, await createTask(c, 'ask_two'))).length !== 2 },
  'is-error-as-failed': { seen: async (c) => (await pollTask(c, await createTask(c, 'tool_error'), terminal)).status === 'failed' },
  'completed-result-altered': {
    seen: async (c) =>
      JSON.stringify(((await pollTask(c, await createTask(c, 'complete'), terminal)).result as { content?: unknown } | undefined)?.content) !==
      JSON.stringify([{ type: 'text', text: 'done' }]),
  },
  'failed-error-altered': {
    seen: async (c) => {
      const direct = (await callTool(c, 'fail_rpc', {}, NON_DECLARING)).error;
      const t = await pollTask(c, await createTask(c, 'fail_rpc'), terminal);
      return JSON.stringify(t.error) !== JSON.stringify(direct);
    },
  },
  'get-result-type-task-failed': {
    seen: async (c) => {
      const id = await createTask(c, 'fail_rpc');
      await pollTask(c, id, terminal);
      return (await getTask(c, id)).result?.resultType === 'task';
    },
  },
  'last-updated-frozen': {
    seen: async (c) => {
      const t = await pollTask(c, await createTask(c, 'complete', { ms: 30 }), terminal);
      return t.lastUpdatedAt === t.createdAt;
    },
  },
  'no-required-capabilities-task-methods': {
    seen: async (c) => {
      const id = await createTask(c, 'complete');
      const e = (await c.request(Method.TasksGet, { taskId: id }, { caps: NON_DECLARING })).error as { code?: number; data?: unknown } | undefined;
      return e?.code === -32021 && e.data === undefined;
    },
  },
  'task-param-opts-in': {
    seen: async (c) =>
      (await callTool(c, 'complete', {})).result?.resultType !== 'task' &&
      (await callTool(c, 'complete', {}, DECLARING, { task: { ttl: 60_000 } })).result?.resultType === 'task',
  },
  'task-to-undeclared-failing': {
    seen: async (c) => (await callTool(c, 'fail_rpc', {}, NON_DECLARING)).result?.resultType === 'task',
  },
  'failed-message-altered': {
    seen: async (c) => {
      const direct = (await callTool(c, 'fail_rpc', {}, NON_DECLARING)).error;
      const t = await pollTask(c, await createTask(c, 'fail_rpc'), terminal);
      return (t.error as { message?: string } | undefined)?.message !== direct?.message;
    },
  },
  'is-error-dropped': {
    seen: async (c) => ((await pollTask(c, await createTask(c, 'tool_error'), terminal)).result as { isError?: unknown } | undefined)?.isError !== true,
  },
  'failed-no-status-message': { seen: async (c) => !('statusMessage' in (await pollTask(c, await createTask(c, 'fail_rpc'), terminal))) },
  'get-unknown-wrong-code': { seen: async (c) => (await getTask(c, 'no-such-task')).error?.code !== -32602 },
  'update-unknown-acked': { seen: async (c) => (await c.request(Method.TasksUpdate, { taskId: 'no-such-task', inputResponses: {} })).result !== undefined },
  'cancel-unknown-acked': { seen: async (c) => (await c.request(Method.TasksCancel, { taskId: 'no-such-task' })).result !== undefined },
  'internal-error-custom-code': { seen: async (c) => (await getTask(c, 'x'.repeat(2048))).error?.code !== -32602 },
  'error-message-empty': { seen: async (c) => (await getTask(c, 'no-such-task')).error?.message === '' },
  'result-type-unknown': { seen: async (c) => (await c.request(Method.ToolsList)).result?.resultType !== 'complete' },
  'tool-error-legacy-code': { seen: async (c) => (await callTool(c, 'fail_rpc', {}, NON_DECLARING)).error?.code === -32005 },
  'tool-error-reserved-code': { seen: async (c) => (await callTool(c, 'fail_rpc', {}, NON_DECLARING)).error?.code === -32050 },
  'tool-error-retired-code': {
    seen: async (c) => ((await pollTask(c, await createTask(c, 'fail_rpc'), terminal)) as { error?: { code?: number } }).error?.code === -32002,
  },
  'tool-error-defined-code': { seen: async (c) => (await callTool(c, 'fail_rpc', {}, NON_DECLARING)).error?.code === -32021 },
  'input-as-server-request': {
    seen: async (c, { stdio }) => {
      const from = stdio!.received.length;
      expect((await callTool(c, 'mrtr_then_task')).result?.resultType).toBe('input_required');
      return stdio!.received.slice(from).some((m) => m.method === Method.ElicitationCreate && 'id' in m);
    },
  },
  'listen-teardown-not-cancelled': {
    seen: async (c, { stdio }) => {
      const id = await createTask(c, 'complete', { ms: 100 });
      const ms = await listen(stdio!, { notifications: { taskIds: [id] } }, DECLARING, (x) => x.some((m) => 'result' in m));
      // the subscription is ended (a correct server ending it sends notifications/cancelled first); the correct server here does not end it
      return ms.some((m) => 'result' in m) && !stdio!.received.some((m) => m.method === Method.Cancelled);
    },
  },
  'task-cancel-notified': {
    seen: async (c, { stdio }) => {
      const id = await createTask(c, 'slow');
      const from = stdio!.received.length;
      const pending = listen(stdio!, { notifications: { taskIds: [id] } }, DECLARING, (x) => x.some((m) => (m.params as any)?.status === 'cancelled'));
      await stdio!.waitFor((m) => m.method === Method.SubscriptionsAcknowledged, 3000, from);
      await c.request(Method.TasksCancel, { taskId: id });
      await pending;
      return stdio!.received.slice(from).some((m) => m.method === Method.Cancelled);
    },
  },
  'input-key-reused': {
    seen: async (c) => {
      const id = await createTask(c, 'ask_rounds');
      const [k1] = keysOf(await inputRequired(c, id));
      await c.request(Method.TasksUpdate, { taskId: id, inputResponses: { [k1!]: accept('A') } });
      const t2 = await pollTask(
        c,
        id,
        (t) => t.status === 'input_required' && (t.lastUpdatedAt as string) !== '' && keysOf(t).length > 0 && (t.statusMessage as string).includes('second'),
      );
      return keysOf(t2).includes(k1!);
    },
  },
  'answered-key-reapplied': {
    seen: async (c) => {
      const id = await createTask(c, 'ask_two');
      const [k1, k2] = keysOf(await inputRequired(c, id));
      await c.request(Method.TasksUpdate, { taskId: id, inputResponses: { [k1!]: accept('A') } });
      await c.request(Method.TasksUpdate, { taskId: id, inputResponses: { [k1!]: accept('CHANGED'), [k2!]: accept('B') } });
      return JSON.stringify((await pollTask(c, id, terminal)).result).includes('CHANGED');
    },
  },
  'unknown-key-rejected': {
    seen: async (c) => {
      const id = await createTask(c, 'ask');
      await inputRequired(c, id);
      return (await c.request(Method.TasksUpdate, { taskId: id, inputResponses: { 'never-issued': accept('x') } })).error !== undefined;
    },
  },
  'partial-answer-resumes': {
    seen: async (c) => {
      const id = await createTask(c, 'ask_two');
      const [k1] = keysOf(await inputRequired(c, id));
      await c.request(Method.TasksUpdate, { taskId: id, inputResponses: { [k1!]: accept('A') } });
      return seenWithin(c, id, (t) => t.status !== 'input_required', 300);
    },
  },
  'update-ack-carries-task': {
    seen: async (c) => {
      const id = await createTask(c, 'ask');
      return 'taskId' in (await c.request(Method.TasksUpdate, { taskId: id, inputResponses: {} })).result!;
    },
  },
  'cancel-ack-carries-task': { seen: async (c) => 'taskId' in (await c.request(Method.TasksCancel, { taskId: await createTask(c, 'slow') })).result! },
  'cancelled-resurrects': {
    seen: async (c) => {
      const id = await createTask(c, 'complete', { ms: 150 });
      await c.request(Method.TasksCancel, { taskId: id });
      return seenWithin(c, id, (t) => t.status === 'completed', 600);
    },
  },
  'failed-resumes': {
    seen: async (c) => {
      const id = await createTask(c, 'fail_rpc');
      await pollTask(c, id, terminal);
      return (await getTask(c, id)).result?.status !== 'failed';
    },
  },
  'completed-refails': {
    seen: async (c) => {
      const id = await createTask(c, 'complete');
      await pollTask(c, id, terminal);
      return (await getTask(c, id)).result?.status === 'failed';
    },
  },
  'terminal-update-rejected': {
    seen: async (c) => {
      const id = await createTask(c, 'complete');
      await pollTask(c, id, terminal);
      return (await c.request(Method.TasksUpdate, { taskId: id, inputResponses: { k: accept('late') } })).error?.code === -32602;
    },
  },
  'legacy-status-notification': {
    seen: async (c, { stdio }) => {
      const id = await createTask(c, 'complete', { ms: 100 });
      const ms = await listen(stdio!, { notifications: { taskIds: [id] } }, DECLARING, (m) => m.some((x) => x.method === 'notifications/tasks/status'));
      return ms.some((m) => m.method === 'notifications/tasks/status');
    },
  },
  'deleted-at-end': {
    seen: async (c) => {
      const id = await createTask(c, 'complete');
      await pollTask(c, id, terminal);
      await new Promise((r) => setTimeout(r, 600));
      return (await getTask(c, id)).error?.code === -32602;
    },
  },
  'cancel-rewrites-terminal': {
    seen: async (c) => {
      const id = await createTask(c, 'complete');
      await pollTask(c, id, terminal);
      await c.request(Method.TasksCancel, { taskId: id });
      return (await getTask(c, id)).result?.status === 'cancelled';
    },
  },
  'tasks-result-served': { seen: async (c) => (await c.request(Method.TasksResult, { taskId: await createTask(c, 'complete') })).error?.code !== -32601 },
  'tasks-list-served': { seen: async (c) => (await c.request(Method.TasksList)).error?.code !== -32601 },
  'notification-no-subscription-id': {
    seen: async (c, { stdio }) => {
      const id = await createTask(c, 'complete', { ms: 100 });
      const ms = await listen(stdio!, { notifications: { taskIds: [id] } }, DECLARING, (m) => m.some((x) => x.method === Method.TasksNotification));
      return ms.some((m) => m.method === Method.TasksNotification && !(m.params as any)._meta?.[Meta.SubscriptionId]);
    },
  },
  'notification-before-ack': {
    seen: async (c, { stdio }) => {
      const id = await createTask(c, 'slow');
      const ms = await listen(stdio!, { notifications: { taskIds: [id] } });
      return ms[0]?.method !== Method.SubscriptionsAcknowledged;
    },
  },
  'notification-not-detailed': {
    seen: async (c, { stdio }) => {
      const id = await createTask(c, 'complete', { ms: 100 });
      const done = (m: Msg) => m.method === Method.TasksNotification && (m.params as any).status === 'completed';
      const ms = await listen(stdio!, { notifications: { taskIds: [id] } }, DECLARING, (x) => x.some(done));
      return !('result' in (ms.find(done)!.params as object));
    },
  },
  'progress-on-listen': {
    seen: async (c, { stdio }) => {
      const id = await createTask(c, 'complete', { ms: 100 });
      const ms = await listen(stdio!, { notifications: { taskIds: [id] } }, DECLARING, (x) => x.some((m) => m.method === Method.TasksNotification));
      return ms.some((m) => m.method === Method.Progress);
    },
  },
  'unrequested-task-notifications': {
    seen: async (c, { stdio }) => {
      const ack = await listen(stdio!, { notifications: { taskIds: [] } });
      expect(ack[0]?.method).toBe(Method.SubscriptionsAcknowledged);
      const from = stdio!.received.length;
      await pollTask(c, await createTask(c, 'complete'), terminal);
      return stdio!.received.slice(from).some((m) => m.method === Method.TasksNotification);
    },
  },
  'mcp-name-unchecked': {
    http: true,
    seen: async (c) => {
      const id = await createTask(c, 'slow');
      return (
        (await (c as HttpClient).send({ jsonrpc: '2.0', id: 9, method: Method.TasksGet, params: { taskId: id, _meta: meta() } }, { 'mcp-name': 'other' }))
          .status === 200
      );
    },
  },
  'header-mismatch-http-200': {
    http: true,
    seen: async (c) =>
      (await (c as HttpClient).send({ jsonrpc: '2.0', id: 9, method: Method.ToolsList, params: { _meta: meta() } }, { 'mcp-method': 'x' })).status === 200,
  },
  'mcp-method-unchecked': {
    http: true,
    seen: async (c) =>
      (await (c as HttpClient).send({ jsonrpc: '2.0', id: 9, method: Method.ToolsList, params: { _meta: meta() } }, { 'mcp-method': 'x' })).status === 200,
  },
  'elicitation-undeclared': {
    seen: async (c) => (await callTool(c, 'ask', {}, { extensions: DECLARING.extensions })).result?.resultType === 'task',
  },
  'get-no-result-type': { seen: async (c) => !('resultType' in (await getTask(c, await createTask(c, 'slow'))).result!) },
  'protocol-version-header-unchecked': {
    http: true,
    seen: async (c) =>
      (await (c as HttpClient).send({ jsonrpc: '2.0', id: 9, method: Method.ToolsList, params: { _meta: meta() } }, { 'mcp-protocol-version': '2025-06-18' }))
        .status === 200,
  },
  'capability-error-http-200': {
    http: true,
    seen: async (c) =>
      (await (c as HttpClient).send({ jsonrpc: '2.0', id: 9, method: Method.ToolsCall, params: { name: 'task_only', _meta: meta(NON_DECLARING) } })).status ===
      200,
  },
  'task-methods-32021-http-200': {
    http: true,
    seen: async (c) =>
      (await (c as HttpClient).send({ jsonrpc: '2.0', id: 9, method: Method.TasksGet, params: { taskId: 'any', _meta: meta(NON_DECLARING) } })).status === 200,
  },
  'meta-missing-http-200': {
    http: true,
    seen: async (c) =>
      (await (c as HttpClient).send({ jsonrpc: '2.0', id: 9, method: Method.ToolsList, params: {} }, { 'mcp-protocol-version': '2026-07-28' })).status === 200,
  },
  'unknown-method-http-400': {
    http: true,
    seen: async (c) => (await (c as HttpClient).send({ jsonrpc: '2.0', id: 9, method: Method.TasksList, params: { _meta: meta() } })).status === 400,
  },
  'header-names-case-sensitive': {
    // HttpClient sends every header name in lower case.
    http: true,
    seen: async (c) => (await c.request(Method.ToolsList)).error?.code === -32020,
  },
  'mcp-name-not-decoded': {
    http: true,
    seen: async (c) =>
      (
        await c.request(
          Method.ToolsCall,
          { name: 'complete', arguments: {} },
          { caps: NON_DECLARING, headers: { 'mcp-name': `=?base64?${btoa('complete')}?=` } },
        )
      ).error?.code === -32020,
  },
  'mcp-param-match-refused': {
    http: true,
    seen: async (c) =>
      (await c.request(Method.ToolsCall, { name: 'complete', arguments: { region: 'us-west1', ms: 0 } }, { headers: { 'mcp-param-region': 'us-west1' } })).error
        ?.code === -32020,
  },
  'unsupported-version-http-200': {
    http: true,
    seen: async (c) =>
      (await (c as HttpClient).send({ jsonrpc: '2.0', id: 9, method: Method.ToolsList, params: { _meta: meta(DECLARING, '1900-01-01') } })).status === 200,
  },
  'initialize-error-no-versions': {
    seen: async (c) => {
      const r = await c.request('initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'legacy', version: '0' },
        _meta: undefined,
      });
      return r.error !== undefined && !JSON.stringify(r.error).includes('2026-07-28');
    },
  },
  'version-from-prior-request': {
    seen: async (c) => {
      await c.request(Method.ToolsList);
      return (await c.request(Method.ToolsList, { _meta: meta(DECLARING, '1900-01-01') })).result !== undefined;
    },
  },
  'task-without-id-resolved': {
    seen: async (c) => {
      const id = await createTask(c, 'slow');
      return (await c.request(Method.TasksGet, {})).result?.taskId === id;
    },
  },
  'mrtr-undeclared-elicitation': { seen: async (c) => (await callTool(c, 'ask', {}, {})).result?.inputRequests !== undefined },
  'undeclared-bare-ack': {
    seen: async (c) => {
      const r = await callTool(c, 'complete', {}, NON_DECLARING);
      return r.result !== undefined && !Array.isArray(r.result.content);
    },
  },
  'missing-meta-served': { seen: async (c) => (await c.request(Method.ToolsList, { _meta: undefined })).result !== undefined },
  'unsupported-version-served': { seen: async (c) => (await c.request(Method.ToolsList, { _meta: meta(DECLARING, '1900-01-01') })).result !== undefined },
  'discover-not-implemented': { seen: async (c) => (await c.request(Method.ServerDiscover)).error?.code === -32601 },
  'sequential-task-ids': { seen: async (c) => /^task-\d+$/.test(await createTask(c, 'complete')) },
  'foreign-task-visible': {
    http: true,
    tokens: ['alpha', 'beta'],
    seen: async (_c, { url }) => {
      const id = await createTask(new HttpClient(url!, { authorization: 'Bearer alpha' }), 'slow');
      return (await getTask(new HttpClient(url!, { authorization: 'Bearer beta' }), id)).result !== undefined;
    },
  },
};

const open: ReferenceExtensionServer[] = [];
afterAll(async () => {
  await Promise.all(open.map((s) => s.close()));
});

async function observe(fault: FaultName | undefined, probe: Probe): Promise<boolean> {
  const s = createExtensionServer({ ...FAST, faults: fault ? [fault] : [] });
  open.push(s);
  if (probe.http) {
    const { url } = await s.listenHttp(0, '127.0.0.1', probe.tokens ? { tokens: probe.tokens } : {});
    const c = new HttpClient(url, probe.tokens ? { authorization: `Bearer ${probe.tokens[0]}` } : {});
    return probe.seen(c, { url });
  }
  const { client, toServer, fromServer } = StreamClient.pair();
  s.stdio(toServer, fromServer);
  return probe.seen(client, { stdio: client });
}

describe('named faults of the reference extension server', () => {
  it('every fault has a probe and names a requirement', () => {
    expect(Object.keys(PROBES).sort()).toEqual(FAULTS.map((f) => f.name).sort());
    const ids = new Set(requirementsFor('2026-07-28').map((r) => r.id));
    for (const f of FAULTS) {
      if (f.requirement.startsWith('schema:')) expect(f.requirement).toMatch(/^schema:[A-Za-z]+$/);
      else expect(ids.has(f.requirement), `${f.name}: ${f.requirement} is not in the 2026-07-28 catalog`).toBe(true);
    }
  });

  for (const f of FAULTS) {
    it(`${f.name} (${f.requirement}): seen with the fault, not without`, async () => {
      const probe = PROBES[f.name];
      expect(await observe(undefined, probe)).toBe(false);
      expect(await observe(f.name, probe)).toBe(true);
    });
  }
});
