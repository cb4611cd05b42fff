// Discovery: finds the profile roles (engine/profile.ts) a profile leaves out, by observation. Each
// task-capable tool that is safe to call is called as a task with arguments derived from its inputSchema
// (arrange/arguments.ts), polled, and classified by what it did; what it started is cancelled. Tools are
// judged safe by their annotations (tools.md: destructiveHint, readOnlyHint, openWorldHint) and by name
// and description. requiresTask / forbidsTask come from execution.taskSupport. Bounded by a budget.
import { isLimitError, readLimit } from '../judge/error-codes.ts';
import { backoffMs, pollDelayMs } from '../judge/pacing.ts';
import type { TargetInfo } from '../engine/check.ts';
import type { RequestorObservation, RequestorPlan } from './requestor-discovery.ts';
import { RELATED_TASK_META, isTaskStatus, isTerminal, type TaskStatus, type TaskSupport } from '../../schema/protocol.ts';
import { ANY_REVISION_ROLES, PROFILE_ROLES, type Profile, type ProfileRole } from '../engine/profile.ts';
import { deriveArguments } from '../arrange/arguments.ts';
import { toolSafety } from '../arrange/tool-safety.ts';
import { WireClosedError, type Message, type Peer, type Scope } from '../wire/peer.ts';
import { delay } from '../arrange/poll.ts';
import type { Revision } from '../../schema/spec.ts';
import { DEFAULT_DISCOVERY } from '../engine/options.ts';

import { DISCOVER_MODES, type DiscoveredRole, type DiscoverMode } from './discover-mode.ts';

export { DISCOVER_MODES, type DiscoveredRole, type DiscoverMode };

/** Plain data (it travels from the CLI to the vitest workers). */
export interface DiscoverySettings {
  /** off: roles come from the profile only; safe: call only tools judged safe; all: call every task-capable tool. */
  mode: DiscoverMode;
  /** Bound for the whole discovery (ms). */
  budgetMs?: number;
  /** Calls in flight at once (halved when the target reports a limit). */
  concurrency?: number;
  /** A task still running this long after its creation is `slow` (ms). */
  slowAfterMs?: number;
  /** Longest one call is observed before it is cancelled (ms). */
  observeMs?: number;
  /** Bound for one request (ms). */
  requestTimeoutMs?: number;
  /** Look only for these roles, e.g. those the selected checks need (default: every receiver role). */
  roles?: ProfileRole[];
}

export { DEFAULT_DISCOVERY }; // defined with the run's options (the CLI's help reads it without loading discovery)
/** ttl asked for each discovery task: long enough to be observed, short enough not to linger if a cancel is lost. */
const DISCOVERY_TTL_MS = 60_000;
const MAX_ATTEMPTS = 3;
/** No call is started with less budget than this left: it could not be observed. */
const MIN_CALL_MS = 250;

export interface PlannedCall {
  tool: string;
  arguments: Record<string, unknown>;
  /** How the arguments were chosen (arrange/arguments.ts). */
  label: string;
  /** execution.taskSupport as listed (2025-11-25; a 2026-07-28 tool has none: the server decides per call). */
  taskSupport?: TaskSupport;
  /** --discover all: why safe mode would not call it. */
  unsafe?: string;
}

export interface DiscoveryPlan {
  mode: DiscoverMode;
  /** The revision the calls are made in (absent: 2025-11-25, calls as tasks; 2026-07-28: calls of a client declaring the Tasks extension). */
  revision?: Revision;
  /** The roles to find (those the profile leaves out). */
  roles: ProfileRole[];
  calls: PlannedCall[];
  /** Tools discovery does not call, and why (not task-capable is not listed). */
  notCalled: { tool: string; reason: string }[];
  /** Why no tool is called at all, when none is. */
  noCalls?: string;
}

export type Outcome = 'completed' | 'failed' | 'cancelled' | 'input_required' | 'working' | 'error' | 'no-task' | 'not-started';

