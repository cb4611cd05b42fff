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
  beforeAll(async () => {
    server = createExtensionServer(FAST);
    const h = await server.listenHttp(0);
    peer = await connectModern({ kind: 'http', url: h.url }, { defaultTimeoutMs: 20_000 });
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
