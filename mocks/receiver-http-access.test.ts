// The reference receiver over HTTP is safe on a developer's machine (transports.md, Security Warning):
// a foreign Origin or Host (DNS rebinding) is refused with 403 and a JSON-RPC error, a local client
// (no Origin, or a localhost Origin) is served, an optional bearer token is enforced, loopback is the
// default bind, and the mock command takes the same settings.
import { request } from 'node:http';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReferenceReceiver, type ReferenceReceiver } from './receiver/index.ts';
import { createAccessGuard } from './receiver/http-access.ts';
import { connectHttp } from '../suites/wire/connect.ts';
import { createTask, ok } from './receiver/test-helpers.ts';
import { parseMockArgs, MockUsageError } from './receiver/args.ts';

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
});

/** A raw POST of an initialize with the given headers (node:http, so Host can be set as an attacker's page would have it). */
function post(url: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown>; body: any }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        timeout: 5000,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : undefined }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(INIT);
  });
}

describe('reference receiver HTTP access', () => {
  let receiver: ReferenceReceiver;
  let url: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    receiver = createReferenceReceiver({});
    ({ url, close } = await receiver.listenHttp(0));
  });
  afterAll(async () => {
    await close?.();
    await receiver?.close();
  });

  it('binds to loopback by default', () => {
    expect(new URL(url).hostname).toBe('127.0.0.1');
  });

  it('refuses a foreign Origin with 403 and a JSON-RPC error', async () => {
    const r = await post(url, { origin: 'http://evil.example' });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
    expect(r.body.error.message).toContain('evil.example');
    expect(r.headers['mcp-session-id']).toBeUndefined();
  });

  it('refuses a foreign Host (DNS rebinding) with 403 and a JSON-RPC error', async () => {
    const r = await post(url, { host: `evil.example:${new URL(url).port}` });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
    expect(r.body.error.message).toContain('Host');
  });

  it('refuses Origin: null and a look-alike origin', async () => {
    expect((await post(url, { origin: 'null' })).status).toBe(403);
    expect((await post(url, { origin: 'http://localhost.evil.example' })).status).toBe(403);
  });

  it('serves a local client: no Origin, a localhost Origin, Host localhost', async () => {
    const port = new URL(url).port;
    for (const headers of <Record<string, string>[]>[
      {},
      { origin: 'http://localhost:5173' },
      { origin: `http://127.0.0.1:${port}` },
      { host: `localhost:${port}` },
      { origin: 'http://[::1]:8080' },
    ]) {
      const r = await post(url, headers);
      expect(r.status, JSON.stringify(headers)).toBe(200);
      expect(r.body.result.serverInfo.name).toBe('mcp-tasks-reference-receiver');
    }
  });

  it('a whole task exchange still works through the guard', async () => {
    const p = await connectHttp({ url, headers: {} }, { label: 'http' });
    try {
      ok(await p.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } }));
      p.transport.setProtocolVersion?.('2025-11-25');
      await p.notify('notifications/initialized');
      const task = await createTask(p, 'complete', { ms: 0 });
      expect(ok(await p.request('tasks/get', { taskId: task.taskId })).taskId).toBe(task.taskId);
    } finally {
      await p.close();
    }
  });
});

describe('reference receiver HTTP bearer token', () => {
  let receiver: ReferenceReceiver;
  let url: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    receiver = createReferenceReceiver({});
    ({ url, close } = await receiver.listenHttp(0, '127.0.0.1', { tokens: ['t-one', 't-two'] }));
  });
  afterAll(async () => {
    await close?.();
    await receiver?.close();
  });

  it('refuses a request without or with a wrong token (401, WWW-Authenticate: Bearer, JSON-RPC error)', async () => {
    for (const headers of <Record<string, string>[]>[{}, { authorization: 'Bearer t-three' }, { authorization: 'Basic dDp0' }]) {
      const r = await post(url, headers);
      expect(r.status, JSON.stringify(headers)).toBe(401);
      expect(r.headers['www-authenticate']).toBe('Bearer');
      expect(r.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
    }
  });

  it('serves each listed token, each as its own requestor', async () => {
    expect((await post(url, { authorization: 'Bearer t-one' })).status).toBe(200);
    const peers = await Promise.all(['t-one', 't-two'].map((t) => connectHttp({ url, headers: { authorization: `Bearer ${t}` } }, { label: t })));
    try {
      for (const p of peers) {
        ok(await p.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } }));
        p.transport.setProtocolVersion?.('2025-11-25');
        await p.notify('notifications/initialized');
      }
      const task = await createTask(peers[0]!, 'complete', { ms: 0 });
      expect(ok(await peers[0]!.request('tasks/get', { taskId: task.taskId })).taskId).toBe(task.taskId);
      expect((await peers[1]!.request('tasks/get', { taskId: task.taskId })).error?.code).toBe(-32602);
    } finally {
      await Promise.all(peers.map((p) => p.close()));
    }
  });
});