export interface CallObservation extends PlannedCall {
  outcome: Outcome;
  taskId?: string;
  /** Statuses seen, with ms since the tools/call was sent. */
  statuses: { status: TaskStatus; atMs: number }[];
  /** ms from sending the tools/call to the last status seen (or to the error). */
  elapsedMs: number;
  /** tasks/result of a completed task had isError: true. */
  isError?: boolean;
  /** Requests the target sent us for this task (elicitation/create, sampling/createMessage). */
  inputRequests: string[];
  /** notifications/progress received for this call's progressToken. */
  progressNotifications: number;
  /** notifications/message (logging) received naming this call's task in related-task _meta. */
  logNotifications?: number;
  /** Still running `slowAfterMs` after creation, without asking for input. */
  slow: boolean;
  /** tasks/cancel was sent for it (it was still running when observation ended). */
  cancelled: boolean;
  error?: string;
}

export interface DiscoveryResult<O = CallObservation> {
  mode: DiscoverMode;
  /** The revision discovery ran in (absent: 2025-11-25). */
  revision?: Revision;
  budgetMs: number;
  elapsedMs: number;
  /** The budget ran out before every planned call was observed to its end. */
  budgetExhausted: boolean;
  plan: DiscoveryPlan;
  observations: O[];
  roles: Partial<Record<ProfileRole, DiscoveredRole>>;
  /** Why each role that was looked for was not found. */
  missing: Partial<Record<ProfileRole, string>>;
  /** The requestor roles' part (runner/requestor-discovery.ts), when it looked for them; its roles and reasons are in `roles` / `missing`. */
  requestor?: { plan: RequestorPlan; observations: RequestorObservation[] };
}

function taskSupportOf(tool: any): TaskSupport | undefined {
  const s = tool?.execution?.taskSupport;
  return s === 'required' || s === 'optional' || s === 'forbidden' ? s : undefined;
}

// --- plan ----------------------------------------------------------------------------------------

const OBSERVED_ROLES: readonly ProfileRole[] = ['completes', 'slow', 'fails', 'needsInput', 'progress', 'logs', 'requiresTask'];

/** Which tools discovery will call, with which arguments (printed before the run). No I/O. */
export function planDiscovery(
  tools: any[],
  serverCapabilities: any,
  settings: DiscoverySettings,
  roles: readonly ProfileRole[] = PROFILE_ROLES,
): DiscoveryPlan {
  const plan: DiscoveryPlan = { mode: settings.mode, roles: [...roles], calls: [], notCalled: [] };
  if (settings.mode === 'off') return { ...plan, noCalls: 'discovery is off (--discover off)' };
  if (!roles.some((r) => OBSERVED_ROLES.includes(r))) return { ...plan, noCalls: 'the profile names every role that needs observing' };
  if (!serverCapabilities?.tasks?.requests?.tools?.call)
    return { ...plan, noCalls: 'target does not declare tasks.requests.tools.call, so no tool can be called as a task' };
  for (const tool of tools) {
    const support = taskSupportOf(tool);
    if (support !== 'optional' && support !== 'required') continue;
    const safety = toolSafety(tool);
    if (settings.mode === 'safe' && !safety.safe) {
      plan.notCalled.push({ tool: tool.name, reason: `not safe to call: ${safety.reason} (--discover all calls it)` });
      continue;
    }
    const derived = deriveArguments(tool.inputSchema);
    if (derived.variants.length === 0) {
      plan.notCalled.push({ tool: tool.name, reason: `no valid arguments could be derived from its inputSchema: ${derived.problems.join('; ')}` });
      continue;
    }
    for (const v of derived.variants)
      plan.calls.push({ tool: tool.name, arguments: v.arguments, label: v.label, taskSupport: support, ...(safety.safe ? {} : { unsafe: safety.reason }) });
  }
  if (plan.calls.length === 0) plan.noCalls = 'no task-capable tool is safe to call with derived arguments';
  return plan;
}

