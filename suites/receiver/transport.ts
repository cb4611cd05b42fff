// Checks for the Streamable HTTP notes of tasks.md (the <Note> of "Input Required Status", lines
// 435-447; RULINGS.md#sse-notes: each keyword applies to Streamable HTTP only). Requirement ids from
// schema/requirements.json.
//
// Not checked here: "clients SHOULD expect messages on any SSE stream" (sse-expect-any-stream) is a
// requestor rule with nothing to observe at a receiver; the MAY disconnects of tasks/get and
// tasks/result streams (sse-get-disconnect-may, sse-result-disconnect-may) are requestor freedoms
// whose receiver corollary needs aborting one HTTP response, which the wire layer does not offer;
// "MUST continue to comply with the Streamable HTTP transport" is not observable for this suite.
import { defineCheck, type CheckContext, type CheckDef } from '../engine/check.ts';
import { createTask } from '../arrange/arrange.ts';
import { observe } from '../arrange/poll.ts';
import { isTerminal } from '../../schema/protocol.ts';

const SECTION = 'Streamable HTTP';

export const checks: CheckDef[] = [
  // SHOULD NOT upgrade tasks/get to SSE: each POST carrying tasks/get is answered application/json.
  defineCheck({
    id: 'transport.get-no-sse-upgrade',
    title: 'tasks/get is answered with application/json, not upgraded to an SSE stream',
    section: SECTION,
    requirements: ['sse-get-no-upgrade'],
    level: 'SHOULD',
    killedBy: ['get-sse'],
    clientReceiver: 'about the Streamable HTTP server answering tasks/get; a client answers on its own POST',
    needs: ['completes'],
    notApplicable: (info) => (info.transport === 'http' ? undefined : `Streamable HTTP only; transport is ${info.transport}`),
    async run(ctx: CheckContext) {
      const created = await createTask(ctx, 'completes');
      const { responses } = await observe(ctx, created.taskId, (t) => isTerminal(t.status), { label: 'polling to the end' });
      const typed = responses.filter((r) => r.httpContentType !== undefined);
      if (typed.length === 0) ctx.skip('Streamable HTTP: no HTTP content type was recorded for the tasks/get responses');
      const sse = typed.filter((r) => r.httpContentType === 'text/event-stream');
      ctx.expect(
        sse.length === 0,
        `${sse.length} of ${typed.length} tasks/get responses came on a text/event-stream (SSE) response instead of application/json`,
      );
      const types = [...new Set(typed.map((r) => r.httpContentType))];
      return `${typed.length} tasks/get responses, content type ${types.join(', ')}`;
    },
  }),
];
