// Every place a named latitude (latitudes.ts) changes the reference receiver, and nothing else. Like the
// fault switches (fault-switches.ts), the session modules ask these at the one point where a latitude
// acts; with no latitude active each switch leaves the behaviour as is. Each switch names the
// requirement or ruling that leaves the freedom (the latitude's `allows`).
import { randomUUID } from 'node:crypto';
import { ErrorCode, isTerminal } from '../../schema/protocol.ts';
import type { Params } from './core.ts';
import type { LatitudeSet } from './latitudes.ts';
import { LIMIT_ERROR_CODE, RpcError, type StoredTask } from './store.ts';
import type { CallToolResult, ToolDef } from './tools.ts';

/** How often the lazy-expiry sweep deletes expired tasks (ms). */
export const LAZY_SWEEP_MS = 15_000;
/** How long the slow tool runs under slow-runs-minutes (ms). */
export const SLOW_MINUTES_MS = 20 * 60_000;
/** Task creations per requestor per second under rate-limit. */
export const RATE_LIMIT_PER_SECOND = 8;
/** The delay of every outgoing message under latency (ms). */
export const LATENCY_MS = 150;
/** How often a running task pings its requestor under server-pings (ms). */
export const PING_EVERY_MS = 250;
/** The code of a rejection of another requestor's task under foreign-context-custom-code. */
export const FOREIGN_CONTEXT_CODE = -32001;
/** The code of a refused poll under poll-rate-limit (an implementation's own: no line names one, tasks.md:881). */
export const POLL_LIMIT_CODE = -32005;
/** Under poll-rate-limit: the shortest gap between tasks/get of one task (ms), and tasks/list a second. */
export const POLL_LIMIT_MIN_GAP_MS = 50;
export const LISTS_PER_SECOND = 5;
/** MCP's URL-elicitation-required code (schema.ts URL_ELICITATION_REQUIRED). */
const URL_ELICITATION_REQUIRED = -32042;

export class LatitudeSwitches {
  constructor(private readonly l: LatitudeSet) {}

  // --- the receiver (index.ts, store.ts) ------------------------------------------------------
  /** RULINGS.md#expired-cleanup-promptly (lazy-expiry), RULINGS.md#lenient-cursor (stateless-cursors), resource-concurrency-limit (task-cap-internal-error). */
  storeOptions(): { lazySweepMs?: number; statelessCursors?: boolean; concurrencyError?: { code: number; message: string } } {
    return {
      ...(this.l.has('lazy-expiry') ? { lazySweepMs: LAZY_SWEEP_MS } : {}),
      ...(this.l.has('stateless-cursors') ? { statelessCursors: true } : {}),
      // resource-concurrency-limit names no code: mcp-framework refuses with -32603 and these words.
      ...(this.l.has('task-cap-internal-error') ? { concurrencyError: { code: ErrorCode.InternalError, message: 'Maximum concurrent tasks exceeded' } } : {}),
    };
  }

  /**
   * The tool as served: result-exact (custom-error-codes: JSON-RPC errors with server and MCP codes;
   * nondeterministic-output: a time and an id in every result); result-blocks-nonterminal
   * (slow-runs-minutes: the slow tool runs minutes).
   */
  tool(t: ToolDef): ToolDef {
    const l = this.l;
    if (l.has('fail-asks-first') && t.name === 'fail') t = asksFirst(t);
    if (
      !l.has('custom-error-codes') &&
      !l.has('nondeterministic-output') &&
      !l.has('tool-result-deviates') &&
      !(l.has('slow-runs-minutes') && t.name === 'slow')
    )
      return t;
    return {
      ...t,
      run: async (ctx) => {
        let r: CallToolResult;
        if (l.has('slow-runs-minutes') && t.name === 'slow') {
          await ctx.sleep(SLOW_MINUTES_MS);
          r = { content: [{ type: 'text', text: 'slow done' }] };
        } else {
          try {
            r = await t.run(ctx);
          } catch (e) {
            if (l.has('custom-error-codes') && e instanceof RpcError && e.code === ErrorCode.InvalidParams)
              throw new RpcError(URL_ELICITATION_REQUIRED, `URL elicitation required before this call can run (${e.message})`, { elicitations: [] });
            throw e;
          }
        }
        if (l.has('custom-error-codes') && r.isError === true) throw new RpcError(-32000, `Server error: ${r.content[0]?.text ?? 'the tool failed'}`);
        // result-exact (tool-result-deviates): a content annotation outside tools.md's schema (priority is a number
        // from 0 to 1), returned by the plain call and, exactly, by tasks/result.
        if (l.has('tool-result-deviates') && r.content[0]?.type === 'text')
          r = { ...r, content: [{ ...r.content[0], annotations: { priority: 'high' } } as CallToolResult['content'][number], ...r.content.slice(1)] };
        if (l.has('nondeterministic-output'))
          r = { ...r, content: [...r.content, { type: 'text', text: `at ${new Date().toISOString()} (call ${randomUUID()})` }] };
        return r;
      },
    };
  }

