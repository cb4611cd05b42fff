// Checks for progress notifications of tasks (progress.md "Behavior Requirements" item 3, lines 71-73;
// tasks.md "Task Progress Notifications") and for notifications/cancelled aimed at a task
// (cancellation.md line 38). Requirement ids from schema/requirements.json.
//
// progress.same-token runs on a session of its own: its only request carrying a progressToken is the
// task-creating call, so every notifications/progress on that connection belongs to the task.
// progress.stop-after-terminal reads only its own token and task, so over stdio and in process (one ordered
// stream) it runs on the shared connection; over HTTP on a session of its own: the shared session's GET stream
// carries every check's notifications and lags behind the POST answers (RULINGS.md#http-stream-order).
import { randomUUID } from 'node:crypto';
import { defineCheck, type CheckContext, type CheckDef } from '../engine/check.ts';
import type { Message, Scope, TranscriptEntry } from '../wire/peer.ts';
import { isTaskStatus, isTerminal, RELATED_TASK_META } from '../../schema/protocol.ts';
import { createTask, reachTerminal } from '../arrange/arrange.ts';
import { delay, getTask, pollDelay } from '../arrange/poll.ts';
import { short } from '../engine/text.ts';
import { PROGRESS_WITHOUT_RELATED_TASK, targetTranscripts } from '../arrange/tasks.ts';

const SECTION = 'Task Progress Notifications';
/** How long a task is watched after notifications/cancelled for its request. */
const CANCELLED_WATCH_MS = 1_000;

const isProgress = (e: TranscriptEntry) => e.dir === 'in' && (e.message as Message | undefined)?.method === 'notifications/progress';
const tokenOf = (e: TranscriptEntry) => (e.message as Message).params?.progressToken;

/** Does this incoming message show task `taskId` in a terminal status? (Task objects in results, lists and status notifications.) */
function showsTerminal(m: Message | undefined, taskId: string): boolean {
  if (!m || typeof m !== 'object') return false;
  const terminalTask = (t: any) => t && typeof t === 'object' && t.taskId === taskId && isTaskStatus(t.status) && isTerminal(t.status);
  if (m.method === 'notifications/tasks/status') return terminalTask(m.params);
  const r = m.result;
  if (!r || typeof r !== 'object') return false;
  return terminalTask(r) || terminalTask(r.task) || (Array.isArray(r.tasks) && r.tasks.some(terminalTask));
}

/** Creates a `progress` task with a fresh progressToken, on a session of its own or (`shared`) on the shared connection. */
async function progressTask(ctx: CheckContext, shared = false): Promise<{ s: Scope; token: string; taskId: string; task: any; createdSeq: number }> {
  const s = shared ? ctx.peer : await ctx.openSession();
  const token = `conformance-progress-${randomUUID()}`;
  const created = await createTask(ctx, 'progress', { peer: s, meta: { progressToken: token } });
  const createdEntry = s.peer.transcript.find((e) => e.dir === 'in' && e.message === created.response.message);
  return { s, token, taskId: created.taskId, task: created.task, createdSeq: createdEntry?.seq ?? -1 };
}

/** Progress of task-augmented requests on one connection: token → its task and where its CreateTaskResult arrived. */
function taskTokens(entries: readonly TranscriptEntry[]): Map<string, { taskId: string; createdSeq: number }> {
  const byId = new Map<string, Message>();
  for (const e of entries) {
    const m = e.message as Message | undefined;
    if (
      e.dir === 'out' &&
      m &&
      typeof m === 'object' &&
      'method' in m &&
      'id' in m &&
      m.params?.task !== undefined &&
      m.params?._meta?.progressToken !== undefined
    )
      byId.set(JSON.stringify(m.id), m);
  }
  const tokens = new Map<string, { taskId: string; createdSeq: number }>();
  for (const e of entries) {
    const m = e.message as Message | undefined;
    if (e.dir !== 'in' || !m || typeof m !== 'object' || 'method' in m) continue;
    const req = byId.get(JSON.stringify(m.id));
    const taskId = m.result?.task?.taskId;
    if (req && typeof taskId === 'string') tokens.set(JSON.stringify(req.params._meta.progressToken), { taskId, createdSeq: e.seq });
  }
  return tokens;
}

