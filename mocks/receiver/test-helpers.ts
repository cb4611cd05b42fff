// Helpers for the reference receiver's own tests (mocks/receiver*.test.ts).
import { type Peer, type Response } from '../../suites/wire/peer.ts';
import { connectHttp, connectInMemory, connectStdio } from '../../suites/wire/connect.ts';
export { onFakeClock } from '../test-helpers.ts';
import { createReferenceReceiver, type ReceiverOptions, type ReferenceReceiver, type SessionIdentity } from './index.ts';

export type Kind = 'stdio' | 'http' | 'memory';

/** ReceiverOptions → CLI flags of scripts/mock.ts (the options the tests use). */
export function toArgs(o: ReceiverOptions): string[] {
  const a: string[] = [];
  for (const f of o.faults ?? []) a.push('--fault', f);
  if (o.pageSize !== undefined) a.push('--page-size', String(o.pageSize));
  if (o.maxTtl !== undefined) a.push('--max-ttl', String(o.maxTtl));
  if (o.defaultTtl !== undefined) a.push('--default-ttl', String(o.defaultTtl));
  if (o.pollInterval !== undefined) a.push('--poll-interval', String(o.pollInterval));
  if (o.maxConcurrentTasks !== undefined) a.push('--max-concurrent-tasks', String(o.maxConcurrentTasks));
  if (o.maxRetainedTasks !== undefined) a.push('--max-retained', String(o.maxRetainedTasks));
  if (o.statusNotifications) a.push('--status-notifications');
  if (o.tasksCapability === false) a.push('--no-tasks-capability');
  if (o.sseResponses) a.push('--sse-responses');
  if (o.timings?.completesMs !== undefined) a.push('--completes-ms', String(o.timings.completesMs));
  if (o.timings?.slowMs !== undefined) a.push('--slow-ms', String(o.timings.slowMs));
  return a;
}

export const MAIN_ARGS = ['--import', 'tsx', 'scripts/mock.ts', '--stdio'];

export interface Harness {
  kind: Kind;
  /** A new connection (stdio: a new process, i.e. a new receiver; http/memory: a new session of one receiver). */
  peer(opts?: { token?: string; identity?: SessionIdentity; initialize?: boolean }): Promise<Peer>;
  /** The in-process receiver (http/memory only). */
  receiver?: ReferenceReceiver;
  url?: string;
  close(): Promise<void>;
}

export async function harness(kind: Kind, options: ReceiverOptions = {}): Promise<Harness> {
  const peers: Peer[] = [];
  const track = async (p: Peer, init: boolean) => {
    peers.push(p);
    if (init) {
      const r = await p.initialize({ elicitation: { form: {} } });
      if (!r.result) throw new Error(`initialize failed: ${JSON.stringify(r.error)}`);
    }
    return p;
  };
  if (kind === 'stdio') {
    return {
      kind,
      peer: async (o = {}) =>
        track(
          await connectStdio({ command: process.execPath, args: [...MAIN_ARGS, ...toArgs(options)], cwd: process.cwd() }, { label: 'stdio' }),
          o.initialize !== false,
        ),
      close: async () => {
        await Promise.all(peers.map((p) => p.close()));
      },
    };
  }
  const receiver = createReferenceReceiver(options);
  if (kind === 'memory') {
    return {
      kind,
      receiver,
      peer: async (o = {}) =>
        track(
          await connectInMemory((t) => receiver.connect(t, o.identity ?? (o.token ? { authToken: o.token } : undefined)).then(() => undefined), {
            label: 'memory',
          }),
          o.initialize !== false,
        ),
      close: async () => {
        await Promise.all(peers.map((p) => p.close()));
        await receiver.close();
      },
    };
  }
  const { url, close } = await receiver.listenHttp(0);
  return {
    kind,
    receiver,
    url,
    peer: async (o = {}) =>
      track(await connectHttp({ url, headers: o.token ? { authorization: `Bearer ${o.token}` } : {} }, { label: 'http' }), o.initialize !== false),
    close: async () => {
      await Promise.all(peers.map((p) => p.close()));
      await close();
      await receiver.close();
    },
  };
}

export function ok(r: Response): any {
  if (r.error) throw new Error(`expected a result, got error ${JSON.stringify(r.error)}`);
  return r.result;
}

export async function createTask(
  p: Peer,
  name: string,
  args: Record<string, unknown> = {},
  task: Record<string, unknown> = {},
  meta?: Record<string, unknown>,
): Promise<any> {
  const params: Record<string, unknown> = { name, arguments: args, task };
  if (meta) params._meta = meta;
  const r = ok(await p.request('tools/call', params));
  return r.task;
}

/** Polls tasks/get (every ~pollInterval) until `pred` holds; bounded. Returns the last response. */
export async function pollUntil(p: Peer, taskId: string, pred: (r: Response) => boolean, timeoutMs = 5000, intervalMs = 20): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await p.request('tasks/get', { taskId });
    if (pred(r)) return r;
    if (Date.now() > deadline) throw new Error(`pollUntil: condition not met within ${timeoutMs} ms; last: ${JSON.stringify(r.message)}`);
    await new Promise((res) => setTimeout(res, intervalMs));
  }
}

export const statusIs = (s: string) => (r: Response) => r.result?.status === s;

export const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Waits (bounded) until `cond` holds, looking again every few ms: for a state no message announces. */
export async function until(cond: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * Resolves after every timer set so far with a delay beyond setTimeout's range has fired: Node fires such a timer
 * after 1 ms (TimeoutOverflowWarning), and timers of one duration fire in the order they were set. A round trip
 * afterwards lets the receiver act on it.
 */
export function firedOverflowingTimers(): Promise<void> {
  return new Promise((r) => setTimeout(r, 1));
}
