// The races property: overlapping requests about one task, their sends (and our answer to an input
// request) released in an order chosen by fc.scheduler(), checked with the linearizability-lite oracle
// (checkHistory). Scenarios: cancel vs completion, cancel vs expiry, tasks/result blocked while a
// cancel arrives, input answer vs cancel, and (without tasks/cancel) get/result bursts.
//
// On the in-process reference receiver the tool run times are set per call (`ms`), so completion,
// expiry and cancel really interleave; on other targets the profile's arguments are used and the
// oracle still checks that the answers fit some sequential order of a conforming receiver.
import fc from 'fast-check';
import { WireTimeoutError, type Peer } from '../wire/peer.ts';
import { isTerminal, isTaskStatus, RELATED_TASK_META } from '../../schema/protocol.ts';
import { type ProfileRole } from '../engine/profile.ts';
import { describeAnswer, hasRelatedTask, PropertyViolation, relatedTaskId, short } from './model.ts';
import { checkHistory, type Op } from './history.ts';
import { Clock, createParams, delay, type Lease, type PropertyEnv } from './env.ts';
import { afterTerminalBoundMs, pollDelayMs } from '../judge/pacing.ts';

export const RACES_REQUIREMENTS = [
  'lifecycle-valid-paths',
  'lifecycle-terminal-sticky',
  'cancel-transition-before-response',
  'cancel-sticky',
  'cancel-terminal-32602',
  'result-blocks-nonterminal',
  'result-terminal-returns-final',
  'result-exact',
  'related-task-result-must',
  'ttl-delete-after-expiry-may',
  'input-required-related-task',
  'create-returns-createtaskresult',
];

/** How long the final phase keeps watching a task whose natural run time is unknown (ms). */
const LINGER_MS = 250;

export type ScenarioName = 'cancel-vs-completion' | 'cancel-vs-expiry' | 'result-blocked-vs-cancel' | 'input-vs-cancel' | 'burst';

export interface Actor {
  method: 'tasks/get' | 'tasks/result' | 'tasks/cancel';
  /** Real time to wait before the actor queues its send with the scheduler. */
  afterMs: number;
}

export interface Scenario {
  name: ScenarioName;
  role: ProfileRole;
  /** Tool run time (reference receiver only). */
  ms?: number;
  ttl?: number;
  actors: Actor[];
}

const ROLE_PREFERENCE: Record<ScenarioName, ProfileRole[]> = {
  'cancel-vs-completion': ['completes', 'requiresTask', 'fails', 'progress'],
  'cancel-vs-expiry': ['slow', 'completes', 'requiresTask'],
  'result-blocked-vs-cancel': ['slow', 'progress', 'completes', 'requiresTask'],
  'input-vs-cancel': ['needsInput'],
  burst: ['completes', 'requiresTask', 'fails', 'slow'],
};

/** The scenarios a target can play, as arbitraries. */
export function scenarioArbitraries(env: PropertyEnv): fc.Arbitrary<Scenario>[] {
  const pick = (n: ScenarioName) => ROLE_PREFERENCE[n].find((r) => env.roles.includes(r));
  const gets = (max: number) =>
    fc.array(
      fc.integer({ min: 0, max }).map((afterMs) => ({ method: 'tasks/get' as const, afterMs })),
      { minLength: 1, maxLength: 3 },
    );
  const one = (method: Actor['method'], max: number) => fc.integer({ min: 0, max }).map((afterMs) => [{ method, afterMs }]);
  const out: fc.Arbitrary<Scenario>[] = [];
  const add = (name: ScenarioName, build: (role: ProfileRole) => fc.Arbitrary<Scenario>, needsCancel = true) => {
    const role = pick(name);
    if (role && (!needsCancel || env.caps.cancel)) out.push(build(role));
  };
  add('cancel-vs-completion', (role) =>
    fc
      .tuple(fc.integer({ min: 0, max: 25 }), one('tasks/cancel', 30), gets(40), fc.option(one('tasks/result', 20), { nil: [] as Actor[] }))
      .map(([ms, c, g, r]) => ({ name: 'cancel-vs-completion' as const, role, ms, actors: [...c, ...g, ...r] })),
  );
  add('cancel-vs-expiry', (role) =>
    fc
      .tuple(fc.integer({ min: 0, max: 40 }), one('tasks/cancel', 50), gets(60), fc.option(one('tasks/result', 30), { nil: [] as Actor[] }))
      .map(([ttl, c, g, r]) => ({ name: 'cancel-vs-expiry' as const, role, ms: 90, ttl, actors: [...c, ...g, ...r] })),
  );
  add('result-blocked-vs-cancel', (role) =>
    fc
      .tuple(one('tasks/result', 10), one('tasks/cancel', 60), gets(80))
      .map(([r, c, g]) => ({ name: 'result-blocked-vs-cancel' as const, role, ms: 100, actors: [...r, ...c, ...g] })),
  );
  add('input-vs-cancel', (role) =>
    fc
      .tuple(one('tasks/result', 5), one('tasks/cancel', 25), gets(30))
      .map(([r, c, g]) => ({ name: 'input-vs-cancel' as const, role, ms: 0, actors: [...r, ...c, ...g] })),
  );
  add(
    'burst',
    (role) =>
      fc
        .tuple(
          fc.integer({ min: 0, max: 20 }),
          gets(30),
          fc.array(
            fc.integer({ min: 0, max: 30 }).map((afterMs) => ({ method: 'tasks/result' as const, afterMs })),
            { minLength: 1, maxLength: 2 },
          ),
        )
        .map(([ms, g, r]) => ({ name: 'burst' as const, role, ms, actors: [...g, ...r] })),
    false,
  );
  return out;
}

