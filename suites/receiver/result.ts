// Checks for tasks/result (tasks.md "Retrieving Task Results", Behavior Requirements > "Result
// Retrieval", Error Handling > "Task Execution Errors"); requirement ids from schema/requirements.json.
import { defineCheck, type CheckContext, type CheckDef } from '../engine/check.ts';
import { callRole, cancelFresh, cancelledTask, createTask, reachTerminal, sendTaskAugmented, type CreatedTask } from '../arrange/arrange.ts';
import { awaitInputRequest, inputAnswer, skipIfMisrouted, withInputTask } from '../arrange/input.ts';
import { callTwice, notRepeatedCause, notRepeatedReason, outcomeDifference, withoutMeta } from '../judge/compare.ts';
import { timeLeft } from '../arrange/budget.ts';
import { CODES, delay, getTask, GET_JUDGED_BY, observe, pacedDelay, pollDelay, seqText } from '../arrange/poll.ts';
import { afterTerminalBoundMs, backoffMs } from '../judge/pacing.ts';
import { isDeletion, isLimitError } from '../judge/error-codes.ts';
import { short } from '../engine/text.ts';
import { roleRunMs, type ProfileRole } from '../engine/profile.ts';
import { WireTimeoutError, type Message, type Response, type Scope } from '../wire/peer.ts';
import { isTaskStatus, isTerminal, type TaskStatus } from '../../schema/protocol.ts';

const SECTION = 'Result Retrieval';

/** Milliseconds to allow a blocked tasks/result: the rest of the check's budget, less a margin for the follow-up requests. */
function blockingBound(ctx: CheckContext): number {
  return timeLeft(ctx, { marginMs: 3_000, floorMs: 2_000 });
}

/** A tasks/result that records when it answered; a timeout resolves to undefined instead of throwing. */
function pendingResult(peer: Scope, taskId: string, timeoutMs: number): { done: Promise<Response | undefined>; answered: () => boolean } {
  let answered = false;
  const done = peer.request('tasks/result', { taskId }, { timeoutMs }).then(
    (r) => {
      answered = true;
      return r;
    },
    (e) => {
      if (e instanceof WireTimeoutError) return undefined;
      throw e;
    },
  );
  return { done, answered: () => answered };
}

function statusOf(r: Response): string {
  return r.error ? `error ${r.error.code} ${r.error.message}` : String(r.result?.status);
}

/**
 * The role's tool called without a task and as a task: tasks/result must return exactly the same outcome
 * (result-exact). Determinism first: the plain form is called twice, and a tool that does not repeat itself
 * (a time, an id, live data in its output) leaves the comparison not exercised, since "what the underlying
 * request would have returned" is then no single value.
 */
async function expectSameOutcome(ctx: CheckContext, role: 'completes' | 'fails'): Promise<{ plain: Response; last: any }> {
  const name = requireOptional(ctx, role);
  const plain = await repeatablePlain(ctx, role, name, () => callRole(ctx, role));
  const c = await createTask(ctx, role);
  const last = await reachTerminal(ctx, c.taskId, { initial: c.task });
  const viaTask = await resultOfTerminal(ctx, c.taskId, last?.status ?? 'terminal');
  const diff = outcomeDifference(plain, viaTask);
  ctx.expect(diff === undefined, `tool "${name}": ${diff}`);
  return { plain, last };
}

/**
 * The plain answer of a call made twice, or not exercised when the two differ (the tool does not repeat
 * itself) or when the plain call answered a CreateTaskResult (judged by creation.plain-call-not-task).
 */
async function repeatablePlain(ctx: CheckContext, role: string, name: string, call: () => Promise<Response>): Promise<Response> {
  const r = await callTwice(call, {
    first: (a) => {
      if (!a.error && a.result?.task) ctx.skip(`tools/call of "${name}" without a task returned a CreateTaskResult`, { judgedBy: PLAIN_JUDGED_BY });
    },
  });
  if (!r.repeats) ctx.skip(notRepeatedReason(name, role, r.difference), { cause: notRepeatedCause(role) });
  return r.answer;
}

