// The official conformance suite's fixture tools (official-tools.ts): served only with --official-suite-tools,
// so our own tools/list (and with it discovery) is unchanged without it. fixtures/official-suite.test.ts runs
// the official suite itself against them.
import { afterEach, describe, expect, it } from 'vitest';
import { parseExtensionServerArgs } from './cli.ts';
import { createExtensionServer, TOOLS, type ReferenceExtensionServer } from './index.ts';
import { OFFICIAL_SUITE_TOOLS } from './official-tools.ts';
import { ErrorCode, Method } from './protocol.ts';
import { callTool, NON_DECLARING, pollTask, StreamClient, type Msg } from './test-client.ts';

const servers: ReferenceExtensionServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

function client(officialSuiteTools: boolean): StreamClient {
  const s = createExtensionServer({ officialSuiteTools, timings: { completesMs: 10 } });
  servers.push(s);
  const { toServer, fromServer } = s.inProcess();
  return new StreamClient(toServer, fromServer);
}

const names = (r: Msg) => ((r.result?.tools ?? []) as { name: string }[]).map((t) => t.name);

describe('the official suite fixture tools', () => {
  it('are listed and called only with --official-suite-tools', async () => {
    expect(parseExtensionServerArgs(['--stdio', '--official-suite-tools']).options.officialSuiteTools).toBe(true);
    expect(parseExtensionServerArgs(['--stdio']).options.officialSuiteTools).toBe(false);
    const plain = client(false);
    expect(names(await plain.request(Method.ToolsList))).toEqual(TOOLS.map((t) => t.name));
    expect((await callTool(plain, 'greet', { name: 'x' })).error).toMatchObject({ code: ErrorCode.InvalidParams, message: 'Unknown tool: greet' });
    const official = client(true);
    expect(names(await official.request(Method.ToolsList))).toEqual([...TOOLS, ...OFFICIAL_SUITE_TOOLS].map((t) => t.name));
  });

  it('behave as the official scenarios expect', async () => {
    const c = client(true);
    // greet is synchronous even for a declaring client
    expect((await callTool(c, 'greet', { name: 'World' })).result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'Hello, World!' }],
    });
    expect((await callTool(c, 'greet', {})).error?.code).toBe(ErrorCode.InvalidParams);
    expect((await callTool(c, 'slow_compute', { seconds: 'x' })).error?.code).toBe(ErrorCode.InvalidParams);
    // failing_job needs a task: -32021 naming the extension for a client that does not declare it
    expect((await callTool(c, 'failing_job', {}, NON_DECLARING)).error).toMatchObject({
      code: ErrorCode.MissingRequiredClientCapability,
      data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
    });
    const failing = (await callTool(c, 'failing_job')).result!.taskId as string;
    expect(await pollTask(c, failing, (t) => t.status !== 'working')).toMatchObject({ status: 'completed', result: { isError: true } });
    const protocol = (await callTool(c, 'protocol_error_job')).result!.taskId as string;
    expect(await pollTask(c, protocol, (t) => t.status !== 'working')).toMatchObject({ status: 'failed', error: { code: ErrorCode.InternalError } });
    // confirm_delete asks for a boolean `confirm`; a string there is a -32602 of the tasks/update
    const del = (await callTool(c, 'confirm_delete', { filename: 'a.txt' })).result!.taskId as string;
    const asking = await pollTask(c, del, (t) => t.status === 'input_required');
    const [key] = Object.keys(asking.inputRequests as object);
    const bad = await c.request(Method.TasksUpdate, { taskId: del, inputResponses: { [key!]: { action: 'accept', content: { confirm: 'yes' } } } });
    expect(bad.error).toMatchObject({ code: ErrorCode.InvalidParams, message: `inputResponses.${key}.content.confirm must be a boolean` });
    await c.request(Method.TasksUpdate, { taskId: del, inputResponses: { [key!]: { action: 'accept', content: { confirm: true } } } });
    expect(await pollTask(c, del, (t) => t.status === 'completed')).toMatchObject({ result: { content: [{ text: 'Deleted a.txt' }] } });
  });
});
