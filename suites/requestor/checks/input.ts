// Requestor checks: input_required (Requestor: Input Required). Scenario sets and helpers they share: common.ts.
import { allTasks, at, type Analysis } from '../analysis.ts';
import { defineRequestorCheck, type JudgeContext, type RequestorCheckDef } from '../engine.ts';
import { INPUT, SERVER_TASKS } from './common.ts';

const SEC_INPUT = 'Requestor: Input Required';

export const checks: RequestorCheckDef[] = [
  defineRequestorCheck({
    id: 'requestor.input-required-result',
    title: 'Calls tasks/result when it sees input_required',
    section: SEC_INPUT,
    requirements: ['input-required-call-result'],
    level: 'SHOULD',
    killedBy: ['no-result-on-input-required'],
    scenarios: [...INPUT, ...SERVER_TASKS],
    judge(run: Analysis, ctx: JudgeContext) {
      const tasks = allTasks(run);
      if (tasks.length === 0) ctx.skip('the requestor created no task');
      const cases = tasks.map((t) => ({ t, first: t.shown.find((s) => s.status === 'input_required') })).filter((c) => c.first);
      if (cases.length === 0) {
        if (tasks.some((t) => t.inputRequests.length > 0)) return 'the requestor had tasks/result pending before it saw input_required';
        ctx.skip('the requestor never saw a task in input_required');
      }
      const bad: string[] = [];
      const ok: string[] = [];
      for (const { t, first } of cases) {
        // The tasks/result must come while the task is input_required: before the requestor saw it leave that status.
        const left = t.shown.find((s) => s.ms > first!.ms && s.status !== 'input_required');
        const until = left?.ms ?? Infinity;
        const after = t.results.find((x) => x.sentMs >= first!.ms && x.sentMs < until);
        const pending = t.results.find((x) => x.sentMs < first!.ms && (x.answeredMs === undefined || x.answeredMs > first!.ms));
        if (after) ok.push(`saw input_required at ${at(first!.ms)} (${first!.via}), called tasks/result at ${at(after.sentMs)}`);
        else if (pending) ok.push(`tasks/result was already pending when input_required was seen`);
        else {
          const getsWhile = t.gets.filter((x) => x.sentMs > first!.ms && x.sentMs < until).length;
          const late = t.results.find((x) => x.sentMs >= until);
          bad.push(
            `task ${t.taskId}: saw input_required at ${at(first!.ms)} (${first!.via}), then sent ${getsWhile} more tasks/get and no tasks/result while it was input_required` +
              (left ? ` (it saw "${left.status}" at ${at(left.ms)}${late ? `; tasks/result only at ${at(late.sentMs)}` : ''})` : ''),
          );
        }
      }
      ctx.expect(bad.length === 0, bad.join('; '));
      return ok.join('; ');
    },
  }),

  defineRequestorCheck({
    id: 'requestor.input-on-any-stream',
    title: 'Answers task input requests delivered on the standalone GET SSE stream (Streamable HTTP)',
    section: SEC_INPUT,
    requirements: ['sse-expect-any-stream'],
    level: 'SHOULD',
    killedBy: ['ignore-get-stream'],
    scenarios: ['input-on-get-stream'],
    judge(run: Analysis, ctx: JudgeContext) {
      if (run.transport !== 'http') ctx.skip('stdio has no SSE streams');
      const inputs = allTasks(run).flatMap((t) => t.inputRequests);
      if (inputs.length === 0) ctx.skip('the receiver sent no input request (the requestor did not call tasks/result on the input_required task)');
      const standalone = inputs.filter((x) => !x.request.note?.startsWith('related to request'));
      if (standalone.length === 0) {
        ctx.violation(
          `the requestor opened no standalone GET SSE stream, so the receiver could only deliver the ${inputs[0]!.method} on the tasks/result stream; clients SHOULD expect messages on any SSE stream, including the HTTP GET stream (tasks.md line 441)`,
        );
      }
      const unanswered = standalone.filter((x) => !x.response);
      ctx.expect(unanswered.length === 0, `${unanswered.length} ${unanswered[0]?.method} sent on the GET stream at ${at(unanswered[0]?.sentMs)} got no answer`);
      return `${standalone.length} input request(s) on the GET stream answered (after ${standalone.map((x) => `${Math.round(x.answeredMs! - x.sentMs)} ms`).join(', ')})`;
    },
  }),
];
