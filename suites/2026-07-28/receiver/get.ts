// Checks of the extension's tasks.md "Task Polling > Response" (the DetailedTask of each status), "Task
// Execution Errors" (failed carries the JSON-RPC error, a tool's isError result completes) and the status
// diagram (terminal statuses stay); requirement ids from schema/2026-07-28/requirements.json.
import type { CheckContext, CheckDef } from '../../engine/check.ts';
import { isObj, short } from '../../engine/text.ts';
import { seqText } from '../../arrange/poll.ts';
import { timeLeft } from '../../arrange/budget.ts';
import { validatorFor } from '../../../schema/validate.ts';
import {
  EARLIER_NUMBERING,
  ErrorCode,
  TIMESTAMP_READING,
  Field,
  firstIllegalStep,
  isTerminal,
  Method,
  ResultType,
  REVISION,
  TASK_MACHINE,
  type TaskStatus,
} from '../../../schema/2026-07-28/protocol.ts';
import { callTwice, notRepeatedCause, notRepeatedReason, outcomeDifference, type Outcome } from '../../judge/compare.ts';
import { orderOfText, readTimestamp } from '../../judge/timestamps.ts';
import { runAnswers, statusSightings } from '../arrange/observed.ts';
import { judgeEveryStatus } from '../../arrange/sightings.ts';
import { extensionNotAdvertised, modernCheck } from '../engine/check.ts';
import {
  callRole,
  cancelFresh,
  cancelTask,
  createSettled,
  createTask,
  inputKeys,
  answeredWithTask,
  NON_DECLARING,
  pastTtl,
  reach,
  skipPastTtl,
  watch,
  withInputsOutstanding,
  createInputRequired,
  type Created,
} from '../arrange/tasks.ts';
import { roleRunMs, type ModernProfileRole } from '../../engine/profile.ts';

const SECTION = 'Task Polling';
const schema = { validate: (name: string, value: unknown) => validatorFor(REVISION).validate(name, value) }; // built on first use, not on import

/** The DetailedTask variant of each status (ext-tasks schema). */
const VARIANT: Record<TaskStatus, string> = {
  working: 'WorkingTask',
  input_required: 'InputRequiredTask',
  completed: 'CompletedTask',
  failed: 'FailedTask',
  cancelled: 'CancelledTask',
};

/** Violation unless a tasks/get result is the DetailedTask variant of its status (timestamps read as RULINGS.md#ext-timestamps-iso8601). */
function expectVariant(ctx: CheckContext, taskId: string, task: unknown, status: TaskStatus): void {
  const v = schema.validate(VARIANT[status], task);
  ctx.expect(
    v.valid,
    `tasks/get of ${status} task ${taskId} is not a ${VARIANT[status]}: ${v.valid ? '' : v.errors.slice(0, 4).join('; ')} (got ${short(task, 400)})`,
  );
}

/** The tool-result members two answers are compared on (resultType and _meta aside: an inlined result may omit them). */
const toolPart = (r: any) => ({ content: r?.content, structuredContent: r?.structuredContent, isError: r?.isError === true });

/**
 * The plain answer of a role to a client that does not declare the extension (what the task's outcome must
 * equal), determinism first: called twice, and not exercised when the two differ by `differ` (the tool does not
 * repeat itself), when the tool runs only as a task (-32021: no plain answer exists) or when it was answered
 * with a task (judged elsewhere).
 */
async function plainAnswer(ctx: CheckContext, role: ModernProfileRole, differ: (a: Outcome, b: Outcome) => string | undefined) {
  const name = ctx.tool(role).name;
  const r = await callTwice(() => callRole(ctx, role, { capabilities: NON_DECLARING }), {
    differ,
    first: (a) => {
      if (!a.error && answeredWithTask(a.result))
        ctx.skip(`tools/call of "${name}" without the extension was answered with a task`, { judgedBy: '2026-negotiation.no-task-for-non-declaring' });
      const code = a.error?.code;
      if (code !== undefined && (code === ErrorCode.MissingRequiredClientCapability || EARLIER_NUMBERING[code] === ErrorCode.MissingRequiredClientCapability))
        ctx.skip(
          `tool "${name}" (role ${role}) runs only as a task: without the extension it answers ${code} (2026-caps-required-32021; RULINGS.md#ext-error-renumbering), so there is no plain answer to compare with`,
        );
    },
  });
  if (!r.repeats) ctx.skip(notRepeatedReason(name, role, r.difference), { cause: notRepeatedCause(role) });
  return r.answer;
}