/** The check that judges a plain tools/call answered with a CreateTaskResult. */
const PLAIN_JUDGED_BY = 'creation.plain-call-not-task';

async function resultOfTerminal(ctx: CheckContext, taskId: string, status: string): Promise<Response> {
  // Time alone is no verdict (RULINGS.md#response-time): a tasks/result left unanswered past the request bound
  // is blocked on only when a tasks/get of the same task, sent after it, is answered while it still waits.
  const sentAt = Date.now();
  const pending = ctx.peer.request('tasks/result', { taskId }, { timeoutMs: timeLeft(ctx, { marginMs: 1_000 }) });
  pending.catch(() => {});
  const answered = (ms: number) => Promise.race([pending.then((r) => ({ r })), delay(ms).then(() => undefined)]);
  const timedOut = (e: unknown) => {
    if (e instanceof WireTimeoutError)
      ctx.skip(`tasks/result for task ${taskId}, already "${status}", and a tasks/get of it went unanswered for ${Date.now() - sentAt} ms`, {
        cause: 'the receiver answered neither tasks/result nor tasks/get within the bound',
        timedOut: true,
      });
    throw e;
  };
  const first = await answered(ctx.bound(ctx.peer.peer.defaultTimeoutMs)).catch(timedOut);
  if (first) return first.r;
  const g = await getTask(ctx, taskId).catch(timedOut);
  // Room for a result the receiver sends right after the tasks/get (the tasks/get's own round trip, a few times).
  const late = await answered(ctx.bound(500) + 4 * g.elapsedMs).catch(timedOut);
  if (late) return late.r;
  ctx.violation(
    `tasks/result for task ${taskId}, already "${status}", was still unanswered ${Date.now() - sentAt} ms after it was sent, while a tasks/get of the task sent later answered ${g.error ? `error ${g.error.code}` : `status ${short(g.result?.status)}`} in ${g.elapsedMs} ms (a terminal task's result must be returned, not blocked on)`,
  );
}

/**
 * Arguments that break a tool's listed inputSchema, or undefined when the schema gives no handle:
 * a required property left out, else a property of the wrong type, else an unexpected property where
 * additionalProperties is false.
 */
export function argumentsBreaking(schema: any): { args: Record<string, unknown>; how: string } | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  const props = schema.properties && typeof schema.properties === 'object' ? (schema.properties as Record<string, any>) : {};
  if (Array.isArray(schema.required) && schema.required.length) return { args: {}, how: `required ${JSON.stringify(schema.required)} left out` };
  const wrong: Record<string, unknown> = { integer: 'not-a-number', number: 'not-a-number', string: 12345, boolean: 'not-a-boolean', object: 7, array: 7 };
  for (const [name, p] of Object.entries(props)) {
    if (typeof p?.type === 'string' && p.type in wrong)
      return { args: { [name]: wrong[p.type] }, how: `${name} (${p.type}) = ${JSON.stringify(wrong[p.type])}` };
  }
  if (schema.additionalProperties === false) return { args: { conformanceUnexpected: true }, how: 'an unexpected property (additionalProperties false)' };
  return undefined;
}

/** The role's tool can be called both with and without a task (taskSupport "optional"), else skip. */
function requireOptional(ctx: CheckContext, role: 'completes' | 'fails'): string {
  const tool = ctx.tool(role);
  const support = ctx.taskSupport(tool.name);
  if (support !== 'optional')
    ctx.skip(
      `tool "${tool.name}" (role ${role}) has taskSupport ${JSON.stringify(support ?? null)}, so it cannot be called both with and without a task to compare results`,
    );
  return tool.name;
}

/** How long result.blocks-while-working waits for an early answer before asking tasks/get whether the task still runs. */
const BLOCKING_WINDOW_MS = 10_000;

/** Requested ttl of the expiry variant: the task's lifetime ends while its work still runs. */
const SHORT_TTL_MS = 1_000;
/** How long after a task is gone (or terminal) a waiting tasks/result may take to answer. */
const ANSWER_GRACE_MS = 5_000;

