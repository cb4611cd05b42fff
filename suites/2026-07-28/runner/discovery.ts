// Discovery in revision 2026-07-28 (the Tasks extension): finds the roles of MODERN_PROFILE_ROLES a profile
// leaves out, by observation on the stateless wire, as suites/runner/discovery.ts does for 2025-11-25. Each
// tool judged safe (arrange/tool-safety.ts) is called with arguments derived from its inputSchema by a client
// declaring the extension; the server decides whether the answer is a task (2026-caps-server-may-create).
// MRTR rounds on the tools/call are answered (needsInputBeforeTask when a task follows); a task is polled
// with tasks/get and its inputRequests answered through tasks/update (one key: needsInput; two at once:
// needsTwoInputs; a second round: needsInputTwice); its end classifies it (completed: completes, or
// returnsIsError with isError; failed: failsWithError; still working after slowAfterMs: slow); what is still
// running when observation ends is cancelled. A tool whose task ended quickly is called once more by a client
// that does not declare the extension: -32021 makes it taskOnly. Against a server that does not advertise the
// extension a plain result without isError is `completes` (the negotiation checks need one); no other role can
// be found there. Bounded by the budget.
import { pollDelayMs } from '../../judge/pacing.ts';
import {
  isTaskStatus,
  isTerminal,
  ErrorCode,
  Field,
  Method,
  ResultType,
  REVISION,
  TASKS_EXTENSION,
  type TaskStatus,
} from '../../../schema/2026-07-28/protocol.ts';
import { MODERN_PROFILE_ROLES, type ModernProfileRole } from '../../engine/profile.ts';
import { deriveArguments } from '../../arrange/arguments.ts';
import { toolSafety } from '../../arrange/tool-safety.ts';
import { delay } from '../../arrange/poll.ts';
import { isObj } from '../../engine/text.ts';
import { WireClosedError, type Peer } from '../../wire/peer.ts';
import {
  DEFAULT_DISCOVERY,
  LimitReached,
  isLimitError,
  observeWithin,
  statusPath,
  type DiscoveredRole,
  type DiscoveryPlan,
  type DiscoveryResult,
  type DiscoverySettings,
  type PlannedCall,
} from '../../runner/discovery.ts';
import { answeredWithTask, answersFor } from '../arrange/tasks.ts';
import { CLIENT_CAPABILITIES, ModernPeer, ModernScope, type ModernResponse } from '../wire/peer.ts';

/** How a call ended: a task's last status seen, a plain result, an error, or not made. */
export type ModernOutcome = TaskStatus | 'plain' | 'error' | 'not-started';

export interface ModernCallObservation extends PlannedCall {
  outcome: ModernOutcome;
  /** InputRequiredResult answers to the tools/call (MRTR) before its last answer, each answered. */
  mrtrRounds: number;
  taskId?: string;
  /** Task statuses seen (the CreateTaskResult's first), with ms since the CreateTaskResult came in. */
  statuses: { status: TaskStatus; atMs: number }[];
  /** The new keys of each round of inputRequests the task showed, in order; each round answered with one tasks/update. */
  inputRounds: string[][];
  /** The result (a task's inlined result, or the plain one) had isError: true. */
  isError?: boolean;
  /** Still working `slowAfterMs` after its creation, never asking for input. */
  slow: boolean;
  /** tasks/cancel was sent for it (still running when observation ended). */
  cancelled: boolean;
  /** ms from the first tools/call to the end of observation. */
  elapsedMs: number;
  /** The same call by a client that does not declare the extension (made only for tasks that ended quickly without input). */
  nonDeclaring?: { errorCode?: number; resultType?: unknown };
  error?: string;
}

export type ModernDiscoveryResult = DiscoveryResult<ModernCallObservation> & { revision: typeof REVISION };

/** Is this the result of a 2026-07-28 discovery? */
export function isModernDiscovery(d: DiscoveryResult<unknown> | undefined): d is ModernDiscoveryResult {
  return d?.revision === REVISION;
}

const MAX_MRTR_ROUNDS = 4;
const MAX_INPUT_ROUNDS = 4;