/** The plan as lines for the console. */
export function formatPlan(plan: DiscoveryPlan, budgetMs: number): string[] {
  if (plan.mode === 'off') return [];
  const lines = [`discovery (${plan.mode}, budget ${budgetMs} ms) looks for roles: ${plan.roles.join(', ') || '(none)'}`];
  if (plan.noCalls) lines.push(`  calls no tool: ${plan.noCalls}`);
  // A plan of 2025-11-25 names no revision (calls as tasks); one of a later revision calls as a client declaring the Tasks extension.
  const how = plan.revision ? 'as a client declaring the Tasks extension (the server decides whether to answer with a task)' : 'as a task';
  for (const c of plan.calls)
    lines.push(`  will call ${c.tool} ${JSON.stringify(c.arguments)} ${how} (${c.label})${c.unsafe ? ` although ${c.unsafe} (--discover all)` : ''}`);
  for (const n of plan.notCalled) lines.push(`  will not call ${n.tool}: ${n.reason}`);
  return lines;
}

// --- observation ---------------------------------------------------------------------------------

/** The target refused a call for capacity (observeWithin backs off and retries it). */
export class LimitReached extends Error {}

/** A refusal that says the target is at capacity or throttling (back off and retry), not that the call is wrong (suites/judge). */
export { isLimitError };

interface ObserveContext {
  scope: Scope;
  peer: Peer;
  deadline: number;
  settings: Required<Omit<DiscoverySettings, 'mode' | 'roles'>>;
  token: string;
  /** Set once discovery has what it looks for: the observation stops (runner/discovery.ts discover). */
  enough?: () => string | undefined;
}

/** An observation of a call that was not made, or ended before a task existed. */
function unobserved(call: PlannedCall, outcome: Outcome, error?: string): CallObservation {
  return {
    ...call,
    outcome,
    statuses: [],
    elapsedMs: 0,
    inputRequests: [],
    progressNotifications: 0,
    slow: false,
    cancelled: false,
    ...(error ? { error } : {}),
  };
}

/** When each observed call was under way (epoch ms), to attribute input requests that name no task. */
const windows = new WeakMap<CallObservation, { from: number; to: number }>();

