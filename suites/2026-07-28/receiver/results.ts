// resultType on every result (core basic-index.md "Responses": the result MUST include resultType).
import type { CheckContext, CheckDef } from '../../engine/check.ts';
import { Field, Method, ResultType } from '../../../schema/2026-07-28/protocol.ts';
import { brief, declaresExtension, modernCheck, wire } from '../engine/check.ts';
import { declaresTasksExtension } from '../../../schema/2026-07-28/protocol.ts';
import { runAnswers } from '../arrange/observed.ts';

/** The core's ResultType values (basic-index.md "ResultType"). */
const CORE_RESULT_TYPES: readonly string[] = [ResultType.Complete, ResultType.InputRequired];

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
  // "The set of supported ResultType values MUST be created from the set defined in the core protocol and
  // include any additional values of supported extensions that are advertised via capabilities": every
  // resultType of the run is "complete" or "input_required", or "task" where the server advertises the
  // extension (unknown, and not judged, when server/discover went unanswered). A "task" to a request that did not declare the extension is judged by
  // 2026-negotiation.no-task-for-non-declaring (the same observation, catalog note), not twice here; an absent
  // resultType by 2026-results.result-type-present.
  modernCheck({
    id: '2026-results.result-type-known',
    title: 'every resultType in the run is a core value, or "task" from a server advertising the extension',
    section: 'Results',
    requirements: ['2026-core-result-type-set-advertised'],
    level: 'MUST',
    killedBy: ['result-type-unknown'],
    runsLast: true,
    async run(ctx: CheckContext) {
      const s = wire(ctx);
      await s.request(Method.ServerDiscover, {}).catch(() => undefined);
      await s.request(Method.ToolsList, {}).catch(() => undefined);
      await ctx.othersDone();
      const advertised = declaresExtension(ctx.info);
      const typed = runAnswers(ctx).filter((a) => typeof (a.response.result as any)?.[Field.resultType] === 'string');
      if (!typed.length) ctx.skip('no result of the run carried a resultType', { judgedBy: '2026-results.result-type-present' });
      const bad: string[] = [];
      let left = 0;
      for (const a of typed) {
        const t = (a.response.result as any)[Field.resultType] as string;
        if (CORE_RESULT_TYPES.includes(t)) continue;
        // Without a server/discover answer what the server advertises is unknown (2026-discover-implement judges that).
        if (t === ResultType.Task && (advertised || ctx.info.discoverResult === undefined)) {
          if (a.request && !declaresTasksExtension(a.request.params)) left++; // 2026-negotiation.no-task-for-non-declaring
          continue;
        }
        const why =
          t === ResultType.Task ? 'the server does not advertise the extension that adds "task"' : 'neither the core nor an advertised extension defines it';
        bad.push(`${a.request?.method ?? 'a response'} (${a.source}) → resultType ${JSON.stringify(t)}: ${why}`);
      }
      ctx.expect(bad.length === 0, `${bad.length} result(s) carry a resultType outside the supported set: ${bad.slice(0, 5).join('; ')}`);
      return `${typed.length} result(s) with resultType, each a supported value${left ? ` (${left} "task" to a non-declaring request left to 2026-negotiation.no-task-for-non-declaring)` : ''}`;
    },
  }),
];
