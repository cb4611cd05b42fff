// Requestor checks (2026-07-28): cancellation (tasks.md "Task Cancellation").
import { at, short, type Analysis } from '../analysis.ts';
import { defineExtensionRequestorCheck, ALL, type ExtensionRequestorCheckDef, type JudgeContext } from '../engine.ts';

const SECTION = 'Requestor (2026-07-28): Task Cancellation';

export const checks: ExtensionRequestorCheckDef[] = [
  defineExtensionRequestorCheck({
    id: '2026-requestor.cancel-with-tasks-cancel',
    title: 'Cancels a task with tasks/cancel, never notifications/cancelled for the tools/call that created it',
    section: SECTION,
    requirements: ['2026-cancel-no-notifications-cancelled', '2026-cancellation-only-in-progress'],
    level: 'MUST',
    killedBy: ['cancel-notification'],
    scenarios: ALL,
    judge(run: Analysis, ctx: JudgeContext) {
      const creating = new Map([...run.tasks.values()].map((t) => [`${t.created.request.session} ${JSON.stringify(t.created.id)}`, t] as const));
      const bad: string[] = [];
      for (const e of run.notifications) {
        const m = e.message as any;
        if (m?.method !== 'notifications/cancelled') continue;
        const t = creating.get(`${e.session} ${JSON.stringify(m.params?.requestId)}`);
        // RULINGS.md#ext-cancel-notification-not-for-tasks: once answered with a CreateTaskResult, the request is no task's handle to cancel.
        if (t && t.created.answeredMs !== undefined && e.ms >= t.created.answeredMs)
          bad.push(
            `notifications/cancelled at ${at(e.ms)} for request ${short(m.params.requestId)}, which created task ${t.taskId} (CreateTaskResult at ${at(t.created.answeredMs)})`,
          );
      }
      ctx.expect(bad.length === 0, `${bad.join('; ')}; a task is cancelled with tasks/cancel only`);
      const cancelled = [...run.tasks.values()].filter((t) => t.cancels.length > 0).length;
      if (cancelled === 0) ctx.skip('the client cancelled no task');
      return `${cancelled} task(s) cancelled with tasks/cancel, no notifications/cancelled for a task`;
    },
  }),

  defineExtensionRequestorCheck({
    id: '2026-requestor.cancel-only-issued',
    title: 'notifications/cancelled names only a request the client sent before (on the same connection)',
    section: SECTION,
    requirements: ['2026-cancellation-only-issued'],
    level: 'MUST',
    killedBy: ['cancel-unissued'],
    scenarios: ALL,
    judge(run: Analysis, ctx: JudgeContext) {
      const cancels = run.notifications.filter((e) => (e.message as any)?.method === 'notifications/cancelled');
      // Over Streamable HTTP closing the stream is the signal; a client sends notifications/cancelled on stdio (ending a subscription, a request it gives up).
      if (cancels.length === 0) ctx.skip('the client sent no notifications/cancelled');
      const bad: string[] = [];
      for (const e of cancels) {
        const rid = (e.message as any)?.params?.requestId;
        const issued = run.requests.some((x) => x.request.session === e.session && x.request.seq < e.seq && JSON.stringify(x.id) === JSON.stringify(rid));
        if (!issued)
          bad.push(
            `notifications/cancelled at ${at(e.ms)} names requestId ${short(rid)}, which the client never sent${run.transport === 'stdio' ? ' on this connection' : ''}`,
          );
      }
      ctx.expect(bad.length === 0, `${bad.join('; ')}; a cancellation references only requests the client issued`);
      return `${cancels.length} notifications/cancelled, each for a request the client had sent`;
    },
  }),
];
