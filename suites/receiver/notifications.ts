// Checks for tasks.md "Task Status Notification" and "Task Notifications"; requirement ids from
// schema/requirements.json (ruling on related-task _meta: RULINGS.md#related-task-exemptions). The reference
// receiver sends notifications/tasks/status only with --status-notifications.
import { defineCheck, type CheckContext, type CheckDef } from '../engine/check.ts';
import { inSenderOrder, statusNotifications } from '../arrange/tasks.ts';
import { createTask, resultWake } from '../arrange/arrange.ts';
import { observe, seqText } from '../arrange/poll.ts';
import { timeLeft } from '../arrange/budget.ts';
import { short } from '../engine/text.ts';
import { validate } from '../../schema/validate.ts';
import { firstIllegalStep, isTaskStatus, isTerminal, RELATED_TASK_META, type TaskStatus } from '../../schema/protocol.ts';
import { type ProfileRole } from '../engine/profile.ts';
import type { Message } from '../wire/peer.ts';

const SECTION = 'Task Status Notification';

interface Run {
  role: ProfileRole;
  taskId: string;
  polled: TaskStatus[];
  /** First terminal status polled (undefined: none within the bound). */
  terminal: TaskStatus | undefined;
  notes: Message[];
}

/** Runs a task of each available role to its end (plus a few polls for late notifications) and collects its status notifications. */
async function runAndCollect(ctx: CheckContext, roles: ProfileRole[]): Promise<Run[]> {
  const available = roles.filter((r) => ctx.info.profile.tools[r]);
  if (!available.length) ctx.skip(`target has no tool for role ${roles.join(' or ')}`);
  return Promise.all(
    available.map(async (role) => {
      const c = await createTask(ctx, role);
      const polled: TaskStatus[] = isTaskStatus(c.task.status) ? [c.task.status] : [];
      // Up to the terminal status, then a few polls more for late notifications; a timeout is judged by the caller.
      let terminalAt = -1;
      const done = (t: any, n: number) => {
        if (terminalAt < 0 && isTerminal(t.status)) terminalAt = n;
        return terminalAt >= 0 && n - terminalAt >= 3;
      };
      const o = await observe(ctx, c.taskId, done, {
        boundMs: timeLeft(ctx, { marginMs: 4_000, floorMs: 2_000 }),
        into: polled,
        allowGone: true,
        wake: resultWake(ctx, c.taskId),
      });
      const terminal = polled.find((s) => isTerminal(s));
      if (o.timedOut && terminal === undefined)
        ctx.note(`${role} task ${c.taskId} did not reach a terminal status within ${o.elapsedMs} ms (${seqText(polled)})`);
      return { role, taskId: c.taskId, polled, terminal, notes: statusNotifications(ctx.peer, c.taskId) };
    }),
  );
}

function noneSent(runs: Run[]): string {
  return `target sent no notifications/tasks/status for ${runs.map((r) => `${r.role} task ${r.taskId} (${seqText(r.polled)})`).join(', ')}`;
}

export const checks: CheckDef[] = [
  defineCheck({
    // MAY (info): whether notifications are sent; a malformed one is reported here as well (fault
    // needed: "status-notification-partial", params without createdAt/ttl).
    id: 'notifications.status-may',
    title: 'receivers MAY send notifications/tasks/status (reported; when sent, a full valid Task)',
    section: SECTION,
    requirements: ['notify-status-may'],
    level: 'MAY',
    clientReceiver: true,
    killedBy: [],
    needsCapabilities: ['tasks.requests.tools.call'],
    needs: ['completes'],
    async run(ctx: CheckContext) {
      const runs = await runAndCollect(ctx, ['completes']);
      const notes = runs.flatMap((r) => r.notes);
      if (!notes.length) return noneSent(runs);
      const bad = notes.map((m) => validate('TaskStatusNotification', m)).flatMap((v) => (v.valid ? [] : v.errors));
      ctx.expect(bad.length === 0, `notifications/tasks/status not a full valid Task: ${[...new Set(bad)].join('; ')} (e.g. ${short(notes[0]?.params)})`);
      return `saw ${notes.length} notifications/tasks/status (${runs.map((r) => `${r.role}: ${r.notes.map((m) => m.params?.status).join(' → ')}`).join('; ')}), all valid Task params`;
    },
  }),
  defineCheck({
    id: 'notifications.consistent-status',
    title: 'statuses in notifications/tasks/status follow the lifecycle and agree with tasks/get',
    section: SECTION,
    requirements: ['lifecycle-valid-paths'],
    level: 'MUST',
    clientReceiver: true,
    killedBy: ['status-notification-wrong-status', 'unknown-status'],
    needsCapabilities: ['tasks.requests.tools.call'],
    async run(ctx: CheckContext) {
      const runs = await runAndCollect(ctx, ['completes', 'fails']);
      if (runs.every((r) => r.notes.length === 0)) ctx.skip(noneSent(runs));
      const problems: string[] = [];
      for (const r of runs) {
        const st = inSenderOrder(r.notes).map((m) => m.params?.status);
        if (!st.every(isTaskStatus)) {
          problems.push(`${r.role} task ${r.taskId}: notification status ${short(st.find((s) => !isTaskStatus(s)))} is not a task status`);
          continue;
        }
        const bad = firstIllegalStep(st);
        if (bad) problems.push(`${r.role} task ${r.taskId}: notifications went ${bad.from} → ${bad.to} (${seqText(st)})`);
        const term = st.filter((s) => isTerminal(s));
        const wrong = r.terminal === undefined ? undefined : term.find((s) => s !== r.terminal);
        if (wrong) problems.push(`${r.role} task ${r.taskId}: a notification says ${wrong} but tasks/get says ${r.terminal}`);
      }
      ctx.expect(problems.length === 0, problems.join('; '));
      return runs.map((r) => `${r.role}: notified ${r.notes.map((m) => m.params?.status).join(' → ') || 'nothing'}; polled ${seqText(r.polled)}`).join('; ');
    },
  }),
  defineCheck({
    id: 'notifications.no-related-task',
    title: 'notifications/tasks/status do not carry related-task _meta',
    section: SECTION,
    requirements: ['notify-status-no-related-task'],
    level: 'SHOULD',
    clientReceiver: true,
    killedBy: ['status-notification-related-task'],
    needsCapabilities: ['tasks.requests.tools.call'],
    needs: ['completes'],
    async run(ctx: CheckContext) {
      const runs = await runAndCollect(ctx, ['completes']);
      const notes = runs.flatMap((r) => r.notes);
      if (!notes.length) ctx.skip(noneSent(runs));
      const with_ = notes.filter((m) => m.params?._meta !== null && typeof m.params?._meta === 'object' && RELATED_TASK_META in m.params._meta);
      ctx.expect(
        with_.length === 0,
        `${with_.length} of ${notes.length} notifications/tasks/status carry _meta["${RELATED_TASK_META}"] (e.g. ${short(with_[0]?.params?._meta)}); the taskId is already in the params`,
      );
      return `${notes.length} notifications/tasks/status without related-task _meta`;
    },
  }),
];