  /** notify-status-may (no-status-notifications): notifications/tasks/status are never sent. */
  statusNotifications(exact: boolean): boolean {
    return exact && !this.l.has('no-status-notifications');
  }

  /** schema:ServerCapabilities.tasks.list / .cancel (no-list, no-cancel): optional capabilities left out. */
  tasksCapability(declared: Params): Params {
    const out = { ...declared };
    if (this.l.has('no-list') || this.l.has('shared-session-tasks')) delete out.list; // shared: security-list-without-identity
    if (this.l.has('no-cancel')) delete out.cancel;
    return out;
  }

  /**
   * security-bind-context (shared-session-tasks): without an authorization context, sessions share their
   * tasks for tasks/get and tasks/cancel; tasks/result (whose input requests go to the creating session)
   * answers only there.
   */
  sharesSessionTasks(auth: string | undefined, purpose: 'result' | 'other'): boolean {
    return this.l.has('shared-session-tasks') && auth === undefined && purpose !== 'result';
  }

  /** no-cancel: the method of the capability not declared is not there (-32601). */
  methodAbsent(method: string): boolean {
    return method === 'tasks/cancel' && this.l.has('no-cancel');
  }

  /** no-list: tasks/list, not declared, still answers the first page whatever its params (nobody may rely on it). */
  listIgnoresParams(): boolean {
    return this.l.has('no-list');
  }

  // --- the wire -------------------------------------------------------------------------------------
  /** RULINGS.md#response-time (latency): how long each outgoing message waits before it is sent (ms). */
  sendDelayMs(): number {
    return this.l.has('latency') ? LATENCY_MS : 0;
  }

  // --- tools/call and task creation ---------------------------------------------------------------
  private readonly creations = new Map<string, number[]>();
  /** security-rate-limit (rate-limit): refuses a creation beyond RATE_LIMIT_PER_SECOND per requestor. */
  rateLimit(owner: string): void {
    if (!this.l.has('rate-limit')) return;
    const now = Date.now();
    const recent = (this.creations.get(owner) ?? []).filter((t) => now - t < 1_000);
    if (recent.length >= RATE_LIMIT_PER_SECOND) {
      this.creations.set(owner, recent);
      throw new RpcError(LIMIT_ERROR_CODE, `Rate limit exceeded: at most ${RATE_LIMIT_PER_SECOND} task creations per second; retry later`, {
        retryAfterMs: 1_000 - (now - recent[0]!),
      });
    }
    recent.push(now);
    this.creations.set(owner, recent);
  }

  // --- tasks/get and tasks/list (poll-rate-limit) ------------------------------------------------------
  private readonly lastGet = new Map<string, number>();
  private readonly lists = new Map<string, number[]>();
  /** Whether poll-rate-limit is on (the HTTP endpoint then reads the body of every POST to refuse with 429). */
  limitsPolls(): boolean {
    return this.l.has('poll-rate-limit');
  }
  /**
   * security-rate-limit (poll-rate-limit): the error a tasks/get or tasks/list of requestor `key` gets when it
   * comes too soon (a tasks/get of one task within half the pollInterval of the last one; a sixth tasks/list
   * within a second), else undefined. Each answered request counts.
   */
  pollLimit(key: string, method: string, params: unknown, pollInterval: number): RpcError | undefined {
    if (!this.l.has('poll-rate-limit')) return undefined;
    const now = Date.now();
    if (method === 'tasks/get') {
      const taskId = (params as { taskId?: unknown } | undefined)?.taskId;
      if (typeof taskId !== 'string') return undefined;
      const k = `${key}\u0000${taskId}`;
      const last = this.lastGet.get(k);
      const gap = Math.max(POLL_LIMIT_MIN_GAP_MS, pollInterval / 2);
      if (last !== undefined && now - last < gap)
        return new RpcError(POLL_LIMIT_CODE, `Slow down: task ${taskId} was polled ${now - last} ms ago; poll at its pollInterval`);
      this.lastGet.set(k, now);
      return undefined;
    }
    if (method === 'tasks/list') {
      const recent = (this.lists.get(key) ?? []).filter((t) => now - t < 1_000);
      if (recent.length >= LISTS_PER_SECOND) {
        this.lists.set(key, recent);
        return new RpcError(POLL_LIMIT_CODE, `Too many requests: at most ${LISTS_PER_SECOND} tasks/list a second`, { retryAfter: 1 });
      }
      recent.push(now);
      this.lists.set(key, recent);
    }
    return undefined;
  }

