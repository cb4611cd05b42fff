// Checks of the extension's tasks.md "Task Status Notifications" and the core subscriptions page as the
// Tasks flows use it: the acknowledgement first, the subscription id on every notification, no progress or
// log notifications on the stream, notifications only for the task ids asked for; requirement ids from
// schema/2026-07-28/requirements.json. Pushing notifications is the server's choice (2026-notify-may-push):
// a server that sends none is not exercised where a check needs one.
import type { CheckContext, CheckDef } from '../../engine/check.ts';
import { short } from '../../engine/text.ts';
import { timeLeft } from '../../arrange/budget.ts';
import { idKey, unlessTimedOut, type Message } from '../../wire/peer.ts';
import { Field, isTerminal, Meta, Method } from '../../../schema/2026-07-28/protocol.ts';
import { declaresExtension, extensionNotAdvertised, modernCheck, wire } from '../engine/check.ts';
import { runIncoming } from '../arrange/observed.ts';
import { cancelTask, createSettled, createTask, taskNotifications, type Created } from '../arrange/tasks.ts';
import type { Subscription } from '../wire/peer.ts';
import { roleRunMs } from '../../engine/profile.ts';

/** Longest 2026-cancellation.listen-teardown watches for the server to end its subscription. */
const TEARDOWN_WATCH_MS = 5_000;

const SECTION = 'Task Status Notifications';

/** What a subscription for task ids may carry; any other notification type was not asked for (2026-subscribe-only-requested). */
const STREAM_TYPES = new Set<string>([Method.SubscriptionsAcknowledged, Method.TasksNotification, Method.Cancelled, Method.Progress, Method.Message]);

interface Listening {
  task: Created;
  sub: Subscription;
  ack?: Message;
  /** The listen was answered with an error instead of a stream (a server that pushes no task notifications may: RULINGS.md#ext-listen-optional). */
  refused?: Message;
  /** How long the check waited for the acknowledgement (or the refusal). */
  waitedMs: number;
  /** The server agreed to notify for the task (its id in the acknowledgement). */
  agreed: boolean;
}

/**
 * A slow task and a subscriptions/listen for it, acknowledged (no ack within the bound: `ack` undefined), or
 * refused with an error response (`refused`).
 */
async function listenTo(ctx: CheckContext): Promise<Listening> {
  const task = await createTask(ctx, 'slow');
  const sub = await task.scope.listen({ [Field.taskIds]: [task.taskId] });
  const key = idKey(sub.id);
  const waitedMs = timeLeft(ctx, { marginMs: 8_000, floorMs: 1_000, capMs: 5_000 });
  const first = await unlessTimedOut(
    sub.waitFor(
      (m) =>
        (m.method === Method.SubscriptionsAcknowledged && idKey(m.params?._meta?.[Meta.SubscriptionId]) === key) ||
        (!('method' in m) && 'error' in m && idKey(m.id) === key),
      waitedMs,
      `notifications/subscriptions/acknowledged for subscription ${String(sub.id)} (or an error answer to it)`,
    ),
  );
  const ack = first && 'method' in first ? first : undefined;
  const refused = first && !('method' in first) ? first : undefined;
  const ids = ack?.params?.[Field.notifications]?.[Field.taskIds];
  return { task, sub, ack, refused, waitedMs, agreed: Array.isArray(ids) && ids.includes(task.taskId) };
}

/** Not exercised where the server answered the listen with an error: no stream was opened, nothing on it to judge. */
function streamOpened(ctx: CheckContext, l: Listening): void {
  if (l.refused)
    ctx.skip(
      `subscriptions/listen for task ${l.task.taskId} was answered with error ${short(l.refused.error)}: no stream to judge (a server need not push task notifications; RULINGS.md#ext-listen-optional)`,
    );
}

/** A stream was opened and acknowledged; else not exercised (the acknowledgement is judged by 2026-notify.ack-first). */
function streamAcknowledged(ctx: CheckContext, l: Listening): void {
  streamOpened(ctx, l);
  if (!l.ack) ctx.skip('no notifications/subscriptions/acknowledged arrived', { judgedBy: '2026-notify.ack-first' });
}

/** Runs `judge` on a listen for a slow task (listenTo), closing the subscription whatever the outcome. */
async function listening<T>(ctx: CheckContext, judge: (l: Listening) => Promise<T>): Promise<T> {
  const l = await listenTo(ctx);
  try {
    return await judge(l);
  } finally {
    await l.sub.close();
  }
}

