// Protocol errors of the extension (tasks.md "Protocol Errors").
import type { CheckContext, CheckDef } from '../../engine/check.ts';
import { ErrorCode, Method } from '../../../schema/2026-07-28/protocol.ts';
import { brief, extensionNotAdvertised, modernCheck, wire } from '../engine/check.ts';
import { unknownTaskId } from '../arrange/tasks.ts';
import { short } from '../../engine/text.ts';
import { codeMisuse, runErrors, type SeenError } from './codes.ts';

/** A taskId too long to name any task (2 KiB: over HTTP it also travels in Mcp-Name, within header limits). */
const OVERSIZED_TASK_ID = 'x'.repeat(2048);

/** The extension's protocol errors of the check's own: each task method for a taskId never issued, and for an oversized one. */
async function provokeTaskErrors(ctx: CheckContext): Promise<void> {
  const s = wire(ctx);
  for (const taskId of [unknownTaskId(), OVERSIZED_TASK_ID])
    for (const method of [Method.TasksGet, Method.TasksUpdate, Method.TasksCancel]) {
      const params = method === Method.TasksUpdate ? { taskId, inputResponses: {} } : { taskId };
      await s.request(method, params).catch(() => undefined);
    }
}

const line = (e: SeenError) => `${e.where} → ${short(e.error.code)} ${short(e.error.message, 80)}`;

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
  // "Servers MUST return standard JSON-RPC errors for the following protocol error cases" (tasks.md:791-799):
  // only the listed cases a request plainly falls in are judged (SeenError.listedCase: a declaring client's
  // tasks/* for a taskId never issued), for a code outside JSON-RPC's and the MCP-defined ones. The
  // missing-capability case has its own lines (-32021, negotiation.ts); an internal failure cannot be told from
  // the outside; any other error of tasks/* (a limit in any code, with HTTP 429 or not: RULINGS.md#ext-rate-limit-error-open;
  // a foreign context; an implementation's own refusal) is no case of the list, and a legacy code there is
  // codes.no-legacy-range's SHOULD NOT. A retired or undefined reserved code is judged by its own line (codes.ts).
  modernCheck({
    id: '2026-errors.standard-jsonrpc',
    title: 'a protocol error of tasks/get, tasks/update and tasks/cancel in a case the page lists (a taskId never issued) has a standard code',
    section: 'Protocol errors',
    requirements: ['2026-errors-standard-jsonrpc'],
    level: 'MUST',
    killedBy: ['internal-error-custom-code'],
    notApplicable: extensionNotAdvertised,
    runsLast: true,
    async run(ctx: CheckContext) {
      await provokeTaskErrors(ctx);
      await ctx.othersDone();
      const errors = runErrors(ctx).filter((e) => e.listedCase);
      if (!errors.length) ctx.skip('no protocol error of tasks/* in a listed case (a taskId never issued) in the run');
      const bad = errors.filter((e) => codeMisuse(e.error.code, true) === 'non-standard');
      ctx.expect(
        bad.length === 0,
        `${bad.length} protocol error(s) of tasks/* carry a code that is neither JSON-RPC's nor one MCP defines (an internal error is -32603): ${bad.slice(0, 5).map(line).join('; ')}`,
      );
      return `${errors.length} protocol error(s) of tasks/* in a listed case, each with a standard code`;
    },
  }),
  // "Servers SHOULD provide informative error messages": the protocol errors of tasks/* and every -32021
  // (the page's missing-capability case) carry a message that says something; its wording is not judged.
  modernCheck({
    id: '2026-errors.informative-message',
    title: 'every protocol error of the extension in the run (tasks/*, -32021) has a non-empty message',
    section: 'Protocol errors',
    requirements: ['2026-errors-informative-message'],
    level: 'SHOULD',
    killedBy: ['error-message-empty'],
    notApplicable: extensionNotAdvertised,
    runsLast: true,
    async run(ctx: CheckContext) {
      await provokeTaskErrors(ctx);
      await ctx.othersDone();
      const errors = runErrors(ctx).filter((e) => e.answered && (e.protocol || e.error.code === ErrorCode.MissingRequiredClientCapability));
      if (!errors.length) ctx.skip('no protocol error of the extension in the run');
      const bad = errors.filter((e) => typeof e.error.message !== 'string' || e.error.message.trim() === '');
      ctx.expect(bad.length === 0, `${bad.length} protocol error(s) without a message describing the cause: ${bad.slice(0, 5).map(line).join('; ')}`);
      return `${errors.length} protocol error(s), each with a message`;
    },
  }),
];