async function observeCall(call: PlannedCall, o: ObserveContext): Promise<CallObservation> {
  const obs = unobserved(call, 'not-started');
  const sent = Date.now();
  const timeout = () => Math.max(1, Math.min(o.settings.requestTimeoutMs, o.deadline - Date.now()));
  const seen = (status: TaskStatus) => obs.statuses.push({ status, atMs: Date.now() - sent });
  try {
    const r = await o.scope.request(
      'tools/call',
      { name: call.tool, arguments: call.arguments, task: { ttl: DISCOVERY_TTL_MS }, _meta: { progressToken: o.token } },
      { timeoutMs: timeout() },
    );
    if (r.error) {
      if (isLimitError(r.error)) throw new LimitReached(`${r.error.code} ${r.error.message}`);
      return Object.assign(obs, { outcome: 'error', error: `tools/call answered ${r.error.code} ${r.error.message}`, elapsedMs: Date.now() - sent });
    }
    const task = r.result?.task;
    if (!task || typeof task.taskId !== 'string') {
      return Object.assign(obs, {
        outcome: 'no-task',
        isError: r.result?.isError === true,
        error: 'answered without creating a task',
        elapsedMs: Date.now() - sent,
      });
    }
    obs.taskId = task.taskId;
    let last = task;
    if (isTaskStatus(last.status)) seen(last.status);
    const stopAt = Math.min(o.deadline, sent + o.settings.observeMs);
    while (!(isTaskStatus(last.status) && (isTerminal(last.status) || last.status === 'input_required')) && !obs.inputRequests.length && !o.enough?.()) {
      // The target's pollInterval, never sooner (poll-respect-interval): observeMs bounds how long, not how fast.
      const wait = pollDelayMs(last.pollInterval);
      if (Date.now() + wait >= stopAt) break;
      await delay(wait);
      const g = await o.scope.request('tasks/get', { taskId: task.taskId }, { timeoutMs: timeout() });
      // A rate limit is back-pressure: the next poll waits longer (backoffMs), the observation goes on.
      if (g.error && isLimitError(g.error) && Date.now() + backoffMs(2) < stopAt) {
        await delay(backoffMs(2, { retryAfterMs: readLimit(g.error)?.retryAfterMs }));
        continue;
      }
      if (g.error) {
        obs.error = `tasks/get answered ${g.error.code} ${g.error.message}`;
        break;
      }
      last = g.result;
      if (isTaskStatus(last?.status)) seen(last.status);
      obs.inputRequests = inputRequestsFor(o.peer, task.taskId);
    }
    obs.elapsedMs = Date.now() - sent;
    obs.inputRequests = inputRequestsFor(o.peer, task.taskId);
    const final = obs.statuses.at(-1)?.status;
    obs.outcome = obs.error ? 'error' : final === 'completed' || final === 'failed' || final === 'cancelled' || final === 'input_required' ? final : 'working';
    obs.slow =
      obs.statuses.some((s) => s.status === 'working' && s.atMs >= o.settings.slowAfterMs) &&
      !obs.statuses.some((s) => s.status === 'input_required') &&
      !obs.inputRequests.length;
    if (final === 'completed' && Date.now() < o.deadline) {
      const res = await o.scope.request('tasks/result', { taskId: task.taskId }, { timeoutMs: timeout() });
      if (res.result) obs.isError = res.result.isError === true;
    }
    if (!final || !isTerminal(final)) {
      obs.cancelled = true;
      await o.scope.request('tasks/cancel', { taskId: task.taskId }, { timeoutMs: Math.min(2_000, o.settings.requestTimeoutMs) }).catch(() => undefined);
    }
  } catch (e) {
    if (e instanceof LimitReached || e instanceof WireClosedError) throw e;
    obs.outcome = obs.taskId ? obs.outcome : 'error';
    obs.error = e instanceof Error ? e.message : String(e);
    obs.elapsedMs = Date.now() - sent;
    if (obs.taskId) {
      obs.cancelled = true;
      await o.scope.request('tasks/cancel', { taskId: obs.taskId }, { timeoutMs: 2_000 }).catch(() => undefined);
    }
  } finally {
    obs.progressNotifications = o.peer.messages((m) => m.method === 'notifications/progress' && m.params?.progressToken === o.token).length;
    // A log message is known to be this task's only by its related-task _meta (servers log for other reasons
    // too); a server that omits it is judged only with a profile naming the logs tool.
    if (obs.taskId)
      obs.logNotifications = o.peer.messages((m) => m.method === 'notifications/message' && m.params?._meta?.[RELATED_TASK_META]?.taskId === obs.taskId).length;
    windows.set(obs, { from: sent, to: Date.now() });
  }
  return obs;
}

/**
 * Input requests that name no task (a receiver that omits related-task breaks input-required-related-task;
 * the input checks judge that): each is counted for the one task call under way when it arrived, when there
 * is exactly one, so that the role is still found and the omission judged.
 */
function attributeUnnamedInput(peer: Peer, observations: CallObservation[]): void {
  for (const e of peer.transcript) {
    const m = e.message as Message | undefined;
    if (e.dir !== 'in' || !m || typeof m !== 'object' || !('id' in m)) continue;
    if (m.method !== 'elicitation/create' && m.method !== 'sampling/createMessage') continue;
    if (m.params?._meta?.[RELATED_TASK_META] !== undefined) continue;
    const at = Date.parse(e.time);
    const under = observations.filter((o) => o.taskId && windows.has(o) && windows.get(o)!.from <= at && at <= windows.get(o)!.to);
    if (under.length === 1) {
      under[0]!.inputRequests.push(String(m.method));
      under[0]!.slow = false;
    }
  }
}

function inputRequestsFor(peer: Peer, taskId: string): string[] {
  return peer
    .messages(
      (m) =>
        'id' in m && (m.method === 'elicitation/create' || m.method === 'sampling/createMessage') && m.params?._meta?.[RELATED_TASK_META]?.taskId === taskId,
    )
    .map((m) => String(m.method));
}

/**
 * Observes planned calls, at most `concurrency` at once, none started with less than MIN_CALL_MS of the
 * deadline left. Back-pressure: a LimitReached halves the concurrency and the call is retried (while other
 * calls of ours are in flight they hold the target's capacity, so only a refusal with none of ours running
 * counts against its attempts); a closed connection ends the calls not yet made. Observations in plan order.
 */
