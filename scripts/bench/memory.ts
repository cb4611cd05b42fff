// Section 3, run in a child process of its own (`node --expose-gc --import tsx scripts/bench/memory.ts
// <memory|list> '<options JSON>'`), so that nothing else lives in the heap it measures. Prints one JSON
// line on stdout.
//
//   memory: the reference receiver in process; requestors create tasks (`complete`, { ms: 0 }) with a
//           short ttl and fetch each result; at each sample point creation pauses until every task has
//           expired (the store is empty), then gc runs and RSS / heap are read. The ttl derives from the
//           create → result latency measured in the warm-up (a loaded machine gets a longer one); a task
//           that expired before its result was fetched is counted, not an error.
//   list:   for each size N, a fresh receiver and one requestor with N live tasks (long ttl; limits
//           raised to N); times the walk over every tasks/list page. Also reports how long creating the
//           N tasks took (the receiver's per-create cost grows with the requestor's retained tasks).
import { createReferenceReceiver } from '../../mocks/receiver/index.ts';
import { BenchClient, RpcFailure, sleep } from './client.ts';
import { median, round } from './stats.ts';

export interface MemoryOptions {
  /** Expired-task counts at which to sample (ascending); the last is the total. */
  samples: number[];
  /** Shortest ttl of the tasks (ms); the ttl used is the larger of this and TTL_PER_LATENCY × the warm-up's p99 create → result latency. */
  minTtl: number;
  /** Requestors (connections) creating tasks at once. */
  k: number;
  /** Bound for the whole run (ms). */
  budgetMs: number;
}

export interface MemorySample {
  expiredTasks: number;
  rssMB: number;
  heapUsedMB: number;
  externalMB: number;
  /** Tasks still in the store when sampled (0: all expired). */
  storeSize: number;
}

/** ttl per p99 create → result latency: the result of a task is fetched long before it expires, even on a loaded machine. */
export const TTL_PER_LATENCY = 20;
/** Longest derived ttl (ms): each sample point waits a ttl for the store to empty. */
const MAX_TTL_MS = 10_000;
/** ttl of the warm-up's tasks (ms), before any latency is known. */
const WARMUP_TTL_MS = 5_000;

export interface MemoryResult {
  gcAvailable: boolean;
  /** The ttl used (ms), derived from `latencyP99Ms`. */
  ttl: number;
  /** p99 of create → result of the warm-up's tasks (ms). */
  latencyP99Ms: number;
  k: number;
  /** Tasks whose result was fetched after they had expired (tasks/result: "Task has expired"): counted, not an error. */
  expiredBeforeResult: number;
  /** Other failed requests, and the first of them. */
  failedRequests: number;
  firstFailure?: string;
  baseline: MemorySample;
  samples: MemorySample[];
  elapsedMs: number;
  error?: string;
}

export interface ListOptions {
  sizes: number[];
  pageSize: number;
  repeats: number;
  /** Bound for creating one size's tasks (ms); past it the walk uses the tasks created so far. */
  createBudgetMs: number;
  /** Bound for one walk (ms). */
  walkBudgetMs: number;
}

export interface ListPoint {
  /** Live tasks of the requestor (as many as were created within the budget). */
  liveTasks: number;
  requested: number;
  createMs: number;
  /** Mean µs per task created. */
  createUsPerTask: number;
  walkMs: { samples: number[]; median: number };
  pages: number;
  listed: number;
  usPerTask: number;
  complete: boolean;
  error?: string;
}

export interface ListResult {
  pageSize: number;
  points: ListPoint[];
  /** log(t2/t1) / log(n2/n1) between consecutive sizes: 1 = linear, 2 = quadratic. */
  exponents: { from: number; to: number; exponent: number }[];
}

const gc = (globalThis as { gc?: () => void }).gc;

async function settleHeap(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    gc?.();
    await sleep(20);
  }
}

function sample(expiredTasks: number, storeSize: number): MemorySample {
  const m = process.memoryUsage();
  const mb = (x: number) => round(x / 1024 / 1024, 1);
  return { expiredTasks, rssMB: mb(m.rss), heapUsedMB: mb(m.heapUsed), externalMB: mb(m.external), storeSize };
}