/** Two results the same on their tool part, or two errors with the same code (2026-exec-error-exact compares codes). */
const sameToolPart = (a: Outcome, b: Outcome) => outcomeDifference(a, b, { project: toolPart, names: ['the first call', 'the second'] });
const sameErrorCode = (a: Outcome, b: Outcome) =>
  a.error && b.error ? (a.error.code === b.error.code ? undefined : `error ${a.error.code}, then ${b.error.code}`) : sameToolPart(a, b);

/**
 * The returnsIsError role's completed task against its plain answer (toolPart: content, structuredContent,
 * isError); a violation when they differ, else what was compared (or why not, where there is nothing to compare).
 */
async function isErrorOutcome(ctx: CheckContext): Promise<string> {
  const name = ctx.tool('returnsIsError').name;
  const r = await callTwice(() => callRole(ctx, 'returnsIsError', { capabilities: NON_DECLARING }), { differ: sameToolPart });
  if (!r.repeats) return `returnsIsError not compared: ${notRepeatedReason(name, 'returnsIsError', r.difference)}`;
  const plain = r.answer;
  if (plain.error || answeredWithTask(plain.result) || plain.result?.isError !== true)
    return `returnsIsError not compared (its plain answer is no isError result: ${short(plain.error ?? plain.result, 100)})`;
  const c = await createSettled(ctx, 'returnsIsError');
  if (pastTtl(c.last)) return `returnsIsError not compared (task ${c.taskId} outlived its ttl)`;
  if (c.last[Field.status] !== 'completed' || !isObj(c.last[Field.result]))
    return `returnsIsError not compared (task ${c.taskId} ended ${c.last[Field.status]}: judged by 2026-exec.tool-error-completed)`;
  const diff = outcomeDifference(
    plain,
    { result: c.last[Field.result] },
    { project: toolPart, names: ['without a task', `inlined in completed task ${c.taskId}`] },
  );
  ctx.expect(diff === undefined, `tool "${name}" (role returnsIsError): ${diff}`);
  return `returnsIsError's result equals its plain call's too`;
}

/** Polls `extra` more times after a terminal status; every status seen must be the same (or the task gone). */
async function staysTerminal(ctx: CheckContext, c: Created, terminal: TaskStatus, statuses: TaskStatus[], opts: { windowMs?: number; polls?: number }) {
  const started = Date.now();
  const w = await watch(ctx, c.taskId, (_t, n) => n >= (opts.polls ?? 2) && Date.now() - started >= (opts.windowMs ?? 0), {
    scope: c.scope,
    into: statuses,
    allowGone: true,
    boundMs: timeLeft(ctx, { marginMs: 3_000, floorMs: 1_000, capMs: (opts.windowMs ?? 0) + 3_000 }),
    label: `polling after ${terminal}`,
    onFailure: 'not-exercised',
  });
  const after = w.statuses.slice(w.statuses.indexOf(terminal));
  const changed = after.find((s) => s !== terminal);
  // After createdAt + ttlMs the server may mark the task failed and delete it (2026-ttl-server-may-fail-after):
  // a change seen once the TTL has passed is not judged (RULINGS.md#ext-ttl-before-expiry).
  if (changed !== undefined && [c.task, ...w.tasks].some((t) => pastTtl(t)))
    ctx.skip(`task ${c.taskId} changed from ${terminal} to ${changed} (${seqText(w.statuses)}) after its ttlMs had passed (RULINGS.md#ext-ttl-before-expiry)`);
  ctx.expect(
    changed === undefined,
    `task ${c.taskId} was ${terminal}, then tasks/get showed "${changed}" (${seqText(w.statuses)}): a terminal status is final`,
  );
  const illegal = firstIllegalStep(w.statuses);
  ctx.expect(!illegal, `task ${c.taskId}: illegal status step ${illegal ? `${illegal.from} → ${illegal.to}` : ''} (${seqText(w.statuses)})`);
  return `${seqText(w.statuses)}${w.gone ? ' → gone' : ''}`;
}

