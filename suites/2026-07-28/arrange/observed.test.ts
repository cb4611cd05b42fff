// What the run-wide checks read (observed.ts) and how a code is classed (codes.ts codeMisuse): each message once,
// responses paired with their request on their own connection, a connection that spoke 2025-11-25 left out,
// and each code under at most one line (RULINGS.md#ext-error-code-one-verdict).
import { describe, expect, it } from 'vitest';
import type { CheckContext, CheckResult } from '../../engine/check.ts';
import type { TranscriptEntry } from '../../wire/peer.ts';
import { runAnswers, runIncoming } from './observed.ts';
import { codeMisuse, conformingHeaders, listedInputSchemas } from '../receiver/codes.ts';

let seq = 0;
const entry = (dir: 'in' | 'out', message: unknown, note?: string): TranscriptEntry => ({
  seq: seq++,
  time: new Date(1_800_000_000_000 + seq).toISOString(),
  ms: seq,
  dir,
  message,
  ...(note ? { note } : {}),
});

/** `info`: what the pre-flight found (default: a server of modern versions only, its initialize refused). */
function fakeCtx(
  shared: TranscriptEntry[],
  earlier: { id: string; transcript: TranscriptEntry[] }[],
  info: object = { legacy: { speaks: false, detail: 'refused' } },
): CheckContext {
  return {
    def: { id: 'the-check' },
    info,
    peer: { peer: { transcript: shared } },
    history: () => earlier as unknown as CheckResult[],
  } as unknown as CheckContext;
}

describe('the run as the run-wide checks read it', () => {
  const shared = [
    entry('out', { jsonrpc: '2.0', id: 'a', method: 'tasks/get', params: { taskId: 't' } }),
    entry('in', { jsonrpc: '2.0', id: 'a', error: { code: -32602, message: 'Task not found' } }),
  ];
  const session = (label: string, entries: TranscriptEntry[]) => entries.map((e) => ({ ...e, note: `session ${label}` }));
  const modern = session('other#2', [
    entry('out', { jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'x' } }),
    entry('in', { jsonrpc: '2.0', id: 'a', result: { resultType: 'complete', content: [] } }),
    entry('in', { jsonrpc: '2.0', id: 's1', method: 'elicitation/create', params: {} }),
  ]);
  const legacy = session('compat#2', [
    entry('out', { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25' } }),
    entry('in', { jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-11-25', capabilities: {} } }),
    entry('in', { jsonrpc: '2.0', id: 's2', method: 'elicitation/create', params: {} }),
    entry('out', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'x' } }),
    entry('in', { jsonrpc: '2.0', id: 2, error: { code: -32042, message: 'URL elicitation required' } }),
  ]);
  const ctx = fakeCtx(shared, [
    { id: 'other', transcript: [...shared, ...modern] },
    { id: 'compat', transcript: legacy },
  ]);

  it('pairs each response with its request on its own connection, once (the shared connection is not read twice)', () => {
    const a = runAnswers(ctx);
    expect(a.map((x) => [x.source, x.request?.method, x.response.error?.code ?? 'result'])).toEqual([
      ['shared connection', 'tasks/get', -32602],
      ['other session other#2', 'tools/call', 'result'],
    ]);
  });

  it("leaves out a connection that spoke 2025-11-25 (a server's own request and -32042 are that revision's)", () => {
    expect(runIncoming(ctx).map((i) => [i.source, i.message.method, i.message.id])).toEqual([['other session other#2', 'elicitation/create', 's1']]);
  });
});

describe('a target that speaks 2025-11-25 too (RULINGS.md#dual-era-ambiguous-request)', () => {
  const meta = { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } };
  const shared = [
    entry('out', { jsonrpc: '2.0', id: 'a', method: 'tools/list', params: { ...meta } }),
    entry('in', { jsonrpc: '2.0', id: 'a', result: { resultType: 'complete', tools: [] } }),
    entry('out', { jsonrpc: '2.0', id: 'b', method: 'tools/list', params: {} }),
    entry('in', { jsonrpc: '2.0', id: 'b', error: { code: -32000, message: 'Bad Request: Mcp-Session-Id header is required' } }),
    entry('out', { jsonrpc: '2.0', id: 'c', method: 'tools/list' }),
    entry('in', { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: Mcp-Session-Id header is required' } }),
  ];
  const read = (info: object) => runAnswers(fakeCtx(shared, [], info)).map((x) => x.response.error?.code ?? 'result');

  it('leaves out the answers to requests without the modern protocol version, and those naming no request', () => {
    expect(read({ legacy: { speaks: true, detail: 'initialize succeeded' } })).toEqual(['result']);
    expect(read({}), 'the pre-flight could not tell').toEqual(['result']);
  });

  it('keeps them on a server of modern versions only', () => {
    expect(read({ legacy: { speaks: false, detail: 'refused' } })).toEqual(['result', -32000, -32000]);
  });
});

describe('codeMisuse: one line per code', () => {
  it.each([
    [-32603, true, undefined],
    [-32602, false, undefined],
    [-32021, true, undefined],
    [-32002, true, 'retired'],
    [-32002, false, 'retired'],
    [-32042, false, 'retired'],
    [-32050, true, 'undefined-reserved'],
    [-32005, true, 'non-standard'],
    [-32005, false, 'legacy'],
    [-1, true, 'non-standard'],
    [-1, false, undefined],
    [1.5, true, 'non-standard'],
    [-31001, false, undefined],
  ] as const)('%s (protocol error of tasks/*: %s) → %s', (code, protocol, rule) => {
    expect(codeMisuse(code, protocol)).toBe(rule);
  });
});

describe('conformingHeaders: the headers whose -32020 the defined-meaning check contradicts', () => {
  it('the standard headers, and for a tools/call the Mcp-Param-{Name} of the listed inputSchema; none defined for a tool with invalid annotations', () => {
    const list = (tools: unknown[]) => ({
      source: 'shared connection',
      request: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
      response: { jsonrpc: '2.0', id: 1, result: { resultType: 'complete', tools } },
    });
    const answers = [
      list([
        { name: 'plain', inputSchema: { type: 'object', properties: { ms: { type: 'integer' } } } },
        { name: 'mirrored', inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } } },
        { name: 'invalid', inputSchema: { type: 'object', properties: { n: { type: 'number', 'x-mcp-header': 'N' } } } },
      ]),
      // Not a tools/list: its result's tools are not read.
      { ...list([{ name: 'other', inputSchema: {} }]), request: { jsonrpc: '2.0', id: 2, method: 'prompts/list' } },
    ];
    const schemas = listedInputSchemas(answers as never);
    expect([...schemas.keys()].sort()).toEqual(['invalid', 'mirrored', 'plain']);
    const call = (name: string, args: unknown) => ({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name, arguments: args } });
    const standard = { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call' };
    expect(conformingHeaders(call('plain', { ms: 1 }), schemas)).toEqual({ ...standard, 'Mcp-Name': 'plain' });
    expect(conformingHeaders(call('mirrored', { region: 'Zürich' }), schemas)).toEqual({
      ...standard,
      'Mcp-Name': 'mirrored',
      'Mcp-Param-Region': `=?base64?${Buffer.from('Zürich').toString('base64')}?=`,
    });
    expect(conformingHeaders(call('mirrored', {}), schemas)).toEqual({ ...standard, 'Mcp-Name': 'mirrored' });
    expect(conformingHeaders(call('invalid', { n: 1.5 }), schemas)).toBeUndefined();
  });
});
