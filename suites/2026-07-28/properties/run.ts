// Property runs of 2026-07-28 (fast-check) against a server with the Tasks extension, judged by the model
// (model.ts next to this file):
//  - state machine: sequences of commands on one connection (create a task for a role, tasks/get, answer the
//    outstanding inputRequests in full or in part, answer a stray key, tasks/cancel, wait) — every answer fits
//    the model;
//  - races: one task and overlapping tasks/get, tasks/update, tasks/cancel whose sends a fast-check scheduler
//    releases in an order of its choosing (update vs cancel, cancel vs completion); only "a's answer arrived
//    before b was sent" orders them;
//  - hostile input: taskIds of every JSON type for tasks/get (-32602), inputResponses of any shape for a
//    task waiting for input (no crash: an error or an ack, and the task stays legal); the server keeps serving.
import fc from 'fast-check';
import type { ModernProfileRole } from '../../engine/profile.ts';
import type { ProfileTool } from '../../engine/profile.ts';
import { ErrorCode, Field, isTaskStatus, isTerminal, Method, ResultType, type TaskStatus } from '../../../schema/2026-07-28/protocol.ts';
import type { ModernScope } from '../wire/peer.ts';
import type { TranscriptEntry } from '../../wire/peer.ts';
import { answersFor } from '../arrange/tasks.ts';
import { ExtensionModel, ModelViolation, type TaskState } from './model.ts';

export interface PropertyTarget {
  /** The connection the runs speak on (declaring the extension by default). */
  scope: ModernScope;
  /** Tools for the roles the runs play (completes, slow, failsWithError, returnsIsError, needsInput, needsTwoInputs). */
  tools: Partial<Record<ModernProfileRole, ProfileTool>>;
}

/** The property runs of this revision (their check ids: `2026-properties.<name>`). */
export const MODERN_PROPERTY_NAMES = ['state-machine', 'races', 'hostile-input'] as const;
export type ModernPropertyName = (typeof MODERN_PROPERTY_NAMES)[number];

export interface PropertyOptions {
  runs: number;
  /** Inputs of the hostile-input property (default `runs`). */
  hostileRuns?: number;
  seed?: number;
  /** Longest a run waits for one task to move (ms). */
  settleMs?: number;
  /** Which properties to run (default all). */
  only?: readonly ModernPropertyName[];
  /** fast-check path of one counterexample to replay (with `seed` and one property in `only`). */
  path?: string;
  /** Time limit per property (ms); an interrupted property says so (`interrupted`), it is no pass. */
  timeoutMs?: number;
}

export interface PropertyOutcome {
  name: ModernPropertyName;
  ok: boolean;
  /** The counterexample and the model's verdict, when falsified. */
  message: string;
  seed: number;
  runs: number;
  numShrinks: number;
  /** The time limit ended the run (or its shrinking). */
  interrupted: boolean;
  /** fast-check path of the counterexample (for a replay). */
  path?: string;
  /** fast-check's rendering of the counterexample. */
  counterexample?: string;
  /** What falsified it: a ModelViolation (with its requirement ids), or an error of the run itself. */
  error?: unknown;
  /** The exchange of the last failing run (the shrunk counterexample), from the connection's transcript. */
  transcript?: TranscriptEntry[];
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** How long after the end the tasks are polled again (longer than the reference tools' run times in the tests). */
const LINGER_MS = 450;
const ROLES: readonly ModernProfileRole[] = ['completes', 'slow', 'failsWithError', 'returnsIsError', 'needsInput', 'needsTwoInputs'];

/** A tools/call of a role; the task it started (or undefined: the server answered without one, its choice). */
async function start(target: PropertyTarget, model: ExtensionModel, role: ModernProfileRole): Promise<TaskState | undefined> {
  const tool = target.tools[role]!;
  const r = await target.scope.request(Method.ToolsCall, { name: tool.name, arguments: tool.arguments ?? {} });
  if (r.error || r.result?.[Field.resultType] !== ResultType.Task) return undefined;
  return model.created(role, r.result);
}

/** The latest observed status of a task. */
const lastOf = (t: TaskState): TaskStatus | undefined => t.statuses[t.statuses.length - 1];

async function get(target: PropertyTarget, model: ExtensionModel, t: TaskState): Promise<Record<string, any> | undefined> {
  const after = lastOf(t);
  const r = await target.scope.request(Method.TasksGet, { taskId: t.taskId });
  // A rate limit (an error with retryAfterMs) is no verdict (RULINGS.md#ext-rate-limit-error-open).
  if (r.error && typeof (r.error.data as any)?.retryAfterMs === 'number') return undefined;
  model.observedGet(t, r, after);
  return r.result;
}

type Command =
  | { kind: 'create'; role: ModernProfileRole }
  | { kind: 'get'; pick: number }
  | { kind: 'answer'; pick: number; part: 'all' | 'one' | 'stray' }
  | { kind: 'cancel'; pick: number }
  | { kind: 'wait'; ms: number };

const commandArb = (roles: readonly ModernProfileRole[]): fc.Arbitrary<Command> =>
  fc.oneof(
    fc.record({ kind: fc.constant('create' as const), role: fc.constantFrom(...roles) }),
    fc.record({ kind: fc.constant('get' as const), pick: fc.nat(7) }),
    fc.record({ kind: fc.constant('answer' as const), pick: fc.nat(7), part: fc.constantFrom('all' as const, 'one' as const, 'stray' as const) }),
    fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat(7) }),
    fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 10, max: 150 }) }),
  );

