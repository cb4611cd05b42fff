// Requestor checks: cancellation (Requestor: Cancellation). Scenario sets and helpers they share: common.ts.
import { at, cancelledByClient, short, type Analysis } from '../analysis.ts';
import { defineRequestorCheck, type JudgeContext, type RequestorCheckDef } from '../engine.ts';
import { ALL, SERVER_ALL } from './common.ts';

const SEC_CANCEL = 'Requestor: Cancellation';

export const checks: RequestorCheckDef[] = [
  defineRequestorCheck({
    id: 'requestor.cancel-with-tasks-cancel',
    title: 'Cancels tasks with tasks/cancel, never notifications/cancelled for the task-creating request',
    section: SEC_CANCEL,
    requirements: ['cancellation-use-tasks-cancel'],
    level: 'MUST',
    killedBy: ['cancel-notification'],
    scenarios: [...ALL, ...SERVER_ALL],
    judge(run: Analysis, ctx: JudgeContext) {
      const bad: string[] = [];
      let cancels = 0;
      for (const s of run.sessions) {
        const creating = new Map([...s.tasks.values()].map((t) => [JSON.stringify(t.created.id), t] as const));
        for (const e of s.clientNotifications) {
          const m = e.message as any;
          if (m?.method !== 'notifications/cancelled') continue;
          const t = creating.get(JSON.stringify(m.params?.requestId));
          if (t && t.created.answeredMs !== undefined && e.ms >= t.created.answeredMs) {
            bad.push(
              `notifications/cancelled at ${at(e.ms)} for request ${short(m.params.requestId)}, which created task ${t.taskId} (CreateTaskResult at ${at(t.created.answeredMs)})`,
            );
          }
        }
        cancels += [...s.tasks.values()].filter(cancelledByClient).length;
      }
      ctx.expect(bad.length === 0, `${bad.join('; ')}; task-augmented requests are cancelled with tasks/cancel (cancellation.md line 38)`);
      if (cancels === 0) ctx.skip('the requestor cancelled no task');
      return `${cancels} task(s) cancelled with tasks/cancel, no notifications/cancelled for a task`;
    },
  }),
];
