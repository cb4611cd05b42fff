// Section 2: throughput of the reference receiver vs the SDK-based server (fixtures/sdk-tasks-server.ts,
// InMemoryTaskStore) on one workload: N task-augmented calls of `complete` with { ms: 0 }, each polled
// with tasks/get until terminal and its result fetched with tasks/result, K requestors at a time.
//   in process: K connections (sessions) to one receiver / K McpServers sharing the fixture's one
//               task store (as its HTTP mode does), over InMemoryTransport;
//   stdio:      one server process, the K requestors multiplexed on its one connection (a stdio server
//               serves exactly one connection).
// The same minimal client (client.ts) drives both. Polls come every `pollDelayMs` (1 ms), not at the
// servers' pollInterval (100 vs 200 ms: that would measure our sleeping), and not back to back either
// (a faster server would then be polled more often per task, and pay for its speed). K is large enough
// to keep the CPU busy, so the number is a capacity, not a latency.
import { readFileSync } from 'node:fs';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ensureBuilt, MOCK } from './suite.ts';
import { createReferenceReceiver } from '../../mocks/receiver/index.ts';
import { createSdkTasksServer } from '../../fixtures/sdk-tasks-server.ts';
import { BenchClient, isTerminalStatus, PipeClientTransport, sleep, yieldToLoop } from './client.ts';
import { round, series, type Series } from './stats.ts';

export type ServerKind = 'reference' | 'sdk';
export type Mode = 'in-process' | 'stdio';

export interface WorkloadResult {
  completed: number;
  failed: number;
  elapsedMs: number;
  tasksPerSec: number;
  pollsPerTask: number;
  errors: string[];
}

export interface WorkloadOptions {
  n: number;
  k: number;
  /** ttl requested for every task (ms). */
  ttl: number;
  /** Bound for the whole workload (ms): workers stop taking new tasks after it. */
  deadlineMs: number;
  /** Bound on tasks/get polls of one task. */
  maxPolls: number;
  /** Pause before each tasks/get (ms); 0 = one event-loop turn only. */
  pollDelayMs: number;
}

/** Runs the workload; never throws for a failed task (counted and sampled in `errors`). */
export async function workload(clients: BenchClient[], o: WorkloadOptions): Promise<WorkloadResult> {
  let next = 0;
  let completed = 0;
  let failed = 0;
  let polls = 0;
  const errors: string[] = [];
  const t0 = performance.now();
  const deadline = t0 + o.deadlineMs;
  const fail = (e: unknown) => {
    failed++;
    if (errors.length < 5) errors.push(e instanceof Error ? e.message : String(e));
  };
  const worker = async (c: BenchClient) => {
    while (next < o.n && performance.now() < deadline) {
      next++;
      try {
        const created = await c.request('tools/call', { name: 'complete', arguments: { ms: 0 }, task: { ttl: o.ttl } });
        const taskId = created?.task?.taskId;
        if (typeof taskId !== 'string') throw new Error(`no task in the tools/call result: ${JSON.stringify(created).slice(0, 200)}`);
        let status = created.task.status;
        let p = 0;
        while (!isTerminalStatus(status)) {
          if (p >= o.maxPolls) throw new Error(`task ${taskId} not terminal after ${p} polls`);
          await (o.pollDelayMs > 0 ? sleep(o.pollDelayMs) : yieldToLoop());
          const g = await c.request('tasks/get', { taskId });
          status = g?.status;
          p++;
        }
        polls += p;
        const r = await c.request('tasks/result', { taskId });
        if (status !== 'completed' || r?.content?.[0]?.text !== 'done') throw new Error(`task ${taskId} ended ${status}: ${JSON.stringify(r).slice(0, 200)}`);
        completed++;
      } catch (e) {
        fail(e);
      }
    }
  };
  await Promise.all(Array.from({ length: o.k }, (_, i) => worker(clients[i % clients.length]!)));
  const elapsedMs = performance.now() - t0;
  return {
    completed,
    failed,
    elapsedMs: round(elapsedMs, 1),
    tasksPerSec: round((completed / elapsedMs) * 1000, 0),
    pollsPerTask: round(completed ? polls / completed : 0, 2),
    errors,
  };
}

