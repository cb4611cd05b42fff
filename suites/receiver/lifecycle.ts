// Checks for tasks.md "Task Status Lifecycle" and "Input Required Status" (Behavior Requirements);
// requirement ids from schema/requirements.json.
import { roleRunMs } from '../engine/profile.ts';
import { defineCheck, type CheckContext, type CheckDef } from '../engine/check.ts';
import { cancelFresh, cancelQuietly, createTask, toTerminalAndBeyond } from '../arrange/arrange.ts';
import { awaitInputRequest, awaitInputRequired, inputElsewhere, skipIfMisrouted, startInputTask, withInputTask } from '../arrange/input.ts';
import { delay, getTask, observe, seqText, type Observation } from '../arrange/poll.ts';
import type { Message } from '../wire/peer.ts';
import { statusNotifications } from '../arrange/tasks.ts';
import { short } from '../engine/text.ts';
import { timeLeft } from '../arrange/budget.ts';
import { firstIllegalStep, isTaskStatus, isTerminal, RELATED_TASK_META, TASK_MACHINE, type TaskStatus } from '../../schema/protocol.ts';
import { judgeEveryStatus, statusSightings } from '../arrange/sightings.ts';

const SECTION = 'Task Status Lifecycle';

/** Longest the cancelled `slow` task is watched (normally: until an uncancelled twin of it ends). */
const SLOW_WATCH_MAX_MS = 20_000;

function pathMessage(seq: TaskStatus[], where: string): string | null {
  const bad = firstIllegalStep(seq);
  if (!bad) return null;
  return `illegal transition ${bad.from} → ${bad.to} in ${where} (step ${bad.index} of ${seqText(seq)})`;
}

/** Needed profile role, plus the wait budgets of the input flow. */
const INPUT_WAIT_MS = 8_000;
const INPUT_TIMEOUT_MS = 45_000;