async function runCommands(target: PropertyTarget, cmds: readonly Command[]): Promise<void> {
  const model = new ExtensionModel();
  const live: TaskState[] = [];
  const pick = (n: number) => (live.length ? live[n % live.length] : undefined);
  const current = new Map<string, Record<string, any>>();
  for (const c of cmds) {
    if (c.kind === 'create') {
      const t = await start(target, model, c.role);
      if (t) live.push(t);
    } else if (c.kind === 'wait') await pause(c.ms);
    else {
      const t = pick(c.pick);
      if (!t) continue;
      if (c.kind === 'get') {
        const r = await get(target, model, t);
        if (r) current.set(t.taskId, r);
      } else if (c.kind === 'cancel') {
        t.cancelRequested = true;
        model.observedAck(t, 'tasks/cancel', await target.scope.request(Method.TasksCancel, { taskId: t.taskId }));
      } else {
        const seen = current.get(t.taskId);
        const all = answersFor(seen?.[Field.inputRequests], 'property');
        const keys = Object.keys(all);
        const chosen =
          c.part === 'stray'
            ? { [`stray-${t.statuses.length}-${Math.random().toString(36).slice(2)}`]: { action: 'accept', content: { answer: 'x' } } }
            : c.part === 'one'
              ? Object.fromEntries(keys.slice(0, 1).map((k) => [k, all[k]]))
              : all;
        if (!Object.keys(chosen).length) continue;
        const r = await target.scope.request(Method.TasksUpdate, { taskId: t.taskId, inputResponses: chosen });
        model.observedAck(t, 'tasks/update', r, c.part === 'stray' ? [] : Object.keys(chosen));
      }
    }
  }
  // The end: every task still running is watched to its end (bounded) and cancelled if it does not get there.
  for (const t of live) {
    for (let i = 0; i < 40 && !t.gone && !isTerminal(lastOf(t) ?? 'working'); i++) {
      const r = await get(target, model, t);
      if (r?.[Field.status] === 'input_required') {
        const answers = answersFor(r[Field.inputRequests], 'property');
        model.observedAck(
          t,
          'tasks/update',
          await target.scope.request(Method.TasksUpdate, { taskId: t.taskId, inputResponses: answers }),
          Object.keys(answers),
        );
      }
      await pause(25);
    }
    if (!isTerminal(lastOf(t) ?? 'working')) await target.scope.request(Method.TasksCancel, { taskId: t.taskId }).catch(() => undefined);
  }
  await linger(target, model, live);
}

/** Terminal statuses are final: a while after the end, every task is polled twice more. */
async function linger(target: PropertyTarget, model: ExtensionModel, tasks: readonly TaskState[]): Promise<void> {
  if (!tasks.some((t) => !t.gone)) return;
  await pause(LINGER_MS);
  for (const t of tasks) for (let i = 0; i < 2 && !t.gone; i++) await get(target, model, t);
}