/**
 * A tasks/result sent while the task is non-terminal must be answered when the task ends however it ends
 * (result-blocks-nonterminal: "block … until the task reaches a terminal status"; then
 * result-terminal-returns-final). `end`: tasks/cancel, the fails role, or a ttl shorter than the work.
 * The expiry variant only reports: a task deleted at its ttl (ttl-delete-after-expiry-may) never reaches a
 * terminal status, so tasks.md asks nothing more of the waiting request; that every request is answered is
 * JSON-RPC's rule, reported outside Tasks.
 */
function waitingResultCheck(end: 'cancel' | 'fail' | 'expire', title: string): CheckDef {
  const role: ProfileRole = end === 'fail' ? 'fails' : 'slow';
  return defineCheck({
    id: `result.waiting-answered-on-${end}`,
    title,
    section: SECTION,
    requirements: ['result-blocks-nonterminal', 'result-terminal-returns-final'],
    level: end === 'expire' ? 'MAY' : 'MUST',
    ...(end === 'expire'
      ? {
          weakerLevel:
            'a task deleted at its ttl never reaches a terminal status, so tasks.md asks nothing more of a tasks/result waiting on it; what the receiver does is reported, and a request left unanswered is a JSON-RPC matter (outside Tasks)',
        }
      : {}),
    clientReceiver: true,
    // A tasks/result waiting when the task ends otherwise than by completion is never answered (waiting-result-orphaned);
    // under cancelled-result-hangs no tasks/result of a cancelled task is.
    killedBy: end === 'cancel' ? ['waiting-result-orphaned', 'cancelled-result-hangs'] : end === 'fail' ? ['waiting-result-orphaned'] : [],
    needs: [role],
    ...(end === 'expire' ? { waitsMs: () => SHORT_TTL_MS } : {}),
    ...(end === 'cancel' ? { needsCapabilities: ['tasks.cancel'] } : {}),
    async run(ctx: CheckContext) {
      const tries: { c: CreatedTask; bound: number; pending: ReturnType<typeof pendingResult> }[] = [];
      // The waiting tasks/result, then a tasks/get round trip: the tasks/result went out first and the task was still running when it did.
      const wait = async (c: CreatedTask) => {
        const bound = blockingBound(ctx);
        const pending = pendingResult(ctx.peer, c.taskId, bound);
        pending.done.catch(() => undefined); // a task left for a new one (cancelFresh) is never awaited
        tries.push({ c, bound, pending });
        const g0 = await getTask(ctx, c.taskId);
        if (g0.error) ctx.skip(`tasks/get right after tasks/result answered ${g0.error.code} ${g0.error.message}`);
        if (isTaskStatus(g0.result?.status) && isTerminal(g0.result.status) && pending.answered())
          ctx.skip(`the task was already "${g0.result.status}" when its tasks/result was answered: it never waited`);
      };
      if (end === 'cancel') {
        // A task that ended between that tasks/get and its tasks/cancel is tried once more with a new one (cancelFresh).
        const { cancel: k } = await cancelFresh(ctx, role, { before: wait });
        if (k.error) ctx.skip(`tasks/cancel answered ${k.error.code} ${k.error.message}; the task did not end by cancellation`);
      } else {
        const c = await createTask(ctx, role, end === 'expire' ? { ttl: SHORT_TTL_MS } : {});
        if (isTaskStatus(c.task.status) && isTerminal(c.task.status))
          ctx.skip(`the ${role} task's CreateTaskResult already showed "${c.task.status}": no tasks/result can wait on it`);
        await wait(c);
      }
      const { c, bound, pending } = tries[tries.length - 1]!;
      // Watch until the task is terminal or gone; from then on the answer has ANSWER_GRACE_MS to come.
      let ended: string | undefined;
      let deadline = Date.now() + bound;
      let interval: unknown = c.task.pollInterval;
      while (!pending.answered() && Date.now() < deadline) {
        const g = await getTask(ctx, c.taskId);
        if (g.error && isDeletion(g.error, CODES)) ended ??= `gone (tasks/get ${g.error.code})`;
        else if (g.error && !isLimitError(g.error))
          ctx.skip(`tasks/get of the waiting task answered ${g.error.code} ${short(g.error.message)}`, { judgedBy: GET_JUDGED_BY });
        else if (isTaskStatus(g.result?.status) && isTerminal(g.result.status)) ended ??= `"${g.result.status}"`;
        if (ended) break;
        interval = g.result?.pollInterval ?? interval;
        const wait = g.error ? backoffMs(2, { pollMs: pollDelay(ctx, g.result) }) : pollDelay(ctx, g.result);
        deadline += (await pacedDelay(ctx, wait, `polling task ${c.taskId} at its pollInterval`)).grownMs;
      }
      if (!ended && !pending.answered()) ctx.skip(`the task neither ended nor was answered within ${bound} ms`);
      // One answer's time and two of the task's pollIntervals: a receiver may wake a blocked tasks/result once per
      // interval (RULINGS.md#response-time: slow is never a violation by itself).
      const grace = afterTerminalBoundMs(ctx.bound(ANSWER_GRACE_MS), interval);
      ctx.pace?.(grace - ctx.bound(ANSWER_GRACE_MS), `waiting up to two pollIntervals of task ${c.taskId} for its tasks/result`);
      const r = await Promise.race([pending.done, delay(grace).then(() => 'late' as const)]);
      if ((r === 'late' || r === undefined) && end === 'expire' && ended?.startsWith('gone')) {
        ctx.outside(
          'jsonrpc-response-to-every-request',
          `a tasks/result waiting on task ${c.taskId} was never answered after the task was deleted at its ttl (${grace} ms after tasks/get said ${ended})`,
        );
        return `the task was deleted at its ttl before reaching a terminal status (${ended}); its waiting tasks/result was not answered (reported outside Tasks)`;
      }
      if (r === 'late' || r === undefined) {
        ctx.violation(
          `a tasks/result sent while task ${c.taskId} was working was never answered: the task ended (${ended}${end === 'cancel' ? ' after tasks/cancel' : ''}) and ${grace} ms later the request was still waiting`,
        );
      }
      return `the waiting tasks/result answered ${r.error ? `error ${r.error.code} ${short(r.error.message, 80)}` : short(withoutMeta(r.result), 120)} once the task was ${ended ?? 'terminal'}`;
    },
  });
}

