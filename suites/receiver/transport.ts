// Checks for the Streamable HTTP notes of tasks.md (the <Note>s of "Getting Tasks", "Retrieving Task
// Results" and "Input Required Status"; RULINGS.md#sse-notes: each keyword applies to Streamable HTTP only).
// Requirement ids from schema/requirements.json.
//
// Not checked here: "clients SHOULD expect messages on any SSE stream" (sse-expect-any-stream) is a
// requestor rule with nothing to observe at a receiver; "MUST continue to comply with the Streamable HTTP
// transport" is not observable for this suite. The MAY disconnects (sse-get-disconnect-may,
// sse-result-disconnect-may) are requestor freedoms; their receiver side is transports.md's "Disconnection
// SHOULD NOT be interpreted as the client cancelling its request" (sse-disconnect-not-cancel), judged on a
// waiting tasks/result (a tasks/get is answered at once, no stream of it stays open to drop).
import { roleRunMs } from '../engine/profile.ts';
import { defineCheck, type CheckContext, type CheckDef } from '../engine/check.ts';
import { createTask } from '../arrange/arrange.ts';
import { timeLeft } from '../arrange/budget.ts';
import { observe, seqText } from '../arrange/poll.ts';
import { WireClosedError, WireTimeoutError } from '../wire/peer.ts';
import { isTaskStatus, isTerminal } from '../../schema/protocol.ts';

const SECTION = 'Streamable HTTP';
/** How long transport.disconnect-not-cancel watches a task after the disconnect (ctx.bound scales it). */
const WATCH_AFTER_DROP_MS = 3_000;

/** Slow tasks tried before the check gives up on dropping a waiting tasks/result. */
const DROP_ATTEMPTS = 2;

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

  // sse-disconnect-not-cancel (transports.md:130) on the freedom of sse-result-disconnect-may (tasks.md:234):
  // the requestor drops the HTTP response of a waiting tasks/result; the session stays. The task must not
  // become "cancelled" for it (a new tasks/result is then sent and reported, judged by the result checks).
  defineCheck({
    id: 'transport.disconnect-not-cancel',
    title: 'Dropping the stream of a waiting tasks/result does not cancel the task',
    section: SECTION,
    requirements: ['sse-disconnect-not-cancel', 'sse-result-disconnect-may'],
    level: 'SHOULD',
    killedBy: ['disconnect-cancels'],
    clientReceiver: 'about the Streamable HTTP server; a client answers task requests on the POST of its own request',
    needs: ['slow'],
    waitsMs: (p) => roleRunMs(p, 'slow'),
    notApplicable: (info) => (info.transport === 'http' ? undefined : `Streamable HTTP only; transport is ${info.transport}`),
    async run(ctx: CheckContext) {
      if (!ctx.peer.canDropResponses) ctx.skip('this connection cannot drop the HTTP response of one request');
      // A machine slow enough that the slow task ends before the ping comes back leaves nothing to drop: one more
      // slow task is tried (a precondition, never a verdict), then the check is not exercised.
      let c: Awaited<ReturnType<typeof createTask>> | undefined;
      for (let attempt = 1; !c; attempt++) {
        const t = await createTask(ctx, 'slow');
        if (isTaskStatus(t.task.status) && isTerminal(t.task.status))
          ctx.skip(`the slow task's CreateTaskResult already showed "${t.task.status}": no tasks/result waits on it`);
        const id = `${ctx.def.id}-result-${t.taskId.slice(0, 8)}`;
        let answered = false;
        const first = ctx.peer.request('tasks/result', { taskId: t.taskId }, { id, timeoutMs: timeLeft(ctx, { marginMs: 3_000, floorMs: 2_000 }) }).then(
          () => (answered = true),
          (e) => {
            if (!(e instanceof WireClosedError || e instanceof WireTimeoutError)) throw e;
          },
        );
        // Awaited below; handled now too, so a target that dies during the ping leaves no unhandled rejection.
        first.catch(() => undefined);
        // A ping answered after it: the tasks/result has reached the receiver (its HTTP request was sent first).
        await ctx.peer.request('ping');
        const missed = answered
          ? 'the first tasks/result was answered before its stream could be dropped (the task ended first)'
          : !ctx.peer.dropResponse(id)
            ? 'the first tasks/result was no longer outstanding when its stream was to be dropped'
            : undefined;
        if (missed === undefined) c = t;
        else if (attempt >= DROP_ATTEMPTS) ctx.skip(`${missed}, ${attempt} times`);
        else ctx.note(`${missed}: tried again with a new slow task`);
        await first;
      }
      // Watched to its end, or while a quick target would have ended a cancellation many times over: a
      // task still working then was not cancelled by the disconnect (a slow task may run for minutes).
      const o = await observe(ctx, c.taskId, (t) => isTerminal(t.status), {
        boundMs: Math.min(ctx.bound(WATCH_AFTER_DROP_MS), timeLeft(ctx, { marginMs: 3_000, floorMs: 1_000 })),
        label: 'watching the task after the disconnect',
      });
      const status = String(o.last?.status);
      ctx.expect(
        status !== 'cancelled',
        `after we dropped the stream of its waiting tasks/result (no tasks/cancel sent), the task became "cancelled"${o.last?.statusMessage ? ` ("${String(o.last.statusMessage)}")` : ''}: the disconnect was taken for a cancellation (seen ${seqText(o.statuses)})`,
      );
      if (o.timedOut)
        return `dropped the stream of a waiting tasks/result; the task was still "${status}" ${o.elapsedMs} ms later (seen ${seqText(o.statuses)})`;
      const again = await ctx.peer.request('tasks/result', { taskId: c.taskId });
      return `dropped the stream of a waiting tasks/result; the task ran on to "${status}" and a new tasks/result answered ${again.error ? `error ${again.error.code}` : 'its result'}`;
    },
  }),
];
