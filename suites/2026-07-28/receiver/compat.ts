// The cross-version rules of SEP-2663 "Backward Compatibility" that need both revisions on one target (a
// dual-era server, basic-versioning.md): under 2025-11-25 the extension does not apply; a dual server keeps
// 2025-11-25 tasks reachable by tasks/get and tasks/cancel of 2026-07-28 requests from legacy-only clients;
// and no legacy `tasks` capability is advertised beside the extension. The 2025-11-25 side is spoken to on
// connections of the check's own (openSession({ revision: '2025-11-25' }), initialize first). A target the
// pre-flight found not to speak 2025-11-25 (TargetInfo.legacy) is not one they apply to; where the pre-flight
// could not tell, a failed initialize leaves them not exercised, with the reason; an unanswered one (there or
// on their own connection, each bounded by the run's pace: startupAllowance) not exercised (timed out).
import { NotExercised, type CheckContext, type CheckDef, type TargetConnector, type TargetInfo } from '../../engine/check.ts';
import type { ModernProfileRole } from '../../engine/profile.ts';
import type { Response, Scope } from '../../wire/peer.ts';
import { SPEC_REVISION } from '../../../schema/spec.ts';
import { isTerminal } from '../../../schema/protocol.ts';
import { Field, LegacyField, Method, REVISION as MODERN, TASKS_EXTENSION } from '../../../schema/2026-07-28/protocol.ts';
import { CLIENT_CAPABILITIES, requestMeta } from '../wire/peer.ts';
import { brief, extensionNotAdvertised, modernCheck, wire } from '../engine/check.ts';
import { answeredWithTask } from '../arrange/tasks.ts';
import { observe } from '../../arrange/poll.ts';

const SECTION = 'Backward Compatibility';

/** A client's capabilities in a 2025-11-25 initialize that declare the extension (as a 2026-07-28 client spells it). */
const DECLARES_EXTENSION_IN_2025 = { extensions: { [TASKS_EXTENSION]: {} } };

const show = (r: Response) => brief(r.error ?? r.result);

/** Why an earlier check of this run could not open a 2025-11-25 connection (one failed attempt per run is enough). */
const notSpoken = new WeakMap<TargetConnector, { why: string; timedOut: boolean }>();

/**
 * A 2025-11-25 connection of the check's own, `capabilities` declared in its initialize; not exercised on a target
 * that does not speak 2025-11-25, and (timed out) where initialize got no answer within its bound: silence is
 * time, not a refusal (RULINGS.md#response-time), and the pre-flight's unanswered initialize is not waited for twice.
 */
async function legacySession(ctx: CheckContext, capabilities: Record<string, unknown>): Promise<Scope> {
  const skip = ({ why, timedOut }: { why: string; timedOut: boolean }) =>
    timedOut
      ? ctx.skip(`whether the target speaks ${SPEC_REVISION} is not known: ${why}`, { timedOut })
      : ctx.skip(`the target does not speak ${SPEC_REVISION} (${why}): the cross-version rules apply to a dual-era server`);
  if (ctx.info.legacy?.speaks === 'unanswered') skip({ why: `in the pre-flight, ${ctx.info.legacy.detail}`, timedOut: true });
  const known = notSpoken.get(ctx.connector);
  if (known) skip(known);
  try {
    return await ctx.openSession({ revision: SPEC_REVISION, capabilities });
  } catch (e) {
    if (!(e instanceof NotExercised)) throw e;
    const failed = { why: e.message, timedOut: e.timedOut };
    notSpoken.set(ctx.connector, failed);
    return skip(failed);
  }
}

/** `notApplicable` of the checks that need 2025-11-25 too: a target the pre-flight found not to speak it (TargetInfo.legacy). */
function notDualEra(info: TargetInfo): string | undefined {
  return info.legacy?.speaks === false
    ? `the target does not speak ${SPEC_REVISION} (${info.legacy.detail}): the cross-version rules apply to a dual-era server`
    : undefined;
}

/** The 2025-11-25 tools/list of a connection (first page: the profile's tools are looked up by name). */
async function legacyTools(s: Scope): Promise<any[]> {
  const r = await s.request('tools/list', {});
  return Array.isArray(r.result?.tools) ? r.result.tools : [];
}

/** The profile's tools for `roles` that the 2025-11-25 side lists too (a dual-era server's tools in both eras). */
async function sharedTools(ctx: CheckContext, s: Scope, roles: readonly ModernProfileRole[]) {
  const listed = new Map((await legacyTools(s)).map((t) => [t?.name, t]));
  const found = roles.flatMap((role) => {
    const t = ctx.info.profile.tools[role];
    return t && listed.has(t.name) ? [{ role, tool: t, listed: listed.get(t.name) }] : [];
  });
  if (!found.length)
    ctx.skip(
      `none of the tools the profile names for ${roles.join(', ')} is listed under ${SPEC_REVISION} (tools there: ${[...listed.keys()].join(', ') || 'none'})`,
    );
  return found;
}