export function describeScenario(s: Scenario): string {
  const parts = [`${s.name}: ${s.role}`];
  if (s.ms !== undefined) parts.push(`ms=${s.ms}`);
  if (s.ttl !== undefined) parts.push(`ttl=${s.ttl}`);
  parts.push(`actors [${s.actors.map((a) => `${a.method.slice(6)}@+${a.afterMs}ms`).join(', ')}]`);
  return parts.join(', ');
}

export interface RaceRecord {
  log: string[];
  lease?: Lease;
}

/** One run: create the task, let the actors race under the scheduler, settle, check the history. */
export async function runRace(env: PropertyEnv, scenario: Scenario, s: fc.Scheduler, rec: RaceRecord): Promise<void> {
  const lease = await env.acquire();
  rec.lease = lease;
  const peer = lease.peer;
  const clock = new Clock();
  const ops: Op[] = [];
  const deferred: PropertyViolation[] = [];
  const log = (line: string) => rec.log.push(line);
  let scheduling = true;
  let taskId = '';
  const removeHandler = peer.onRequest(async (req) => {
    if (req.method !== 'elicitation/create') return undefined;
    if (!hasRelatedTask(req.params) || relatedTaskId(req.params) !== taskId) {
      deferred.push(
        new PropertyViolation(
          ['input-required-related-task'],
          `the task's elicitation/create lacks _meta["${RELATED_TASK_META}"].taskId = ${short(taskId)}: ${short(req.params, 200)}`,
        ),
      );
    }
    // The answer to the input request is one of the racing events.
    if (scheduling) await s.schedule(Promise.resolve('answer'), 'answer elicitation/create');
    log(`  ← elicitation/create answered (accept)`);
    return { result: { action: 'accept', content: { answer: 'race' } } };
  });
  try {
    const createdSentAt = Date.now();
    const c = await peer.request('tools/call', createParams(env, scenario.role, { ttl: scenario.ttl, ms: scenario.ms }), { timeoutMs: env.answerMs });
    const task = c.result?.task;
    if (c.error || !task || typeof task.taskId !== 'string') {
      if (c.error && c.error.code <= -32000 && c.error.code >= -32099) return; // at capacity: nothing to race
      throw new PropertyViolation(['create-returns-createtaskresult'], `task-augmented tools/call (role ${scenario.role}) answered ${describeAnswer(c)}`);
    }
    taskId = task.taskId;
    const ttl: number | null | undefined = typeof task.ttl === 'number' ? task.ttl : task.ttl === null ? null : undefined;
    const label = `${scenario.role} task ${taskId}`;
    log(
      `create(${scenario.role}${scenario.ms !== undefined && env.timingsControllable ? `, ms=${scenario.ms}` : ''}${scenario.ttl !== undefined ? `, ttl=${scenario.ttl}` : ''}) → ${taskId} ${task.status}, granted ttl ${ttl}`,
    );

    // When the task was first seen terminal (ms): a blocked tasks/result is judged only from then on.
    let terminalAtMs: number | undefined;
    const send = async (method: Op['method'], name: string, boundMs: number, params: Record<string, unknown> = { taskId }): Promise<Op> => {
      const op: Op = { n: ops.length + 1, method, label: name, sent: clock.tick() };
      ops.push(op);
      try {
        op.response = await peer.request(method, params, { timeoutMs: boundMs });
        op.received = clock.tick();
        op.receivedAtMs = Date.now();
        const r = op.response;
        const seen = r.result?.status;
        if (terminalAtMs === undefined && method !== 'tasks/result' && isTaskStatus(seen) && isTerminal(seen)) terminalAtMs = op.receivedAtMs;
        log(`${name} → ${r.error ? describeAnswer(r) : method === 'tasks/result' ? `result ${short(r.result, 100)}` : `status ${r.result?.status}`}`);
      } catch (e) {
        if (!(e instanceof WireTimeoutError)) throw e;
        op.timedOut = true;
        log(`${name} → no answer within ${boundMs} ms`);
      }
      return op;
    };

    // The race: each actor waits its real delay, then queues its send with the scheduler, which
    // releases the queued sends (and our input answer) in an order of its choosing. A tasks/result
    // blocks while the task runs, however long the target's task takes: it is not waited for here,
    // and judged below only once the task was seen terminal (bounded from then on).
    const counts: Record<string, number> = {};
    const blocked: Promise<Op | undefined>[] = [];
    const actors = scenario.actors.map(async (a) => {
      const name = `${a.method.slice(6)}#${(counts[a.method] = (counts[a.method] ?? 0) + 1)}`;
      if (a.afterMs > 0) await delay(a.afterMs);
      await s.schedule(Promise.resolve(name), `send ${a.method} (${name})`);
      if (a.method === 'tasks/result') {
        // Abandoned when the run ends first (connection released): never an unhandled rejection.
        blocked.push(send(a.method, name, env.options.checkTimeoutMs).catch(() => undefined));
        return undefined;
      }
      return send(a.method, name, env.answerMs);
    });
    let done = false;
    const all = Promise.allSettled(actors).then((x) => {
      done = true;
      return x;
    });
    while (!done) {
      if (s.count() > 0) await s.waitNext(1);
      else await Promise.race([all, delay(2)]);
    }
    scheduling = false;
    while (s.count() > 0) await s.waitNext(1); // an input answer queued at the very end
    for (const x of await all) if (x.status === 'rejected') throw x.reason;

    // Settle: poll until terminal (bounded), linger past the natural completion time, fetch the result.
    // Linger past the moment the work would have finished on its own (a resurrected or otherwise
    // changed status shows then): known on the reference receiver; elsewhere a fixed margin.
    // Elsewhere the wait follows the task: up to the longest task run seen on this target (at least 2.5 s,
    // at most the check budget), polling at the target's pollInterval.
    const natural = env.timingsControllable && scenario.ms !== undefined ? createdSentAt + scenario.ms + 25 : Date.now() + LINGER_MS;
    const followMs = env.timingsControllable ? 2_500 : Math.min(env.options.checkTimeoutMs, Math.max(2_500, 2 * (env.observedTaskMs ?? 0)));
    const deadline = Math.max(Date.now(), natural) + followMs;
    let last: Op | undefined;
    for (let i = 1; ; i++) {
      last = await send('tasks/get', `final-get#${i}`, env.answerMs);
      const st = last.response?.result?.status;
      const gone = last.response?.error !== undefined;
      if ((gone || (isTaskStatus(st) && isTerminal(st))) && Date.now() >= natural) break;
      if (Date.now() > deadline) break;
      const poll = env.timingsControllable ? 25 : pollDelayMs(last.response?.result?.pollInterval);
      await delay(Math.max(5, Math.min(poll, Math.max(natural - Date.now(), poll))));
    }
    if (terminalAtMs !== undefined) env.observedTaskMs = Math.max(env.observedTaskMs ?? 0, terminalAtMs - createdSentAt);
    // A blocked tasks/result gets, from the moment the task was seen terminal, the time of one answer and two of
    // the task's pollIntervals (a receiver may wake it once per interval: RULINGS.md#response-time).
    const afterTerminalMs = afterTerminalBoundMs(env.answerMs, last?.response?.result?.pollInterval);
    if (terminalAtMs !== undefined) {
      const left = terminalAtMs + afterTerminalMs - Date.now();
      await Promise.race([Promise.all(blocked), delay(Math.max(0, left))]);
    }
    const st = last?.response?.result?.status;
    if (isTaskStatus(st) && isTerminal(st)) await send('tasks/result', 'final-result', env.answerMs);

    for (const d of deferred) throw d;
    checkHistory({ taskId, label, createdSentAtMs: createdSentAt, ttl }, ops, env.slackMs);

    // A tasks/result sent during the race must answer once the task is terminal: judged only when the
    // wait could have seen the answer (the task seen terminal, then one answer's time).
    const hung = ops.find((o) => o.method === 'tasks/result' && !o.response);
    if (hung && terminalAtMs !== undefined && Date.now() >= terminalAtMs + afterTerminalMs) {
      throw new PropertyViolation(
        ['result-blocks-nonterminal'],
        `${hung.label} (sent while the task was running) was not answered within ${afterTerminalMs} ms after the task was seen terminal: tasks/result blocks only until the task is terminal`,
      );
    }
    if (isTaskStatus(st) && !isTerminal(st) && env.caps.cancel) await peer.request('tasks/cancel', { taskId }, { timeoutMs: 1000 }).catch(() => undefined);
  } finally {
    scheduling = false;
    removeHandler();
  }
}

export function peerOf(rec: RaceRecord): Peer | undefined {
  return rec.lease?.peer;
}