/** One race: a task, then get/update/cancel actors released by the scheduler; checked against the model with the answer/send order. */
async function runRace(target: PropertyTarget, s: fc.Scheduler, role: ModernProfileRole, actors: readonly ('get' | 'update' | 'cancel')[]): Promise<void> {
  const model = new ExtensionModel();
  const t = await start(target, model, role);
  if (!t) return;
  // Let an input task ask first, so that an update has keys to answer.
  let seen: Record<string, any> | undefined;
  for (let i = 0; i < 20 && (role === 'needsInput' || role === 'needsTwoInputs'); i++) {
    seen = await get(target, model, t);
    if (seen?.[Field.status] === 'input_required' || isTerminal(seen?.[Field.status])) break;
    await pause(20);
  }
  // Observations with their send and answer times (a's answer before b's send orders a before b).
  const done: { sent: number; answered: number; status?: TaskStatus }[] = [];
  const statusBefore = (sent: number): TaskStatus | undefined => {
    const prior = done.filter((d) => d.answered < sent && d.status);
    return prior.length ? prior.reduce((a, b) => (b.answered > a.answered ? b : a)).status : lastOf(t);
  };
  const act = async (a: 'get' | 'update' | 'cancel') => {
    const sent = Date.now();
    if (a === 'cancel') {
      t.cancelRequested = true;
      const r = await target.scope.request(Method.TasksCancel, { taskId: t.taskId });
      model.observedAck(t, 'tasks/cancel', r);
      done.push({ sent, answered: Date.now() });
    } else if (a === 'update') {
      const answers = answersFor(seen?.[Field.inputRequests], 'race');
      const r = await target.scope.request(Method.TasksUpdate, { taskId: t.taskId, inputResponses: answers });
      model.observedAck(t, 'tasks/update', r, Object.keys(answers));
      done.push({ sent, answered: Date.now() });
    } else {
      const after = statusBefore(sent);
      const r = await target.scope.request(Method.TasksGet, { taskId: t.taskId });
      if (r.error && typeof (r.error.data as any)?.retryAfterMs === 'number') return;
      model.observedGet(t, r, after);
      done.push({ sent, answered: Date.now(), status: isTaskStatus(r.result?.[Field.status]) ? r.result[Field.status] : undefined });
    }
  };
  await Promise.all(actors.map((a) => s.schedule(Promise.resolve(a), a).then(act)).concat([s.waitAll()]));
  // After the dust settles: the task ends legally (watched, bounded).
  for (let i = 0; i < 40 && !t.gone && !isTerminal(lastOf(t) ?? 'working'); i++) {
    const r = await get(target, model, t);
    if (r?.[Field.status] === 'input_required') {
      const answers = answersFor(r[Field.inputRequests], 'settle');
      model.observedAck(t, 'tasks/update', await target.scope.request(Method.TasksUpdate, { taskId: t.taskId, inputResponses: answers }), Object.keys(answers));
    }
    await pause(25);
  }
  if (!isTerminal(lastOf(t) ?? 'working')) await target.scope.request(Method.TasksCancel, { taskId: t.taskId }).catch(() => undefined);
  await linger(target, model, [t]);
}

/** Hostile taskIds for tasks/get, and hostile inputResponses for a task waiting for input. */
async function runHostile(target: PropertyTarget, taskId: unknown, responses: unknown): Promise<void> {
  const model = new ExtensionModel();
  const r = await target.scope.request(Method.TasksGet, { taskId });
  // Over Streamable HTTP a taskId that cannot be an Mcp-Name header leaves the header out: -32020 is a right answer too.
  const headerless = target.scope.transportKind === 'http' && typeof taskId !== 'string';
  if (!(headerless && r.error?.code === ErrorCode.HeaderMismatch)) model.observedUnknown(`taskId ${JSON.stringify(taskId)?.slice(0, 60)}`, r);
  if (target.tools.needsInput) {
    const t = await start(target, model, 'needsInput');
    if (t) {
      await target.scope.request(Method.TasksUpdate, { taskId: t.taskId, inputResponses: responses });
      await get(target, model, t);
      await target.scope.request(Method.TasksCancel, { taskId: t.taskId });
    }
  }
  // Still serving: a plain request is answered.
  const d = await target.scope.discover();
  if (d.error && d.error.code === undefined) throw new ModelViolation(['2026-errors-get-unknown-32602'], 'the server stopped answering after hostile input');
}