/** A task of `role` settled in `status` (both preconditions: another end is not exercised). */
async function settledAs(ctx: CheckContext, role: ModernProfileRole, status: TaskStatus) {
  const c = await createSettled(ctx, role);
  skipPastTtl(ctx, c.taskId, c.last);
  if (c.last[Field.status] !== status) ctx.skip(`task ${c.taskId} of role ${role} ended ${c.last[Field.status]} (seen ${seqText(c.statuses)})`);
  return c;
}

export const checks: CheckDef[] = [
  modernCheck({
    id: '2026-get.working',
    title: 'tasks/get of a working task returns a Task object with status working',
    section: SECTION,
    requirements: ['2026-get-working'],
    level: 'MUST',
    killedBy: ['legacy-field-names'],
    needs: ['slow'],
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      const c = await createTask(ctx, 'slow');
      const w = await reach(ctx, c.taskId, (t) => t[Field.status] === 'working', 'working', { scope: c.scope });
      expectVariant(ctx, c.taskId, w.last, 'working');
      return `task ${c.taskId}: ${short(w.last, 160)}`;
    },
  }),
  modernCheck({
    id: '2026-get.result-type-complete',
    title: 'a tasks/get result carries resultType "complete", whatever the status (never "task")',
    section: SECTION,
    requirements: ['2026-get-result-type-complete', '2026-result-type-task-only-create'],
    level: 'MUST',
    killedBy: ['get-no-result-type', 'get-result-type-task', 'get-result-type-task-failed'],
    needs: ['completes'],
    runsLast: true,
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      const c = await createSettled(ctx, 'completes');
      // Every tasks/get of the task's life (working on the way, the terminal status at the end).
      const w = await watch(ctx, c.taskId, (_t, n) => n >= 1, { scope: c.scope, allowGone: true });
      const all = [...c.gets, ...w.tasks];
      const bad = all.filter((t) => t[Field.resultType] !== ResultType.Complete);
      ctx.expect(
        bad.length === 0,
        `${bad.length} of ${all.length} tasks/get results of task ${c.taskId} carry resultType ${short(bad[0]?.[Field.resultType])}, not "complete" (status ${short(bad[0]?.[Field.status])})`,
      );
      // Every tasks/get result of the run, whatever the task's role and status.
      await ctx.othersDone();
      const gets = runAnswers(ctx).filter((a) => a.request?.method === Method.TasksGet && isObj(a.response.result) && 'status' in a.response.result);
      const other = gets.filter((a) => a.response.result[Field.resultType] !== ResultType.Complete);
      ctx.expect(
        other.length === 0,
        `${other.length} of ${gets.length} tasks/get results of the run carry a resultType other than "complete": e.g. ${short(other[0]?.response.result[Field.resultType])} for a ${short(other[0]?.response.result[Field.status])} task (${other[0]?.source})`,
      );
      return `${all.length} tasks/get results of its task, ${gets.length} of the run, each resultType "complete"`;
    },
  }),
  modernCheck({
    id: '2026-get.input-required',
    title: 'tasks/get of an input_required task carries its inputRequests',
    section: SECTION,
    requirements: ['2026-get-input-required'],
    level: 'MUST',
    killedBy: ['input-required-no-requests', 'legacy-field-names', 'input-request-not-mrtr'],
    needs: ['needsInput'],
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      const c = await createTask(ctx, 'needsInput');
      const w = await reach(ctx, c.taskId, (t) => t[Field.status] === 'input_required', 'input_required', { scope: c.scope });
      ctx.expect(isObj(w.last[Field.inputRequests]), `tasks/get of input_required task ${c.taskId} has no inputRequests object (got ${short(w.last, 300)})`);
      expectVariant(ctx, c.taskId, w.last, 'input_required');
      return `task ${c.taskId}: inputRequests ${inputKeys(w.last).join(', ')}`;
    },
  }),
  modernCheck({
    id: '2026-get.input-requests-all',
    title: 'inputRequests lists every outstanding request (a tool asking two questions at once shows both)',
    section: SECTION,
    requirements: ['2026-get-input-requests-all-outstanding'],
    level: 'MUST',
    killedBy: ['input-requests-partial-list'],
    needs: ['needsTwoInputs'],
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      // Requests made outstanding milliseconds apart are waited for (withInputsOutstanding): what must be listed is
      // every outstanding request, not both from the first poll.
      const c = await createInputRequired(ctx, 'needsTwoInputs');
      const last = await withInputsOutstanding(ctx, c, 2);
      const keys = inputKeys(last);
      ctx.expect(
        keys.length >= 2,
        `task ${c.taskId} of "${ctx.tool('needsTwoInputs').name}" (role needsTwoInputs: it asks two questions at once) lists ${keys.length} inputRequests (${keys.join(', ') || 'none'})`,
      );
      return `task ${c.taskId}: inputRequests ${keys.join(', ')}`;
    },
  }),
  modernCheck({
    id: '2026-get.completed-result',
    title: 'tasks/get of a completed task carries its result',
    section: SECTION,
    requirements: ['2026-get-completed-result'],
    level: 'MUST',
    killedBy: ['completed-no-result', 'legacy-field-names'],
    needs: ['completes'],
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      const c = await settledAs(ctx, 'completes', 'completed');
      ctx.expect(isObj(c.last[Field.result]), `tasks/get of completed task ${c.taskId} has no result object (got ${short(c.last, 300)})`);
      expectVariant(ctx, c.taskId, c.last, 'completed');
      return `task ${c.taskId}: result ${short(c.last[Field.result], 120)}`;
    },
  }),
  modernCheck({
    id: '2026-get.failed-error',
    title: 'tasks/get of a failed task carries the JSON-RPC error',
    section: SECTION,
    requirements: ['2026-get-failed-error'],
    level: 'MUST',
    killedBy: ['failed-no-error', 'legacy-field-names'],
    needs: ['failsWithError'],
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      const c = await settledAs(ctx, 'failsWithError', 'failed');
      const e = c.last[Field.error];
      ctx.expect(
        isObj(e) && Number.isInteger(e.code) && typeof e.message === 'string',
        `tasks/get of failed task ${c.taskId} has no JSON-RPC error object (integer code, string message) in error (got ${short(c.last, 300)})`,
      );
      expectVariant(ctx, c.taskId, c.last, 'failed');
      return `task ${c.taskId}: error ${e.code} ${short(e.message, 80)}`;
    },
  }),
  modernCheck({
    id: '2026-get.cancelled',
    title: 'tasks/get of a cancelled task returns a Task object with status cancelled',
    section: SECTION,
    requirements: ['2026-get-cancelled'],
    level: 'MUST',
    killedBy: ['legacy-field-names'],
    needs: ['slow'],
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      // One that ended before its cancel took effect is tried once more (cancelFresh).
      const { created: c, ack, watched: w } = await cancelFresh(ctx, 'slow');
      if (ack.error || !w) ctx.skip(`tasks/cancel answered ${ack.error?.code} ${ack.error?.message}`, { judgedBy: '2026-cancel.ack-empty' });
      if (w.last[Field.status] !== 'cancelled')
        ctx.skip(`task ${c.taskId} ended ${w.last[Field.status]} after tasks/cancel (the server may let the work finish, 2026-cancel-may-end-otherwise)`);
      expectVariant(ctx, c.taskId, w.last, 'cancelled');
      return `task ${c.taskId}: ${short(w.last, 160)}`;
    },
  }),
  modernCheck({
    id: '2026-exec.failed-status-message',
    title: 'a failed task carries a statusMessage with diagnostic information',
    section: 'Error Handling',
    requirements: ['2026-exec-failed-status-message'],
    level: 'SHOULD',
    killedBy: ['failed-no-status-message'],
    needs: ['failsWithError'],
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      const c = await settledAs(ctx, 'failsWithError', 'failed');
      const m = c.last[Field.statusMessage];
      ctx.expect(typeof m === 'string' && m.trim() !== '', `failed task ${c.taskId} has no statusMessage (got ${short(c.last, 300)})`);
      return `statusMessage ${short(m, 120)}`;
    },
  }),
  modernCheck({
    id: '2026-exec.error-exact',
    title: "a failed task's error is the JSON-RPC error of the underlying request",
    section: 'Error Handling',
    requirements: ['2026-exec-error-exact'],
    level: 'MUST',
    killedBy: ['failed-error-altered', 'failed-message-altered'],
    needs: ['failsWithError'],
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      // The message is compared too, where the plain call repeats its message (determinism first).
      let messageRepeats = true;
      const plain = await plainAnswer(ctx, 'failsWithError', (a, b) => {
        if (a.error && b.error && a.error.message !== b.error.message) messageRepeats = false;
        return sameErrorCode(a, b);
      });
      if (!plain.error)
        ctx.skip(`tools/call of "${ctx.tool('failsWithError').name}" without a task did not fail (got ${short(plain.result)}): nothing to compare with`);
      const c = await settledAs(ctx, 'failsWithError', 'failed');
      const e = c.last[Field.error];
      if (!isObj(e)) ctx.skip(`failed task ${c.taskId} has no error object`, { judgedBy: '2026-get.failed-error' });
      ctx.expect(
        e.code === plain.error.code,
        `failed task ${c.taskId} carries error ${short(e.code)} ${short(e.message, 80)}; the same call without a task fails with ${plain.error.code} ${short(plain.error.message, 80)}`,
      );
      if (messageRepeats)
        ctx.expect(
          e.message === plain.error.message,
          `failed task ${c.taskId} carries error ${short(e.code)} with message ${short(e.message, 120)}; the same call without a task fails, twice alike, with message ${short(plain.error.message, 120)}`,
        );
      else if (e.message !== plain.error.message)
        ctx.note(`messages differ: task ${short(e.message, 80)} vs plain ${short(plain.error.message, 80)} (the plain call's message varies)`);
      return `error ${e.code} as the plain call`;
    },
  }),
  modernCheck({
    id: '2026-exec.result-exact',
    title: "a completed task's result is the result of the underlying request",
    section: 'Error Handling',
    requirements: ['2026-exec-result-exact'],
    level: 'MUST',
    killedBy: ['completed-result-altered', 'is-error-dropped'],
    needs: ['completes'],
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      const plain = await plainAnswer(ctx, 'completes', sameToolPart);
      if (plain.error) ctx.skip(`tools/call of "${ctx.tool('completes').name}" without a task answered error ${plain.error.code}: nothing to compare with`);
      if (!Array.isArray(plain.result?.content))
        ctx.skip(`tools/call of "${ctx.tool('completes').name}" without the extension was answered with no content: nothing to compare with`, {
          judgedBy: '2026-version.extension-fallback',
        });
      const c = await settledAs(ctx, 'completes', 'completed');
      const res = c.last[Field.result];
      if (!isObj(res)) ctx.skip(`completed task ${c.taskId} has no result object`, { judgedBy: '2026-get.completed-result' });
      const diff = outcomeDifference(plain, { result: res }, { project: toolPart, names: ['without a task', `inlined in completed task ${c.taskId}`] });
      ctx.expect(diff === undefined, `${diff}`);
      // A tool result with isError (2026-exec-result-exact: "even if isError: true"), compared field by field the same way.
      const also = ctx.info.profile.tools.returnsIsError ? await isErrorOutcome(ctx) : undefined;
      return `result equals the plain call's (${short(toolPart(res), 100)})${also ? `; ${also}` : ''}`;
    },
  }),
  modernCheck({
    id: '2026-exec.tool-error-completed',
    title: 'a tool result with isError: true ends the task completed (with that result), never failed',
    section: 'Error Handling',
    requirements: ['2026-exec-failed-not-for-tool-errors', '2026-exec-tool-error-completed'],
    level: 'MUST',
    killedBy: ['is-error-as-failed', 'is-error-dropped'],
    needs: ['returnsIsError'],
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      const c = await createSettled(ctx, 'returnsIsError');
      skipPastTtl(ctx, c.taskId, c.last);
      const st = c.last[Field.status];
      ctx.expect(
        st !== 'failed',
        `task ${c.taskId} of "${ctx.tool('returnsIsError').name}" (a tool result with isError: true) ended failed (${short(c.last, 300)})`,
      );
      if (st !== 'completed') ctx.skip(`task ${c.taskId} ended ${st}`);
      if (!isObj(c.last[Field.result])) ctx.skip(`completed task ${c.taskId} has no result object`, { judgedBy: '2026-get.completed-result' });
      ctx.expect(
        isObj(c.last[Field.result]) && c.last[Field.result].isError === true,
        `completed task ${c.taskId} of role returnsIsError does not carry the isError: true result (got ${short(c.last[Field.result], 200)})`,
      );
      return `completed with isError: true`;
    },
  }),
  modernCheck({
    id: '2026-lifecycle.terminal-sticky',
    title: 'a terminal status never changes: failed, completed and cancelled tasks stay so on later polls',
    section: 'Task Status',
    requirements: ['2026-get-by-status'],
    level: 'MUST',
    killedBy: ['cancelled-resurrects', 'failed-resumes', 'cancel-rewrites-terminal'],
    needs: ['failsWithError', 'slow'],
    waitsMs: (p) => roleRunMs(p, 'failsWithError') + roleRunMs(p, 'slow') + 500, // the failed task, then the cancelled one past the slow run
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      const failed = await createSettled(ctx, 'failsWithError');
      // A tasks/cancel of the terminal task is a signal that changes nothing (RULINGS.md#ext-cancel-terminal): acked or refused, it stays.
      if (isTerminal(failed.last[Field.status])) await cancelTask(failed.scope, failed.taskId).catch(() => undefined);
      const a = await staysTerminal(ctx, failed, failed.last[Field.status], [...failed.statuses], { polls: 3 });
      // A cancelled slow task is watched past the time its work would have taken (a server that lets the
      // work run on must not turn it completed); one that ended before its cancel took effect is tried once
      // more (cancelFresh), and a second that did too is watched as it ended.
      const { created: slow, ack, watched: w } = await cancelFresh(ctx, 'slow');
      if (ack.error || !w) return `${a}; tasks/cancel answered ${ack.error?.code} (judged by 2026-cancel.ack-empty)`;
      const st = w.last[Field.status] as TaskStatus;
      if (!isTerminal(st)) return a;
      const ms = Number(ctx.tool('slow').arguments?.ms);
      const b = await staysTerminal(ctx, slow, st, [...w.statuses], { polls: 3, windowMs: Math.min(Number.isFinite(ms) ? ms + 500 : 3_000, 6_000) });
      return `failsWithError: ${a}; slow ${st === 'cancelled' ? 'cancelled' : 'after tasks/cancel'}: ${b}`;
    },
  }),
  // Task.lastUpdatedAt is "when the task was last updated" (ext-tasks schema): a status change moves it past
  // createdAt, judged only where the change came surely later than the creation by more than the precision
  // both timestamps show (suites/judge/timestamps.ts), and it never goes back.
  modernCheck({
    id: '2026-get.last-updated-moves',
    title: "lastUpdatedAt moves past createdAt when the task's status changes, and never goes back",
    section: SECTION,
    requirements: ['2026-get-by-status'],
    level: 'MUST',
    killedBy: ['last-updated-frozen'],
    needs: ['slow'],
    waitsMs: (p) => roleRunMs(p, 'slow'),
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      const c = await createTask(ctx, 'slow');
      const createdBy = Date.now(); // the task was created before its CreateTaskResult arrived, so before this
      const seen: { t: Record<string, any>; at: number }[] = [];
      const w = await watch(
        ctx,
        c.taskId,
        (t) => {
          seen.push({ t, at: Date.now() });
          return isTerminal(t[Field.status]);
        },
        { scope: c.scope, allowGone: true, boundMs: timeLeft(ctx, { marginMs: 3_000, floorMs: 1_000 }), label: 'polling the slow task to its end' },
      );
      const changes: string[] = [];
      for (let i = 1; i < seen.length; i++) {
        const a = seen[i - 1]!.t;
        const b = seen[i]!.t;
        const back = orderOfText(a[Field.lastUpdatedAt], b[Field.lastUpdatedAt], TIMESTAMP_READING);
        ctx.expect(back !== 1, `task ${c.taskId}: lastUpdatedAt went back from ${short(a[Field.lastUpdatedAt])} to ${short(b[Field.lastUpdatedAt])}`);
        if (a[Field.status] === b[Field.status] || pastTtl(b)) continue;
        // The change came after poll i was sent, so after poll i-1 arrived: at least that long after the creation.
        const gapMs = seen[i - 1]!.at - createdBy;
        const p = Math.max(
          ...[b[Field.createdAt], b[Field.lastUpdatedAt]].map((v) =>
            typeof v === 'string' ? (readTimestamp(v, TIMESTAMP_READING)?.precisionMs ?? Infinity) : Infinity,
          ),
        );
        const order = orderOfText(b[Field.createdAt], b[Field.lastUpdatedAt], TIMESTAMP_READING);
        changes.push(`${a[Field.status]} → ${b[Field.status]}: lastUpdatedAt ${short(b[Field.lastUpdatedAt])} (createdAt ${short(b[Field.createdAt])})`);
        if (gapMs > 2 * p + 500 && order !== undefined)
          ctx.expect(
            order === -1,
            `task ${c.taskId} went ${a[Field.status]} → ${b[Field.status]} at least ${gapMs} ms after it was created, yet lastUpdatedAt is ${short(b[Field.lastUpdatedAt])} with createdAt ${short(b[Field.createdAt])}: the update is not reflected`,
          );
      }
      if (!changes.length) ctx.skip(`no status change seen (${seqText(w.statuses)}${w.gone ? ', then gone' : ''})`);
      return changes.join('; ');
    },
  }),
  // RULINGS.md#ext-ttl-before-expiry: before createdAt + ttlMs the task is the server's to answer for; a
  // -32602 for a task it just showed terminal (no cancel sent) fails 2026-get-by-status.
  modernCheck({
    id: '2026-get.retained-until-ttl',
    title: 'a finished task stays retrievable until its ttlMs elapses (tasks/get shows it, not -32602)',
    section: SECTION,
    requirements: ['2026-get-by-status'],
    level: 'MUST',
    killedBy: ['deleted-at-end'],
    needs: ['completes'],
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      const c = await createSettled(ctx, 'completes');
      const windowMs = ctx.bound(1_500, 0);
      const started = Date.now();
      const w = await watch(ctx, c.taskId, (_t, n) => n >= 3 && Date.now() - started >= windowMs, {
        scope: c.scope,
        allowGone: true,
        boundMs: timeLeft(ctx, { marginMs: 3_000, floorMs: 1_000, capMs: windowMs + 3_000 }),
        label: 'polling the finished task',
        onFailure: 'not-exercised',
      });
      const last = w.last ?? c.last;
      if (w.gone) {
        skipPastTtl(ctx, c.taskId, last);
        ctx.violation(
          `task ${c.taskId} showed ${c.last[Field.status]} (ttlMs ${short(last[Field.ttlMs])}, createdAt ${short(last[Field.createdAt])}); ${Date.now() - started} ms later, before its ttl elapsed and with no tasks/cancel sent, tasks/get answered ${w.gone.code} ${short(w.gone.message, 80)}`,
        );
      }
      return `task ${c.taskId} still shown ${seqText(w.statuses)} over ${w.elapsedMs} ms (ttlMs ${short(last[Field.ttlMs])})`;
    },
  }),
  // The status diagram, judged on every status the run showed (each check's tasks/get, CreateTaskResults,
  // notifications/tasks, listen streams), not only on this check's own polls: a completed task re-reported as
  // failed anywhere is caught here (suites/judge/transitions.ts; RULINGS.md#ext-ttl-before-expiry exempts what
  // came past a task's ttl).
  modernCheck({
    id: '2026-lifecycle.every-status',
    title: 'every status the run saw of each task follows the status diagram (a terminal status never changes)',
    section: 'Task Status',
    requirements: ['2026-get-by-status'],
    level: 'MUST',
    killedBy: ['cancelled-resurrects', 'failed-resumes', 'completed-refails', 'cancel-rewrites-terminal'],
    runsLast: true,
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      await ctx.othersDone();
      return judgeEveryStatus(ctx, TASK_MACHINE, statusSightings(ctx), 'the status diagram');
    },
  }),
];
