// Checks of the extension's tasks.md "Streamable HTTP: Routing Headers" on the server's side and the core
// header validation they lean on (basic-transports-streamable-http.md "Server Validation"): an Mcp-Name other
// than params.taskId, or an Mcp-Method other than the method, is rejected with HTTP 400 and -32020. Whether a
// task request without Mcp-Name is rejected is the server's latitude (RULINGS.md#ext-mcp-name-task-id).
import type { CheckContext, CheckDef, TargetInfo } from '../../engine/check.ts';
import { short } from '../../engine/text.ts';
import { ErrorCode, Header, HTTP_BAD_REQUEST, Method, earlierNumbering } from '../../../schema/2026-07-28/protocol.ts';
import { extensionNotAdvertised, modernCheck } from '../engine/check.ts';
import { answerOrRefusal, answerText, cancelTask, createTask, getTask, updateTask } from '../arrange/tasks.ts';

const SECTION = 'Streamable HTTP: Routing Headers';
const httpOnly = (info: TargetInfo) =>
  info.transport === 'http' ? extensionNotAdvertised(info) : 'routing headers exist over Streamable HTTP only; the target is not spoken to over HTTP';

export const checks: CheckDef[] = [
  modernCheck({
    id: '2026-http.mcp-name-mismatch',
    title: 'tasks/get, tasks/update and tasks/cancel whose Mcp-Name is not the params.taskId are rejected',
    section: SECTION,
    requirements: ['2026-header-server-reject-mismatch'],
    level: 'MUST',
    killedBy: ['mcp-name-unchecked'],
    needs: ['slow'],
    notApplicable: httpOnly,
    async run(ctx: CheckContext) {
      const c = await createTask(ctx, 'slow');
      const good = await getTask(c.scope, c.taskId);
      if (good.error) ctx.skip(`tasks/get with the right headers answered ${good.error.code} ${good.error.message}`, { judgedBy: '2026-get.working' });
      const other = `not-${c.taskId}`;
      const headers = { [Header.Name]: other };
      // Rejected in any form: the server's JSON-RPC error, or an intermediary's bare HTTP 4xx (which need carry no
      // JSON-RPC error: basic-transports-streamable-http.md "Server Validation" note).
      const tries = [
        [Method.TasksGet, await answerOrRefusal(getTask(c.scope, c.taskId, { headers }))],
        [Method.TasksUpdate, await answerOrRefusal(updateTask(c.scope, c.taskId, {}, { headers }))],
        [Method.TasksCancel, await answerOrRefusal(cancelTask(c.scope, c.taskId, { headers }))],
      ] as const;
      const served = tries.filter(([, r]) => !r.error && r.httpRefusal === undefined);
      ctx.expect(
        served.length === 0,
        `${served.map(([m]) => m).join(', ')} with ${Header.Name}: ${other} for params.taskId ${c.taskId} ${served.length > 1 ? 'were' : 'was'} served (${short(served[0]?.[1].result)})`,
      );
      return tries.map(([m, r]) => `${m} → ${answerText(r)}`).join('; ');
    },
  }),
  modernCheck({
    id: '2026-http.header-mismatch-error',
    title: 'a task request whose Mcp-Method header differs from the method is answered HTTP 400 with -32020',
    section: SECTION,
    requirements: ['2026-header-mismatch-32020', '2026-header-mismatch-400'],
    level: 'MUST',
    killedBy: ['mcp-method-unchecked', 'header-mismatch-http-200'],
    needs: ['slow'],
    notApplicable: httpOnly,
    async run(ctx: CheckContext) {
      const c = await createTask(ctx, 'slow');
      const r = await answerOrRefusal(getTask(c.scope, c.taskId, { headers: { [Header.Method]: Method.TasksCancel } }));
      // A bare HTTP 4xx is an intermediary's rejection ("an appropriate HTTP error status (e.g., 400)", no JSON-RPC
      // error required: basic-transports-streamable-http.md "Server Validation" note), and no answer tells it from
      // the server's; 400 and -32020 are judged where a JSON-RPC error is given.
      if (r.httpRefusal !== undefined) {
        ctx.note(
          `tasks/get with a mismatched ${Header.Method} was refused with a bare HTTP ${r.httpRefusal} (an intermediary's form: no JSON-RPC error required of it)`,
        );
        return `HTTP ${r.httpRefusal} without a JSON-RPC body`;
      }
      ctx.expect(r.error, `tasks/get sent with ${Header.Method}: ${Method.TasksCancel} was served (${short(r.result)})`);
      ctx.expect(
        r.error.code === ErrorCode.HeaderMismatch,
        `tasks/get with a mismatched ${Header.Method} answered ${r.error.code} ${r.error.message}, not -32020 (HeaderMismatch)${earlierNumbering(r.error.code, ErrorCode.HeaderMismatch)}`,
      );
      ctx.expect(r.httpStatus === HTTP_BAD_REQUEST, `the -32020 answer came with HTTP ${r.httpStatus}, not 400`);
      return `HTTP 400, -32020 ${short(r.error.message, 80)}`;
    },
  }),
];
