// Protocol errors of the extension (tasks.md "Protocol Errors").
import type { CheckContext, CheckDef } from '../../engine/check.ts';
import { ErrorCode, Method } from '../../../schema/2026-07-28/protocol.ts';
import { brief, extensionNotAdvertised, modernCheck, wire } from '../engine/check.ts';
import { unknownTaskId } from '../arrange/tasks.ts';

export const checks: CheckDef[] = [
  modernCheck({
    id: '2026-errors.get-unknown-32602',
    title: 'tasks/get of a taskId the server never issued answers -32602',
    section: 'Protocol errors',
    requirements: ['2026-errors-get-unknown-32602'],
    level: 'MUST',
    killedBy: ['get-unknown-wrong-code'],
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      const r = await wire(ctx).request(Method.TasksGet, { taskId: unknownTaskId() });
      ctx.expect(r.error?.code === ErrorCode.InvalidParams, `expected -32602, got ${brief(r.error ?? r.result)}`);
    },
  }),
  ...(
    [
      [Method.TasksUpdate, 'update', '2026-update-unknown-task-error', 'update-unknown-acked'],
      [Method.TasksCancel, 'cancel', '2026-cancel-unknown-task-error', 'cancel-unknown-acked'],
    ] as const
  ).map(([method, verb, requirement, fault]) =>
    modernCheck({
      id: `2026-errors.${verb}-unknown-32602`,
      title: `${method} of a taskId the server never issued answers a JSON-RPC error, -32602`,
      section: 'Protocol errors',
      requirements: [requirement, '2026-errors-update-cancel-unknown-32602'],
      level: 'SHOULD',
      killedBy: [fault],
      notApplicable: extensionNotAdvertised,
      async run(ctx: CheckContext) {
        const params = method === Method.TasksUpdate ? { taskId: unknownTaskId(), inputResponses: {} } : { taskId: unknownTaskId() };
        const r = await wire(ctx).request(method, params);
        ctx.expect(r.error, `${method} of a taskId never issued was acknowledged: ${brief(r.result)}`);
        ctx.expect(r.error.code === ErrorCode.InvalidParams, `${method} of a taskId never issued answered ${brief(r.error)}, not -32602`);
      },
    }),
  ),
];
