// The 2025-11-25 task methods this revision removed (SEP-2663 "Backward Compatibility"; RULINGS.md#ext-tasks-list-removed):
// tasks/result and tasks/list answer -32601 (Method not found), over Streamable HTTP with 404.
import type { CheckContext, CheckDef } from '../../engine/check.ts';
import { ErrorCode, HTTP_NOT_FOUND, Method } from '../../../schema/2026-07-28/protocol.ts';
import type { ModernResponse } from '../wire/peer.ts';
import { brief, modernCheck, wire } from '../engine/check.ts';
import { createTask, unknownTaskId } from '../arrange/tasks.ts';

const SECTION = 'Removed methods';

/** The removed method called by a declaring client, about a real task where the target can make one. */
async function callRemoved(ctx: CheckContext, method: string): Promise<ModernResponse> {
  const s = wire(ctx);
  const taskId = ctx.info.profile.tools.taskOnly ? (await createTask(ctx, 'taskOnly', { scope: s })).taskId : unknownTaskId();
  return s.request(method, method === Method.TasksResult ? { taskId } : {});
}

const show = (r: ModernResponse) => brief(r.error ?? r.result);

export const checks: CheckDef[] = [
  ...(
    [
      [Method.TasksResult, 'tasks-result-served'],
      [Method.TasksList, 'tasks-list-served'],
    ] as const
  ).map(([method, fault]) =>
    modernCheck({
      id: `2026-removed.${method.replace('/', '-')}`,
      title: `${method} (removed) answers -32601 Method not found`,
      section: SECTION,
      requirements: ['2026-compat-tasks-result-32601'],
      level: 'MUST',
      killedBy: [fault],
      async run(ctx: CheckContext) {
        const r = await callRemoved(ctx, method);
        ctx.expect(r.error?.code === ErrorCode.MethodNotFound, `${method}: expected -32601, got ${show(r)}`);
      },
    }),
  ),
  modernCheck({
    id: '2026-removed.http-404',
    title: 'over Streamable HTTP a removed method is answered 404 Not Found',
    section: SECTION,
    requirements: ['2026-header-unknown-method-404'],
    level: 'MUST',
    killedBy: ['unknown-method-http-400'],
    notApplicable: (info) => (info.transport === 'http' ? undefined : 'an HTTP status rule (the target is not spoken to over Streamable HTTP)'),
    async run(ctx: CheckContext) {
      const seen: string[] = [];
      for (const method of [Method.TasksResult, Method.TasksList]) {
        const r = await callRemoved(ctx, method);
        if (r.error?.code !== ErrorCode.MethodNotFound)
          ctx.skip(`${method} was not answered -32601 (${show(r)})`, { judgedBy: `2026-removed.${method.replace('/', '-')}` });
        ctx.expect(r.httpStatus === HTTP_NOT_FOUND, `${method}: -32601 came with HTTP ${r.httpStatus}`);
        seen.push(`${method}: 404`);
      }
      return seen.join('; ');
    },
  }),
];
