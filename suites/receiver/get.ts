// Checks for tasks.md "Getting Tasks", "TTL and Resource Management" (timestamps, ttl, pollInterval)
// and "Task Execution Errors" (statusMessage of failed tasks); requirement ids from
// schema/requirements.json (rulings: RULINGS.md#ttl-null, RULINGS.md#is-error-lowercase, RULINGS.md#timestamps-rfc3339).
import { roleRunMs } from '../engine/profile.ts';
import { defineCheck, hasPath, type CheckContext, type CheckDef } from '../engine/check.ts';
import { listAll, statusNotifications } from '../arrange/tasks.ts';
import { createTask, resultWake, toTerminalAndBeyond, TTL_MS } from '../arrange/arrange.ts';
import { observe, seqText } from '../arrange/poll.ts';
import { timeLeft } from '../arrange/budget.ts';
import { isObj, short } from '../engine/text.ts';
import { isIso8601DateTime } from '../../schema/validate.ts';
import { isTaskStatus, isTerminal, TIMESTAMP_READING, type TaskStatus } from '../../schema/protocol.ts';
import { maySameInstant, orderOf, readTimestamp } from '../judge/timestamps.ts';
import type { Scope } from '../wire/peer.ts';

const SECTION = 'Getting Tasks';

interface Seen {
  where: string;
  task: any;
}

/**
 * Every Task object the target sends for tasks of this check, on a connection of its own
 * (RULINGS.md#timestamps-rfc3339: CreateTaskResult.task, tasks/get, tasks/list entries, tasks/cancel results, notifications/tasks/status).
 */
async function gatherTaskObjects(ctx: CheckContext): Promise<{ seen: Seen[]; gets: any[]; covered: string[] }> {
  const s: Scope = await ctx.openSession();
  const seen: Seen[] = [];
  const covered = new Set<string>();
  const add = (where: string, task: any, kind: string) => {
    seen.push({ where, task });
    covered.add(kind);
  };
  const c = await createTask(ctx, 'completes', { peer: s });
  add('CreateTaskResult.task', c.task, 'CreateTaskResult');
  const ids = [c.taskId];
  const statuses: TaskStatus[] = [];
  const o = await observe(ctx, c.taskId, (t, n) => isTerminal(t.status) && n >= 2, {
    boundMs: timeLeft(ctx, { marginMs: 4_000, floorMs: 2_000 }),
    peer: s,
    into: statuses,
  });
  if (o.timedOut)
    ctx.skip(`task ${c.taskId} did not reach a terminal status within ${o.elapsedMs} ms (${seqText(statuses)})`, {
      cause: `a completes task did not end within the check's budget (last status ${o.last?.status})`,
    });
  o.tasks.forEach((t, i) => add(`tasks/get #${i + 1}`, t, 'tasks/get'));
  if (hasPath(ctx.info.serverCapabilities, 'tasks.cancel') && ctx.info.profile.tools.slow) {
    const slow = await createTask(ctx, 'slow', { peer: s });
    ids.push(slow.taskId);
    add('CreateTaskResult.task (slow)', slow.task, 'CreateTaskResult');
    const r = await s.request('tasks/cancel', { taskId: slow.taskId });
    if (r.result) add('tasks/cancel result', r.result, 'tasks/cancel');
    else ctx.note(`tasks/cancel answered ${r.error?.code} ${r.error?.message}`);
  }
  if (hasPath(ctx.info.serverCapabilities, 'tasks.list')) {
    const { tasks } = await listAll(ctx, s);
    for (const t of tasks) if (ids.includes(t?.taskId)) add(`tasks/list entry ${t.taskId}`, t, 'tasks/list');
  }
  for (const id of ids)
    statusNotifications(s, id).forEach((m, i) => add(`notifications/tasks/status #${i + 1} (${id})`, m.params, 'notifications/tasks/status'));
  return { seen, gets: o.tasks, covered: [...covered] };
}

