// The 2026-07-28 driver over stdio and Streamable HTTP against stand-in peers (test-helpers.ts): what it
// sends (per-request _meta, standard headers, overrides), what it records, and that hostile targets
// (silent, garbage, empty 4xx, gone) end as bounded errors, never as a hang.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Header, Meta, PROTOCOL_VERSION, TASKS_EXTENSION } from '../../../schema/2026-07-28/protocol.ts';
import { WireTimeoutError } from '../../wire/peer.ts';
import { CLIENT_CAPABILITIES, HttpNoAnswerError, connectModern, modern, type ModernPeer } from './peer.ts';
import { encodeHeaderValue, mirroredParameters, parameterHeaders, standardHeaders } from './http.ts';
import { STDIO_ECHO_SOURCE, STDIO_GARBAGE_SOURCE, STDIO_SILENT_SOURCE, startEchoHttp, type TestHttpServer } from './test-helpers.ts';

const node = (source: string) => ({ kind: 'stdio' as const, command: process.execPath, args: ['-e', source] });
const opened: ModernPeer[] = [];
const open = async (...args: Parameters<typeof connectModern>) => {
  const p = await connectModern(...args);
  opened.push(p);
  return p;
};
afterEach(async () => {
  await Promise.all(opened.splice(0).map((p) => p.close()));
});

describe('2026-07-28 driver: messages', () => {
  it('every request carries _meta: protocol version, this request’s capabilities, client info; caller _meta kept', async () => {
    const p = await open(node(STDIO_ECHO_SOURCE));
    const s = p.all();
    const r = await s.request('tools/call', { name: 'x', _meta: { progressToken: 7 } });
    const meta = r.result.params._meta;
    expect(meta[Meta.ProtocolVersion]).toBe(PROTOCOL_VERSION);
    expect(meta[Meta.ClientCapabilities].extensions[TASKS_EXTENSION]).toEqual({});
    expect(meta[Meta.ClientInfo].name).toBe('mcp-tasks-conformance');
    expect(meta.progressToken).toBe(7);
    const n = await s.request('tools/call', { name: 'x' }, { capabilities: CLIENT_CAPABILITIES.nonDeclaring, meta: { [Meta.ClientInfo]: undefined } });
    expect(n.result.params._meta[Meta.ClientCapabilities]).toEqual(CLIENT_CAPABILITIES.nonDeclaring);
    expect(Meta.ClientInfo in n.result.params._meta).toBe(false);
    const raw = await s.request('tools/call', { name: 'x' }, { raw: true });
    expect(raw.result.params).toEqual({ name: 'x' });
  });

  it('standard headers are derived from the body; Mcp-Name from name, uri or taskId, base64 when not plain ASCII', () => {
    const meta = { [Meta.ProtocolVersion]: 'v' };
    expect(standardHeaders({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'a b', _meta: meta } })).toEqual({
      [Header.ProtocolVersion]: 'v',
      [Header.Method]: 'tools/call',
      [Header.Name]: 'a b',
    });
    expect(standardHeaders({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { taskId: 't' } })[Header.Name]).toBe('t');
    expect(standardHeaders({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: {} })).toEqual({
      [Header.ProtocolVersion]: PROTOCOL_VERSION,
      [Header.Method]: 'server/discover',
    });
    // The table of basic-transports-streamable-http.md "Value Encoding".
    expect(encodeHeaderValue('us-west1')).toBe('us-west1');
    expect(encodeHeaderValue('Hello, 世界')).toBe('=?base64?SGVsbG8sIOS4lueVjA==?=');
    expect(encodeHeaderValue(' padded ')).toBe('=?base64?IHBhZGRlZCA=?=');
    expect(encodeHeaderValue('line1\nline2')).toBe('=?base64?bGluZTEKbGluZTI=?=');
    expect(encodeHeaderValue('=?base64?literal?=')).toBe('=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=');
  });
});