/** Which tools discovery calls, with which arguments (printed before the run). No I/O. */
export function planModernDiscovery(tools: any[], settings: DiscoverySettings, roles: readonly ModernProfileRole[] = MODERN_PROFILE_ROLES): DiscoveryPlan {
  const plan: DiscoveryPlan = { mode: settings.mode, revision: REVISION, roles: [...roles], calls: [], notCalled: [] };
  if (settings.mode === 'off') return { ...plan, noCalls: 'discovery is off (--discover off)' };
  if (roles.length === 0) return { ...plan, noCalls: 'the profile names every role' };
  for (const tool of tools) {
    const safety = toolSafety(tool);
    if (settings.mode === 'safe' && !safety.safe) {
      plan.notCalled.push({ tool: tool?.name, reason: `not safe to call: ${safety.reason} (--discover all calls it)` });
      continue;
    }
    const derived = deriveArguments(tool?.inputSchema);
    if (derived.variants.length === 0) {
      plan.notCalled.push({ tool: tool?.name, reason: `no valid arguments could be derived from its inputSchema: ${derived.problems.join('; ')}` });
      continue;
    }
    for (const v of derived.variants)
      plan.calls.push({ tool: tool.name, arguments: v.arguments, label: v.label, ...(safety.safe ? {} : { unsafe: safety.reason }) });
  }
  if (plan.calls.length === 0) plan.noCalls = 'no tool is safe to call with derived arguments';
  return plan;
}

function unobserved(call: PlannedCall, outcome: ModernOutcome, error?: string): ModernCallObservation {
  return { ...call, outcome, mrtrRounds: 0, statuses: [], inputRounds: [], slow: false, cancelled: false, elapsedMs: 0, ...(error ? { error } : {}) };
}

interface ObserveContext {
  scope: ModernScope;
  deadline: number;
  settings: Required<Omit<DiscoverySettings, 'mode' | 'roles'>>;
}

const timeoutOf = (o: ObserveContext) => Math.max(1, Math.min(o.settings.requestTimeoutMs, o.deadline - Date.now()));
const errorText = (method: string, r: ModernResponse) => `${method} answered ${r.error!.code} ${r.error!.message}`;

/** A tools/call answered through its MRTR rounds (each answered as a well-behaved client would); the last answer. */
async function callThroughMrtr(call: PlannedCall, o: ObserveContext, obs: ModernCallObservation): Promise<ModernResponse> {
  let extra: Record<string, unknown> = {};
  for (;;) {
    const r = await o.scope.request(Method.ToolsCall, { name: call.tool, arguments: call.arguments, ...extra }, { timeoutMs: timeoutOf(o) });
    if (r.error && isLimitError(r.error)) throw new LimitReached(`${r.error.code} ${r.error.message}`);
    if (r.error || r.result?.[Field.resultType] !== ResultType.InputRequired || obs.mrtrRounds >= MAX_MRTR_ROUNDS) return r;
    obs.mrtrRounds++;
    const state = r.result.requestState;
    extra = { inputResponses: answersFor(r.result[Field.inputRequests]), ...(typeof state === 'string' ? { requestState: state } : {}) };
  }
}