function timestampProblems(seen: Seen[], field: 'createdAt' | 'lastUpdatedAt'): string[] {
  const out: string[] = [];
  for (const { where, task } of seen) {
    const v = isObj(task) ? task[field] : undefined;
    if (v === undefined) out.push(`${where}: no ${field}`);
    else if (typeof v !== 'string' || !isIso8601DateTime(v)) out.push(`${where}: ${field} ${short(v)} is not an ISO 8601 / RFC 3339 date-time`);
  }
  return out;
}

/** The tick of an RFC 3339 timestamp (ms): 1000 for whole seconds, 100 for one fraction digit, … */
function tickMs(text: string): number {
  const digits = /\.(\d+)/.exec(text)?.[1]?.length ?? 0;
  return digits >= 3 ? 1 : 10 ** (3 - digits);
}

/** `a` is before `b`, read at the coarser precision of the two timestamps. */
function earlier(aText: string, a: number, bText: string, b: number): boolean {
  const tick = Math.max(tickMs(aText), tickMs(bText));
  return Math.floor(a / tick) < Math.floor(b / tick);
}

export const checks: CheckDef[] = [
  defineCheck({
    id: 'get.created-at',
    title: 'every Task object carries an ISO 8601 createdAt, the same on every response',
    section: SECTION,
    requirements: ['ttl-created-at'],
    level: 'MUST',
    clientReceiver: true,
    killedBy: ['missing-created-at'],
    needs: ['completes'],
    needsCapabilities: ['tasks.requests.tools.call'],
    opensConnections: 1,
    async run(ctx: CheckContext) {
      const { seen, covered } = await gatherTaskObjects(ctx);
      const problems = timestampProblems(seen, 'createdAt');
      // The same instant, not the same string: milliseconds in one response and whole seconds in another name one
      // instant when each is read within the precision it shows (suites/judge/timestamps.ts).
      const byTask = new Map<string, string[]>();
      for (const { task } of seen) {
        if (typeof task?.createdAt === 'string' && isIso8601DateTime(task.createdAt))
          byTask.set(task.taskId, [...(byTask.get(task.taskId) ?? []), task.createdAt]);
      }
      for (const [id, stamps] of byTask) {
        const distinct = [...new Set(stamps)];
        const apart = distinct.flatMap((a, i) =>
          distinct
            .slice(i + 1)
            .filter((b) => !maySameInstant(a, b, TIMESTAMP_READING))
            .map((b) => `${a} vs ${b}`),
        );
        if (apart.length) problems.push(`task ${id}: createdAt names different instants between responses (${apart.slice(0, 3).join('; ')})`);
      }
      ctx.expect(problems.length === 0, problems.slice(0, 6).join('; ') + (problems.length > 6 ? ` (+${problems.length - 6} more)` : ''));
      return `${seen.length} Task objects (${covered.join(', ')}) carry ISO 8601 createdAt`;
    },
  }),
  defineCheck({
    id: 'get.last-updated-at',
    title: 'every Task object carries an ISO 8601 lastUpdatedAt',
    section: SECTION,
    requirements: ['ttl-last-updated-at'],
    level: 'MUST',
    clientReceiver: true,
    killedBy: ['bad-timestamp'],
    needs: ['completes'],
    needsCapabilities: ['tasks.requests.tools.call'],
    opensConnections: 1,
    async run(ctx: CheckContext) {
      const { seen, covered } = await gatherTaskObjects(ctx);
      const problems = timestampProblems(seen, 'lastUpdatedAt');
      ctx.expect(problems.length === 0, problems.slice(0, 6).join('; ') + (problems.length > 6 ? ` (+${problems.length - 6} more)` : ''));
      return `${seen.length} Task objects (${covered.join(', ')}) carry ISO 8601 lastUpdatedAt`;
    },
  }),
  defineCheck({
    id: 'get.last-updated-order',
    title: 'lastUpdatedAt is not before createdAt and never goes backwards across polls',
    section: SECTION,
    requirements: ['ttl-last-updated-at'],
    level: 'MUST',
    clientReceiver: true,
    killedBy: ['last-updated-backwards'],
    needsCapabilities: ['tasks.requests.tools.call'],
    needs: ['completes'],
    async run(ctx: CheckContext) {
      const c = await createTask(ctx, 'completes');
      const seq: TaskStatus[] = [];
      await toTerminalAndBeyond(ctx, c.taskId, seq, 2);
      // Each answer with when its request went out and when it came in (transcript order). An answer is
      // compared only with those that came in before its request went out: a poll answered late (after its
      // bound, the next poll already sent) may show an older state, and two requests in flight may be
      // served in either order.
      const sentAt = new Map<string, number>();
      const answers: { t: any; sent: number; got: number }[] = [{ t: c.task, sent: -1, got: -1 }];
      for (const e of ctx.peer.transcript) {
        const m = e.message as any;
        if (!m || typeof m !== 'object') continue;
        if (e.dir === 'out' && 'method' in m && 'id' in m) sentAt.set(JSON.stringify(m.id), e.seq);
        else if (e.dir === 'in' && !('method' in m) && m.result?.taskId === c.taskId)
          answers.push({ t: m.result, sent: sentAt.get(JSON.stringify(m.id)) ?? e.seq, got: e.seq });
      }
      const objs = answers.map((a) => a.t);
      const problems: string[] = [];
      for (const [i, a] of answers.entries()) {
        const t = a.t;
        const cr = typeof t.createdAt === 'string' && isIso8601DateTime(t.createdAt) ? Date.parse(t.createdAt) : undefined;
        const lu = typeof t.lastUpdatedAt === 'string' && isIso8601DateTime(t.lastUpdatedAt) ? Date.parse(t.lastUpdatedAt) : undefined;
        if (lu === undefined) continue; // presence/format: get.last-updated-at
        const where = i === 0 ? 'CreateTaskResult' : `tasks/get #${i}`;
        // Compared at the coarser precision of the two (RFC 3339 leaves the fraction's digits open: a
        // lastUpdatedAt in whole seconds is not "before" a createdAt of the same second with milliseconds).
        if (cr !== undefined && earlier(t.lastUpdatedAt, lu, t.createdAt, cr))
          problems.push(`${where}: lastUpdatedAt ${t.lastUpdatedAt} is before createdAt ${t.createdAt}`);
        let prev: { text: string; ms: number; where: string } | undefined;
        for (const [j, b] of answers.entries()) {
          if (j === i || b.got >= a.sent || typeof b.t.lastUpdatedAt !== 'string' || !isIso8601DateTime(b.t.lastUpdatedAt)) continue;
          const ms = Date.parse(b.t.lastUpdatedAt);
          if (!prev || ms > prev.ms) prev = { text: b.t.lastUpdatedAt, ms, where: j === 0 ? 'CreateTaskResult' : `tasks/get #${j}` };
        }
        if (prev && earlier(t.lastUpdatedAt, lu, prev.text, prev.ms))
          problems.push(`${where}: lastUpdatedAt ${t.lastUpdatedAt} is earlier than ${prev.text} of the ${prev.where} answered before it was sent`);
      }
      if (objs.length < 2) ctx.skip('no tasks/get results to compare');
      ctx.expect(problems.length === 0, problems.join('; '));
      return `lastUpdatedAt ≥ createdAt and non-decreasing over ${objs.length} responses (${seqText(seq)})`;
    },
  }),
  defineCheck({
    // "to indicate when the task was last updated": a Task showing a new status was updated after one
    // showing the old status was sent.
    id: 'get.last-updated-moves',
    title: "lastUpdatedAt moves forward when the task's status changes",
    section: SECTION,
    requirements: ['ttl-last-updated-at'],
    level: 'MUST',
    clientReceiver: true,
    needsCapabilities: ['tasks.requests.tools.call'],
    killedBy: ['last-updated-frozen', 'last-updated-backwards'],
    needs: ['slow'],
    waitsMs: (p) => roleRunMs(p, 'slow'),
    async run(ctx: CheckContext) {
      // Read by instant within the precision each stamp shows (suites/judge/timestamps.ts): whole-second stamps of two
      // changes within one second are equal, not a violation. A change must not go back in time, and the stamp of
      // a new status must lie after the moment the old status was last seen, counted from createdAt (the slow role
      // runs for seconds, so a frozen stamp shows), less the precision of both stamps and the round trips.
      const c = await createTask(ctx, 'slow');
      const createdSeenAt = Date.now();
      const seenAt = new Map<any, number>([[c.task, createdSeenAt]]);
      const o = await observe(
        ctx,
        c.taskId,
        (t) => {
          seenAt.set(t, Date.now());
          return isTerminal(t.status);
        },
        { boundMs: timeLeft(ctx, { marginMs: 4_000, floorMs: 2_000 }), allowGone: true },
      );
      if (o.gone) ctx.skip(`the task was gone (tasks/get ${o.gone.code}) before it reached a terminal status`);
      if (o.timedOut) ctx.skip(`the slow task did not reach a terminal status within ${o.elapsedMs} ms`);
      const read = (v: unknown) => (typeof v === 'string' ? readTimestamp(v, TIMESTAMP_READING) : undefined);
      const created = read(c.task.createdAt);
      const snaps = [c.task, ...o.tasks].filter((t) => isTaskStatus(t?.status) && read(t.lastUpdatedAt) !== undefined); // presence and format: get.last-updated-at
      const changes: string[] = [];
      for (let i = 1; i < snaps.length; i++) {
        const [a, b] = [snaps[i - 1], snaps[i]];
        if (a.status === b.status) continue;
        const [ra, rb] = [read(a.lastUpdatedAt)!, read(b.lastUpdatedAt)!];
        ctx.expect(
          orderOf(ra, rb) !== 1,
          `the status went ${a.status} → ${b.status}, yet lastUpdatedAt went back from ${a.lastUpdatedAt} to ${b.lastUpdatedAt}: the change is not reflected`,
        );
        // The old status was still shown `sinceCreated` ms after the CreateTaskResult arrived: the change came later.
        const sinceCreated = (seenAt.get(a) ?? createdSeenAt) - createdSeenAt;
        if (created && created.zone === rb.zone) {
          const slack = created.precisionMs + rb.precisionMs + ctx.bound(500);
          const moved = rb.ms - created.ms;
          ctx.expect(
            moved >= sinceCreated - slack,
            `the status went ${a.status} → ${b.status} after "${a.status}" was still shown ${sinceCreated} ms after creation, yet lastUpdatedAt ${b.lastUpdatedAt} is only ${moved} ms after createdAt ${c.task.createdAt}: the change is not reflected`,
          );
        }
        changes.push(`${a.status} → ${b.status}: ${a.lastUpdatedAt} → ${b.lastUpdatedAt}`);
      }
      if (!changes.length) ctx.skip(`no status change was seen between Task objects with a readable lastUpdatedAt (${seqText(o.statuses)})`);
      return changes.join('; ');
    },
  }),
  defineCheck({
    id: 'get.ttl',
    title: 'tasks/get results include the actual ttl (a non-negative integer, or null for unlimited)',
    section: SECTION,
    requirements: ['ttl-actual-in-get'],
    level: 'MUST',
    clientReceiver: true,
    killedBy: ['ttl-missing'],
    needsCapabilities: ['tasks.requests.tools.call'],
    needs: ['completes'],
    async run(ctx: CheckContext) {
      const c = await createTask(ctx, 'completes');
      const o = await observe(ctx, c.taskId, (t, n) => isTerminal(t.status) || n >= 3, { boundMs: timeLeft(ctx, { marginMs: 4_000, floorMs: 2_000 }) });
      const bad = o.tasks
        .map((t, i) =>
          !isObj(t) || !('ttl' in t)
            ? `tasks/get #${i + 1} has no ttl`
            : t.ttl !== null && !(Number.isInteger(t.ttl) && t.ttl >= 0)
              ? `tasks/get #${i + 1} ttl ${short(t.ttl)} is not a non-negative integer or null`
              : '',
        )
        .filter(Boolean);
      ctx.expect(bad.length === 0, `${bad.join('; ')} (got ${short(o.last)})`);
      const ttl = o.last.ttl;
      if (ttl === null) ctx.note('ttl null (unlimited retention; resource-max-ttl is judged elsewhere)');
      return `ttl ${short(ttl)} in ${o.tasks.length} tasks/get result(s) (requested ${TTL_MS}${ttl !== TTL_MS ? '; overridden, MAY' : ''})`;
    },
  }),
  defineCheck({
    // MAY (info): reports the pollInterval; a present but malformed value (e.g. "100ms") is an info finding.
    id: 'get.poll-interval',
    title: 'tasks/get MAY suggest a pollInterval (reported)',
    section: SECTION,
    requirements: ['ttl-poll-interval-may'],
    level: 'MAY',
    clientReceiver: true,
    killedBy: [],
    needsCapabilities: ['tasks.requests.tools.call'],
    needs: ['completes'],
    async run(ctx: CheckContext) {
      const c = await createTask(ctx, 'completes');
      const o = await observe(ctx, c.taskId, (t, n) => isTerminal(t.status) || n >= 2, { boundMs: timeLeft(ctx, { marginMs: 4_000, floorMs: 2_000 }) });
      const values = [...new Set(o.tasks.map((t) => (isObj(t) && 'pollInterval' in t ? t.pollInterval : undefined)))];
      const bad = values.filter((v) => v !== undefined && !(Number.isInteger(v) && v > 0));
      ctx.expect(bad.length === 0, `pollInterval ${bad.map((v) => short(v)).join(', ')} is not a positive integer of milliseconds`);
      return values.every((v) => v === undefined)
        ? 'no pollInterval in tasks/get results'
        : `pollInterval ${values.map((v) => short(v)).join(', ')} ms in tasks/get results`;
    },
  }),
  defineCheck({
    // A completed isError task is not exercised (RULINGS.md#is-error-lowercase: info only).
    id: 'get.failed-status-message',
    title: 'a failed task carries a statusMessage in tasks/get',
    section: SECTION,
    requirements: ['exec-failed-status-message'],
    level: 'SHOULD',
    clientReceiver: true,
    killedBy: ['no-status-message-on-failure'],
    needsCapabilities: ['tasks.requests.tools.call'],
    needs: ['fails'],
    async run(ctx: CheckContext) {
      const c = await createTask(ctx, 'fails');
      const seq: TaskStatus[] = [];
      const o = await observe(ctx, c.taskId, (t) => isTerminal(t.status), {
        boundMs: timeLeft(ctx, { marginMs: 4_000, floorMs: 2_000 }),
        into: seq,
        wake: resultWake(ctx, c.taskId),
      });
      if (o.timedOut)
        ctx.skip(`task ${c.taskId} did not reach a terminal status within ${o.elapsedMs} ms (${seqText(seq)})`, {
          cause: `a fails task did not end within the check's budget (last status ${o.last?.status})`,
        });
      const terminal = o.last.status as TaskStatus;
      if (terminal !== 'failed') {
        const r = await ctx.peer.request('tasks/result', { taskId: c.taskId }).catch(() => undefined);
        const isError = r?.result?.isError === true;
        ctx.skip(
          `the fails-role task ended ${terminal}, not failed${isError ? ' although its CallToolResult has isError: true (the page says it "should reach failed", lowercase: not normative, RULINGS.md#is-error-lowercase)' : ''} — no failed task to inspect`,
        );
      }
      const msg = o.last.statusMessage;
      ctx.expect(
        typeof msg === 'string' && msg.trim().length > 0,
        `tasks/get of failed task ${c.taskId} has statusMessage ${short(msg)}; expected diagnostic text (got ${short(o.last)})`,
      );
      return `failed task statusMessage: ${short(msg, 100)}`;
    },
  }),
];
