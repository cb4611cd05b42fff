// A minimal JSON-RPC requestor for the benchmarks: no transcript, no task logic, every wait bounded.
// suites/wire/peer.ts's Peer records every message (evidence for the checks); over 100 000 tasks that record
// would be most of what the benchmark measures (time and memory), so the benchmarks use this instead,
// the same client for every server they compare.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

import { PROTOCOL_VERSION } from '../../schema/protocol.ts';
import { LineReader } from '../../suites/wire/line-reader.ts';
export { PROTOCOL_VERSION };

export class RpcFailure extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
  ) {
    super(`${method}: ${code} ${message}`);
    this.name = 'RpcFailure';
  }
}

type Pending = { resolve(v: any): void; reject(e: Error): void; deadline: number; method: string };

export class BenchClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closedReason: string | undefined;
  /**
   * One timer for every request's bound (a timer per request would be three per task, the same cost for
   * both servers, diluting their ratio): a request is given up between timeoutMs and 1.25 × timeoutMs.
   */
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    readonly transport: Transport,
    readonly timeoutMs = 10_000,
  ) {
    transport.onmessage = (m) => this.onMessage(m as Record<string, any>);
    transport.onclose = () => this.fail('transport closed');
    transport.onerror = () => undefined; // a failing transport shows as a closed connection or a timeout
  }

  async start(): Promise<void> {
    await this.transport.start();
  }

  /** Sends a request; resolves with its result, rejects with RpcFailure (error response), a timeout or a closed connection. */
  request(method: string, params?: Record<string, unknown>): Promise<any> {
    if (this.closedReason) return Promise.reject(new Error(`connection closed: ${this.closedReason}`));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, deadline: performance.now() + this.timeoutMs, method });
      this.sweeper ??= setInterval(() => this.sweep(), Math.max(1, this.timeoutMs / 4));
      const msg: Record<string, unknown> = { jsonrpc: '2.0', id, method };
      if (params !== undefined) msg.params = params;
      this.transport.send(msg as JSONRPCMessage).catch((e: unknown) => {
        if (this.pending.delete(id)) {
          reject(e instanceof Error ? e : new Error(String(e)));
        }
      });
    });
  }

  async initialize(): Promise<void> {
    await this.request('initialize', { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'mcp-tasks-bench', version: '0.1.0' } });
    this.transport.setProtocolVersion?.(PROTOCOL_VERSION);
    await this.transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' } as JSONRPCMessage);
  }

  async close(): Promise<void> {
    this.fail('closed by the benchmark');
    await this.transport.close().catch(() => undefined);
  }

  private onMessage(m: Record<string, any>): void {
    if (typeof m.method === 'string') {
      // A request from the server (none is expected in these workloads): ping is answered, anything else refused.
      if (m.id !== undefined) {
        const reply =
          m.method === 'ping'
            ? { jsonrpc: '2.0', id: m.id, result: {} }
            : { jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'not supported by the benchmark client' } };
        this.transport.send(reply as JSONRPCMessage).catch(() => undefined);
      }
      return;
    }
    const p = typeof m.id === 'number' ? this.pending.get(m.id) : undefined;
    if (!p) return;
    this.pending.delete(m.id);
    if (m.error) p.reject(new RpcFailure(p.method, Number(m.error.code), String(m.error.message)));
    else p.resolve(m.result);
  }

  private sweep(): void {
    if (this.pending.size === 0) {
      clearInterval(this.sweeper); // nothing to bound: no timer keeps the process alive
      this.sweeper = undefined;
      return;
    }
    const now = performance.now();
    for (const [id, p] of this.pending) {
      if (now < p.deadline) continue;
      this.pending.delete(id);
      p.reject(new Error(`no response to ${p.method} within ${this.timeoutMs} ms`));
    }
  }

  private fail(reason: string): void {
    if (this.closedReason) return;
    this.closedReason = reason;
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    for (const [id, p] of this.pending) {
      p.reject(new Error(`connection closed: ${reason}`));
      this.pending.delete(id);
    }
  }
}

/** Yields to the event loop (timers included), so busy polling in process cannot starve the server's timers. */
export function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
export const isTerminalStatus = (s: unknown): boolean => typeof s === 'string' && TERMINAL.has(s);

/**
 * A server process's stdin/stdout as a Transport for the workloads, lean on purpose: newline-delimited JSON,
 * `JSON.parse` of each line (no schema validation of the answers) and the messages sent in one turn of the
 * event loop written together. The SDK's StdioClientTransport validates every message and writes each one on
 * its own; that costs the requestor about as much CPU per task as a fast server spends, so on 2 cores
 * (requestor and server share them) the stdio rows measured the requestor as much as the server.
 */
export class PipeClientTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (e: Error) => void;
  private child: ChildProcess | undefined;
  private readonly lines = new LineReader((line) => {
    let m: unknown;
    try {
      m = JSON.parse(line);
    } catch (e) {
      this.onerror?.(e as Error);
      return;
    }
    this.onmessage?.(m as never);
  });
  private queued: string[] = [];

  constructor(
    readonly command: string,
    readonly args: string[],
    readonly cwd: string,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.command, this.args, { cwd: this.cwd, stdio: ['pipe', 'pipe', 'ignore'] });
      this.child = child;
      child.once('spawn', () => resolve());
      child.once('error', (e) => {
        reject(e);
        this.onerror?.(e);
      });
      child.once('close', () => this.onclose?.());
      child.stdin!.on('error', (e) => this.onerror?.(e));
      child.stdout!.on('data', (chunk: Buffer) => this.lines.push(chunk));
    });
  }

  async send(message: unknown): Promise<void> {
    if (!this.child?.stdin?.writable) throw new Error('not connected');
    this.queued.push(JSON.stringify(message));
    if (this.queued.length === 1) setImmediate(this.flush);
  }

  private readonly flush = (): void => {
    if (!this.queued.length) return;
    const text = this.queued.join('\n') + '\n';
    this.queued = [];
    if (this.child?.stdin?.writable) this.child.stdin.write(text);
  };

  /** Ends the server's stdin (a stdio server exits on it); SIGTERM after 2 s if it has not exited. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    this.flush();
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.stdin?.end();
    const timer = setTimeout(() => child.kill('SIGTERM'), 2_000);
    await exited;
    clearTimeout(timer);
  }
}
