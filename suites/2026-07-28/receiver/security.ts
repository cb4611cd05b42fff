// The extension's tasks.md "Security Considerations", auth binding: a task is served only to the requestor that
// may access it. Exercised where the target has two authorization contexts (two bearer identities over HTTP,
// --header and --secondary-header); otherwise not exercised with that reason. Id entropy: creation.ts.
import type { CheckContext, CheckDef, TargetInfo } from '../../engine/check.ts';
import { short } from '../../engine/text.ts';
import { Method } from '../../../schema/2026-07-28/protocol.ts';
import { extensionNotAdvertised, modernCheck, openWire } from '../engine/check.ts';
import { answerOrRefusal, answerText, createTask, getTask, updateTask } from '../arrange/tasks.ts';

export const checks: CheckDef[] = [
  modernCheck({
    id: '2026-security.auth-binding',
    title: "another requestor's tasks/get, tasks/update and tasks/cancel are refused for a task it did not create",
    section: 'Security Considerations',
    requirements: ['2026-security-auth-binding'],
    level: 'MUST',
    killedBy: ['foreign-task-visible'],
    needs: ['slow'],
    notApplicable: (info: TargetInfo) => extensionNotAdvertised(info),
    async run(ctx: CheckContext) {
      if (!ctx.connector.hasSecondIdentity) ctx.skip('the target has one authorization context (give a second identity over HTTP to exercise auth binding)');
      const c = await createTask(ctx, 'slow');
      const other = await openWire(ctx, { identity: 'secondary' });
      // A refusal in any form: a JSON-RPC error, or a bare HTTP 4xx (the page prescribes no form).
      const tries = [
        [Method.TasksGet, await answerOrRefusal(getTask(other, c.taskId))],
        [Method.TasksUpdate, await answerOrRefusal(updateTask(other, c.taskId, {}))],
        [Method.TasksCancel, await answerOrRefusal(other.request(Method.TasksCancel, { taskId: c.taskId }))],
      ] as const;
      const served = tries.filter(([, r]) => !r.error && r.httpRefusal === undefined);
      ctx.expect(
        served.length === 0,
        `another identity's ${served.map(([m]) => m).join(', ')} for task ${c.taskId} ${served.length > 1 ? 'were' : 'was'} served (${short(served[0]?.[1].result)})`,
      );
      return tries.map(([m, r]) => `${m} → ${answerText(r)}`).join('; ');
    },
  }),
];