  // --- tasks/result (result-wakes-per-interval) ---------------------------------------------------------
  /**
   * RULINGS.md#response-time (result-wakes-per-interval): how long a blocked tasks/result that arrived at
   * `arrivedAt` still waits, once its task is terminal, for its next wake-up (once per pollInterval); 0: at once.
   */
  resultWakeDelayMs(arrivedAt: number, pollInterval: number): number {
    if (!this.l.has('result-wakes-per-interval') || pollInterval <= 0) return 0;
    const since = Date.now() - arrivedAt;
    return Math.ceil(since / pollInterval) * pollInterval - since;
  }

  /**
   * RULINGS.md#foreign-context-code (foreign-context-custom-code): a request about another requestor's task is
   * rejected with an error of the receiver's own (-32001 "Forbidden"), not the "not found" the suite expects.
   */
  foreignContextError(t: StoredTask | undefined, owner: string): RpcError | undefined {
    if (!this.l.has('foreign-context-custom-code') || !t || t.owner === owner) return undefined;
    return new RpcError(FOREIGN_CONTEXT_CODE, 'Forbidden: the task belongs to another requestor');
  }

  private idCounter = 0;
  /**
   * security-crypto-ids (bound-sequential-ids): with an authorization context (a bearer token) tasks are bound to it
   * (security-bind-context), so the ids need not be unguessable: a counter. Undefined: the store's random id.
   */
  taskId(auth: string | undefined): string | undefined {
    return this.l.has('bound-sequential-ids') && auth !== undefined ? `task-${++this.idCounter}` : undefined;
  }

  /** RULINGS.md#progress-before-create (progress-before-create): progress the tool sends before the CreateTaskResult. */
  progressBeforeCreate(toolName: string, token: unknown): Params | undefined {
    if (!this.l.has('progress-before-create') || toolName !== 'progress' || token === undefined) return undefined;
    return { progressToken: token, progress: 0, total: 3, message: 'accepted' };
  }

  /** RULINGS.md#related-task-exemptions (server-pings): how often a running task pings its requestor; undefined: never. */
  pingEveryMs(): number | undefined {
    return this.l.has('server-pings') ? PING_EVERY_MS : undefined;
  }

  // --- the Task on the wire ----------------------------------------------------------------------
  /** RULINGS.md#timestamps-rfc3339 (second-precision-timestamps): lastUpdatedAt in whole seconds. */
  lastUpdatedAt(ms: number, iso8601: (ms: number) => string = (x) => new Date(x).toISOString()): string {
    const iso = iso8601(ms);
    return this.l.has('second-precision-timestamps') ? iso.replace(/\.\d{3}Z$/, 'Z') : iso;
  }

  /**
   * RULINGS.md#timestamps-rfc3339 (second-precision-timestamps): createdAt with milliseconds in the CreateTaskResult,
   * whole seconds everywhere else (a store that keeps seconds): the same instant, written twice.
   */
  createdAt(ms: number, where: 'create' | 'other', iso8601: (ms: number) => string = (x) => new Date(x).toISOString()): string {
    const iso = iso8601(ms);
    return this.l.has('second-precision-timestamps') && where === 'other' ? iso.replace(/\.\d{3}Z$/, 'Z') : iso;
  }

  /** ttl-poll-interval-may (no-poll-interval): no pollInterval. */
  pollInterval(exact: number): number | undefined {
    return this.l.has('no-poll-interval') ? undefined : exact;
  }

  /** schema:Task.statusMessage (status-messages): a statusMessage on every status, moving while the task works. */
  statusMessage(t: StoredTask, exact: string | undefined): string | undefined {
    if (!this.l.has('status-messages') || exact !== undefined) return exact;
    if (isTerminal(t.status)) return `Task ${t.status}.`;
    return `${t.status === 'working' ? 'Working' : 'Waiting'} for ${Math.floor((Date.now() - t.createdAtMs) / 100) * 100} ms`;
  }

  // --- tasks/cancel -----------------------------------------------------------------------------------
  /** cancel-delete-may (delete-cancelled): a cancelled task is deleted at once. */
  deletesCancelled(): boolean {
    return this.l.has('delete-cancelled');
  }
}

/**
 * RULINGS.md#new-task-working (fail-asks-first): the tool asks for input before its first await, so the task
 * is input_required when its CreateTaskResult is written; the work goes on as before, answered or not.
 */
function asksFirst(t: ToolDef): ToolDef {
  return {
    ...t,
    run: async (ctx) => {
      void ctx
        .requestInput('elicitation/create', {
          mode: 'form',
          message: `${t.name}: add a note to the failure?`,
          requestedSchema: { type: 'object', properties: { answer: { type: 'string', title: 'Note' } } },
        })
        .catch(() => undefined);
      return t.run(ctx);
    },
  };
}