async function observeCall(call: PlannedCall, o: ObserveContext): Promise<ModernCallObservation> {
  const obs = unobserved(call, 'not-started');
  const sent = Date.now();
  try {
    const r = await callThroughMrtr(call, o, obs);
    if (r.error) return Object.assign(obs, { outcome: 'error', error: errorText('tools/call', r) });
    const res = r.result;
    if (res?.[Field.resultType] === ResultType.InputRequired)
      return Object.assign(obs, { outcome: 'error', error: `tools/call still asked for input after ${obs.mrtrRounds} MRTR round(s)` });
    if (!answeredWithTask(res) || typeof res?.[Field.taskId] !== 'string') return Object.assign(obs, { outcome: 'plain', isError: res?.isError === true });
    const taskId = res[Field.taskId] as string;
    obs.taskId = taskId;
    const created = Date.now();
    const seen = (t: any) => isTaskStatus(t?.[Field.status]) && obs.statuses.push({ status: t[Field.status], atMs: Date.now() - created });
    let last: any = res;
    seen(last);
    const answered = new Set<string>();
    const stopAt = Math.min(o.deadline, created + o.settings.observeMs);
    while (!isTerminal(last?.[Field.status])) {
      const requests = last?.[Field.status] === 'input_required' && isObj(last[Field.inputRequests]) ? last[Field.inputRequests] : {};
      const fresh = Object.keys(requests).filter((k) => !answered.has(k));
      if (fresh.length && obs.inputRounds.length >= MAX_INPUT_ROUNDS) break;
      if (fresh.length) {
        obs.inputRounds.push(fresh);
        fresh.forEach((k) => answered.add(k));
        const answers = answersFor(Object.fromEntries(fresh.map((k) => [k, requests[k]])));
        const u = await o.scope.request(Method.TasksUpdate, { taskId, inputResponses: answers }, { timeoutMs: timeoutOf(o) });
        if (u.error) {
          obs.error = errorText('tasks/update', u);
          break;
        }
      }
      // The task's pollIntervalMs, never sooner (2026-poll-respect-interval): observeMs bounds how long, not how fast.
      const wait = pollDelayMs(last?.[Field.pollIntervalMs]);
      if (Date.now() + wait >= stopAt) break;
      await delay(wait);
      const g = await o.scope.request(Method.TasksGet, { taskId }, { timeoutMs: timeoutOf(o) });
      if (g.error) {
        obs.error = errorText('tasks/get', g);
        break;
      }
      last = g.result;
      seen(last);
    }
    const final = obs.statuses.at(-1)?.status;
    obs.outcome = obs.error ? 'error' : (final ?? 'error');
    if (final === 'completed') obs.isError = isObj(last?.[Field.result]) && last[Field.result].isError === true;
    obs.slow =
      obs.statuses.some((s) => s.status === 'working' && s.atMs >= o.settings.slowAfterMs) &&
      !obs.statuses.some((s) => s.status === 'input_required') &&
      obs.inputRounds.length === 0;
    if (!final || !isTerminal(final)) {
      obs.cancelled = true;
      await o.scope.request(Method.TasksCancel, { taskId }, { timeoutMs: Math.min(2_000, o.settings.requestTimeoutMs) }).catch(() => undefined);
    }
  } catch (e) {
    if (e instanceof LimitReached || e instanceof WireClosedError) throw e;
    if (!obs.taskId) obs.outcome = 'error';
    obs.error = e instanceof Error ? e.message : String(e);
    if (obs.taskId) {
      obs.cancelled = true;
      await o.scope.request(Method.TasksCancel, { taskId: obs.taskId }, { timeoutMs: 2_000 }).catch(() => undefined);
    }
  } finally {
    obs.elapsedMs = Date.now() - sent;
  }
  return obs;
}

const endedAt = (o: ModernCallObservation) => o.statuses.at(-1)?.atMs ?? o.elapsedMs;
const workingFor = (o: ModernCallObservation) => Math.max(0, ...o.statuses.filter((s) => s.status === 'working').map((s) => s.atMs));
const plainTask = (o: ModernCallObservation) => o.taskId !== undefined && o.mrtrRounds === 0 && o.inputRounds.length === 0;

/** The tools/call of a client that does not declare the extension, for the tasks that ended quickly with nothing asked (the taskOnly role). */
async function probeNonDeclaring(observations: ModernCallObservation[], o: ObserveContext): Promise<void> {
  const candidates = observations.filter((x) => plainTask(x) && (x.outcome === 'completed' || x.outcome === 'failed') && endedAt(x) < o.settings.slowAfterMs);
  await Promise.all(
    candidates.map(async (x) => {
      if (o.deadline - Date.now() < 250) return;
      try {
        const r = await o.scope.request(
          Method.ToolsCall,
          { name: x.tool, arguments: x.arguments },
          { capabilities: CLIENT_CAPABILITIES.nonDeclaring, timeoutMs: timeoutOf(o) },
        );
        x.nonDeclaring = r.error ? { errorCode: r.error.code } : { resultType: r.result?.[Field.resultType] };
      } catch (e) {
        x.nonDeclaring = {};
        x.error ??= `the call of a non-declaring client: ${e instanceof Error ? e.message : String(e)}`;
      }
    }),
  );
}

