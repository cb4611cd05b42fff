// resultType on every result (core basic-index.md "Responses": the result MUST include resultType).
import type { CheckContext, CheckDef } from '../../engine/check.ts';
import { Field, Method, ResultType } from '../../../schema/2026-07-28/protocol.ts';
import { brief, modernCheck, wire } from '../engine/check.ts';

export const checks: CheckDef[] = [
  modernCheck({
    id: '2026-results.result-type-present',
    title: 'every result carries resultType (server/discover, tools/list, tools/call, tasks/get)',
    section: 'Results',
    requirements: ['2026-core-result-type-required'],
    level: 'MUST',
    killedBy: ['discover-no-result-type', 'get-no-result-type'],
    async run(ctx: CheckContext) {
      const s = wire(ctx);
      const results: [string, unknown][] = [];
      const ask = async (method: string, params: Record<string, unknown>) => {
        const r = await s.request(method, params);
        if (r.result !== undefined) results.push([method, r.result]);
        return r;
      };
      await ask(Method.ServerDiscover, {});
      await ask(Method.ToolsList, {});
      const tool = ctx.info.profile.tools.completes;
      if (tool) {
        const r = await ask(Method.ToolsCall, { name: tool.name, arguments: tool.arguments ?? {} });
        if (r.result?.resultType === ResultType.Task && typeof r.result.taskId === 'string') await ask(Method.TasksGet, { taskId: r.result.taskId });
      }
      if (!results.length) ctx.skip('no request was answered with a result');
      for (const [method, result] of results) {
        const t = (result as Record<string, unknown> | null)?.[Field.resultType];
        ctx.expect(typeof t === 'string', `the ${method} result has no resultType: ${brief(result)}`);
      }
      return results.map(([m, r]) => `${m}: ${JSON.stringify((r as any)[Field.resultType])}`).join('; ');
    },
  }),
];