/** The roles the property runs play that the target has tools for (none: the runs cannot be made). */
export function propertyRoles(tools: PropertyTarget['tools']): ModernProfileRole[] {
  return ROLES.filter((r) => tools[r]);
}

/** Runs the properties (all, or `only`); each outcome carries the seed and path to replay it. */
export async function runExtensionProperties(target: PropertyTarget, opts: PropertyOptions): Promise<PropertyOutcome[]> {
  const roles = propertyRoles(target.tools);
  const seed = opts.seed ?? Math.floor(Math.random() * 2 ** 31);
  const peer = target.scope.peer;
  type Traced = <A extends unknown[]>(predicate: (...a: A) => Promise<void>) => (...a: A) => Promise<void>;
  const outcome = async (name: ModernPropertyName, numRuns: number, prop: (traced: Traced) => fc.IAsyncProperty<any>): Promise<PropertyOutcome> => {
    // A failing run keeps its error and its exchange: the transcript from where it stood when the run began (the runs are one after the other).
    let failure: { error: unknown; transcript: TranscriptEntry[] } | undefined;
    const traced: Traced =
      (predicate) =>
      async (...a) => {
        const from = peer.transcript.length;
        try {
          await predicate(...a);
        } catch (e) {
          failure = { error: e, transcript: peer.transcript.slice(from) };
          throw e;
        }
      };
    const d = await fc.check(prop(traced), {
      numRuns: opts.path ? 1 : numRuns,
      seed,
      ...(opts.path ? { path: opts.path } : {}),
      endOnFailure: true,
      ...(opts.timeoutMs ? { interruptAfterTimeLimit: opts.timeoutMs } : {}),
    });
    const error = failure?.error ?? d.errorInstance;
    const message = d.failed
      ? `${error instanceof Error ? error.message : String(error)}\ncounterexample: ${fc.stringify(d.counterexample)}\nseed ${seed}, path ${d.counterexamplePath}`
      : `${d.numRuns} runs`;
    return {
      name,
      ok: !d.failed,
      message,
      seed,
      runs: d.numRuns,
      numShrinks: d.numShrinks,
      interrupted: d.interrupted,
      ...(d.failed
        ? {
            error,
            ...(d.counterexamplePath ? { path: d.counterexamplePath } : {}),
            ...(d.counterexample ? { counterexample: fc.stringify(d.counterexample) } : {}),
            ...(failure ? { transcript: failure.transcript } : {}),
          }
        : {}),
    };
  };
  if (!roles.length) return [];
  const raceRoles = roles.filter((r) => r !== 'failsWithError' && r !== 'returnsIsError');
  const wanted = (n: ModernPropertyName) => !opts.only || opts.only.includes(n);
  const out: PropertyOutcome[] = [];
  if (wanted('state-machine'))
    out.push(
      await outcome('state-machine', opts.runs, (traced) =>
        fc.asyncProperty(
          fc.array(commandArb(roles), { minLength: 1, maxLength: 12 }),
          traced((cmds: Command[]) => runCommands(target, cmds)),
        ),
      ),
    );
  if (wanted('races'))
    out.push(
      await outcome('races', opts.runs, (traced) =>
        fc.asyncProperty(
          fc.scheduler(),
          fc.constantFrom(...(raceRoles.length ? raceRoles : roles)),
          fc.array(fc.constantFrom('get' as const, 'update' as const, 'cancel' as const), { minLength: 2, maxLength: 5 }),
          traced((s: fc.Scheduler, role: ModernProfileRole, actors: ('get' | 'update' | 'cancel')[]) => runRace(target, s, role, actors)),
        ),
      ),
    );
  if (wanted('hostile-input'))
    out.push(
      await outcome('hostile-input', opts.hostileRuns ?? opts.runs, (traced) =>
        fc.asyncProperty(
          fc.oneof(fc.jsonValue(), fc.string({ maxLength: 300 }), fc.constant(undefined)),
          fc.oneof(fc.jsonValue(), fc.dictionary(fc.string({ maxLength: 20 }), fc.jsonValue())),
          traced((taskId: unknown, responses: unknown) => runHostile(target, taskId, responses)),
        ),
      ),
    );
  return out;
}
