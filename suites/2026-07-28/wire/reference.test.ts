// The 2026-07-28 driver against the reference extension server (mocks/2026-07-28), over Streamable HTTP (in
// process) and stdio (`mock --revision 2026-07-28 --stdio`): header overrides reach the server's validation,
// HTTP statuses come back with the response, subscriptions/listen delivers a task's notifications by its id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, Field, Header, Meta, Method, ResultType } from '../../../schema/2026-07-28/protocol.ts';
import { createExtensionServer, type ReferenceExtensionServer } from '../../../mocks/2026-07-28/index.ts';
import { connectModern, type ModernPeer, type ModernScope } from './peer.ts';

const FAST = { timings: { completesMs: 300, slowMs: 5_000 }, pollIntervalMs: 50 };

/** A task of the task-only tool, followed on a subscription until its notifications/tasks says completed. */
async function taskThroughListen(s: ModernScope): Promise<void> {
  const created = await s.request(Method.ToolsCall, { name: 'task_only', arguments: {} });
  expect(created.result?.resultType).toBe(ResultType.Task);
  const taskId = created.result.taskId as string;
  const sub = await s.listen({ [Field.taskIds]: [taskId] });
  const ack = await sub.acknowledged(20_000);
  expect(ack.params._meta[Meta.SubscriptionId]).toBe(sub.id);
  const done = await sub.waitFor((m) => m.method === Method.TasksNotification && m.params?.status === 'completed', 20_000, 'the completed notification');
  expect(done.params.taskId).toBe(taskId);
  expect(done.params._meta[Meta.SubscriptionId]).toBe(sub.id);
  await sub.close();
}

describe('2026-07-28 driver against the reference extension server over Streamable HTTP', () => {
  let server: ReferenceExtensionServer;
  let peer: ModernPeer;
  let url: string;
  beforeAll(async () => {
    server = createExtensionServer(FAST);
    ({ url } = await server.listenHttp(0));
    peer = await connectModern({ kind: 'http', url }, { defaultTimeoutMs: 20_000 });
  });
  afterAll(async () => {
    await peer.close();
    await server.close();
  });

  it('a mismatched Mcp-Name is refused with -32020 and 400; the standard headers pass', async () => {
    const s = peer.all();
    const created = await s.request(Method.ToolsCall, { name: 'task_only', arguments: {} });
    const taskId = created.result.taskId as string;
    const ok = await s.request(Method.TasksGet, { taskId });
    expect(ok.httpStatus).toBe(200);
    expect(ok.result?.taskId).toBe(taskId);
    const bad = await s.request(Method.TasksGet, { taskId }, { headers: { [Header.Name]: 'someone-else' } });
    expect(bad.error?.code).toBe(ErrorCode.HeaderMismatch);
    expect(bad.httpStatus).toBe(400);
  });

  it('a tools/call of a tool with an x-mcp-header parameter carries Mcp-Param-{Name} (base64 when not plain ASCII): served; without it -32020 and 400', async () => {
    // A connection of its own: no tools/list read on it yet, so the driver lists the tools once before the call.
    const fresh = await connectModern({ kind: 'http', url }, { defaultTimeoutMs: 20_000 });
    try {
      const s = fresh.all();
      const ok = await s.request(Method.ToolsCall, { name: 'complete', arguments: { region: 'Zürich', ms: 0 } });
      expect(ok.error).toBeUndefined();
      expect(ok.httpRequestHeaders?.['Mcp-Param-Region']).toBe(`=?base64?${Buffer.from('Zürich').toString('base64')}?=`);
      const plain = await s.request(Method.ToolsCall, { name: 'complete', arguments: { region: 'us-west1', ms: 0 } });
      expect([plain.httpStatus, plain.error, plain.httpRequestHeaders?.['Mcp-Param-Region']]).toEqual([200, undefined, 'us-west1']);
      const none = await s.request(Method.ToolsCall, { name: 'complete', arguments: { ms: 0 } });
      expect(none.error).toBeUndefined();
      expect(Object.keys(none.httpRequestHeaders ?? {}).some((k) => /^mcp-param-/i.test(k))).toBe(false);
      const listings = fresh.peer.transcript.filter((e) => e.dir === 'out' && (e.message as any)?.method === Method.ToolsList);
      expect(listings).toHaveLength(1);
      const without = await s.request(
        Method.ToolsCall,
        { name: 'complete', arguments: { region: 'us-west1', ms: 0 } },
        { headers: { 'Mcp-Param-Region': null } },
      );
      expect([without.httpStatus, without.error?.code]).toEqual([400, ErrorCode.HeaderMismatch]);
    } finally {
      await fresh.close();
    }
  });

  it('a removed method: -32601 with 404', async () => {
    const r = await peer.all().request(Method.TasksList, {});
    expect(r.error?.code).toBe(ErrorCode.MethodNotFound);
    expect(r.httpStatus).toBe(404);
  });

  it('subscriptions/listen: acknowledged, then the task’s notifications on its stream', async () => {
    await taskThroughListen(peer.all());
  });
});

describe('2026-07-28 driver against the reference extension server over stdio', () => {
  it('server/discover, a task followed through subscriptions/listen, the subscription ended by notifications/cancelled', async () => {
    const peer = await connectModern(
      { kind: 'stdio', command: 'node_modules/.bin/tsx', args: ['scripts/cli.ts', 'mock', '--revision', '2026-07-28', '--stdio'] },
      { defaultTimeoutMs: 20_000 },
    );
    try {
      const d = await peer.all().discover();
      expect(d.result?.[Field.supportedVersions]).toContain('2026-07-28');
      await taskThroughListen(peer.all());
      expect(peer.peer.transcript.some((e) => (e.message as any)?.method === Method.Cancelled)).toBe(true);
    } finally {
      await peer.close();
    }
  });
});