/** CPU time (user + system, ms) of a process from /proc (Linux); null where unavailable. */
export function procCpuMs(pid: number | null | undefined): number | null {
  if (!pid) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(rest[11]) + Number(rest[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / CLOCK_TICKS : null;
  } catch {
    return null;
  }
}
/** USER_HZ: 100 on every Linux this runs on (getconf CLK_TCK); /proc reports CPU time in these ticks. */
const CLOCK_TICKS = 100;

/** K initialized clients connected to a fresh server of the kind, and how to close them. */
export async function connect(
  kind: ServerKind,
  mode: Mode,
  k: number,
  root: string,
  timeoutMs: number,
): Promise<{
  clients: BenchClient[];
  /** CPU time (ms) used so far by the server: its process over stdio, this whole process in process. */ cpuMs(): number | null;
  close(): Promise<void>;
}> {
  const clients: BenchClient[] = [];
  let closeServer = async () => undefined as void;
  let cpuMs = (): number | null => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  if (mode === 'stdio') {
    if (kind === 'reference') await ensureBuilt(root);
    // The reference as the package runs it (compiled, section 1 builds it); the SDK-based fixture is not part of the package.
    const args = kind === 'reference' ? [MOCK, '--stdio'] : ['--import', 'tsx', 'fixtures/sdk-tasks-server.ts', '--stdio'];
    const transport = new PipeClientTransport(process.execPath, args, root);
    const c = new BenchClient(transport, timeoutMs);
    await c.start();
    clients.push(c);
    cpuMs = () => procCpuMs(transport.pid);
  } else if (kind === 'reference') {
    const receiver = createReferenceReceiver();
    for (let i = 0; i < k; i++) {
      const { clientTransport } = await receiver.inProcess();
      const c = new BenchClient(clientTransport, timeoutMs);
      await c.start();
      clients.push(c);
    }
    closeServer = () => receiver.close();
  } else {
    const servers: ReturnType<typeof createSdkTasksServer>[] = [];
    for (let i = 0; i < k; i++) {
      const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
      const server = createSdkTasksServer();
      await server.connect(serverTransport);
      servers.push(server);
      const c = new BenchClient(clientTransport, timeoutMs);
      await c.start();
      clients.push(c);
    }
    closeServer = async () => {
      for (const s of servers) await s.close().catch(() => undefined);
    };
  }
  for (const c of clients) await c.initialize();
  return {
    clients,
    cpuMs,
    close: async () => {
      for (const c of clients) await c.close();
      await closeServer();
    },
  };
}

export interface Run extends WorkloadResult {
  /** CPU time of the workload: the server process's over stdio; this whole process's (client and server) in process. */
  cpuMs: number | null;
  tasksPerCpuSec: number | null;
}

export interface ThroughputSide {
  runs: Run[];
  tasksPerSec: Series;
  tasksPerCpuSec: Series;
}

export interface ThroughputPair {
  reference: ThroughputSide;
  sdk: ThroughputSide;
  /** median tasks/s of the reference / of the SDK server. */
  ratio: number;
  /** The same for tasks per CPU-second (less sensitive to a shared machine and to the client's own cost over stdio). */
  cpuRatio: number;
}

export interface ThroughputSection {
  workload: string;
  n: number;
  /** Requestors at a time: in process, one connection each; over stdio, all on the one connection. */
  kInProcess: number;
  kStdio: number;
  warmup: number;
  pollDelayMs: number;
  ttl: number;
  inProcess: ThroughputPair;
  stdio: ThroughputPair;
}

export interface ThroughputOptions {
  root: string;
  repeats: number;
  n: number;
  kInProcess: number;
  /** At most 100: the reference receiver's default limit of concurrent tasks per requestor (one connection over stdio). */
  kStdio: number;
  warmup: number;
  pollDelayMs: number;
  log(line: string): void;
}

export async function benchThroughput(o: ThroughputOptions): Promise<ThroughputSection> {
  const ttl = 60_000;
  const pair = async (mode: Mode, k: number): Promise<ThroughputPair> => {
    const base = { k, ttl, deadlineMs: 120_000, maxPolls: 10_000, pollDelayMs: o.pollDelayMs };
    const runs: Record<ServerKind, Run[]> = { reference: [], sdk: [] };
    for (let i = 0; i < o.repeats; i++) {
      // Alternate the order, so that neither server always runs right after the other's garbage.
      const order: ServerKind[] = i % 2 === 0 ? ['reference', 'sdk'] : ['sdk', 'reference'];
      for (const kind of order) {
        const conn = await connect(kind, mode, k, o.root, 30_000);
        try {
          await workload(conn.clients, { ...base, n: o.warmup });
          const cpu0 = conn.cpuMs();
          const w = await workload(conn.clients, { ...base, n: o.n });
          const cpu1 = conn.cpuMs();
          const cpu = cpu0 !== null && cpu1 !== null ? cpu1 - cpu0 : null;
          const r: Run = { ...w, cpuMs: cpu === null ? null : round(cpu, 0), tasksPerCpuSec: cpu ? round((w.completed / cpu) * 1000, 0) : null };
          runs[kind].push(r);
          o.log(
            `  ${mode} ${kind}: ${r.tasksPerSec} tasks/s, ${r.tasksPerCpuSec ?? '?'} tasks per CPU-second (${r.completed} completed, ${r.failed} failed, ${r.pollsPerTask} polls/task)${r.errors.length ? `; ${r.errors[0]}` : ''}`,
          );
        } finally {
          await conn.close();
        }
      }
    }
    const side = (rs: Run[]) => ({
      runs: rs,
      tasksPerSec: series(
        rs.map((r) => r.tasksPerSec),
        0,
      ),
      tasksPerCpuSec: series(
        rs.map((r) => r.tasksPerCpuSec ?? NaN),
        0,
      ),
    });
    const ref = side(runs.reference);
    const sdk = side(runs.sdk);
    return {
      reference: ref,
      sdk,
      ratio: round(ref.tasksPerSec.median / sdk.tasksPerSec.median, 2),
      cpuRatio: round(ref.tasksPerCpuSec.median / sdk.tasksPerCpuSec.median, 2),
    };
  };
  const inProcess = await pair('in-process', o.kInProcess);
  const stdio = await pair('stdio', o.kStdio);
  return {
    workload: `tools/call complete {ms: 0} as a task (ttl ${ttl} ms) → tasks/get every ${o.pollDelayMs} ms until terminal → tasks/result`,
    n: o.n,
    kInProcess: o.kInProcess,
    kStdio: o.kStdio,
    warmup: o.warmup,
    pollDelayMs: o.pollDelayMs,
    ttl,
    inProcess,
    stdio,
  };
}