export async function measureMemory(o: MemoryOptions): Promise<MemoryResult> {
  const t0 = performance.now();
  const deadline = t0 + o.budgetMs;
  const receiver = createReferenceReceiver();
  const clients: BenchClient[] = [];
  for (let i = 0; i < o.k; i++) {
    const { clientTransport } = await receiver.inProcess();
    const c = new BenchClient(clientTransport, 10_000);
    await c.start();
    await c.initialize();
    clients.push(c);
  }
  let created = 0;
  let error: string | undefined;
  let expiredBeforeResult = 0;
  let failedRequests = 0;
  let firstFailure: string | undefined;
  let ttl = WARMUP_TTL_MS;
  const latencies: number[] = [];
  const createUpTo = async (target: number, record = false) => {
    const worker = async (c: BenchClient) => {
      while (created < target && !error) {
        if (performance.now() > deadline) {
          error = `time budget of ${o.budgetMs} ms exhausted after ${created} tasks`;
          return;
        }
        created++;
        const s0 = performance.now();
        try {
          const r = await c.request('tools/call', { name: 'complete', arguments: { ms: 0 }, task: { ttl } });
          await c.request('tasks/result', { taskId: r.task.taskId });
          if (record) latencies.push(performance.now() - s0);
        } catch (e) {
          const why = e instanceof Error ? e.message : String(e);
          if (/expired/i.test(why)) expiredBeforeResult++;
          else {
            failedRequests++;
            firstFailure ??= why;
          }
        }
      }
    };
    await Promise.all(clients.map(worker));
  };
  const waitExpired = async () => {
    const until = Math.min(deadline, performance.now() + ttl + 10_000);
    while (receiver.store.size > 0 && performance.now() < until) await sleep(Math.min(50, ttl));
  };
  // Warm-up (JIT, lazily created structures; the latency the ttl derives from), then the baseline.
  await createUpTo(Math.min(1000, o.samples[0]!), true);
  const latencyP99Ms = latencies.length ? [...latencies].sort((a, b) => a - b)[Math.floor(latencies.length * 0.99)]! : WARMUP_TTL_MS;
  await waitExpired();
  ttl = Math.round(Math.min(MAX_TTL_MS, Math.max(o.minTtl, TTL_PER_LATENCY * latencyP99Ms)));
  await settleHeap();
  const baseline = sample(created, receiver.store.size);
  const samples: MemorySample[] = [];
  // Every sample point is taken: past the budget, with the tasks created so far (the result says so).
  for (const point of o.samples) {
    await createUpTo(point);
    await waitExpired();
    await settleHeap();
    samples.push(sample(created, receiver.store.size));
  }
  for (const c of clients) await c.close();
  await receiver.close();
  return {
    gcAvailable: gc !== undefined,
    ttl,
    latencyP99Ms: round(latencyP99Ms, 1),
    k: o.k,
    expiredBeforeResult,
    failedRequests,
    ...(firstFailure ? { firstFailure } : {}),
    baseline,
    samples,
    elapsedMs: round(performance.now() - t0, 0),
    ...(error ? { error } : {}),
  };
}

export async function measureList(o: ListOptions): Promise<ListResult> {
  const points: ListPoint[] = [];
  for (const size of o.sizes) {
    const receiver = createReferenceReceiver({ pageSize: o.pageSize, maxConcurrentTasks: size, maxRetainedTasks: size, defaultTtl: 3_600_000 });
    const { clientTransport } = await receiver.inProcess();
    const c = new BenchClient(clientTransport, 120_000);
    await c.start();
    await c.initialize();
    let error: string | undefined;
    // Create `size` tasks, 64 requests at a time; they complete on their own (ms 0).
    const t0 = performance.now();
    const createDeadline = t0 + o.createBudgetMs;
    let created = 0;
    let issued = 0;
    const worker = async () => {
      while (issued < size && !error) {
        if (performance.now() > createDeadline) {
          error = `creation budget of ${o.createBudgetMs} ms exhausted after ${created} of ${size} tasks`;
          return;
        }
        issued++;
        try {
          await c.request('tools/call', { name: 'complete', arguments: { ms: 0 }, task: {} });
          created++;
        } catch (e) {
          error ??= e instanceof RpcFailure ? e.message : String(e);
        }
      }
    };
    await Promise.all(Array.from({ length: 64 }, worker));
    const createMs = performance.now() - t0;
    await sleep(200); // every task completes (ms 0): the walks see a store at rest
    const walks: number[] = [];
    let pages = 0;
    let listed = 0;
    let complete = true;
    for (let r = 0; r < o.repeats; r++) {
      const w0 = performance.now();
      const walkDeadline = w0 + o.walkBudgetMs;
      let cursor: string | undefined;
      pages = 0;
      listed = 0;
      const maxPages = Math.ceil(created / o.pageSize) + 2;
      for (;;) {
        const res = await c.request('tasks/list', cursor === undefined ? {} : { cursor });
        pages++;
        listed += Array.isArray(res?.tasks) ? res.tasks.length : 0;
        cursor = typeof res?.nextCursor === 'string' ? res.nextCursor : undefined;
        if (cursor === undefined) break;
        if (pages >= maxPages || performance.now() > walkDeadline) {
          complete = false;
          error ??= `walk stopped after ${pages} pages (${listed} tasks): ${pages >= maxPages ? 'more pages than tasks allow' : `budget of ${o.walkBudgetMs} ms`}`;
          break;
        }
      }
      walks.push(performance.now() - w0);
      if (!complete) break;
    }
    const walkMedian = median(walks);
    points.push({
      liveTasks: created,
      requested: size,
      createMs: round(createMs, 0),
      createUsPerTask: round((createMs * 1000) / Math.max(1, created), 1),
      walkMs: { samples: walks.map((x) => round(x, 1)), median: round(walkMedian, 1) },
      pages,
      listed,
      usPerTask: round((walkMedian * 1000) / Math.max(1, listed), 2),
      complete,
      ...(error ? { error } : {}),
    });
    await c.close();
    await receiver.close();
    await settleHeap();
  }
  const exponents = [];
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1]!;
    const b = points[i]!;
    if (!a.complete || !b.complete || a.walkMs.median <= 0 || b.liveTasks <= a.liveTasks) continue;
    exponents.push({
      from: a.liveTasks,
      to: b.liveTasks,
      exponent: round(Math.log(b.walkMs.median / a.walkMs.median) / Math.log(b.liveTasks / a.liveTasks), 2),
    });
  }
  return { pageSize: o.pageSize, points, exponents };
}

async function main(argv: string[]): Promise<void> {
  const [mode, json] = argv;
  const opts = JSON.parse(json ?? '{}');
  const result = mode === 'memory' ? await measureMemory(opts as MemoryOptions) : mode === 'list' ? await measureList(opts as ListOptions) : undefined;
  if (!result) throw new Error(`usage: memory.ts memory|list '<options JSON>'`);
  process.stdout.write(JSON.stringify(result) + '\n');
}

if (process.argv[1]?.endsWith('memory.ts')) {
  main(process.argv.slice(2)).then(
    () => process.exit(0),
    (e) => {
      process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
      process.exit(1);
    },
  );
}
