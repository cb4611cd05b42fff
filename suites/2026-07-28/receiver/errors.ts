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
];
