// Requestor checks: related-task metadata (Requestor: Related-Task Metadata). Scenario sets and helpers they share: common.ts.
import { RELATED_TASK_META } from '../../../schema/protocol.ts';
import { allTasks, at, relatedTask, short, type Analysis } from '../analysis.ts';
import { defineRequestorCheck, type JudgeContext, type RequestorCheckDef } from '../engine.ts';
import { INPUT, ALL, SERVER_ALL, calls, summarize } from './common.ts';

const SEC_META = 'Requestor: Related-Task Metadata';

export const checks: RequestorCheckDef[] = [
  defineRequestorCheck({
    id: 'requestor.input-response-related-task',
    title: "The answer to a task's elicitation carries related-task _meta with the task's id",
    section: SEC_META,
    requirements: ['related-task-all-messages', 'related-task-nested-same-id'],
    level: 'MUST',
    killedBy: ['elicitation-no-related-task'],
    scenarios: INPUT,
    judge(run: Analysis, ctx: JudgeContext) {
      const reqs = allTasks(run).flatMap((t) => t.inputRequests);
      if (reqs.length === 0) ctx.skip('the receiver sent no input request (the requestor did not reach the input step)');
      const answered = reqs.filter((x) => x.response);
      if (answered.length === 0) ctx.skip(`the requestor answered none of the ${reqs.length} input request(s)`);
      const bad: string[] = [];
      let good = 0;
      for (const x of answered) {
        const want = relatedTask(x.params).taskId;
        if (x.error) {
          ctx.note(`the ${x.method} at ${at(x.sentMs)} was answered with error ${x.error.code} (an error response has no _meta to judge)`);
          continue;
        }
        const r = relatedTask(x.result);
        if (!r.present)
          bad.push(
            `the response to ${x.method} (id ${short(x.id)}, task ${String(want)}) carries no _meta["${RELATED_TASK_META}"] (result: ${short(x.result)})`,
          );
        else if (r.taskId !== want)
          bad.push(`the response to ${x.method} (id ${short(x.id)}) carries related-task taskId ${short(r.taskId)}, not the task's ${short(want)}`);
        else good++;
      }
      if (bad.length === 0 && good === 0) ctx.skip('every input request was answered with an error');
      ctx.expect(bad.length === 0, bad.join('; '));
      return `${good} response(s) to input requests carry related-task _meta with the task's id`;
    },
  }),

  defineRequestorCheck({
    id: 'requestor.no-related-task-in-task-requests',
    title: 'No related-task _meta in tasks/get, tasks/result, tasks/cancel requests',
    section: SEC_META,
    requirements: ['related-task-requestor-omit-in-requests'],
    level: 'SHOULD',
    killedBy: ['related-task-in-requests'],
    scenarios: [...ALL, ...SERVER_ALL],
    judge(run: Analysis, ctx: JudgeContext) {
      const reqs = run.sessions.flatMap((s) => s.clientRequests.filter((x) => ['tasks/get', 'tasks/result', 'tasks/cancel'].includes(x.method)));
      if (reqs.length === 0) ctx.skip('the requestor sent no tasks/get, tasks/result or tasks/cancel');
      const bad = reqs.filter((x) => relatedTask(x.params).present);
      ctx.expect(bad.length === 0, `${bad.length} of ${reqs.length} requests carry _meta["${RELATED_TASK_META}"]: ${summarize(bad)}`);
      return `${reqs.length} tasks/get|result|cancel requests, none with related-task _meta`;
    },
  }),

  defineRequestorCheck({
    id: 'requestor.no-related-task-in-list',
    title: 'No related-task _meta in tasks/list requests',
    section: SEC_META,
    requirements: ['related-task-get-list-cancel-should-not'],
    level: 'SHOULD',
    killedBy: ['related-task-in-list'],
    scenarios: [...ALL, ...SERVER_ALL],
    judge(run: Analysis, ctx: JudgeContext) {
      const reqs = run.sessions.flatMap((s) => calls(s, 'tasks/list'));
      if (reqs.length === 0) ctx.skip('the requestor sent no tasks/list');
      const bad = reqs.filter((x) => relatedTask(x.params).present);
      ctx.expect(bad.length === 0, `${bad.length} of ${reqs.length} tasks/list requests carry _meta["${RELATED_TASK_META}"]: ${summarize(bad)}`);
      return `${reqs.length} tasks/list requests, none with related-task _meta`;
    },
  }),
];