describe('access guard', () => {
  const req = (headers: Record<string, string>) => ({ headers }) as any;
  it('accepts the bound address and the given names; refuses others', () => {
    const guard = createAccessGuard('192.0.2.7', { allowedHosts: ['mock'], allowedOrigins: ['https://app.example'] });
    expect(guard(req({ host: '192.0.2.7:3000' }))).toBeUndefined();
    expect(guard(req({ host: 'mock:3000', origin: 'http://mock:8080' }))).toBeUndefined();
    expect(guard(req({ host: 'localhost:3000', origin: 'https://app.example' }))).toBeUndefined();
    expect(guard(req({ host: 'localhost:3000', origin: 'https://other.example' }))?.status).toBe(403);
    expect(guard(req({ host: 'evil.example' }))?.status).toBe(403);
    expect(guard(req({}))?.status).toBe(403);
  });
});

describe('mock command HTTP access options', () => {
  it('parses --token (repeatable), --allowed-host, --allowed-origin and the token environment variable', () => {
    const prev = process.env.MCP_CONFORMANCE_MOCK_TOKEN;
    process.env.MCP_CONFORMANCE_MOCK_TOKEN = 'env-a, env-b';
    try {
      const { access } = parseMockArgs(['--http', '0', '--token', 'x', '--allowed-host', 'mock', '--allowed-origin', 'https://app.example']);
      expect(access).toEqual({ tokens: ['x', 'env-a', 'env-b'], allowedHosts: ['mock'], allowedOrigins: ['https://app.example'] });
    } finally {
      if (prev === undefined) delete process.env.MCP_CONFORMANCE_MOCK_TOKEN;
      else process.env.MCP_CONFORMANCE_MOCK_TOKEN = prev;
    }
  });

  it('rejects HTTP access options without --http and a malformed origin', () => {
    expect(() => parseMockArgs(['--stdio', '--token', 'x'])).toThrow(MockUsageError);
    expect(() => parseMockArgs(['--stdio', '--host', '0.0.0.0'])).toThrow(/HTTP only/);
    expect(() => parseMockArgs(['--http', '0', '--allowed-origin', 'app.example'])).toThrow(/scheme/);
  });

  it('names its task limit --max-concurrent-tasks (the --max-tasks of the server command is another bound)', () => {
    expect(parseMockArgs(['--stdio', '--max-concurrent-tasks', '3']).options.maxConcurrentTasks).toBe(3);
    expect(() => parseMockArgs(['--stdio', '--max-tasks', '3'])).toThrow(/--max-concurrent-tasks/);
  });

  it('mock --http --token: the running command refuses a foreign Origin and a missing token, serves the token', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/mock.ts', '--http', '0', '--token', 'secret'], { stdio: ['ignore', 'ignore', 'pipe'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let err = '';
        const timer = setTimeout(() => reject(new Error(`mock did not start: ${err}`)), 20_000);
        child.stderr.setEncoding('utf8');
        child.stderr.on('data', (c: string) => {
          err += c;
          const m = /listening on (\S+)/.exec(err);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]!);
          }
        });
        child.once('exit', (code) => reject(new Error(`mock exited ${code}: ${err}`)));
      });
      expect(new URL(url).hostname).toBe('127.0.0.1');
      expect((await post(url, { authorization: 'Bearer secret', origin: 'http://evil.example' })).status).toBe(403);
      expect((await post(url, {})).status).toBe(401);
      expect((await post(url, { authorization: 'Bearer secret', origin: 'http://localhost:3000' })).status).toBe(200);
    } finally {
      child.kill();
    }
  });
});