/**
 * Runs the plan on the shared connection (a scope of its own), within the budget, and picks a tool per role.
 * `extension`: the target's server/discover advertises the Tasks extension.
 */
export async function discoverModern(peer: Peer, plan: DiscoveryPlan, extension: boolean, settings: DiscoverySettings): Promise<ModernDiscoveryResult> {
  const s = { ...DEFAULT_DISCOVERY, ...Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined)) } as ObserveContext['settings'] &
    DiscoverySettings;
  const started = Date.now();
  const deadline = started + s.budgetMs;
  const connection = ModernPeer.of(peer);
  if (!connection) throw new Error(`${peer.label}: not a 2026-07-28 connection`);
  const scope = peer.scope('discovery');
  const o: ObserveContext = { scope: new ModernScope(connection, scope), deadline, settings: s };
  let done: ModernCallObservation[];
  try {
    done = await observeWithin(plan.calls, { concurrency: s.concurrency, deadline }, (call) => observeCall(call, o), unobserved);
    if (extension) await probeNonDeclaring(done, o);
  } finally {
    scope.close();
  }
  const { roles, missing } = pickModernRoles(plan, done, extension, s.slowAfterMs);
  return {
    mode: settings.mode,
    revision: REVISION,
    budgetMs: s.budgetMs,
    elapsedMs: Date.now() - started,
    budgetExhausted: done.some((x) => x.outcome === 'not-started' || (x.outcome === 'working' && !x.slow)) || Date.now() >= deadline,
    plan,
    observations: done,
    roles,
    missing,
  };
}