export async function observeWithin<C, O>(
  calls: readonly C[],
  o: { concurrency: number; deadline: number; enough?: () => string | undefined },
  observe: (call: C, index: number) => Promise<O>,
  unobservedAs: (call: C, outcome: 'not-started' | 'error', error: string) => O,
): Promise<O[]> {
  const { deadline } = o;
  const observations: (O | undefined)[] = new Array(calls.length);
  const queue = calls.map((call, index) => ({ call, index, attempts: 0 }));
  let concurrency = Math.max(1, o.concurrency);
  let running = 0;
  let closed: string | undefined;
  await new Promise<void>((resolveAll) => {
    const pump = () => {
      if (queue.length === 0 && running === 0) return resolveAll();
      const enough = o.enough?.();
      if (enough) closed ??= enough;
      while (running < concurrency && queue.length > 0 && !closed) {
        const item = queue.shift()!;
        if (deadline - Date.now() < MIN_CALL_MS) {
          observations[item.index] = unobservedAs(item.call, 'not-started', 'the discovery budget ran out first');
          continue;
        }
        running++;
        observe(item.call, item.index)
          .then((obs) => {
            observations[item.index] = obs;
          })
          .catch(async (e) => {
            if (e instanceof LimitReached) concurrency = Math.max(1, Math.floor(concurrency / 2));
            if (e instanceof LimitReached && (running > 1 || ++item.attempts < MAX_ATTEMPTS)) {
              await delay(Math.min(250 * Math.max(1, item.attempts), deadline - Date.now()));
              queue.unshift(item);
            } else {
              if (e instanceof WireClosedError) closed = e.message;
              observations[item.index] = unobservedAs(item.call, 'error', e instanceof Error ? e.message : String(e));
            }
          })
          .finally(() => {
            running--;
            pump();
          });
      }
      if (running === 0 && (queue.length === 0 || closed)) {
        for (const item of queue.splice(0)) observations[item.index] = unobservedAs(item.call, 'not-started', closed ?? 'not started');
        resolveAll();
      }
    };
    pump();
  });
  return observations.filter((x): x is O => x !== undefined);
}

/** Runs the plan against an initialized connection, within the budget, and picks a tool per role. */
export async function discover(peer: Peer, tools: any[], plan: DiscoveryPlan, settings: DiscoverySettings): Promise<DiscoveryResult> {
  const s = { ...DEFAULT_DISCOVERY, ...withoutUndefined(settings) };
  const started = Date.now();
  const deadline = started + s.budgetMs;
  const scope = peer.scope('discovery');
  // Input requests are answered "cancel": discovery only needs to see that the tool asks.
  const removeHandler = scope.onRequest((req) =>
    req.method === 'elicitation/create'
      ? { result: { action: 'cancel' } }
      : req.method === 'sampling/createMessage'
        ? { error: { code: -32601, message: 'discovery does not sample' } }
        : undefined,
  );
  let done: CallObservation[];
  // Discovery for the roles of a selection (a reproduction: --only): once every role it looks for is found, no
  // further tool is called and the calls under way stop being observed (their tasks are cancelled).
  const observed: CallObservation[] = [];
  let found: string | undefined;
  const enough = () => found;
  const settle = (obs: CallObservation) => {
    observed.push(obs);
    if (!settings.roles || found) return obs;
    const picked = pickRoles(tools, plan, observed, s.slowAfterMs).roles;
    if (plan.roles.every((r) => picked[r])) found = `not needed: every role sought (${plan.roles.join(', ')}) was found`;
    return obs;
  };
  try {
    done = await observeWithin(
      plan.calls,
      { concurrency: s.concurrency, deadline, enough },
      (call, index) => observeCall(call, { scope, peer, deadline, settings: s, token: `discovery-${index + 1}`, enough }).then(settle),
      unobserved,
    );
  } finally {
    removeHandler();
    scope.close();
  }
  attributeUnnamedInput(peer, done);
  const { roles, missing } = pickRoles(tools, plan, done, s.slowAfterMs);
  return {
    mode: settings.mode,
    budgetMs: s.budgetMs,
    elapsedMs: Date.now() - started,
    budgetExhausted: !found && (done.some((o) => o.outcome === 'not-started' || (o.outcome === 'working' && !o.slow)) || Date.now() >= deadline),
    plan,
    observations: done,
    roles,
    missing,
  };
}

function withoutUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

// --- classification ------------------------------------------------------------------------------

/** "working 3–2913 ms → completed 3014 ms": statuses seen, repeats folded, with ms since the call. */
export function statusPath(o: { statuses: readonly { status: string; atMs: number }[] }): string {
  const runs: { status: string; from: number; to: number }[] = [];
  for (const x of o.statuses) {
    const last = runs.at(-1);
    if (last?.status === x.status) last.to = x.atMs;
    else runs.push({ status: x.status, from: x.atMs, to: x.atMs });
  }
  return runs.map((r) => `${r.status} ${r.from === r.to ? r.from : `${r.from}–${r.to}`} ms`).join(' → ');
}
const argsText = (o: CallObservation) => JSON.stringify(o.arguments);
const ended = (o: CallObservation) => o.statuses.at(-1)?.atMs ?? o.elapsedMs;

/** Chooses a call per role from the observations (first by preference, then listing order) and says why roles stay empty. */
export function pickRoles(tools: any[], plan: DiscoveryPlan, observations: CallObservation[], slowAfterMs: number): Pick<DiscoveryResult, 'roles' | 'missing'> {
  const roles: DiscoveryResult['roles'] = {};
  const missing: DiscoveryResult['missing'] = {};
  const quick = (o: CallObservation) => ended(o) < slowAfterMs;
  const optionalFirst = (a: CallObservation, b: CallObservation) => Number(a.taskSupport !== 'optional') - Number(b.taskSupport !== 'optional');
  const pick = (pred: (o: CallObservation) => boolean, ...prefer: ((a: CallObservation, b: CallObservation) => number)[]) =>
    observations
      .map((o, i) => ({ o, i }))
      .filter(({ o }) => pred(o))
      .sort((a, b) => prefer.reduce((acc, f) => acc || f(a.o, b.o), 0) || a.i - b.i)[0]?.o;
  const asRole = (o: CallObservation, observed: string): DiscoveredRole => ({ name: o.tool, arguments: o.arguments, observed });
  const called = `discovery called ${[...new Set(plan.calls.map((c) => c.tool))].join(', ') || 'no tool'}`;
  const unsafe = plan.notCalled.length ? `; not called: ${plan.notCalled.map((n) => n.tool).join(', ')}` : '';
  const nothing = (what: string) => (plan.noCalls ? `discovery found no tool ${what}: ${plan.noCalls}` : `${called}${unsafe}, and none ${what}`);
  const want = new Set(plan.roles);

  const completes = pick(
    (o) => o.outcome === 'completed' && !o.isError,
    (a, b) => Number(!quick(a)) - Number(!quick(b)),
    optionalFirst,
  );
  if (completes)
    roles.completes = asRole(
      completes,
      `called as a task with ${argsText(completes)}: completed after ${ended(completes)} ms (${statusPath(completes)}), result without isError`,
    );
  else missing.completes = nothing('completed (without isError) within the observation time');

  // Prefer a slow tool seen to end (its checks need a task that ends) to one still working when observation stopped (it may run for minutes).
  const slow = pick(
    (o) => o.slow,
    (a, b) => Number(a.outcome === 'failed') - Number(b.outcome === 'failed'),
    (a, b) => Number(a.outcome === 'working') - Number(b.outcome === 'working'),
    optionalFirst,
  );
  if (slow)
    roles.slow = asRole(
      slow,
      `called as a task with ${argsText(slow)}: still working after ${slowAfterMs} ms (${statusPath(slow)})${slow.cancelled ? '; cancelled by discovery' : `; ended ${slow.outcome} after ${ended(slow)} ms`}`,
    );
  else missing.slow = nothing(`was still working ${slowAfterMs} ms after creation`);

  const fails = pick(
    (o) => o.outcome === 'failed' || (o.outcome === 'completed' && o.isError === true),
    (a, b) => Number(!quick(a)) - Number(!quick(b)),
  );
  if (fails)
    roles.fails = asRole(
      fails,
      `called as a task with ${argsText(fails)}: ${fails.outcome === 'failed' ? 'ended failed' : 'completed with isError: true'} after ${ended(fails)} ms (${statusPath(fails)})`,
    );
  else missing.fails = nothing('ended failed or with isError');

  const needsInput = pick((o) => o.outcome === 'input_required' || o.statuses.some((s) => s.status === 'input_required') || o.inputRequests.length > 0);
  if (needsInput) {
    const how = needsInput.statuses.some((s) => s.status === 'input_required')
      ? `went input_required (${statusPath(needsInput)})`
      : `sent ${needsInput.inputRequests.join(', ')}`;
    roles.needsInput = asRole(needsInput, `called as a task with ${argsText(needsInput)}: ${how}${needsInput.cancelled ? '; cancelled by discovery' : ''}`);
  } else missing.needsInput = nothing('went input_required or sent an input request');

  // progress, logs: a call that sent such notifications (for its progressToken, naming its task); one that completed first.
  const completedFirst = (a: CallObservation, b: CallObservation) => Number(a.outcome !== 'completed') - Number(b.outcome !== 'completed');
  const sender = (role: 'progress' | 'logs', count: (o: CallObservation) => number, sent: string, none: string) => {
    const o = pick((x) => count(x) > 0, completedFirst);
    if (o) roles[role] = asRole(o, `called as a task with ${argsText(o)}: sent ${count(o)} ${sent}; ended ${o.outcome}`);
    else missing[role] = nothing(none);
  };
  sender(
    'progress',
    (o) => o.progressNotifications,
    'notifications/progress for its progressToken',
    "sent notifications/progress for the request's progressToken",
  );
  sender(
    'logs',
    (o) => o.logNotifications ?? 0,
    'notifications/message naming its task',
    'sent notifications/message naming its task in related-task _meta (name a logging tool in --profile to judge one that omits it)',
  );

  // requiresTask: a tool listed with taskSupport "required" whose derived arguments created a task.
  // Checks wait for it to end: one that completed on its own first, one that asks for input last.
  const rank = (o: CallObservation) => (o.outcome === 'completed' && !o.isError ? 0 : o.outcome === 'input_required' || o.inputRequests.length ? 2 : 1);
  const requiresTask = pick(
    (o) => o.taskSupport === 'required' && o.taskId !== undefined,
    (a, b) => rank(a) - rank(b),
  );
  const requiredListed = tools.filter((t) => taskSupportOf(t) === 'required').map((t) => t.name);
  if (requiresTask)
    roles.requiresTask = asRole(
      requiresTask,
      `listed with taskSupport "required"; called as a task with ${argsText(requiresTask)} it created a task (${requiresTask.outcome})`,
    );
  else
    missing.requiresTask = requiredListed.length
      ? `${requiredListed.join(', ')} ${requiredListed.length > 1 ? 'are' : 'is'} listed with taskSupport "required", but discovery created no task with ${requiredListed.length > 1 ? 'them' : 'it'} (${plan.noCalls ?? 'not safe to call, or no valid arguments, or the call failed'})`
      : 'target lists no tool with taskSupport "required"';

  // forbidsTask: not called by discovery (the checks call it). Explicitly "forbidden" first, read-only first.
  const forbidsTask = forbidsTaskCandidate(tools, plan.mode);
  if (forbidsTask) roles.forbidsTask = forbidsTask;
  else if (plan.mode !== 'off')
    missing.forbidsTask = 'target lists no tool with taskSupport absent or "forbidden" that is safe to call with arguments derived from its inputSchema';

  for (const r of PROFILE_ROLES)
    if (!want.has(r)) {
      delete roles[r];
      delete missing[r];
    }
  return { roles, missing };
}

