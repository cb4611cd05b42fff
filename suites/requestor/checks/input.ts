// Requestor checks: input_required (Requestor: Input Required). Scenario sets and helpers they share: common.ts.
import { abnormalEnd, actWindowMs, allTasks, at, endedTooSoon, type Analysis } from '../analysis.ts';
import { defineRequestorCheck, type JudgeContext, type RequestorCheckDef } from '../engine.ts';
import { CAUSE_CUT_OFF, INPUT, SERVER_TASKS } from './common.ts';

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
      const cut: string[] = [];
      for (const { t, first } of cases) {
        // The tasks/result must come while the task is input_required: before the requestor saw it leave that status.
        const left = t.shown.find((s) => s.ms > first!.ms && s.status !== 'input_required');
        const until = left?.ms ?? Infinity;
        const after = t.results.find((x) => x.sentMs >= first!.ms && x.sentMs < until);
        const pending = t.results.find((x) => x.sentMs < first!.ms && (x.answeredMs === undefined || x.answeredMs > first!.ms));
        if (after) ok.push(`saw input_required at ${at(first!.ms)} (${first!.via}), called tasks/result at ${at(after.sentMs)}`);
        else if (pending) ok.push(`tasks/result was already pending when input_required was seen`);
        else if (!left && endedTooSoon(run, t.session, first!.ms, actWindowMs(first!.pollInterval))) {
          // It had no time to call tasks/result: only time stopped it (RULINGS.md#response-time).
          cut.push(
            `task ${t.taskId}: saw input_required at ${at(first!.ms)}, and ${endedTooSoon(run, t.session, first!.ms, actWindowMs(first!.pollInterval))}`,
          );
        } else {
          const getsWhile = t.gets.filter((x) => x.sentMs > first!.ms && x.sentMs < until).length;
          const late = t.results.find((x) => x.sentMs >= until);
          bad.push(
            `task ${t.taskId}: saw input_required at ${at(first!.ms)} (${first!.via}), then sent ${getsWhile} more tasks/get and no tasks/result while it was input_required` +
              (left ? ` (it saw "${left.status}" at ${at(left.ms)}${late ? `; tasks/result only at ${at(late.sentMs)}` : ''})` : ''),
          );
        }
      }
      ctx.expect(bad.length === 0, bad.join('; '));
      if (ok.length === 0 && cut.length) ctx.skip(cut.join('; '), { timedOut: true, cause: CAUSE_CUT_OFF });
      for (const c of cut) ctx.note(`not judged: ${c}`);
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
      // RULINGS.md#get-stream-optional: the client MAY open the GET stream; one that opens none has nothing delivered there to expect.
      if (!run.sessions.some((s) => s.openedGetStream))
        ctx.skip(
          `the client opened no standalone GET SSE stream (Streamable HTTP leaves that to the client), so the receiver delivered the ${inputs[0]!.method} on the tasks/result stream: nothing arrived on a GET stream`,
        );
      const standalone = inputs.filter((x) => !x.request.note?.startsWith('related to request'));
      if (standalone.length === 0) ctx.skip(`the receiver delivered the ${inputs[0]!.method} on the tasks/result stream, not on the GET stream`);
      const unanswered = standalone.filter((x) => !x.response);
      // A client killed at the scenario's bound with the request unanswered: time stopped it, not the stream (RULINGS.md#response-time).
      const sessionOf = (x: (typeof inputs)[number]) => run.sessions.find((s) => s.serverRequests.includes(x))?.id ?? '';
      if (unanswered.length && (run.exit.timedOut || unanswered.every((x) => endedTooSoon(run, sessionOf(x), x.sentMs, actWindowMs(undefined)))))
        ctx.skip(
          `${unanswered.length} ${unanswered[0]!.method} sent on the GET stream at ${at(unanswered[0]!.sentMs)} was still unanswered when the client's run ended (${abnormalEnd(run)})`,
          {
            timedOut: true,
          },
        );
      ctx.expect(
        unanswered.length === 0,
        `${unanswered.length} ${unanswered[0]?.method} sent on the GET stream at ${at(unanswered[0]?.sentMs)} got no answer before the client ended its run (${run.exit.code === null ? run.exit.signal : `exit ${run.exit.code}`}); clients SHOULD expect messages on any SSE stream, including the HTTP GET stream (tasks.md line 441)`,
      );
      return `${standalone.length} input request(s) on the GET stream answered (after ${standalone.map((x) => `${Math.round(x.answeredMs! - x.sentMs)} ms`).join(', ')})`;
    },
  }),
];
