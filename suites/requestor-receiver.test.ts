// The client as task receiver: the receiver checks of the `server` command run against a client that
// receives task-augmented sampling/createMessage / elicitation/create from the reference requestor.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { connectHttp, connectStdio, splitCommand } from './wire/connect.ts';
import type { Status } from './engine/check.ts';
import { receiverChecks2025 } from './index.ts';
import { CLIENT_RECEIVER_CHECKS, runClientReceiverChecks, type RequestType } from './requestor/client-receiver.ts';
import type { ClientLauncher } from './requestor/harness.ts';
import { explain, referenceClient, sdkClient, statusMap } from './requestor/test-helpers.ts';
import { ClientTaskReceiver, receiverCapabilities } from '../mocks/client/task-receiver.ts';

/** The reference client passes every applicable check; error outcomes leave no _meta to judge. */
function referenceWant(type: RequestType): Record<string, Status> {
  const want: Record<string, Status> = {};
  for (const c of receiverChecks2025) {
    const id = `${c.id}@${type}`;
    want[id] = !CLIENT_RECEIVER_CHECKS.includes(c.id) ? 'skip' : c.level === 'MAY' ? 'info' : 'pass';
  }
  // The "fails" role ends in a JSON-RPC error (-1), cancelled tasks answer -32000: no result _meta to judge.
  want[`related-task.result-failed@${type}`] = 'skip';
  want[`related-task.result-cancelled@${type}`] = 'skip';
  // It sends no notifications/tasks/status (they are optional): nothing for these two to judge.
  want[`notifications.consistent-status@${type}`] = 'skip';
  want[`notifications.no-related-task@${type}`] = 'skip';
  return want;
}

/** A client that connects but declares no task-receiving capability. */
const plainClient: ClientLauncher = {
  kind: 'function',
  label: 'plain client',
  async run(a) {
    const peer = /^http/.test(a.serverArg) ? await connectHttp({ url: a.serverArg }) : await connectStdio(splitCommand(a.serverArg));
    await peer.initialize({});
    await new Promise((r) => a.signal.addEventListener('abort', r, { once: true }));
    await peer.close();
    return 0;
  },
};

describe.concurrent('client as task receiver', () => {
  for (const type of ['sampling', 'elicitation'] as const) {
    it(`the reference client passes the applicable receiver checks (${type}, HTTP)`, async () => {
      const { results, error } = await runClientReceiverChecks(referenceClient(), 'http', type, { concurrency: 8 });
      expect(error).toBeUndefined();
      const want = referenceWant(type);
      expect(statusMap(results), explain(results, want)).toEqual(want);
      expect(results.find((r) => r.id === `capabilities.required-without-task@${type}`)!.message).toMatch(/not applicable to a client receiver/);
      expect(results.find((r) => r.id === `result.exact-success@${type}`)!.section).toMatch(
        /^Client as receiver \((sampling\/createMessage|elicitation\/create)\): /,
      );
    });
  }

  it('the reference client over stdio (sampling)', async () => {
    const { results } = await runClientReceiverChecks(referenceClient(), 'stdio', 'sampling', {
      concurrency: 8,
      only: ['result.exact-success', 'cancel.cancelled-before-response', 'list.next-cursor', 'errors.get-invalid-taskid'],
    });
    expect(statusMap(results)).toEqual({
      'result.exact-success@sampling': 'pass',
      'cancel.cancelled-before-response@sampling': 'pass',
      'list.next-cursor@sampling': 'pass',
      'errors.get-invalid-taskid@sampling': 'pass',
    });
  });

  it('the SDK-based client matches its reviewed golden file (receiverChecks)', async () => {
    const golden = JSON.parse(readFileSync('fixtures/golden/sdk-client.json', 'utf8')).receiverChecks as {
      requestTypes: RequestType[];
      checks: Record<string, { status: Status }>;
    };
    expect(Object.keys(golden.checks).sort()).toEqual([...CLIENT_RECEIVER_CHECKS].sort());
    for (const type of golden.requestTypes) {
      const { results } = await runClientReceiverChecks(sdkClient, 'http', type, { concurrency: 8, only: [...CLIENT_RECEIVER_CHECKS] });
      const want = Object.fromEntries(Object.entries(golden.checks).map(([id, c]) => [`${id}@${type}`, c.status]));
      expect(statusMap(results), explain(results, want)).toEqual(want);
    }
  });

  it('a client that refuses the task of a declared type with -32601: creation.create-task-result fails, naming the request type', async () => {
    const { results } = await runClientReceiverChecks(referenceClient(['receiver-rejects-task']), 'http', 'sampling', {
      concurrency: 2,
      only: ['creation.create-task-result', 'creation.id-string'],
    });
    const r = results.find((x) => x.id === 'creation.create-task-result@sampling')!;
    expect(r.status, r.message).toBe('fail');
    expect(r.message).toMatch(/^task-augmented sampling\/createMessage answered error -32601/);
    expect(r.cause).toMatch(/task creation answered error -32601/);
  });

  it('errors.informative-message: "Method not found" for a method that is not there is not judged (it says exactly what happened)', async () => {
    // A task receiver (sampling) whose tasks/cancel is not there: -32601 "Method not found".
    const noCancel: ClientLauncher = {
      kind: 'function',
      label: 'a client without tasks/cancel',
      async run(a) {
        const peer = await connectHttp({ url: a.serverArg });
        const receiver = new ClientTaskReceiver(peer, {
          declared: ['sampling/createMessage'],
          pollIntervalMs: 100,
          work: async () => ({ role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'm' }),
        });
        peer.onRequest((req) => (req.method === 'tasks/cancel' ? { error: { code: -32601, message: 'Method not found' } } : undefined));
        await peer.initialize(receiverCapabilities(['sampling/createMessage']));
        await new Promise((r) => a.signal.addEventListener('abort', r, { once: true }));
        receiver.close();
        await peer.close();
        return 0;
      },
    };
    const { results } = await runClientReceiverChecks(noCancel, 'http', 'sampling', { concurrency: 1, only: ['errors.informative-message'] });
    const r = results[0]!;
    expect(r.status, r.message).toBe('pass');
    expect(r.message).toMatch(/not judged, the method is not there: tasks\/cancel → -32601/);
  });

  it('a client without the capability: every check is skipped with the reason', async () => {
    const { results, clientCapabilities } = await runClientReceiverChecks(plainClient, 'http', 'elicitation');
    expect(clientCapabilities).toEqual({});
    expect(new Set(results.map((r) => r.status))).toEqual(new Set(['skip']));
    expect(results[0]!.message).toMatch(/does not declare tasks\.requests\.elicitation\.create/);
  });
});