export const checks: CheckDef[] = [
  // --- valid paths (lifecycle-valid-paths) -----------------------------------------------------
  ...(['completes', 'fails'] as const).map((role) =>
    defineCheck({
      id: `lifecycle.paths-${role}`,
      title: `every status change of a ${role === 'completes' ? 'completing' : 'failing'} task follows the allowed graph`,
      section: SECTION,
      requirements: ['lifecycle-valid-paths'],
      level: 'MUST',
      clientReceiver: true,
      killedBy: role === 'fails' ? ['illegal-transition', 'unknown-status'] : ['unknown-status'],
      needsCapabilities: ['tasks.requests.tools.call'],
      needs: [role],
      async run(ctx: CheckContext) {
        const c = await createTask(ctx, role);
        const seq: TaskStatus[] = isTaskStatus(c.task.status) ? [c.task.status] : [];
        if (!isTaskStatus(c.task.status)) ctx.violation(`CreateTaskResult status ${short(c.task.status)} is not a task status`);
        const { terminal } = await toTerminalAndBeyond(ctx, c.taskId, seq, 1, { viaResult: true, onFailure: 'violation' });
        const bad = pathMessage(seq, 'CreateTaskResult + tasks/get polls');
        const notes = statusNotifications(ctx.peer, c.taskId).map((m) => m.params?.status);
        const badNote = notes.every(isTaskStatus)
          ? pathMessage(notes as TaskStatus[], 'notifications/tasks/status')
          : `notifications/tasks/status carried non-status values ${short(notes)}`;
        ctx.expect(!bad && !badNote, [bad, badNote].filter(Boolean).join('; '));
        return `statuses seen: ${seqText(seq)} (terminal ${terminal})${notes.length ? `; notifications: ${seqText(notes)}` : ''}`;
      },
    }),
  ),
  defineCheck({
    id: 'lifecycle.paths-cancelled',
    title: 'every status change of a cancelled task follows the allowed graph',
    section: SECTION,
    requirements: ['lifecycle-valid-paths'],
    level: 'MUST',
    clientReceiver: true,
    killedBy: ['unknown-status'],
    needs: ['slow'],
    needsCapabilities: ['tasks.requests.tools.call', 'tasks.cancel'],
    async run(ctx: CheckContext) {
      // One path per task: a poll before the cancel (a status while working is judged too); when the first task
      // ended before its cancel arrived, a second is cancelled at once and both paths are judged.
      const paths: TaskStatus[][] = [];
      const {
        created: c,
        cancel: r,
        endedFirst,
      } = await cancelFresh(ctx, 'slow', {
        async before(t, attempt) {
          const path: TaskStatus[] = isTaskStatus(t.task.status) ? [t.task.status] : [];
          paths.push(path);
          if (!isTaskStatus(t.task.status)) ctx.violation(`CreateTaskResult status ${short(t.task.status)} is not a task status`);
          if (attempt === 1) await observe(ctx, t.taskId, (_t, n) => n >= 1, { boundMs: 5_000, into: path, onFailure: 'violation' });
        },
      });
      const seq = paths[paths.length - 1]!;
      if (endedFirst) {
        const first = [...paths[0]!, endedFirst.status];
        const badFirst = pathMessage(first, "the first task's CreateTaskResult and tasks/get results");
        ctx.expect(!badFirst, badFirst ?? '');
      }
      if (r.error) ctx.skip(`tasks/cancel answered ${r.error.code} ${r.error.message} (seen ${seqText(seq)}); the cancelled path was not observed`);
      if (!isTaskStatus(r.result?.status)) ctx.violation(`tasks/cancel result status ${short(r.result?.status)} is not a task status`);
      seq.push(r.result.status);
      const o = await observe(ctx, c.taskId, (t, n) => isTerminal(t.status) && n >= 2, {
        boundMs: timeLeft(ctx, { marginMs: 4_000, floorMs: 2_000 }),
        into: seq,
        allowGone: true,
        onFailure: 'violation',
      });
      const bad = pathMessage(seq, 'CreateTaskResult, tasks/get and tasks/cancel results');
      ctx.expect(!bad, bad ?? '');
      return `statuses seen: ${seqText(seq)}${o.gone ? ` (then deleted: ${o.gone.message})` : ''}`;
    },
  }),
  defineCheck({
    id: 'lifecycle.paths-input',
    title: 'every status change of a task that needs input follows the allowed graph',
    section: SECTION,
    requirements: ['lifecycle-valid-paths'],
    level: 'MUST',
    killedBy: ['unknown-status'],
    needsCapabilities: ['tasks.requests.tools.call'],
    needs: ['needsInput'],
    timeoutMs: INPUT_TIMEOUT_MS,
    opensConnections: 1,
    async run(ctx: CheckContext) {
      const run = await startInputTask(ctx);
      let o: Observation;
      try {
        o = await awaitInputRequired(ctx, run, INPUT_WAIT_MS, 'violation');
        await awaitInputRequest(ctx, run, 5_000);
      } finally {
        run.release();
      }
      if (run.requests.length === 0 && !isTerminal(o.last.status)) {
        // Without its input the task cannot go on: judge the path so far, and say the rest was not seen.
        const sofar = pathMessage(run.statuses, 'CreateTaskResult + tasks/get polls');
        ctx.expect(!sofar, sofar ?? '');
        await cancelQuietly(ctx, run.taskId, run.session);
        skipIfMisrouted(ctx, run.taskId);
        ctx.skip(
          `no input request arrived (tasks/result ${run.result ? 'sent' : 'not sent'}); path seen so far is valid but incomplete: ${seqText(run.statuses)}`,
        );
      }
      const { terminal } = await toTerminalAndBeyond(ctx, run.taskId, run.statuses, 1, { peer: run.session, onFailure: 'violation' });
      const bad = pathMessage(run.statuses, 'CreateTaskResult + tasks/get polls');
      ctx.expect(!bad, bad ?? '');
      return `statuses seen: ${seqText(run.statuses)} (terminal ${terminal}; ${run.requests.length} input request(s) answered)`;
    },
  }),

  // --- terminal states are final (lifecycle-terminal-sticky) -----------------------------------
  ...(['completes', 'fails'] as const).map((role) =>
    defineCheck({
      id: `lifecycle.terminal-sticky-${role === 'completes' ? 'completed' : 'failed'}`,
      title: `a ${role === 'completes' ? 'completed' : 'failed'} task keeps its terminal status on later polls`,
      section: SECTION,
      requirements: ['lifecycle-terminal-sticky'],
      level: 'MUST',
      clientReceiver: true,
      killedBy: role === 'fails' ? ['illegal-transition'] : ['completed-resumes'],
      needsCapabilities: ['tasks.requests.tools.call'],
      needs: [role],
      waitsMs: (p) => 2 * roleRunMs(p, role),
      async run(ctx: CheckContext) {
        const c = await createTask(ctx, role);
        const seq: TaskStatus[] = isTaskStatus(c.task.status) ? [c.task.status] : [];
        const { terminal, after, gone } = await toTerminalAndBeyond(ctx, c.taskId, seq, 5, { viaResult: true, onFailure: 'violation' });
        const changed = after.find((s) => s !== terminal);
        const notes = statusNotifications(ctx.peer, c.taskId).map((m) => m.params?.status);
        const ti = notes.findIndex((s) => s === terminal);
        const noteChanged = ti >= 0 ? notes.slice(ti + 1).find((s) => s !== terminal) : undefined;
        ctx.expect(
          changed === undefined && noteChanged === undefined,
          [
            changed !== undefined ? `task ${c.taskId} reached ${terminal}, then tasks/get reported ${changed} (seen ${seqText(seq)})` : '',
            noteChanged !== undefined ? `notifications/tasks/status reported ${noteChanged} after ${terminal} (${seqText(notes)})` : '',
          ]
            .filter(Boolean)
            .join('; '),
        );
        return `${terminal} stayed ${terminal} over ${after.length} later poll(s)${gone ? ` (then deleted: ${gone.message})` : ''}: ${seqText(seq)}`;
      },
    }),
  ),
  defineCheck({
    id: 'lifecycle.terminal-sticky-cancelled',
    title: 'a cancelled task stays cancelled for as long as its work would have run',
    section: SECTION,
    requirements: ['lifecycle-terminal-sticky'],
    level: 'MUST',
    clientReceiver: true,
    killedBy: ['cancelled-resurrects', 'cancel-answer-only'],
    needs: ['slow'],
    waitsMs: (p) => roleRunMs(p, 'slow'), // the twin's run
    needsCapabilities: ['tasks.requests.tools.call', 'tasks.cancel'],
    timeoutMs: SLOW_WATCH_MAX_MS + 10_000,
    async run(ctx: CheckContext) {
      let created = Date.now();
      // The task is cancelled first (a second one if the first ended before its cancel arrived); its twin, left to
      // run, is started after the cancel: once the twin ends, the cancelled task's work would have ended too.
      const { created: c, cancel: r } = await cancelFresh(ctx, 'slow', {
        async before(_t, attempt) {
          if (attempt > 1) created = Date.now();
        },
      });
      if (r.error) ctx.skip(`tasks/cancel of the fresh slow task answered ${r.error.code} ${r.error.message}; no cancelled task to watch`);
      const twin = await createTask(ctx, 'slow');
      try {
        const seq: TaskStatus[] = isTaskStatus(c.task.status) ? [c.task.status] : [];
        if (isTaskStatus(r.result?.status)) seq.push(r.result.status);
        // Reach `cancelled` first (a late transition is the cancel checks' business), then watch.
        const o = await observe(ctx, c.taskId, (t) => isTerminal(t.status), { boundMs: 5_000, into: seq, allowGone: true });
        if (o.gone) ctx.skip(`the cancelled task was deleted at once (${o.gone.message}; allowed, RULINGS.md#delete-vs-sticky): nothing to watch`);
        const terminal = o.last.status as TaskStatus;
        if (terminal !== 'cancelled') {
          // A task once shown cancelled (the tasks/cancel answer) that later shows another terminal status left a terminal status.
          if (r.result?.status === 'cancelled') ctx.violation(`the task was cancelled, then tasks/get reported ${terminal} (seen ${seqText(seq)})`);
          ctx.skip(`after tasks/cancel the task reached ${terminal}, not cancelled (seen ${seqText(seq)}); cancel checks judge that`);
        }
        let twinEnd: { at: number; status: string } | undefined;
        const twinWatch = observe(ctx, twin.taskId, (t) => isTerminal(t.status), {
          boundMs: SLOW_WATCH_MAX_MS,
          allowGone: true,
          label: 'timing the twin slow task',
        }).then((w) => {
          twinEnd = { at: Date.now(), status: w.gone ? 'deleted' : w.timedOut ? 'still running' : w.last.status };
        });
        twinWatch.catch(() => undefined); // judged below; never an unhandled rejection if the watch ends the check first
        const before = seq.length;
        let pollsAtTwinEnd = -1;
        const watch = await observe(
          ctx,
          c.taskId,
          (_t, n) => {
            if (twinEnd && pollsAtTwinEnd < 0) pollsAtTwinEnd = n;
            return n >= 3 && pollsAtTwinEnd >= 0 && n - pollsAtTwinEnd >= 2;
          },
          { boundMs: SLOW_WATCH_MAX_MS + 3_000, into: seq, allowGone: true, label: 'watching the cancelled task' },
        );
        await twinWatch;
        const after = seq.slice(before);
        const changed = after.find((s) => s !== 'cancelled');
        const span = Date.now() - created;
        ctx.expect(
          changed === undefined,
          `task ${c.taskId} was cancelled, then tasks/get reported ${changed} (seen ${seqText(seq)}; ${span} ms after creation; the uncancelled twin ended ${twinEnd?.status} after ${twinEnd ? twinEnd.at - created : '?'} ms)`,
        );
        if (twinEnd?.status === 'still running') ctx.note(`the twin slow task was still running after ${SLOW_WATCH_MAX_MS} ms: watched only that long`);
        return `cancelled stayed cancelled over ${after.length} poll(s) until ${span} ms after creation (its uncancelled twin ended ${twinEnd?.status} after ${twinEnd ? twinEnd.at - created : '?'} ms)${watch.gone ? ` (then deleted: ${watch.gone.message})` : ''}`;
      } finally {
        await cancelQuietly(ctx, twin.taskId);
      }
    },
  }),

  // --- input_required ---------------------------------------------------------------------------
  defineCheck({
    id: 'lifecycle.input-required-reached',
    title: 'a task that needs input from the requestor moves to input_required',
    section: SECTION,
    requirements: ['input-required-move'],
    level: 'SHOULD',
    killedBy: ['no-input-required'],
    needsCapabilities: ['tasks.requests.tools.call'],
    needs: ['needsInput'],
    timeoutMs: INPUT_TIMEOUT_MS,
    opensConnections: 1,
    async run(ctx: CheckContext) {
      return withInputTask(ctx, async (run) => {
        const o = await awaitInputRequired(ctx, run, INPUT_WAIT_MS);
        if (o.last.status === 'input_required') return `reached input_required after ${o.elapsedMs} ms (${seqText(run.statuses)})`;
        if (isTerminal(o.last.status) && run.requests.length === 0) {
          ctx.skip(`the needsInput task ended ${o.last.status} without asking for input (${seqText(run.statuses)})`);
        }
        // Still working (or an input request came while working): ask for the input through tasks/result.
        const req = await awaitInputRequest(ctx, run, 5_000);
        if (!req) skipIfMisrouted(ctx, run.taskId);
        if (!req) ctx.skip(`no input request arrived (status stayed ${o.last.status} for ${o.elapsedMs} ms, and none came on tasks/result within 5 s)`);
        const held = await getTask(ctx, run.taskId, run.session);
        const st = held.result?.status;
        if (isTaskStatus(st)) run.statuses.push(st);
        run.statusWhileHeld = st;
        ctx.expect(
          st === 'input_required',
          `the receiver sent ${req.method} for task ${run.taskId} and waits for the answer, but the task is ${short(st)}, not input_required (seen ${seqText(run.statuses)})`,
        );
        return `input_required while the ${req.method} was pending (${seqText(run.statuses)})`;
      });
    },
  }),
  defineCheck({
    id: 'lifecycle.input-related-task',
    title: 'the input request of an input_required task carries related-task _meta with the task id',
    section: SECTION,
    requirements: ['input-required-related-task'],
    level: 'MUST',
    killedBy: ['input-no-related-task'],
    needsCapabilities: ['tasks.requests.tools.call'],
    needs: ['needsInput'],
    timeoutMs: INPUT_TIMEOUT_MS,
    opensConnections: 1,
    async run(ctx: CheckContext) {
      return withInputTask(ctx, async (run) => {
        await awaitInputRequired(ctx, run, INPUT_WAIT_MS);
        const req = await awaitInputRequest(ctx, run, 5_000);
        if (!req) skipIfMisrouted(ctx, run.taskId);
        if (!req) ctx.skip(`the needsInput task sent no input request (statuses ${seqText(run.statuses)})`);
        const meta = req.params?._meta?.[RELATED_TASK_META];
        ctx.expect(meta !== undefined, `${req.method} for task ${run.taskId} has no _meta["${RELATED_TASK_META}"] (params._meta: ${short(req.params?._meta)})`);
        ctx.expect(meta?.taskId === run.taskId, `${req.method} carries related-task taskId ${short(meta?.taskId)}, expected ${JSON.stringify(run.taskId)}`);
        return `${req.method} carried related-task taskId ${run.taskId}`;
      });
    },
  }),
  defineCheck({
    // The related-task metadata associates the input request "with the task": it goes to that task's
    // requestor. A bystander session, opened first and owning no task, is watched for input requests naming
    // a task, and the shared connection for ones naming this check's task. Delivered elsewhere, the request
    // carries the task to another context; that breaks security-bind-context where the receiver keeps the
    // two apart (the other connection's tasks/get of the task answers an error). Without such a binding (no
    // authorization context: any session may read the task) it is only noted. Whether the request carries
    // related-task is lifecycle.input-related-task's. Over stdio the bystander is another process.
    id: 'lifecycle.input-to-own-requestor',
    title: 'the input request of an input_required task goes to the session that created the task, not to one kept apart from it',
    section: SECTION,
    requirements: ['security-bind-context'],
    level: 'MUST',
    needsCapabilities: ['tasks.requests.tools.call'],
    killedBy: ['input-to-every-session'],
    needs: ['needsInput'],
    timeoutMs: INPUT_TIMEOUT_MS,
    opensConnections: 2,
    async run(ctx: CheckContext) {
      // The binding MUST applies "when an authorization context is provided" (security-bind-context): the bystander
      // is a second identity when one is configured; sessions of one identity share their context (only noted).
      const separate = ctx.connector.hasSecondIdentity;
      const bystander = await ctx.openSession(separate ? { identity: 'secondary' } : undefined);
      const stray: Message[] = [];
      bystander.onRequest((req) => {
        if (req.method !== 'elicitation/create' && req.method !== 'sampling/createMessage') return undefined;
        stray.push(req);
        return req.method === 'elicitation/create' ? { result: { action: 'decline' } } : { error: { code: -32603, message: 'not this requestor' } };
      });
      return withInputTask(ctx, async (run) => {
        run.release(); // the owner answers at once: the task can end
        await awaitInputRequired(ctx, run, INPUT_WAIT_MS);
        const req = await awaitInputRequest(ctx, run, 5_000);
        if (run.result) await Promise.race([run.result, delay(5_000)]);
        const named = (m: Message) => m.params?._meta?.[RELATED_TASK_META]?.taskId;
        const elsewhere = [
          ...stray.filter((m) => typeof named(m) === 'string').map((m) => ({ m, on: bystander, where: 'a bystander session' })),
          ...inputElsewhere(ctx, run.taskId).map((m) => ({ m, on: ctx.peer, where: 'the shared connection' })),
        ];
        if (elsewhere.length) {
          // Does the receiver keep that connection apart from the task? Its own answer says so.
          const { m, on, where } = elsewhere[0]!;
          const g = await getTask(ctx, named(m), on);
          const what = `${elsewhere.length} input request(s) for tasks of another session arrived on ${where} (e.g. ${m.method} naming task ${short(named(m))}${named(m) === run.taskId ? ', the task of this check' : ''})`;
          if (g.error && separate && on === bystander)
            ctx.violation(
              `${what}, another authorization context (a second identity) that the receiver keeps apart from the task: its tasks/get of the task answers ${g.error.code} ${short(g.error.message, 80)}`,
              {
                cause: "a task's input request delivered to another connection",
              },
            );
          ctx.note(
            `${what}; not judged: ${g.error ? 'the receiver scopes tasks to sessions, but no authorization context separates two sessions of one identity (security-bind-context binds to an authorization context when one is provided)' : 'that connection can read the task too (no authorization context separates them)'}`,
          );
        }
        if (!req && !elsewhere.length) ctx.skip(`the needsInput task sent no input request (statuses ${seqText(run.statuses)})`);
        if (stray.length > elsewhere.filter((e) => e.on === bystander).length)
          ctx.note(`the bystander session also received input request(s) without related-task`);
        return req
          ? `${req.method} for task ${run.taskId} reached its own session${elsewhere.length ? '' : ' only'}`
          : 'the input request reached another connection only';
      });
    },
  }),
  defineCheck({
    id: 'lifecycle.input-resume',
    title: 'once its input arrives, the task leaves input_required',
    section: SECTION,
    requirements: ['input-required-resume'],
    level: 'SHOULD',
    killedBy: ['input-stuck'],
    needsCapabilities: ['tasks.requests.tools.call'],
    needs: ['needsInput'],
    timeoutMs: INPUT_TIMEOUT_MS,
    opensConnections: 1,
    async run(ctx: CheckContext) {
      return withInputTask(ctx, async (run) => {
        const o = await awaitInputRequired(ctx, run, INPUT_WAIT_MS);
        const req = await awaitInputRequest(ctx, run, 5_000);
        if (!req) skipIfMisrouted(ctx, run.taskId);
        if (!req) ctx.skip(`the needsInput task sent no input request (statuses ${seqText(run.statuses)})`);
        const held = await getTask(ctx, run.taskId, run.session);
        if (isTaskStatus(held.result?.status)) run.statuses.push(held.result.status);
        if (held.result?.status !== 'input_required' && o.last.status !== 'input_required') {
          ctx.skip(`the task never showed input_required (${seqText(run.statuses)}); lifecycle.input-required-reached judges that`);
        }
        run.release();
        const answered = Date.now();
        const left = await observe(ctx, run.taskId, (t) => t.status !== 'input_required', {
          boundMs: ctx.bound(10_000), // RULINGS.md#response-time: scaled to the run's observed latency
          peer: run.session,
          into: run.statuses,
          allowGone: true,
          label: 'waiting to leave input_required',
        });
        ctx.expect(
          !left.timedOut,
          `the input request was answered, yet the task stayed input_required for ${Date.now() - answered} ms (${seqText(run.statuses)})`,
        );
        return `left input_required ${Date.now() - answered} ms after the answer, to ${left.gone ? '(deleted)' : left.last.status} (${seqText(run.statuses)})`;
      });
    },
  }),
  // The transition table judged on every status the run showed (each check's CreateTaskResults, tasks/get,
  // tasks/cancel answers, tasks/list entries, notifications/tasks/status), not only on this check's own polls
  // (suites/judge/transitions.ts); what arrived past a task's ttl is not judged (ttl-delete-after-expiry-may).
  defineCheck({
    id: 'lifecycle.every-status',
    title: 'every status the run saw of each task follows the allowed graph (a terminal status never changes)',
    section: SECTION,
    requirements: ['lifecycle-terminal-sticky', 'lifecycle-valid-paths'],
    level: 'MUST',
    killedBy: ['illegal-transition', 'completed-resumes', 'cancelled-resurrects', 'cancel-answer-only', 'status-notification-wrong-status'],
    runsLast: true,
    async run(ctx: CheckContext) {
      await ctx.othersDone();
      return judgeEveryStatus(ctx, TASK_MACHINE, statusSightings(ctx), 'the allowed graph');
    },
  }),
];
