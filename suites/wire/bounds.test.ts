// Every wait on the wire is bounded, raw exchanges included: a target that never answers a raw POST, a POST of a
// notification or a subscriptions/listen, or never reads its stdin, ends the wait with WireTimeoutError within
// the bound (both revisions' drivers), and the connection can still be closed at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { connectHttp, connectStdio } from './connect.ts';
import { WireTimeoutError, type Peer } from './peer.ts';
import { connectModern } from '../2026-07-28/wire/peer.ts';

let target: ChildProcess;
let url: string;
beforeAll(async () => {
  target = spawn(process.execPath, ['fixtures/silent-target.mjs', 'raw,notifications,unknown-method'], { stdio: ['ignore', 'pipe', 'inherit'] });
  url = await new Promise<string>((resolve) => createInterface({ input: target.stdout! }).once('line', resolve));
});
afterAll(() => void target.kill());

/** Rejects with WireTimeoutError about when the bound says; the connection closes at once afterwards. */
async function bounded(p: Promise<unknown>, boundMs: number, peer: Peer): Promise<void> {
  const t0 = Date.now();
  await expect(p).rejects.toBeInstanceOf(WireTimeoutError);
  const took = Date.now() - t0;
  expect(took).toBeGreaterThanOrEqual(boundMs - 50);
  expect(took).toBeLessThan(boundMs + 5_000);
  expect(peer.transcript.some((e) => e.note?.startsWith('timeout: no end of'))).toBe(true);
  const c0 = Date.now();
  await peer.close();
  expect(Date.now() - c0).toBeLessThan(3_000);
}

describe('2025-11-25 wire: raw exchanges the target never answers', () => {
  it('initialize still completes when the POST of notifications/initialized is never answered (a notification needs no answer)', async () => {
    const peer = await connectHttp({ url }, { defaultTimeoutMs: 500 });
    const r = await peer.initialize(undefined, undefined, 10_000);
    expect(r.result?.protocolVersion).toBe('2025-11-25');
    await peer.close();
  });

  it('a raw POST of malformed JSON: WireTimeoutError at the bound', async () => {
    const peer = await connectHttp({ url }, { defaultTimeoutMs: 500 });
    await peer.initialize(undefined, undefined, 10_000);
    await bounded(peer.sendBytes('{"jsonrpc": "2.0", "id": 1, "method": ', 800), 800, peer);
  });

  it('a POST of a notification: WireTimeoutError at the request bound', async () => {
    const peer = await connectHttp({ url }, { defaultTimeoutMs: 700 });
    await peer.initialize(undefined, undefined, 10_000);
    await bounded(peer.notify('notifications/progress', { progressToken: 1, progress: 1 }), 700, peer);
  });

  it('a request never answered: WireTimeoutError at its bound', async () => {
    const peer = await connectHttp({ url }, { defaultTimeoutMs: 500 });
    await peer.initialize(undefined, undefined, 10_000);
    await expect(peer.request('tasks/frobnicate', {}, { timeoutMs: 600 })).rejects.toBeInstanceOf(WireTimeoutError);
    await peer.close();
  });

  it('stdio: a raw line to a process that never reads its stdin (the pipe fills): WireTimeoutError at the bound', async () => {
    const peer = await connectStdio({ command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] }, { defaultTimeoutMs: 500 });
    await bounded(peer.sendBytes('x'.repeat(4 << 20), 800), 800, peer);
  });
});

describe('2026-07-28 wire: raw exchanges the target never answers', () => {
  it('a raw POST: WireTimeoutError at the bound', async () => {
    const p = await connectModern({ kind: 'http', url }, { defaultTimeoutMs: 500 });
    await bounded(p.sendBytes('{not json', undefined, 800), 800, p.peer);
  });

  it('a POST of a notification: WireTimeoutError at the request bound', async () => {
    const p = await connectModern({ kind: 'http', url }, { defaultTimeoutMs: 700 });
    await bounded(p.all().notify('notifications/cancelled', { requestId: 1 }), 700, p.peer);
  });

  it('a subscriptions/listen POST never answered: WireTimeoutError at the request bound', async () => {
    const p = await connectModern({ kind: 'http', url }, { defaultTimeoutMs: 700 });
    await bounded(p.all().listen({ taskIds: ['t'] }), 700, p.peer);
  });

  it('stdio: a raw line to a process that never reads its stdin: WireTimeoutError at the bound', async () => {
    const p = await connectModern({ kind: 'stdio', command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] }, { defaultTimeoutMs: 500 });
    await bounded(p.sendBytes('x'.repeat(4 << 20), undefined, 800), 800, p.peer);
  });
});