export const checks: CheckDef[] = [
  // MUST: progress for a task keeps the original request's progressToken (also after CreateTaskResult).
  defineCheck({
    id: 'progress.same-token',
    title: "A task's progress notifications use the progressToken of the task-creating request",
    section: SECTION,
    requirements: ['progress-same-token'],
    level: 'MUST',
    killedBy: ['progress-new-token'],
    needs: ['progress'],
    opensConnections: 1,
    async run(ctx: CheckContext) {
      const { s, token, taskId, task, createdSeq } = await progressTask(ctx);
      await reachTerminal(ctx, taskId, { peer: s, initial: task, role: 'progress' });
      const progress = s.peer.transcript.filter(isProgress);
      const foreign = progress.filter((e) => tokenOf(e) !== token);
      ctx.expect(
        foreign.length === 0,
        `notifications/progress with tokens other than the task's ${JSON.stringify(token)} arrived on a connection whose only progressToken was that one: ${foreign
          .slice(0, 3)
          .map((e) => short(tokenOf(e)))
          .join(', ')}${foreign.length > 3 ? ` (+${foreign.length - 3})` : ''}`,
      );
      if (progress.length === 0) ctx.skip(`the progress tool "${ctx.tool('progress').name}" sent no notifications/progress for task ${taskId}`);
      const after = progress.filter((e) => e.seq > createdSeq).length;
      if (after === 0) ctx.note('every progress notification came before the CreateTaskResult, so the token after it was not observed');
      return `${progress.length} progress notifications, all with the original token (${after} after the CreateTaskResult)`;
    },
  }),

  // MUST: progress stops once the task is terminal. Judged in wire order (RULINGS.md#progress-token-lifetime,
  // RULINGS.md#http-stream-order; progress before the CreateTaskResult: RULINGS.md#progress-before-create): after the
  // first message of the receiver that shows the task terminal, no notifications/progress with its
  // token may follow; waits a bounded settle time (2 × pollInterval, 200 … 1000 ms) for late ones.
  defineCheck({
    id: 'progress.stop-after-terminal',
    title: 'No progress notification for a task after it reached a terminal status',
    section: SECTION,
    requirements: ['progress-stop-after-terminal'],
    level: 'MUST',
    killedBy: ['progress-after-terminal'],
    needs: ['progress'],
    opensConnections: 1, // over HTTP only
    async run(ctx: CheckContext) {
      const { s, token, taskId, task } = await progressTask(ctx, ctx.info.transport !== 'http');
      const last = await reachTerminal(ctx, taskId, { peer: s, initial: task, role: 'progress' });
      await delay(Math.min(1_000, Math.max(200, 2 * pollDelay(ctx, last))));
      // The check's own exchanges and what names its task or token (Scope), in wire order: other checks' messages
      // on the shared connection (a tasks/list showing this task) are not its observation.
      const tr = s.transcript;
      const terminal = tr.find((e) => e.dir === 'in' && showsTerminal(e.message as Message, taskId));
      if (!terminal) ctx.violation(`polling ended with task ${taskId} ${last?.status} but no incoming message showing it terminal was recorded`);
      const mine = tr.filter((e) => isProgress(e) && tokenOf(e) === token);
      if (mine.length === 0) ctx.skip(`the progress tool "${ctx.tool('progress').name}" sent no notifications/progress for task ${taskId}: nothing to judge`);
      const late = mine.filter((e) => e.seq > terminal.seq);
      // Over HTTP one notification sent before the terminal status may still arrive after it (RULINGS.md#http-stream-order).
      const inFlight = ctx.info.transport === 'http' ? 1 : 0;
      if (late.length > 0 && late.length <= inFlight)
        ctx.note(
          `${late.length} progress notification arrived after the task was shown ${last?.status}; over HTTP it may have been sent before (RULINGS.md#http-stream-order)`,
        );
      ctx.expect(
        late.length <= inFlight,
        `${late.length} notifications/progress with the task's token arrived after the task was shown ${last?.status} (at +${terminal.ms} ms): ${late
          .slice(0, 3)
          .map((e) => `+${e.ms} ms ${short((e.message as Message).params, 120)}`)
          .join('; ')}`,
      );
      return `${mine.length} progress notifications, all before the task was shown ${last?.status}`;
    },
  }),

  // cancellation.md line 38 is a requestor MUST (use tasks/cancel, not notifications/cancelled). The
  // receiver side is unspecified, and receivers MAY ignore a notifications/cancelled for a request that
  // has already completed (the CreateTaskResult answered it), so the suite never fails a receiver here
  // (RULINGS.md#cancelled-notification-receiver). This sends the forbidden notification on purpose and reports what the receiver did
  // with the task. Info only.
  defineCheck({
    id: 'progress.cancelled-notification-not-for-tasks',
    title: 'What a receiver does with notifications/cancelled for a task-creating request (tasks/cancel is the way)',
    section: SECTION,
    requirements: ['cancellation-use-tasks-cancel'],
    level: 'MAY',
    clientReceiver: true,
    weakerLevel:
      'the MUST binds the requestor; what a receiver does with the notification is unspecified (RULINGS.md#cancelled-notification-receiver), so it is only reported',
    killedBy: [],
    needs: ['slow'],
    waitsMs: () => CANCELLED_WATCH_MS,
    async run(ctx: CheckContext) {
      const created = await createTask(ctx, 'slow');
      await ctx.peer.notify('notifications/cancelled', {
        requestId: created.response.id,
        reason: 'conformance probe: tasks must be cancelled with tasks/cancel',
      });
      const statuses: string[] = [String(created.task.status)];
      const deadline = Date.now() + CANCELLED_WATCH_MS;
      let last: any = created.task;
      let gone: string | undefined;
      while (Date.now() < deadline) {
        await delay(Math.min(pollDelay(ctx, last), Math.max(20, deadline - Date.now())));
        const r = await getTask(ctx, created.taskId);
        if (r.error) {
          gone = `${r.error.code} ${short(r.error.message)}`;
          break;
        }
        last = r.result;
        if (statuses[statuses.length - 1] !== String(last?.status)) statuses.push(String(last?.status));
        if (isTaskStatus(last?.status) && isTerminal(last.status)) break;
      }
      // Clean up: the task was meant to be cancelled.
      if (!gone && isTaskStatus(last?.status) && !isTerminal(last.status) && ctx.info.serverCapabilities?.tasks?.cancel) {
        await ctx.peer.request('tasks/cancel', { taskId: created.taskId });
      }
      const end = gone
        ? `the task became unknown (${gone})`
        : isTaskStatus(last?.status) && isTerminal(last.status)
          ? `the task ended ${last.status}`
          : `the task was unaffected (still ${last?.status})`;
      return `after notifications/cancelled for request ${short(created.response.id)} (which had created task ${created.taskId}), ${end}; statuses seen ${statuses.join(' → ')}`;
    },
  }),
  // Every notifications/progress that answers the progressToken of a task-augmented request (the harness
  // gives each one a token of its own), wherever it appeared in the run: it carries related-task _meta naming
  // that token's task (related-task-all-messages), it is not another task's progress under this token
  // (progress-same-token), and its progress value is greater than the one before (progress-increase,
  // progress.md 55). Two progress tasks run at once on a session of this check, so that a target sharing one
  // token between concurrent tasks is seen even when no other check ran one.
  defineCheck({
    id: 'progress.every-notification',
    title: "Every progress notification of a task names its task, uses that task's own token, and increases",
    section: SECTION,
    requirements: ['related-task-all-messages', 'progress-same-token', 'progress-increase'],
    level: 'MUST',
    killedBy: ['progress-shared-token', 'progress-decreasing', 'progress-no-related-task'],
    runsLast: true,
    opensConnections: 1,
    async run(ctx: CheckContext) {
      let own: Scope | undefined;
      if (ctx.info.profile.tools.progress) {
        own = await ctx.openSession();
        const s = own;
        const [a, b] = await Promise.all([createTask(ctx, 'progress', { peer: s }), createTask(ctx, 'progress', { peer: s })]);
        await Promise.all([a, b].map((c) => reachTerminal(ctx, c.taskId, { peer: s, initial: c.task, role: 'progress' })));
        await s.request('ping').catch(() => undefined); // progress sent before the last answer has arrived by now
      }
      await ctx.othersDone();
      const sources = targetTranscripts(ctx);
      if (own) sources.push({ label: "this check's session", entries: own.peer.transcript });
      const problems: string[] = [];
      const notes: string[] = [];
      let judged = 0;
      let badNotifications = 0;
      let early = 0;
      let missingMeta = 0;
      // The requirements the problems break: the message names them, and those that hold (the check cites all three).
      const broken = new Set<string>();
      const seen = new Set<unknown>();
      for (const src of sources) {
        const tokens = taskTokens(src.entries);
        const last = new Map<string, number>();
        for (const e of src.entries) {
          const m = e.message as Message | undefined;
          if (!isProgress(e) || seen.has(m)) continue;
          seen.add(m);
          const key = JSON.stringify(m!.params?.progressToken);
          const mine = tokens.get(key);
          if (mine === undefined) continue; // not the token of a task-augmented request of ours
          const taskId = mine.taskId;
          judged++;
          const before = problems.length;
          const where = `${src.label}: notifications/progress with token ${key} (task ${taskId})`;
          const rel = m!.params?._meta?.[RELATED_TASK_META];
          // Before the CreateTaskResult the requestor knows no task id: the metadata is not required (RULINGS.md#progress-before-create).
          if (!rel && e.seq < mine.createdSeq) early++;
          else if (!rel) {
            problems.push(`${where} has no _meta["${RELATED_TASK_META}"]`);
            broken.add('related-task-all-messages');
            missingMeta++;
          } else if (rel.taskId !== taskId) {
            problems.push(`${where} names task ${short(rel.taskId)}: another task's progress under this token`);
            broken.add('progress-same-token');
          }
          const p = m!.params?.progress;
          const previous = last.get(key);
          if (typeof p === 'number' && previous !== undefined && !(p > previous)) {
            const what = `${where}: progress ${p} after ${previous} (must increase)`;
            // Over Streamable HTTP two streams may interleave on the way: reported, not failed (RULINGS.md#http-stream-order).
            if (ctx.info.transport === 'http') notes.push(what);
            else {
              problems.push(what);
              broken.add('progress-increase');
            }
          }
          if (typeof p === 'number') last.set(key, p);
          if (problems.length > before) badNotifications++; // one notification may break two rules
        }
      }
      if (notes.length) ctx.note(`progress values not increasing in arrival order over HTTP (streams may interleave): ${notes.slice(0, 3).join('; ')}`);
      if (early) ctx.note(`${early} progress notification(s) before their CreateTaskResult without related-task (allowed: RULINGS.md#progress-before-create)`);
      ctx.expect(
        problems.length === 0,
        `${badNotifications} of ${judged} progress notifications${problems.length > badNotifications ? ` (${problems.length} problems)` : ''} (broken: ${[...broken].join(', ')}; held: ${ctx.def.requirements.filter((r) => !broken.has(r)).join(', ') || 'none'}): ${problems.slice(0, 4).join('; ')}${problems.length > 4 ? '; …' : ''}`,
        // One root cause with related-task.progress-notification when missing metadata is all it saw.
        missingMeta === problems.length ? { cause: PROGRESS_WITHOUT_RELATED_TASK } : {},
      );
      if (judged === 0) ctx.skip('no notifications/progress for a task-augmented request was seen in this run', { cause: 'no task progress observed' });
      return `${judged} progress notifications of tasks judged: each names its own task and increases`;
    },
  }),
];