/** Chooses a call per role from the observations (first by preference, then plan order) and says why roles stay empty. */
export function pickModernRoles(
  plan: DiscoveryPlan,
  observations: ModernCallObservation[],
  extension: boolean,
  slowAfterMs: number,
): Pick<DiscoveryResult, 'roles' | 'missing'> {
  const roles: DiscoveryResult['roles'] = {};
  const missing: DiscoveryResult['missing'] = {};
  type Prefer = (a: ModernCallObservation, b: ModernCallObservation) => number;
  const pick = (pred: (o: ModernCallObservation) => boolean, ...prefer: Prefer[]) =>
    observations
      .map((o, i) => ({ o, i }))
      .filter(({ o }) => pred(o))
      .sort((a, b) => prefer.reduce((acc, f) => acc || f(a.o, b.o), 0) || a.i - b.i)[0]?.o;
  const first =
    (...preds: ((o: ModernCallObservation) => boolean)[]): Prefer =>
    (a, b) => {
      for (const p of preds) if (p(a) !== p(b)) return p(a) ? -1 : 1;
      return 0;
    };
  const quick = (o: ModernCallObservation) => o.statuses.length > 0 && endedAt(o) < slowAfterMs;
  const args = (o: ModernCallObservation) => JSON.stringify(o.arguments);
  const how = (o: ModernCallObservation) =>
    `called with ${args(o)} by a client declaring ${TASKS_EXTENSION}${o.mrtrRounds ? ` (${o.mrtrRounds} MRTR round(s) answered)` : ''}`;
  const task = (o: ModernCallObservation) =>
    `${how(o)}: task ${statusPath(o)}${o.inputRounds.length ? `, input answered in ${o.inputRounds.length} round(s) of ${o.inputRounds.map((r) => r.length).join(', ')} key(s)` : ''}${o.cancelled ? '; cancelled by discovery' : ''}`;
  const set = (role: ModernProfileRole, o: ModernCallObservation | undefined, observed: (o: ModernCallObservation) => string, none: string) => {
    if (o) roles[role] = { name: o.tool, arguments: o.arguments, observed: observed(o) } satisfies DiscoveredRole;
    else missing[role] = none;
  };
  const called = `discovery called ${[...new Set(plan.calls.map((c) => c.tool))].join(', ') || 'no tool'}`;
  const notCalled = plan.notCalled.length ? `; not called: ${plan.notCalled.map((n) => n.tool).join(', ')}` : '';
  const nothing = (what: string) =>
    plan.noCalls
      ? `discovery found no tool ${what}: ${plan.noCalls}`
      : !extension
        ? `the target's server/discover does not advertise ${TASKS_EXTENSION}, so no tool answers with a task (${called}${notCalled})`
        : `${called}${notCalled}, and none ${what}`;

  const completedClean = (o: ModernCallObservation) => o.outcome === 'completed' && !o.isError && o.inputRounds.length === 0;
  // A task that completed (quickly, needing nothing) first; against a server without the extension, or one
  // that answered the calls plainly, a plain result without isError; the task-only tool last (the negotiation
  // checks call the completes tool as a non-declaring client too).
  const onlyAsTask = (o: ModernCallObservation) => o.nonDeclaring?.errorCode === ErrorCode.MissingRequiredClientCapability;
  const completes =
    pick(
      (o) => completedClean(o) && !onlyAsTask(o),
      first(quick, (o) => o.mrtrRounds === 0),
    ) ??
    pick(
      (o) => o.outcome === 'plain' && !o.isError,
      first((o) => o.mrtrRounds === 0),
    ) ??
    pick(completedClean, first(quick));
  set(
    'completes',
    completes,
    (o) =>
      o.outcome === 'plain' ? `${how(o)}: answered with a plain result without isError (the server chose no task)` : `${task(o)}, result without isError`,
    extension ? nothing('completed without isError') : `${called}${notCalled}, and none answered with a result without isError`,
  );
  if (!extension) {
    for (const r of MODERN_PROFILE_ROLES) if (r !== 'completes') missing[r] = nothing('');
  } else {
    set(
      'slow',
      pick(
        (o) => o.slow,
        first(
          (o) => o.outcome !== 'failed',
          (o) => o.outcome !== 'working',
        ),
        // The one seen working the longest (a quick tool seen late on a stalled machine is not the slow one).
        (a, b) => workingFor(b) - workingFor(a),
      ),
      task,
      nothing(`was still working ${slowAfterMs} ms after its task was created`),
    );
    set(
      'failsWithError',
      pick((o) => o.outcome === 'failed', first(quick, plainTask)),
      task,
      nothing('ended failed'),
    );
    set(
      'returnsIsError',
      pick((o) => o.outcome === 'completed' && o.isError === true, first(quick, plainTask)),
      (o) => `${task(o)}, result with isError: true`,
      nothing('completed with isError: true'),
    );
    const ended = (o: ModernCallObservation) => o.outcome === 'completed' || o.outcome === 'failed';
    set(
      'needsInput',
      pick(
        (o) => o.inputRounds[0]?.length === 1,
        first(
          (o) => o.inputRounds.length === 1 && ended(o),
          (o) => o.inputRounds.length === 1,
        ),
      ),
      task,
      nothing('showed input_required with one inputRequests key'),
    );
    set(
      'needsTwoInputs',
      pick((o) => (o.inputRounds[0]?.length ?? 0) >= 2, first(ended)),
      task,
      nothing('showed input_required with two inputRequests keys at once'),
    );
    set(
      'needsInputTwice',
      pick((o) => o.inputRounds.length >= 2, first(ended)),
      task,
      nothing('asked for input again (a new key) once its first input was answered'),
    );
    set(
      'needsInputBeforeTask',
      pick((o) => o.mrtrRounds > 0 && o.taskId !== undefined, first(ended)),
      task,
      nothing('asked for input through MRTR on the tools/call and then answered with a task'),
    );
    set(
      'taskOnly',
      pick(onlyAsTask, first(quick)),
      (o) => `${task(o)}; called by a client not declaring ${TASKS_EXTENSION} it answered ${ErrorCode.MissingRequiredClientCapability}`,
      nothing(
        `answered ${ErrorCode.MissingRequiredClientCapability} to a client not declaring the extension (only tasks that ended within ${slowAfterMs} ms without input are tried)`,
      ),
    );
  }
  const want = new Set(plan.roles);
  for (const r of MODERN_PROFILE_ROLES)
    if (!want.has(r)) {
      delete roles[r];
      delete missing[r];
    }
  return { roles, missing };
}