describe('2026-07-28 driver: Mcp-Param-{Name} headers from x-mcp-header (streamable-http "Custom Headers from Tool Parameters")', () => {
  const str = (h: string) => ({ type: 'string', 'x-mcp-header': h });
  it('mirrored parameters: properties chains only, nested objects too; the values encoded, absent and null omitted', () => {
    const schema = {
      type: 'object',
      properties: {
        region: str('Region'),
        query: { type: 'string' },
        n: { type: 'integer', 'x-mcp-header': 'N' },
        dry: { type: 'boolean', 'x-mcp-header': 'Dry-Run' },
        where: { type: 'object', properties: { zone: str('Zone') } },
        note: { ...str('Greeting'), default: { 'x-mcp-header': 'data, not an annotation' } },
      },
    };
    const m = mirroredParameters(schema);
    expect(m).toEqual({
      params: [
        { path: ['region'], name: 'Region' },
        { path: ['n'], name: 'N' },
        { path: ['dry'], name: 'Dry-Run' },
        { path: ['where', 'zone'], name: 'Zone' },
        { path: ['note'], name: 'Greeting' },
      ],
    });
    const params = 'params' in m ? m.params : [];
    expect(parameterHeaders(params, { region: 'us-west1', n: -7, dry: false, where: { zone: 'b' }, note: 'Hello, 世界', query: 'x' })).toEqual({
      'Mcp-Param-Region': 'us-west1',
      'Mcp-Param-N': '-7',
      'Mcp-Param-Dry-Run': 'false',
      'Mcp-Param-Zone': 'b',
      'Mcp-Param-Greeting': '=?base64?SGVsbG8sIOS4lueVjA==?=',
    });
    expect(parameterHeaders(params, { region: null, where: 'not an object' })).toEqual({});
    expect(parameterHeaders(params, undefined)).toEqual({});
  });

  it('invalid annotations make the tool invalid: not a token, not unique, type number or object, not statically reachable', () => {
    const invalid = (properties: Record<string, unknown>, more: Record<string, unknown> = {}) =>
      'invalid' in mirroredParameters({ type: 'object', properties, ...more });
    expect(invalid({ a: str('') })).toBe(true);
    expect(invalid({ a: str('Bad Name') })).toBe(true);
    expect(invalid({ a: str('Bad\r\nX: y') })).toBe(true);
    expect(invalid({ a: str('Dup'), b: str('dup') })).toBe(true);
    expect(invalid({ a: { type: 'number', 'x-mcp-header': 'A' } })).toBe(true);
    expect(invalid({ a: { type: 'object', 'x-mcp-header': 'A' } })).toBe(true);
    expect(invalid({ a: { 'x-mcp-header': 'A' } })).toBe(true);
    expect(invalid({ a: { type: 'array', items: str('A') } })).toBe(true);
    expect(invalid({ a: { anyOf: [str('A')] } })).toBe(true);
    expect(invalid({ a: { $ref: '#/$defs/x' } }, { $defs: { x: str('A') } })).toBe(true);
    expect(invalid({}, { 'x-mcp-header': 'Root' })).toBe(true);
    expect(invalid({ a: { type: ['string', 'null'], 'x-mcp-header': 'A' } })).toBe(false);
    expect(mirroredParameters(undefined)).toEqual({ params: [] });
  });
});

