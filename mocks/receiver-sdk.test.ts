// `tsx scripts/mock.ts --stdio` serves a real client: the SDK's own Client runs task-augmented tools/call
// end to end through its experimental tasks API (and an elicitation through tasks/result).
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { MAIN_ARGS } from './receiver/test-helpers.ts';
import { createReferenceReceiver, type ReferenceReceiver } from './receiver/index.ts';

/** The SDK Client's experimental tasks API end to end: a completing task, then one that asks for input. */
async function endToEnd(client: Client, transport: Transport): Promise<void> {
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { answer: 'from-sdk' } }));
  await client.connect(transport, { timeout: 10_000 });
  expect(client.getServerCapabilities()?.tasks).toBeDefined();
  const tools = await client.listTools();
  expect(tools.tools.find((t) => t.name === 'complete')?.execution?.taskSupport).toBe('optional');

  const seen: string[] = [];
  let result: any;
  for await (const m of client.experimental.tasks.callToolStream({ name: 'complete', arguments: { ms: 50 } }, undefined, {
    task: { ttl: 60_000 },
    timeout: 10_000,
  })) {
    seen.push(m.type);
    if (m.type === 'taskCreated') expect(m.task.status).toBe('working');
    if (m.type === 'result') result = m.result;
    if (m.type === 'error') throw m.error;
  }
  expect(seen[0]).toBe('taskCreated');
  expect(seen.at(-1)).toBe('result');
  expect(result.content).toEqual([{ type: 'text', text: 'done' }]);

  let asked: any;
  for await (const m of client.experimental.tasks.callToolStream({ name: 'ask', arguments: { ms: 0 } }, undefined, {
    task: { ttl: 60_000 },
    timeout: 10_000,
  })) {
    if (m.type === 'result') asked = m.result;
    if (m.type === 'error') throw m.error;
  }
  expect(asked.content[0].text).toBe('answer: from-sdk');
}

describe('SDK Client against the reference receiver (stdio)', () => {
  let client: Client | undefined;
  afterEach(async () => {
    await client?.close().catch(() => undefined);
    client = undefined;
  });

  it('task-augmented tools/call completes end to end via callToolStream', async () => {
    client = new Client({ name: 'sdk-e2e', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    await endToEnd(client, new StdioClientTransport({ command: process.execPath, args: MAIN_ARGS, cwd: process.cwd(), stderr: 'pipe' }));
  });
});

describe.each([
  ['JSON responses, input on the GET stream', false],
  ['--sse-responses, input on the tasks/result stream', true],
] as const)('SDK Client against the reference receiver (Streamable HTTP, %s)', (_label, sseResponses) => {
  let client: Client | undefined;
  let receiver: ReferenceReceiver | undefined;
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await client?.close().catch(() => undefined);
    await stop?.();
    await receiver?.close();
    client = receiver = stop = undefined;
  });

  it('task-augmented tools/call completes end to end via callToolStream (elicitation included)', async () => {
    receiver = createReferenceReceiver({ sseResponses });
    const h = await receiver.listenHttp(0);
    stop = h.close;
    client = new Client({ name: 'sdk-e2e-http', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    await endToEnd(client, new StreamableHTTPClientTransport(new URL(h.url)));
  });
});