/** The shape a task answer shows: a 2025-11-25 CreateTaskResult (`task`) or the extension's (resultType "task", a flat Task). */
const isTaskAnswer = (r: Response) => answeredWithTask(r.result);

export const checks: CheckDef[] = [
  modernCheck({
    id: '2026-compat.extension-not-under-2025',
    title: `under ${SPEC_REVISION} a client declaring ${TASKS_EXTENSION} is answered as one declaring no task capability`,
    section: SECTION,
    requirements: ['2026-compat-not-under-2025'],
    level: 'MUST',
    killedBy: ['extension-under-2025'],
    notApplicable: notDualEra,
    async run(ctx: CheckContext) {
      // Judged against the same requests of a 2025-11-25 client that declares nothing: the declaration must make no difference.
      const plain = await legacySession(ctx, {});
      const declaring = await legacySession(ctx, DECLARES_EXTENSION_IN_2025);
      const seen: string[] = [];
      for (const { role, tool } of await sharedTools(ctx, plain, ['completes', 'taskOnly'])) {
        const call = (s: Scope) => s.request('tools/call', { name: tool.name, arguments: tool.arguments ?? {} });
        const without = await call(plain);
        const withExt = await call(declaring);
        ctx.expect(
          !isTaskAnswer(withExt) || isTaskAnswer(without),
          `tools/call of the ${role} tool (no task parameter) in a ${SPEC_REVISION} session whose client declared ${TASKS_EXTENSION} was answered with a task: ${show(withExt)} (a client declaring nothing got ${show(without)})`,
        );
        const rt = (r: Response) => r.result?.[Field.resultType];
        ctx.expect(
          rt(withExt) === undefined || rt(withExt) === rt(without),
          `the ${role} tool's answer carries the extension's resultType ${JSON.stringify(rt(withExt))} for the client that declared ${TASKS_EXTENSION} (a client declaring nothing got ${show(without)})`,
        );
        seen.push(`${role}: ${withExt.error ? `error ${withExt.error.code}` : 'no task'}`);
      }
      // Nor does it enable the extension's own methods (tasks/update is not a 2025-11-25 method).
      const update = (s: Scope) => s.request(Method.TasksUpdate, { [Field.taskId]: 'no-such-task', [Field.inputResponses]: {} });
      const updWithout = await update(plain);
      const updWith = await update(declaring);
      ctx.expect(
        updWith.error || !updWithout.error,
        `tasks/update was served in a ${SPEC_REVISION} session whose client declared ${TASKS_EXTENSION}: ${show(updWith)} (a client declaring nothing got ${show(updWithout)})`,
      );
      return seen.join('; ');
    },
  }),
  modernCheck({
    id: '2026-compat.no-legacy-capabilities',
    title: `server/discover advertises no ${SPEC_REVISION} tasks capability (requests, cancel, list) beside the extension`,
    section: SECTION,
    requirements: ['2026-compat-no-legacy-capabilities'],
    level: 'MUST',
    killedBy: ['legacy-capabilities-advertised'],
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      const r = await wire(ctx).discover();
      if (r.error) ctx.skip(`server/discover answered error ${r.error.code}`, { judgedBy: '2026-negotiation.discover-implemented' });
      const legacy = r.result?.[Field.capabilities]?.[LegacyField.tasksCapability];
      const declared = ['requests', 'cancel', 'list'].filter((k) => legacy && typeof legacy === 'object' && legacy[k] !== undefined);
      ctx.expect(
        declared.length === 0,
        `server/discover advertises ${TASKS_EXTENSION} and the ${SPEC_REVISION} capabilities tasks.${declared.join(', tasks.')}: ${brief(r.result?.[Field.capabilities])}`,
      );
      if (legacy !== undefined) ctx.note(`capabilities.tasks is present (${brief(legacy)}), with none of requests, cancel, list`);
      return `capabilities: ${Object.keys(r.result?.[Field.capabilities] ?? {}).join(', ') || 'none'}`;
    },
  }),
  modernCheck({
    id: '2026-compat.legacy-get-cancel-permitted',
    title: `a ${SPEC_REVISION} task is reachable by tasks/get and tasks/cancel of ${MODERN} requests from a client declaring only the ${SPEC_REVISION} capability`,
    section: SECTION,
    requirements: ['2026-compat-dual-permit-legacy-get-cancel'],
    level: 'SHOULD',
    killedBy: ['legacy-tasks-refused-modern'],
    needs: ['slow'],
    notApplicable: notDualEra,
    async run(ctx: CheckContext) {
      // Over Streamable HTTP a 2026-07-28 request has no session: only credentials make it the requestor that created the task (context binding).
      if (ctx.info.transport === 'http' && !ctx.connector.credentials)
        ctx.skip(
          `over Streamable HTTP a ${MODERN} request carries no session: without credentials (an Authorization header) it is not the requestor that created a task under ${SPEC_REVISION}, which the server binds to that session`,
        );
      const legacy = await legacySession(ctx, {});
      const [{ tool, listed }] = await sharedTools(ctx, legacy, ['slow']);
      const support = listed?.execution?.taskSupport;
      if (support !== 'optional' && support !== 'required')
        ctx.skip(`the slow tool ${tool.name} does not support tasks under ${SPEC_REVISION} (execution.taskSupport ${JSON.stringify(support)})`);
      const created = await legacy.request('tools/call', { name: tool.name, arguments: tool.arguments ?? {}, task: { ttl: 60_000 } });
      const taskId = created.result?.task?.taskId;
      if (typeof taskId !== 'string') ctx.skip(`no task was created under ${SPEC_REVISION}: ${show(created)}`);
      // A 2026-07-28 request (its own _meta) from a client declaring only the legacy capability: on the task's own
      // stdio connection (the requestor's), over HTTP with the run's credentials.
      const modernRequest = (method: string, params: Record<string, unknown> = { [Field.taskId]: taskId }) =>
        ctx.info.transport === 'stdio'
          ? legacy.request(method, { ...params, _meta: requestMeta(CLIENT_CAPABILITIES.legacyTasksOnly) })
          : wire(ctx).request(method, params, { capabilities: CLIENT_CAPABILITIES.legacyTasksOnly });
      const got = await modernRequest(Method.TasksGet);
      const named = got.result?.[Field.taskId] ?? got.result?.task?.taskId;
      const operated = !got.error && named === taskId && typeof (got.result?.[Field.status] ?? got.result?.task?.status) === 'string';
      // "Simultaneously support": where the task lives (over stdio its process, which its initialize made legacy) a
      // dual-era server MAY serve 2026-07-28 requests too, and may not (RULINGS.md#dual-era-one-era-per-process).
      // A request there that names no task tells the two apart.
      if (!operated) {
        const control = await modernRequest(Method.ServerDiscover, {});
        if (control.error || control.result === undefined)
          ctx.skip(
            `tasks/get answered ${show(got)}; server/discover, a ${MODERN} request naming no task, ${ctx.info.transport === 'stdio' ? 'on the stdio connection where the task was created (after its initialize)' : 'with the credentials that created the task'}, answered ${show(control)}: ${MODERN} is not served where the task lives, which the line's "simultaneously support" asks for (RULINGS.md#dual-era-one-era-per-process)`,
          );
      }
      ctx.expect(
        operated,
        `tasks/get of a ${MODERN} request declaring only the ${SPEC_REVISION} tasks capability did not operate on the task created under ${SPEC_REVISION}: ${show(got)}`,
      );
      const status = JSON.stringify(got.result?.[Field.status] ?? got.result?.task?.status);
      // tasks/cancel is judged where the 2025-11-25 flow has it (tasks.cancel declared in the initialize result).
      const init = legacy.peer.transcript.find((e) => e.dir === 'in' && (e.message as any)?.result?.protocolVersion !== undefined);
      if ((init?.message as any)?.result?.capabilities?.tasks?.cancel === undefined)
        return `tasks/get answered status ${status}; tasks/cancel not judged: the ${SPEC_REVISION} side declares no tasks.cancel`;
      const cancel = await modernRequest(Method.TasksCancel);
      // The slow task may have ended first: a terminal task's cancel is refused -32602 under 2025-11-25 (cancel-terminal-32602).
      if (cancel.error) {
        const after = await modernRequest(Method.TasksGet);
        const st = after.result?.[Field.status] ?? after.result?.task?.status;
        if (['completed', 'failed', 'cancelled'].includes(st))
          ctx.skip(`task ${taskId} was already ${st} when tasks/cancel came (answered ${show(cancel)}: the ${SPEC_REVISION} answer for a terminal task)`);
      }
      ctx.expect(
        !cancel.error,
        `tasks/cancel of a ${MODERN} request declaring only the ${SPEC_REVISION} tasks capability was refused for the task created under ${SPEC_REVISION}: ${show(cancel)}`,
      );
      // The cancel acted: the task ends cancelled (or is gone: deletion after a cancel is allowed) as the 2025-11-25 session sees it.
      const o = await observe(ctx, taskId, (t) => isTerminal(t.status), {
        peer: legacy,
        boundMs: ctx.bound(5_000),
        allowGone: true,
        label: 'waiting for the cancel',
      });
      if (o.gone) return `tasks/get answered; tasks/cancel acknowledged; the task is gone (${o.gone.code})`;
      if (o.timedOut) ctx.skip(`the task was still ${o.last?.status} ${o.elapsedMs} ms after the acknowledged tasks/cancel`, { timedOut: true });
      if (o.last?.status !== 'cancelled') ctx.skip(`the task reached ${o.last?.status} before tasks/cancel took effect`);
      return `tasks/get answered status ${status}; tasks/cancel acknowledged; the task ended cancelled`;
    },
  }),
];