function forbidsTaskCandidate(tools: any[], mode: DiscoverMode): DiscoveredRole | undefined {
  const candidates = tools
    .map((t, i) => ({ t, i, support: taskSupportOf(t) }))
    .filter(({ t, support }) => (support === undefined || support === 'forbidden') && (mode === 'all' || toolSafety(t).safe))
    .sort(
      (a, b) =>
        Number(a.support !== 'forbidden') - Number(b.support !== 'forbidden') ||
        Number(a.t.annotations?.readOnlyHint !== true) - Number(b.t.annotations?.readOnlyHint !== true) ||
        a.i - b.i,
    );
  for (const { t, support } of candidates) {
    const derived = deriveArguments(t.inputSchema);
    if (derived.variants.length === 0) continue;
    return {
      name: t.name,
      arguments: derived.variants[0]!.arguments,
      observed: `listed with taskSupport ${support ? `"${support}"` : 'absent'}; ${toolSafety(t).reason}; arguments from its inputSchema (${derived.variants[0]!.label}); not called by discovery`,
    };
  }
  return undefined;
}

// --- profile -------------------------------------------------------------------------------------

/** A profile to keep (--write-profile): the roles in use, each with what was observed ("observed"). */
export function profileToKeep(profile: Profile, discovery: DiscoveryResult<unknown> | undefined, target: string): Record<string, unknown> {
  const tools: Record<string, unknown> = {};
  // The roles of either revision (a 2026-07-28 session's profile holds that revision's roles only).
  for (const role of ANY_REVISION_ROLES) {
    const t = profile.tools[role];
    if (!t) continue;
    const found = discovery?.roles[role];
    const fromDiscovery = found && found.name === t.name && JSON.stringify(found.arguments) === JSON.stringify(t.arguments ?? {});
    tools[role] = { name: t.name, arguments: t.arguments ?? {}, observed: fromDiscovery ? found.observed : 'named by the profile given' };
  }
  const missing = Object.entries(discovery?.missing ?? {}).map(([r, why]) => `${r}: ${why}`);
  return {
    $comment: [
      `Written by mcp-tasks-conformance discovery (--discover ${discovery?.mode ?? 'off'}) against ${target}. Review it, then pass it with --profile.`,
      ...(missing.length ? [`Roles not found: ${missing.join(' | ')}`] : []),
    ],
    tools,
  };
}