/** Acknowledged, and the acknowledgement agreed to notify for the task; else not exercised (the server may send none). */
function streamAgreed(ctx: CheckContext, l: Listening): void {
  streamAcknowledged(ctx, l);
  if (!l.agreed) ctx.skip(`the acknowledgement agreed to no notifications for task ${l.task.taskId} (${short(l.ack?.params)}): the server may send none`);
}

/** Every notifications/tasks of the task on the connection, with or without the subscription id. */
function allOf(l: Listening): Message[] {
  return taskNotifications(l.task.scope.peer.messages(), l.task.taskId);
}

/** Cancels the task (a status change) and waits, bounded, for a notifications/tasks of it on the connection. */
async function provoke(ctx: CheckContext, l: Listening): Promise<Message | undefined> {
  streamAgreed(ctx, l);
  await cancelTask(l.task.scope, l.task.taskId);
  return unlessTimedOut(
    l.task.scope.waitFor(
      (m) => m.method === Method.TasksNotification && m.params?.[Field.taskId] === l.task.taskId,
      timeLeft(ctx, { marginMs: 4_000, floorMs: 1_000, capMs: 5_000 }),
      `notifications/tasks for task ${l.task.taskId}`,
      true,
    ),
  );
}

export const checks: CheckDef[] = [
  modernCheck({
    id: '2026-notify.ack-first',
    title: 'the acknowledgement is the first message of a subscriptions/listen stream; no notification comes before it',
    section: SECTION,
    requirements: ['2026-subscribe-ack-first', '2026-subscribe-nothing-before-ack'],
    level: 'MUST',
    killedBy: ['notification-before-ack'],
    needs: ['slow'],
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      return listening(ctx, async (l) => {
        streamOpened(ctx, l);
        // Nothing within the bound is time alone, not a verdict; a stream that carried something else first is.
        if (!l.ack && l.sub.messages().length === 0)
          ctx.skip(`neither an acknowledgement of subscription ${String(l.sub.id)} nor any other message of it arrived within ${l.waitedMs} ms`, {
            timedOut: true,
          });
        const first = l.sub.messages()[0];
        ctx.expect(
          first?.method === Method.SubscriptionsAcknowledged,
          `the first message of subscription ${String(l.sub.id)} is ${short(first?.method ?? first)}, not its acknowledgement`,
        );
        return `acknowledged first (${short(l.ack?.params, 120)})`;
      });
    },
  }),
  modernCheck({
    id: '2026-notify.subscription-id',
    title: 'every notifications/tasks on a subscriptions/listen stream carries its subscription id in _meta',
    section: SECTION,
    requirements: ['2026-meta-subscription-id'],
    level: 'MUST',
    killedBy: ['notification-no-subscription-id'],
    needs: ['slow'],
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      return listening(ctx, async (l) => {
        const n = await provoke(ctx, l);
        if (!n) ctx.skip(`no notifications/tasks for task ${l.task.taskId} arrived after its status changed (pushing is the server's choice)`);
        // Over HTTP the stream is the subscription's; over stdio a notification of the task without any id.
        const bad =
          l.task.scope.transportKind === 'http'
            ? taskNotifications(l.sub.messages(), l.task.taskId).filter((m) => m.params?._meta?.[Meta.SubscriptionId] !== l.sub.id)
            : allOf(l).filter((m) => m.params?._meta?.[Meta.SubscriptionId] === undefined);
        ctx.expect(
          bad.length === 0,
          `${bad.length} notifications/tasks for task ${l.task.taskId} lack _meta["${Meta.SubscriptionId}"] = ${JSON.stringify(l.sub.id)} (got ${short(bad[0]?.params?._meta)})`,
        );
        return `${allOf(l).length} notification(s), each with the subscription id`;
      });
    },
  }),
  modernCheck({
    id: '2026-notify.no-progress',
    title: 'no notifications/progress or notifications/message on the subscriptions/listen stream of a task',
    section: SECTION,
    requirements: ['2026-notify-no-progress-message-on-stream'],
    level: 'MUST',
    killedBy: ['progress-on-listen'],
    needs: ['slow'],
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      return listening(ctx, async (l) => {
        const n = await provoke(ctx, l);
        if (!n) ctx.skip(`no notifications/tasks for task ${l.task.taskId} arrived (pushing is the server's choice): the stream carried nothing to judge`);
        const bad = l.sub.messages().filter((m) => m.method === Method.Progress || m.method === Method.Message);
        ctx.expect(
          bad.length === 0,
          `the subscriptions/listen stream of task ${l.task.taskId} carried ${bad.map((m) => m.method).join(', ')} (${short(bad[0]?.params)})`,
        );
        return `${l.sub.messages().length} message(s) on the stream, none progress or log`;
      });
    },
  }),
  modernCheck({
    id: '2026-notify.only-requested',
    title: 'notifications/tasks come only for the task ids the subscription asked for',
    section: SECTION,
    requirements: ['2026-subscribe-only-requested'],
    level: 'MUST',
    killedBy: ['unrequested-task-notifications', 'legacy-status-notification'],
    needs: ['slow', 'completes'],
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      return listening(ctx, async (l) => {
        streamAcknowledged(ctx, l);
        // Another task of the same client changes status while the subscription is open.
        const other = await createSettled(ctx, 'completes', { scope: l.task.scope });
        await provoke(ctx, l);
        const stray = l.sub.messages().filter((m) => m.method === Method.TasksNotification && m.params?.[Field.taskId] !== l.task.taskId);
        ctx.expect(
          stray.length === 0,
          `the subscription for task ${l.task.taskId} carried notifications/tasks for ${[...new Set(stray.map((m) => m.params?.[Field.taskId]))].join(', ')} (not asked for; e.g. ${short(stray[0]?.params)})`,
        );
        // A type it did not ask for (e.g. notifications/tasks/status, the 2025-11-25 name); progress and log
        // notifications are 2026-notify.no-progress's, the teardown's notifications/cancelled the subscription's own.
        const types = [...new Set(l.sub.messages().flatMap((m) => (typeof m.method === 'string' && !STREAM_TYPES.has(m.method) ? [m.method] : [])))];
        ctx.expect(types.length === 0, `the subscription for task ${l.task.taskId} carried notification types it did not ask for: ${types.join(', ')}`);
        return `none for task ${other.taskId} (not asked for); ${taskNotifications(l.sub.messages(), l.task.taskId).length} for the one asked for`;
      });
    },
  }),
  // tasks.md: "Each notification carries a complete DetailedTask for the current status, identical to what
  // tasks/get would have returned at that moment" (no keyword of its own): the notification of a completed
  // task carries its result, as tasks/get must (2026-get-completed-result).
  modernCheck({
    id: '2026-notify.detailed-task',
    title: 'the notifications/tasks of a completed task carries its result, as tasks/get would',
    section: SECTION,
    requirements: ['2026-get-completed-result'],
    level: 'MUST',
    killedBy: ['notification-not-detailed', 'completed-no-result'],
    needs: ['slow'],
    waitsMs: (p) => roleRunMs(p, 'slow'), // the slow task's run to its terminal notification
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      return listening(ctx, async (l) => {
        streamAgreed(ctx, l);
        // The slow task runs to its end; its last notification is the terminal one.
        const n = await unlessTimedOut(
          l.task.scope.waitFor(
            (m) => m.method === Method.TasksNotification && m.params?.[Field.taskId] === l.task.taskId && isTerminal(m.params?.[Field.status]),
            timeLeft(ctx, { marginMs: 3_000, floorMs: 1_000 }),
            `the terminal notifications/tasks of task ${l.task.taskId}`,
            true,
          ),
        );
        if (!n)
          ctx.skip(
            `no terminal notifications/tasks for task ${l.task.taskId} arrived within the check's budget (pushing is the server's choice; the slow tool may outlast it)`,
          );
        if (n.params?.[Field.status] !== 'completed')
          ctx.skip(`task ${l.task.taskId} ended ${short(n.params?.[Field.status])}, not completed: no result to carry`);
        const result = n.params?.[Field.result];
        ctx.expect(
          result !== null && typeof result === 'object' && !Array.isArray(result),
          `the notifications/tasks of completed task ${l.task.taskId} has no result object (got ${short(n.params, 300)}): tasks/get returns the result of a completed task, and a notification is what tasks/get would return`,
        );
        return `completed notification with result ${short(result, 120)}`;
      });
    },
  }),
  // Cancellation (core basic-patterns-cancellation.md): "A server MUST send notifications/cancelled referencing
  // a subscriptions/listen request ID when it tears down that subscription stream". Ending a subscription is
  // the server's choice (subscriptions.md "Cancellation": e.g. during shutdown); the check gives it an occasion,
  // a subscription whose only task ends, and judges a teardown it sees: the graceful one, the listen's
  // successful response (a stream that merely closes cannot be told from a transport drop). Over HTTP the
  // cancellation must come on the stream before it closes; over stdio, before the answer to a request sent
  // after the response (the teardown is over by then). RULINGS.md#listen-teardown-graceful.
  modernCheck({
    id: '2026-cancellation.listen-teardown',
    title: 'a server ending a subscriptions/listen stream sends notifications/cancelled referencing the listen request id',
    section: 'Cancellation',
    requirements: ['2026-cancellation-listen-teardown'],
    level: 'MUST',
    killedBy: ['listen-teardown-not-cancelled'],
    needs: ['slow'],
    waitsMs: () => TEARDOWN_WATCH_MS,
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      return listening(ctx, async (l) => {
        streamAcknowledged(ctx, l);
        await cancelTask(l.task.scope, l.task.taskId);
        const key = idKey(l.sub.id);
        const end = await unlessTimedOut(
          l.task.scope.waitFor(
            (m) => !('method' in m) && 'result' in m && idKey(m.id) === key,
            timeLeft(ctx, { marginMs: 4_000, floorMs: 1_000, capMs: TEARDOWN_WATCH_MS }),
            `the end of subscription ${String(l.sub.id)}`,
            true,
          ),
        );
        if (!end)
          ctx.skip(
            `the server did not end subscription ${String(l.sub.id)} while the check watched (ending a subscription is its choice): no teardown to judge`,
          );
        if (l.task.scope.transportKind === 'stdio') await l.task.scope.discover();
        const cancelled = l.task.scope.peer.messages((m) => m.method === Method.Cancelled && idKey(m.params?.requestId) === key);
        ctx.expect(
          cancelled.length > 0,
          `the server ended subscription ${String(l.sub.id)} (response ${short(end, 160)}) without notifications/cancelled referencing its request id`,
        );
        return `subscription ${String(l.sub.id)} ended with notifications/cancelled (${short(cancelled[0]?.params, 120)})`;
      });
    },
  }),
  // "Servers MUST NOT send notifications/cancelled for any other purpose": every notifications/cancelled of the
  // run references a subscriptions/listen request of ours on its connection. The check's own occasion: a task
  // cancelled while a subscription watches it (its status says it, not notifications/cancelled).
  modernCheck({
    id: '2026-cancellation.server-no-other-purpose',
    title: 'every notifications/cancelled the server sends in the run references a subscriptions/listen request',
    section: 'Cancellation',
    requirements: ['2026-cancellation-server-no-other-purpose'],
    level: 'MUST',
    killedBy: ['task-cancel-notified'],
    runsLast: true,
    async run(ctx: CheckContext) {
      let own = 'no task of its own (the extension is not advertised or no slow tool)';
      if (declaresExtension(ctx.info) && ctx.info.profile.tools.slow) {
        const l = await listenTo(ctx);
        try {
          const n = l.ack && l.agreed ? await provoke(ctx, l) : undefined;
          own = `task ${l.task.taskId} cancelled under subscription ${String(l.sub.id)}${n ? ' (its notification seen)' : ''}`;
        } finally {
          await l.sub.close();
        }
      } else
        await wire(ctx)
          .discover()
          .catch(() => undefined);
      await ctx.othersDone();
      const incoming = runIncoming(ctx);
      const cancels = incoming.filter((i) => i.message.method === Method.Cancelled);
      const bad = cancels.filter((i) => i.requests.get(idKey(i.message.params?.requestId))?.method !== Method.SubscriptionsListen);
      ctx.expect(
        bad.length === 0,
        `${bad.length} notifications/cancelled reference no subscriptions/listen request: ${bad
          .slice(0, 3)
          .map((i) => {
            const r = i.requests.get(idKey(i.message.params?.requestId));
            return `${short(i.message.params, 120)} (${i.source}${r ? `; it names our ${r.method}` : ''})`;
          })
          .join('; ')}`,
      );
      return `${cancels.length} notifications/cancelled in the run, each for a subscription; ${own}`;
    },
  }),
];
