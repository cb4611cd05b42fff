// What the properties need from a target: connections (fresh per run where that is cheap), the
// profile roles that create tasks, capabilities, bounds. Shared by the three properties.
import type { Peer, Response } from '../wire/peer.ts';
import { WireClosedError, WireTimeoutError } from '../wire/peer.ts';
import type { ProfileRole, ProfileTool } from '../engine/profile.ts';
import type { TargetConnector, TargetInfo } from '../engine/check.ts';
import type { RunOptions } from '../engine/options.ts';
import type { TargetSpec } from '../runner/target.ts';

/** Roles whose tool is called as a task by the properties. */
export const TASK_ROLES: readonly ProfileRole[] = ['completes', 'slow', 'fails', 'needsInput', 'requiresTask', 'progress'];

export interface Lease {
  peer: Peer;
  /** Index into peer.transcript where this lease's evidence starts. */
  start: number;
  release(opts?: { broken?: boolean }): Promise<void>;
}

export interface PropertyEnv {
  target: TargetSpec;
  connector: TargetConnector;
  info: TargetInfo;
  options: RunOptions;
  /** Roles available for task creation. */
  roles: ProfileRole[];
  caps: { list: boolean; cancel: boolean };
  /** Bound for a request that must be answered (ms). */
  answerMs: number;
  /** Slack when judging deletions against the ttl (ms). */
  slackMs: number;
  /** The in-process reference receiver: tool run times can be set per call with `ms`. */
  timingsControllable: boolean;
  /** The longest task run (creation to terminal) seen on this target so far (ms): waits follow it. */
  observedTaskMs?: number;
  acquire(): Promise<Lease>;
  close(): Promise<void>;
}

export function toolFor(env: PropertyEnv, role: ProfileRole): ProfileTool {
  const t = env.info.profile.tools[role];
  if (!t) throw new Error(`no tool for role ${role}`);
  return t;
}

/** Params of a task-augmented tools/call for a role. `ms` overrides the run time (reference receiver only). */
export function createParams(env: PropertyEnv, role: ProfileRole, opts: { ttl?: number; ms?: number } = {}): Record<string, unknown> {
  const tool = toolFor(env, role);
  const args: Record<string, unknown> = { ...(tool.arguments ?? {}) };
  if (opts.ms !== undefined && env.timingsControllable) args.ms = opts.ms;
  const task: Record<string, unknown> = {};
  if (opts.ttl !== undefined) task.ttl = opts.ttl;
  return { name: tool.name, arguments: args, task };
}

/**
 * Connections: a fresh one per lease for in-process and HTTP targets (cheap, and runs stay
 * independent); for stdio (a process per connection) one connection serves up to `reuse` leases.
 */
export function makePool(connector: TargetConnector, first: Peer | undefined, reuse: number): { acquire(): Promise<Lease>; close(): Promise<void> } {
  let shared: { peer: Peer; uses: number } | undefined = first ? { peer: first, uses: 0 } : undefined;
  const all = new Set<Peer>();
  if (first) all.add(first);
  const perLease = connector.transport !== 'stdio';
  if (perLease && first) {
    void first.close();
    shared = undefined;
  }
  return {
    async acquire() {
      if (perLease) {
        const peer = await connector.open();
        all.add(peer);
        return {
          peer,
          start: peer.transcript.length,
          release: async () => {
            all.delete(peer);
            await peer.close();
          },
        };
      }
      if (!shared || shared.peer.closed || shared.uses >= reuse) {
        if (shared) void shared.peer.close();
        const peer = await connector.open();
        all.add(peer);
        shared = { peer, uses: 0 };
      }
      const s = shared;
      s.uses++;
      return {
        peer: s.peer,
        start: s.peer.transcript.length,
        release: async (opts) => {
          if (opts?.broken || s.peer.closed) {
            if (shared === s) shared = undefined;
            all.delete(s.peer);
            await s.peer.close();
          }
        },
      };
    },
    async close() {
      await Promise.all([...all].map((p) => p.close()));
      all.clear();
    },
  };
}

/** A logical clock for send/receive order (ties impossible). */
export class Clock {
  private n = 0;
  tick(): number {
    return ++this.n;
  }
}

export type Outcome = { r: Response; at: number } | { timeout: true; at: number };

/** A request whose non-answer is an expected possibility: resolves with the answer or `{ timeout }`. Closed connections still throw. */
export async function requestOrTimeout(peer: Peer, method: string, params: unknown, timeoutMs: number): Promise<Outcome> {
  try {
    const r = await peer.request(method, params, { timeoutMs });
    return { r, at: Date.now() };
  } catch (e) {
    if (e instanceof WireTimeoutError) return { timeout: true, at: Date.now() };
    throw e;
  }
}

export function isWireFailure(e: unknown): boolean {
  return e instanceof WireTimeoutError || e instanceof WireClosedError;
}

export { delay } from '../arrange/poll.ts';