describe('2026-07-28 driver over stdio', () => {
  it('a scope records its own exchange; subscriptions: ack, notifications by subscriptionId, close by notifications/cancelled', async () => {
    const p = await open(node(STDIO_ECHO_SOURCE));
    const scope = p.peer.scope('check-a');
    const s = modern(scope);
    await s.request('echo', {});
    const sub = await s.listen({ taskIds: ['t1'] });
    const ack = await sub.acknowledged(5_000);
    expect(ack.params.notifications).toEqual({ taskIds: ['t1'] });
    const n = await sub.waitFor((m) => m.method === 'notifications/tasks', 5_000);
    expect(n.params.taskId).toBe('t1');
    await sub.close();
    // The stand-in answers the cancellation with the graceful end of the subscription.
    await sub.waitFor((m) => !('method' in m), 5_000, 'the end of the subscription');
    const methods = scope.transcript.filter((e) => e.message).map((e) => (e.message as any).method ?? 'response');
    expect(methods).toEqual([
      'echo',
      'response',
      'subscriptions/listen',
      'notifications/subscriptions/acknowledged',
      'notifications/tasks',
      'notifications/cancelled',
      'response',
    ]);
    scope.close();
  });

  it('headers are refused over stdio (there is no header layer)', async () => {
    const p = await open(node(STDIO_ECHO_SOURCE));
    expect(() => p.all().request('echo', {}, { headers: { 'Mcp-Name': 'x' } })).toThrow(/Streamable HTTP only/);
  });

  it('a silent target: the request ends with WireTimeoutError at its bound', async () => {
    // The request's own bound, without the start-up allowance a silent new process gets (revision.test.ts judges that).
    const p = await open(node(STDIO_SILENT_SOURCE), { startupMs: 0 });
    const t0 = Date.now();
    await expect(p.all().request('tools/list', {}, { timeoutMs: 300 })).rejects.toBeInstanceOf(WireTimeoutError);
    expect(Date.now() - t0).toBeLessThan(5_000);
  });

  it('a silent target: a start-up allowance shortened after the request went out applies to it (startupAllowance)', async () => {
    // As when the run's first process answers while a further one is still silent: its allowance drops from STARTUP_MS.
    const allowance = { ms: 60_000 };
    const p = await open(node(STDIO_SILENT_SOURCE), { startupMs: () => allowance.ms });
    const pending = p.all().request('tools/list', {}, { timeoutMs: 200 });
    allowance.ms = 400;
    await expect(pending).rejects.toThrow(/no response to tools\/list \(id [^)]+\) within 400 ms/);
    expect(p.peer.firstHeardMs).toBeUndefined();
  });

  it('a garbage target: transport errors recorded, the request bounded, the connection still closes', async () => {
    const p = await open(node(STDIO_GARBAGE_SOURCE));
    // The garbage is seen (bounded wait on the transcript), and a request still ends at its own bound.
    const deadline = Date.now() + 20_000;
    while (!p.peer.transcript.some((e) => e.note?.startsWith('transport error')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(p.peer.transcript.find((e) => e.note?.startsWith('transport error'))?.note).toContain('not JSON');
    await expect(p.all().request('tools/list', {}, { timeoutMs: 500 })).rejects.toBeInstanceOf(WireTimeoutError);
    await p.close();
    expect(p.peer.closed).toMatch(/closed|transport/);
  });

  it('a command that does not exist: connecting fails, it does not hang', async () => {
    await expect(connectModern({ kind: 'stdio', command: '/nonexistent/mcp-target' })).rejects.toThrow();
  });
});

describe('2026-07-28 driver over Streamable HTTP', () => {
  let server: TestHttpServer;
  beforeAll(async () => {
    server = await startEchoHttp();
  });
  afterAll(async () => {
    await server.close();
  });

  it('sends the standard headers from the body, overrides and omissions per request; records status and headers', async () => {
    const p = await open({ kind: 'http', url: server.url, headers: { Authorization: 'Bearer t' } });
    const scope = p.peer.scope('check-h');
    const s = modern(scope);
    const r = await s.request('tasks/get', { taskId: 'abc' });
    expect(r.httpStatus).toBe(200);
    const h = server.seen.at(-1)!.headers;
    expect(h['mcp-protocol-version']).toBe(PROTOCOL_VERSION);
    expect(h['mcp-method']).toBe('tasks/get');
    expect(h['mcp-name']).toBe('abc');
    expect(h.authorization).toBe('Bearer t');
    expect(h.accept).toContain('text/event-stream');
    await s.request('tasks/get', { taskId: 'abc' }, { headers: { 'mcp-name': 'other', [Header.Method]: null } });
    const h2 = server.seen.at(-1)!.headers;
    expect(h2['mcp-name']).toBe('other');
    expect(h2['mcp-method']).toBeUndefined();
    // The headers sent are in the check's evidence.
    expect(scope.transcript.some((e) => e.note?.includes('Mcp-Name: abc'))).toBe(true);
    scope.close();
  });

  it('an SSE answer: notifications before the response are delivered, the response resolves the request', async () => {
    const p = await open({ kind: 'http', url: server.url });
    const r = await p.all().request('sse', {});
    expect(r.result.resultType).toBe('complete');
    expect(r.httpContentType ?? p.exchangeOf(r.id)?.contentType).toBe('text/event-stream');
    expect(p.peer.messages((m) => m.method === 'notifications/progress').length).toBe(1);
  });

  it('subscriptions/listen: a stream that stays open, its messages told by the stream they arrived on, closed by aborting it', async () => {
    const p = await open({ kind: 'http', url: server.url });
    const sub = await p.all().listen({ taskIds: ['t1'] });
    await sub.acknowledged(5_000);
    await sub.waitFor((m) => m.method === 'notifications/tasks', 5_000);
    expect(sub.messages().map((m) => m.method)).toEqual(['notifications/subscriptions/acknowledged', 'notifications/tasks']);
    expect(sub.exchange?.contentType).toBe('text/event-stream');
    await sub.close();
    await sub.exchange?.done;
    expect(sub.exchange?.endedWithout).toBe('the stream was closed by us');
  });

  it('an empty 400 or a body that is not JSON-RPC rejects at once with HttpNoAnswerError (status and body in the error)', async () => {
    const p = await open({ kind: 'http', url: server.url });
    const t0 = Date.now();
    const e1 = await p
      .all()
      .request('empty400', {}, { timeoutMs: 20_000 })
      .catch((e) => e);
    expect(e1).toBeInstanceOf(HttpNoAnswerError);
    expect((e1 as HttpNoAnswerError).exchange.status).toBe(400);
    const e2 = await p
      .all()
      .request('garbage', {}, { timeoutMs: 20_000 })
      .catch((e) => e);
    expect(e2).toBeInstanceOf(HttpNoAnswerError);
    expect(String(e2.message)).toContain('not json');
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(p.peer.transcript.some((e) => e.raw?.includes('not json'))).toBe(true);
  });

  it('a POST that never answers: bounded by the request timeout; closing the connection aborts it', async () => {
    const p = await open({ kind: 'http', url: server.url });
    await expect(p.all().request('silent', {}, { timeoutMs: 300 })).rejects.toBeInstanceOf(WireTimeoutError);
    const t0 = Date.now();
    await p.close();
    expect(Date.now() - t0).toBeLessThan(3_000);
  });

  it('raw bytes are one POST; the JSON-RPC error in the answer is recorded', async () => {
    const p = await open({ kind: 'http', url: server.url });
    await p.sendBytes('{not json');
    expect(p.peer.messages((m) => m.error?.code === -32700).length).toBe(1);
  });

  it('an endpoint that is gone: the request rejects with the socket error', async () => {
    const p = await open({ kind: 'http', url: 'http://127.0.0.1:9/mcp' });
    await expect(p.all().request('tools/list', {}, { timeoutMs: 2_000 })).rejects.toThrow(/fetch failed|ECONNREFUSED/);
  });
});
