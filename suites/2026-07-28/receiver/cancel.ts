// Checks of the extension's tasks.md "Task Cancellation": the empty acknowledgement, and what follows it
// (eventually consistent, cooperative: reported, not judged); requirement ids from schema/2026-07-28/requirements.json.
import type { CheckContext, CheckDef } from '../../engine/check.ts';
import { short } from '../../engine/text.ts';
import { seqText } from '../../arrange/poll.ts';
import { timeLeft } from '../../arrange/budget.ts';
import { Field, isTerminal, type TaskStatus } from '../../../schema/2026-07-28/protocol.ts';
import { extensionNotAdvertised, modernCheck } from '../engine/check.ts';
import { cancelTask, createSettled, createTask, watch } from '../arrange/tasks.ts';
import { judgeAck, judgeAckResultType } from '../arrange/ack.ts';

const SECTION = 'Task Cancellation';

/** A slow task and its tasks/cancel, acknowledged (an error: not exercised, judged by 2026-cancel.ack-empty). */
async function cancelledRunning(ctx: CheckContext) {
  const c = await createTask(ctx, 'slow');
  const r = await cancelTask(c.scope, c.taskId);
  if (r.error) ctx.skip(`tasks/cancel answered error ${r.error.code} ${r.error.message}`, { judgedBy: '2026-cancel.ack-empty' });
  return { c, r };
}

export const checks: CheckDef[] = [
  modernCheck({
    id: '2026-cancel.ack-empty',
    title: 'tasks/cancel is acknowledged with an empty result (for a running and for a finished task)',
    section: SECTION,
    requirements: ['2026-cancel-ack-empty'],
    level: 'MUST',
    killedBy: ['cancel-ack-carries-task'],
    needs: ['slow', 'completes'],
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      const c = await createTask(ctx, 'slow');
      const r = await cancelTask(c.scope, c.taskId);
      // The ack rule applies "on success": an error answer is judged elsewhere (unknown ids: 2026-cancel-unknown-task-error).
      if (r.error)
        ctx.skip(`tasks/cancel of running task ${c.taskId} answered error ${r.error.code} ${r.error.message}`, {
          judgedBy: r.error.code === -32602 ? '2026-creation.durable' : undefined,
        });
      judgeAck(ctx, 'tasks/cancel', r.result);
      // A task already terminal: an ack (or, by RULINGS.md#ext-cancel-terminal, an error) — an ack must be empty too.
      const done = await createSettled(ctx, 'completes');
      const r2 = await cancelTask(done.scope, done.taskId);
      if (r2.error) return `ack ${short(r.result, 100)}; a finished task's cancel answered ${r2.error.code} (RULINGS.md#ext-cancel-terminal)`;
      judgeAck(ctx, `tasks/cancel (finished task ${done.taskId})`, r2.result);
      return `ack ${short(r.result, 100)}`;
    },
  }),
  modernCheck({
    id: '2026-cancel.result-type',
    title: 'the tasks/cancel acknowledgement carries resultType "complete"',
    section: SECTION,
    requirements: ['2026-cancel-result-type-complete'],
    level: 'MUST',
    killedBy: ['cancel-no-result-type'],
    needs: ['slow'],
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      const { r } = await cancelledRunning(ctx);
      return judgeAckResultType(ctx, 'tasks/cancel', r.result);
    },
  }),
  modernCheck({
    id: '2026-cancel.eventual',
    title: 'after the ack: the status the task shows and where it ends (cancellation is eventually consistent and cooperative)',
    section: SECTION,
    requirements: ['2026-cancel-may-stay-nonterminal', '2026-cancel-may-end-otherwise'],
    level: 'MAY',
    killedBy: [],
    needs: ['slow'],
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      const { c } = await cancelledRunning(ctx);
      const statuses: TaskStatus[] = [];
      const w = await watch(ctx, c.taskId, (t) => isTerminal(t[Field.status]), {
        scope: c.scope,
        into: statuses,
        allowGone: true,
        boundMs: timeLeft(ctx, { marginMs: 3_000, floorMs: 1_000, capMs: 8_000 }),
      });
      const first = statuses[0];
      const end = w.gone
        ? `gone (${w.gone.code})`
        : isTerminal(w.last?.[Field.status])
          ? String(w.last?.[Field.status])
          : `still ${String(w.last?.[Field.status])}`;
      return `first tasks/get after the ack: ${first ?? (w.gone ? 'gone' : 'none')}; then ${seqText(statuses) || '—'}; end: ${end}`;
    },
  }),
];
