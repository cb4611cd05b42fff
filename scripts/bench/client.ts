// A minimal JSON-RPC requestor for the benchmarks: no transcript, no task logic, every wait bounded.
// suites/wire/peer.ts's Peer records every message (evidence for the checks); over 100 000 tasks that record
// would be most of what the benchmark measures (time and memory), so the benchmarks use this instead,
// the same client for every server they compare.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

import { PROTOCOL_VERSION } from '../../schema/protocol.ts';
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

type Pending = { resolve(v: any): void; reject(e: Error): void; timer: NodeJS.Timeout; method: string };

export class BenchClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closedReason: string | undefined;

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
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`no response to ${method} within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      this.pending.set(id, { resolve, reject, timer, method });
      const msg: Record<string, unknown> = { jsonrpc: '2.0', id, method };
      if (params !== undefined) msg.params = params;
      this.transport.send(msg as JSONRPCMessage).catch((e: unknown) => {
        if (this.pending.delete(id)) {
          clearTimeout(timer);
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
    clearTimeout(p.timer);
    if (m.error) p.reject(new RpcFailure(p.method, Number(m.error.code), String(m.error.message)));
    else p.resolve(m.result);
  }

  private fail(reason: string): void {
    if (this.closedReason) return;
    this.closedReason = reason;
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
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
