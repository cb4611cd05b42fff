// Requestor checks (2026-07-28): subscriptions (basic-patterns-subscriptions.md "Acknowledgment"; tasks.md
// "Task Status Notifications").
import { isTerminal, Meta, Method } from '../../../../schema/2026-07-28/protocol.ts';
import { at, cutWhileFollowing, endedOnError, lastShown, short, type Analysis } from '../analysis.ts';
import { defineExtensionRequestorCheck, ALL, type ExtensionRequestorCheckDef, type JudgeContext } from '../engine.ts';

const SECTION = 'Requestor (2026-07-28): Subscriptions';

export const checks: ExtensionRequestorCheckDef[] = [
  defineExtensionRequestorCheck({
    id: '2026-requestor.subscribe-check-ack',
    title: 'Checks the acknowledged filter: a task the acknowledgement of subscriptions/listen left out is followed with tasks/get',
    section: SECTION,
    requirements: ['2026-subscribe-client-check-ack'],
    level: 'SHOULD',
    killedBy: ['ignore-ack'],
    scenarios: ALL,
    judge(run: Analysis, ctx: JudgeContext) {
      const listens = run.requests.filter((x) => x.method === Method.SubscriptionsListen && Array.isArray(x.params?.notifications?.taskIds));
      if (listens.length === 0) ctx.skip('the client sent no subscriptions/listen for task ids');
      const bad: string[] = [];
      const ok: string[] = [];
      const cut: string[] = [];
      for (const x of listens) {
        const ack = run.serverNotifications.find((e) => {
          const m = e.message as any;
          return (
            m.method === Method.SubscriptionsAcknowledged &&
            e.session === x.request.session &&
            JSON.stringify(m.params?._meta?.[Meta.SubscriptionId]) === JSON.stringify(x.id)
          );
        });
        if (!ack) continue;
        const agreed: unknown = (ack.message as any).params?.notifications?.taskIds;
        const left = (x.params.notifications.taskIds as unknown[]).filter((id) => !(Array.isArray(agreed) && agreed.includes(id)));
        for (const id of left) {
          const t = typeof id === 'string' ? run.tasks.get(id) : undefined;
          // Only the client's tasks still running when the acknowledgement came need following; a cancelled one is the client's choice.
          if (!t || t.cancels.length > 0) continue;
          const before = lastShown(t, ack.ms);
          if (before && isTerminal(before.status)) continue;
          const later = t.gets.filter((g) => g.request.seq > ack.seq);
          const last = lastShown(t);
          if (later.length && ((last && isTerminal(last.status)) || endedOnError(t) || later.some((g) => !g.response))) {
            ok.push(`task ${t.taskId}: ${later.length} tasks/get after the acknowledgement, to ${last?.status}`);
            continue;
          }
          // Killed at the scenario's bound while it was still polling the task (or within a poll of the acknowledgement): cut short by time (not a verdict).
          const c = cutWhileFollowing(run, t, ack.ms);
          if (c) {
            cut.push(`${c}; ${later.length} tasks/get after the acknowledgement, the last to "${last?.status}"`);
            continue;
          }
          bad.push(
            `the acknowledgement at ${at(ack.ms)} of subscriptions/listen (id ${short(x.id)}) agreed to ${short(agreed ?? null)}, leaving out task ${t.taskId}; the client sent ${later.length} tasks/get for it afterwards and the last status it saw was "${last?.status}"`,
          );
        }
      }
      ctx.expect(bad.length === 0, `${bad.join('; ')}; a client checks the acknowledged filter and handles what was left out (polls tasks/get)`);
      if (ok.length === 0) ctx.skip(cut.length ? `not judged: ${cut.join('; ')}` : 'no acknowledgement left out a task of the client that was still running');
      return ok.join('; ');
    },
  }),
];
