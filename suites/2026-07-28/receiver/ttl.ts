// What the extension's tasks.md leaves to the server about a task's ttlMs and pollIntervalMs: both MAY change over
// the task's life ("Task Polling"). Reported, never judged; requirement ids from schema/2026-07-28/requirements.json.
import type { CheckContext, CheckDef } from '../../engine/check.ts';
import { short } from '../../engine/text.ts';
import { Field, isTerminal } from '../../../schema/2026-07-28/protocol.ts';
import { extensionNotAdvertised, modernCheck } from '../engine/check.ts';
import { answersFor, createTask, updateTask, watch } from '../arrange/tasks.ts';
import { timeLeft } from '../../arrange/budget.ts';

const SECTION = 'Task Polling';

/** The distinct values in order ("60000 → 61000"). */
const changes = (vs: readonly unknown[]) =>
  vs
    .filter((v, i) => i === 0 || v !== vs[i - 1])
    .map((v) => short(v))
    .join(' → ');

export const checks: CheckDef[] = [
  modernCheck({
    id: '2026-ttl.values-over-life',
    title: "a task's ttlMs and pollIntervalMs over its life (both may change)",
    section: SECTION,
    requirements: ['2026-ttl-may-change', '2026-poll-interval-may-change'],
    level: 'MAY',
    killedBy: [],
    needs: ['needsInput'],
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      const c = await createTask(ctx, 'needsInput');
      const ttl: unknown[] = [c.task[Field.ttlMs]];
      const poll: unknown[] = [c.task[Field.pollIntervalMs]];
      let answered = false;
      await watch(
        ctx,
        c.taskId,
        (t) => {
          ttl.push(t[Field.ttlMs]);
          poll.push(t[Field.pollIntervalMs]);
          if (t[Field.status] === 'input_required' && !answered) {
            answered = true;
            void updateTask(c.scope, c.taskId, answersFor(t[Field.inputRequests])).catch(() => undefined);
          }
          return isTerminal(t[Field.status]);
        },
        { scope: c.scope, allowGone: true, boundMs: timeLeft(ctx, { marginMs: 3_000, floorMs: 1_000, capMs: 10_000 }) },
      );
      return `ttlMs ${changes(ttl)}; pollIntervalMs ${changes(poll)}`;
    },
  }),
];