export const checks: CheckDef[] = [
  // A tasks/result sent while the task worked, which carried the task's input request (the task went
  // input_required meanwhile), must still be answered once the task ends (result-blocks-nonterminal: it blocks
  // "until the task reaches a terminal status"; result-terminal-returns-final).
  defineCheck({
    id: 'result.waiting-answered-after-input',
    title: 'a tasks/result that waited while the task was input_required answers once the task ends',
    section: SECTION,
    requirements: ['result-blocks-nonterminal', 'result-terminal-returns-final'],
    level: 'MUST',
    killedBy: ['input-result-orphaned'],
    needsCapabilities: ['tasks.requests.tools.call'],
    needs: ['needsInput'],
    timeoutMs: 45_000,
    opensConnections: 1,
    async run(ctx: CheckContext) {
      return withInputTask(ctx, async (run) => {
        const req = await awaitInputRequest(ctx, run, 8_000);
        if (!req) skipIfMisrouted(ctx, run.taskId);
        if (!req || !run.result) ctx.skip(`the needsInput task sent no input request while its tasks/result waited (statuses ${seqText(run.statuses)})`);
        run.release();
        const o = await observe(ctx, run.taskId, (t) => isTerminal(t.status), {
          boundMs: ctx.bound(10_000),
          peer: run.session,
          into: run.statuses,
          allowGone: true,
          label: 'waiting for the task to end after its input',
        });
        if (o.gone || o.timedOut || !o.last) ctx.skip(`the task did not reach a terminal status after its input (${seqText(run.statuses)})`);
        const grace = afterTerminalBoundMs(ctx.bound(ANSWER_GRACE_MS), o.last.pollInterval);
        const r = await Promise.race([run.result, delay(grace).then(() => 'late' as const)]);
        if (r instanceof Error && !(r instanceof WireTimeoutError)) ctx.skip(`the waiting tasks/result failed: ${r.message}`);
        ctx.expect(
          r !== 'late' && !(r instanceof Error),
          `task ${run.taskId} went input_required while its tasks/result waited, got its input and ended "${o.last.status}", and ${grace} ms later that tasks/result was still unanswered (${seqText(run.statuses)})`,
        );
        const res = r as Response;
        return `the waiting tasks/result answered ${res.error ? `error ${res.error.code}` : short(withoutMeta(res.result), 100)} once the task was "${o.last.status}"`;
      });
    },
  }),
  // The slow role: the task is still running when tasks/result arrives, so the answer has to wait.
  defineCheck({
    id: 'result.blocks-while-working',
    title: 'tasks/result sent while the task is working answers only once the task is terminal',
    section: SECTION,
    requirements: ['result-blocks-nonterminal'],
    level: 'MUST',
    killedBy: ['result-not-blocking'],
    clientReceiver: true,
    needs: ['slow'],
    waitsMs: (p) => roleRunMs(p, 'slow'),
    async run(ctx: CheckContext) {
      const c = await createTask(ctx, 'slow');
      if (isTaskStatus(c.task.status) && isTerminal(c.task.status))
        ctx.skip(`the slow task's CreateTaskResult already showed status "${c.task.status}": nothing to block on`);
      // Blocking is judged from what is seen, never from a clock (RULINGS.md#response-time): an answer
      // is checked against tasks/get sent after it; no answer while tasks/get shows the task non-terminal
      // is the blocking the requirement asks for.
      const bound = blockingBound(ctx);
      const window = Math.min(bound, BLOCKING_WINDOW_MS);
      const started = Date.now();
      const pending = pendingResult(ctx.peer, c.taskId, bound);
      let r = await Promise.race([pending.done, delay(window).then(() => undefined)]);
      if (!r) {
        const g = await getTask(ctx, c.taskId);
        const st = g.result?.status;
        if (!g.error && isTaskStatus(st) && !isTerminal(st))
          return `tasks/result still blocked after ${Date.now() - started} ms while tasks/get shows the task "${st}" (the slow task had not ended)`;
        // The task ended meanwhile: the answer is due now.
        r = await Promise.race([pending.done, delay(ANSWER_GRACE_MS).then(() => undefined)]);
        if (!r)
          ctx.skip(`the task is ${statusOf(g)} and its tasks/result has not answered ${ANSWER_GRACE_MS} ms later`, {
            judgedBy: 'result.completed-returns-result',
            cause: 'tasks/result of a task that ended did not answer',
          });
      }
      const took = Date.now() - started;
      // The receiver claims terminal by answering: a tasks/get sent after the answer must show it.
      const g = await getTask(ctx, c.taskId);
      if (g.error) ctx.skip(`tasks/get after the tasks/result answer gave error ${g.error.code} ${g.error.message}; cannot tell whether the task was terminal`);
      ctx.expect(
        isTaskStatus(g.result?.status) && isTerminal(g.result.status),
        `tasks/result answered after ${took} ms (${short(r.error ?? r.result)}) although the task was not terminal: tasks/get sent after that answer shows "${g.result?.status}"`,
      );
      ctx.note(`tasks/result answered after ${took} ms; tasks/get then showed "${g.result.status}"`);
    },
  }),

  // Blocking lasts "until the task reaches a terminal status", however it gets there.
  waitingResultCheck('cancel', 'a tasks/result waiting on a working task is answered once the task is cancelled'),
  waitingResultCheck('fail', 'a tasks/result waiting on a working task is answered once the task fails'),
  waitingResultCheck('expire', 'a tasks/result waiting on a working task is answered when the task expires (or ends)'),

  defineCheck({
    id: 'result.blocks-while-input-required',
    title: 'tasks/result stays blocked while the task waits for input, and answers once it is terminal',
    section: SECTION,
    requirements: ['result-blocks-nonterminal'],
    level: 'MUST',
    killedBy: ['result-not-blocking'],
    needs: ['needsInput'],
    opensConnections: 1,
    async run(ctx: CheckContext) {
      // Own connection: every input request arriving there belongs to this check's task.
      const s = await ctx.openSession();
      let taskId: string | undefined;
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let inputSeen!: (m: Message) => void;
      const input = new Promise<Message>((r) => (inputSeen = r));
      s.onRequest(async (req) => {
        if (req.method !== 'elicitation/create') return undefined;
        inputSeen(req);
        await gate; // hold the answer: the task cannot finish meanwhile
        return inputAnswer(req, taskId);
      });
      try {
        const c = await createTask(ctx, 'needsInput', { peer: s });
        taskId = c.taskId;
        const bound = blockingBound(ctx);
        const pending = pendingResult(s, c.taskId, bound);
        const first = await Promise.race([input.then(() => 'input' as const), pending.done.then(() => 'answer' as const)]);
        if (first === 'answer') {
          const r = await pending.done;
          const g = await getTask(ctx, c.taskId, s);
          if (!r) skipIfMisrouted(ctx, c.taskId);
          if (!r) ctx.skip(`no input request and no tasks/result answer within ${bound} ms (task status ${statusOf(g)})`);
          if (!g.error && isTaskStatus(g.result?.status) && isTerminal(g.result.status)) {
            ctx.skip(`the needsInput tool reached "${g.result.status}" without sending an input request`);
          }
          ctx.violation(`tasks/result answered (${short(r.error ?? r.result)}) before any input was given, while tasks/get shows ${statusOf(g)}`);
        }
        // Input is pending and unanswered: the task cannot be terminal, so tasks/result must still be blocked.
        const g = await getTask(ctx, c.taskId, s);
        ctx.note(`while the input request was unanswered tasks/get showed ${statusOf(g)}`);
        ctx.expect(!pending.answered(), `tasks/result answered while the task's input request was still unanswered (tasks/get: ${statusOf(g)})`);
        release();
        const r = await pending.done;
        if (!r) {
          // No answer: right while the task still runs (RULINGS.md#response-time).
          const g1 = await getTask(ctx, c.taskId, s);
          if (!g1.error && isTaskStatus(g1.result?.status) && !isTerminal(g1.result.status))
            return `tasks/result blocked while the input was unanswered, and still blocks while tasks/get shows "${g1.result.status}" after the input was given`;
          ctx.skip(`tasks/result did not answer within ${bound} ms after the input was given (task then ${statusOf(g1)})`, {
            judgedBy: 'result.completed-returns-result',
            cause: 'tasks/result of a task that ended did not answer',
          });
        }
        const g2 = await getTask(ctx, c.taskId, s);
        if (g2.error) ctx.skip(`tasks/get after the tasks/result answer gave error ${g2.error.code}; cannot tell whether the task was terminal`);
        ctx.expect(
          isTaskStatus(g2.result?.status) && isTerminal(g2.result.status),
          `tasks/result answered (${short(r.error ?? r.result)}) although tasks/get sent after it shows "${g2.result?.status}"`,
        );
      } finally {
        release();
      }
    },
  }),
  defineCheck({
    id: 'result.completed-returns-result',
    title: 'tasks/result for a completed task returns the tool result (a CallToolResult) at once',
    section: SECTION,
    requirements: ['result-terminal-returns-final'],
    level: 'MUST',
    killedBy: ['result-returns-task'],
    clientReceiver:
      "judges the tasks/result payload as a CallToolResult (tools/call); result.exact-success compares the client's payload with its plain answer instead",
    needs: ['completes'],
    async run(ctx: CheckContext) {
      const c = await createTask(ctx, 'completes');
      const status = (await reachTerminal(ctx, c.taskId, { initial: c.task })).status as TaskStatus;
      const r = await resultOfTerminal(ctx, c.taskId, status);
      if (status !== 'completed') {
        ctx.note(`the completes tool ended "${status}" (not judged here)`);
        return;
      }
      // "completed: the request completed successfully and results are available" — so a result, not an error.
      if (r.error) ctx.violation(`tasks/result for a completed task answered JSON-RPC error ${r.error.code} ${r.error.message} instead of the tool's result`);
      ctx.expect(
        r.result && typeof r.result === 'object' && Array.isArray(r.result.content),
        `tasks/result for a completed task did not return a CallToolResult (no content array): ${short(r.result, 300)}`,
      );
    },
  }),
  defineCheck({
    id: 'result.failed-returns-result',
    title: 'tasks/result for a task whose tool reported an error returns that outcome at once',
    section: SECTION,
    requirements: ['result-terminal-returns-final'],
    level: 'MUST',
    killedBy: ['result-returns-task'],
    clientReceiver: true,
    needs: ['fails'],
    async run(ctx: CheckContext) {
      const c = await createTask(ctx, 'fails');
      const status = (await reachTerminal(ctx, c.taskId, { initial: c.task })).status as TaskStatus;
      const r = await resultOfTerminal(ctx, c.taskId, status);
      if (status !== 'failed')
        ctx.note(
          `the fails tool's task ended "${status}" (a tool error is expected to give "failed"; lowercase "should", not judged: RULINGS.md#is-error-lowercase)`,
        );
      if (r.error) {
        // A JSON-RPC error is allowed when that is what the underlying request gave (result-exact checks which).
        ctx.note(`tasks/result answered JSON-RPC error ${r.error.code} ${r.error.message}`);
        return;
      }
      ctx.expect(
        r.result && typeof r.result === 'object' && Array.isArray(r.result.content),
        `tasks/result for a "${status}" task did not return a CallToolResult (no content array) nor a JSON-RPC error: ${short(r.result, 300)}`,
      );
      if (r.result.isError !== true) ctx.note(`the returned CallToolResult has isError ${JSON.stringify(r.result.isError)}`);
    },
  }),
  defineCheck({
    id: 'result.cancelled-answers',
    title: 'tasks/result for a cancelled task answers (a result or a JSON-RPC error) instead of blocking',
    section: SECTION,
    requirements: ['result-terminal-returns-final'],
    level: 'MUST',
    killedBy: ['cancelled-result-hangs'],
    clientReceiver: true,
    needs: ['slow'],
    needsCapabilities: ['tasks.cancel'],
    async run(ctx: CheckContext) {
      const { created: c } = await cancelledTask(ctx, 'slow');
      const r = await resultOfTerminal(ctx, c.taskId, 'cancelled');
      if (r.error) {
        if (r.error.code === -32602) {
          const g = await getTask(ctx, c.taskId);
          if (g.error) ctx.skip(`the cancelled task was deleted before tasks/result (receivers MAY delete cancelled tasks)`);
        }
        return `tasks/result for the cancelled task answered JSON-RPC error ${r.error.code} ${r.error.message}`;
      }
      ctx.expect(r.result && typeof r.result === 'object', `tasks/result for the cancelled task answered a non-object result ${short(r.result)}`);
      return `tasks/result for the cancelled task answered ${short(withoutMeta(r.result), 160)}`;
    },
  }),
  defineCheck({
    id: 'result.exact-success',
    title: 'tasks/result returns exactly what the same tool call returns without a task',
    section: SECTION,
    requirements: ['result-exact'],
    level: 'MUST',
    killedBy: ['result-differs', 'result-returns-task'],
    clientReceiver: true,
    needs: ['completes'],
    async run(ctx: CheckContext) {
      await expectSameOutcome(ctx, 'completes');
    },
  }),

  // The underlying request is made to end in a JSON-RPC error portably: the completes
  // tool called with arguments that break its inputSchema, compared with the same call without a task.
  defineCheck({
    id: 'result.exact-error',
    title: 'tasks/result of a task whose request ended in a JSON-RPC error returns that same error',
    section: SECTION,
    requirements: ['result-exact'],
    level: 'MUST',
    killedBy: ['result-error-as-result', 'result-returns-task'],
    needs: ['completes'],
    async run(ctx: CheckContext) {
      // A call that ends in a JSON-RPC error: the optional tools of the profile, each with arguments that
      // break its inputSchema, then the fails tool as the profile calls it; the first whose plain call
      // answers a JSON-RPC error (servers often answer bad arguments with an isError result instead).
      requireOptional(ctx, 'completes');
      const candidates: { name: string; args: Record<string, unknown>; how: string }[] = [];
      for (const role of ['completes', 'fails', 'slow', 'progress'] as const) {
        const tool = ctx.info.profile.tools[role];
        if (!tool || ctx.taskSupport(tool.name) !== 'optional' || candidates.some((c) => c.name === tool.name)) continue;
        const b = argumentsBreaking(ctx.info.tools.find((t) => t?.name === tool.name)?.inputSchema);
        if (b) candidates.push({ name: tool.name, args: b.args, how: b.how });
      }
      const fails = ctx.info.profile.tools.fails;
      if (fails && ctx.taskSupport(fails.name) === 'optional')
        candidates.push({ name: fails.name, args: fails.arguments ?? {}, how: 'the arguments of the fails role' });
      const tried: string[] = [];
      let found: { name: string; args: Record<string, unknown>; how: string; plain: Response } | undefined;
      for (const c of candidates) {
        const r = await repeatablePlain(ctx, 'completes', c.name, () => ctx.peer.request('tools/call', { name: c.name, arguments: c.args }));
        if (r.error) {
          found = { ...c, plain: r };
          break;
        }
        tried.push(`"${c.name}" with ${c.how} → a result (${short(withoutMeta(r.result), 60)})`);
      }
      if (!found)
        ctx.skip(
          candidates.length
            ? `no call without a task ended in a JSON-RPC error, so there is no underlying error to compare: ${tried.join('; ')}`
            : 'no optional tool of the profile has an inputSchema that gives a way to build invalid arguments',
        );
      const { name, how, plain } = found;
      const bad = { args: found.args, how };
      const error = plain.error!;
      const aug = await sendTaskAugmented(ctx, () => ctx.peer.request('tools/call', { name, arguments: bad.args, task: {} }));
      if (aug.error)
        ctx.skip(
          `the task-augmented call with invalid arguments was rejected at once (${aug.error.code} ${aug.error.message}; without a task: ${error.code}): no task to ask for the result`,
        );
      const t = aug.result?.task;
      if (!t || typeof t.taskId !== 'string') ctx.skip(`the task-augmented call with invalid arguments answered no CreateTaskResult (${short(aug.result)})`);
      const last = await reachTerminal(ctx, t.taskId, { initial: t, role: 'completes' });
      const viaTask = await resultOfTerminal(ctx, t.taskId, last?.status ?? 'terminal');
      const diff = outcomeDifference(plain, viaTask);
      ctx.expect(diff === undefined, `"${name}" with ${bad.how}: ${diff}`);
      return `"${name}" with ${bad.how}: without a task and via tasks/result the same error ${error.code} ${short(error.message, 80)} (task ended "${last?.status}")`;
    },
  }),

  // Covers result-exact-error too when the fails tool answers a JSON-RPC error.
  defineCheck({
    id: 'result.exact-fails',
    title: 'tasks/result of a failing tool returns exactly its tool error (isError result or JSON-RPC error)',
    section: SECTION,
    requirements: ['result-exact'],
    level: 'MUST',
    killedBy: ['result-differs', 'result-returns-task'],
    clientReceiver: true,
    needs: ['fails'],
    waitsMs: (p) => 3 * roleRunMs(p, 'fails'), // a plain call, then the task and its result
    async run(ctx: CheckContext) {
      const { plain, last } = await expectSameOutcome(ctx, 'fails');
      if (!plain.error && plain.result?.isError !== true) ctx.note(`the fails tool's plain result has isError ${JSON.stringify(plain.result?.isError)}`);
      if (last.status !== 'failed')
        ctx.note(`the task ended "${last.status}" (expected "failed" for a tool error; lowercase "should", RULINGS.md#is-error-lowercase)`);
      return plain.error ? `compared JSON-RPC errors (result-exact-error): ${plain.error.code}` : 'compared isError results';
    },
  }),
];