/** One revision's pre-flight as --write-profile reads it. */
export interface GradedRoles {
  revision: Revision;
  /** The roles resolved (TargetInfo.profile) and why the others are missing (TargetInfo.missingRoles). */
  info: Pick<TargetInfo, 'profile' | 'missingRoles'>;
  discovery?: DiscoveryResult<unknown>;
  /** The profile the run was given, as this revision reads it (profileFor). */
  given?: Profile;
}

/**
 * The profile --write-profile saves: a section per revision graded with every role it resolved (the tool, and what
 * discovery observed) and every role known to have no tool (discovery looked and found none, or the given profile
 * said so), so that a run with it looks for nothing. A role neither resolved nor known absent (discovery did not
 * look, the budget ran out before it, the profile names a tool the target does not list) is left out.
 */
export function profileToWrite(graded: readonly GradedRoles[], target: string): Record<string, unknown> {
  const revisions: Record<string, unknown> = {};
  const notes: string[] = [];
  for (const g of graded) {
    const { tools } = profileToKeep(g.info.profile, g.discovery, target) as { tools: Record<string, unknown> };
    const absent: Record<string, string> = {};
    for (const role of Object.keys(g.info.missingRoles) as ProfileRole[]) {
      const why = g.given?.absent?.[role] ?? g.discovery?.missing[role];
      if (why !== undefined && !tools[role]) absent[role] = why;
    }
    const unknown = (Object.keys(g.info.missingRoles) as ProfileRole[]).filter((r) => !absent[r] && !tools[r]);
    if (unknown.length) notes.push(`${g.revision}: roles not settled (discovery did not look for them; a later run will): ${unknown.join(', ')}`);
    revisions[g.revision] = { tools, absent };
  }
  const modes = [...new Set(graded.map((g) => g.discovery?.mode ?? 'off'))].join(', ');
  return {
    $comment: [
      `Written by mcp-tasks-conformance (--discover ${modes}) against ${target}: a section per revision graded, each role with its tool or, under "absent", why it has none. Review it, then pass it with --profile: the run looks for no role it settles.`,
      ...notes,
    ],
    revisions,
  };
}
