// Capability negotiation of the Tasks extension (tasks.md "Capability Negotiation", "Protocol Errors"; SEP-2663
// "Backward Compatibility"; core: server/discover, per-request capabilities, -32021).
import type { CheckContext, CheckDef } from '../../engine/check.ts';
import { declaresTasksExtension, ErrorCode, Field, LegacyField, Method, TASKS_EXTENSION, earlierNumbering } from '../../../schema/2026-07-28/protocol.ts';
import { errorOf, runAnswers } from '../arrange/observed.ts';
import { short } from '../../engine/text.ts';
import { unlessTimedOut } from '../../wire/peer.ts';
import { HttpNoAnswerError, CLIENT_CAPABILITIES, type ModernResponse, type ModernScope } from '../wire/peer.ts';
import { brief, extensionNotAdvertised, modernCheck, wire } from '../engine/check.ts';
import { answeredWithTask, createTask, unknownTaskId } from '../arrange/tasks.ts';

const SECTION = 'Negotiation';

const show = (r: ModernResponse) => brief(r.error ?? r.result);

/** The task-only tool called by a client that does not declare the extension. */
async function callTaskOnlyUndeclared(ctx: CheckContext, s: ModernScope): Promise<ModernResponse> {
  const tool = ctx.tool('taskOnly');
  return s.request(Method.ToolsCall, { name: tool.name, arguments: tool.arguments ?? {} }, { capabilities: CLIENT_CAPABILITIES.nonDeclaring });
}

/** The -32021 precondition of the checks that judge its details. */
function expect32021(ctx: CheckContext, r: ModernResponse): void {
  if (r.error?.code !== ErrorCode.MissingRequiredClientCapability)
    ctx.skip(`the task-only tool did not answer a non-declaring client -32021 (${show(r)})`, { judgedBy: '2026-negotiation.task-only-32021' });
}

export const checks: CheckDef[] = [
  modernCheck({
    id: '2026-negotiation.discover-implemented',
    title: 'server/discover answers a DiscoverResult (supportedVersions, capabilities)',
    section: SECTION,
    requirements: ['2026-discover-implement'],
    level: 'MUST',
    killedBy: ['discover-not-implemented'],
    async run(ctx: CheckContext) {
      const r = await wire(ctx).discover();
      ctx.expect(!r.error, `server/discover answered an error: ${show(r)}`);
      const v = r.result?.[Field.supportedVersions];
      ctx.expect(Array.isArray(v) && v.every((x: unknown) => typeof x === 'string'), `server/discover result has no supportedVersions list: ${show(r)}`);
      const caps = r.result?.[Field.capabilities];
      ctx.expect(caps && typeof caps === 'object' && !Array.isArray(caps), `server/discover result has no capabilities object: ${show(r)}`);
      return `supportedVersions ${JSON.stringify(v)}; extension ${caps?.extensions?.[TASKS_EXTENSION] ? 'advertised' : 'not advertised'}`;
    },
  }),
  modernCheck({
    id: '2026-negotiation.no-task-for-non-declaring',
    title: 'a client that does not declare the extension on its request gets no CreateTaskResult',
    section: SECTION,
    requirements: ['2026-caps-no-task-for-non-declaring'],
    level: 'MUST',
    killedBy: ['task-to-undeclared', 'task-to-undeclared-failing', 'legacy-capability-counts'],
    needs: ['completes'],
    runsLast: true,
    async run(ctx: CheckContext) {
      const s = wire(ctx);
      const tool = ctx.tool('completes');
      // An earlier declaring request must not count either ("regardless of prior declarations"). Unanswered in
      // time (it acts while every other check starts): the run's own calls are still read below.
      const r = await unlessTimedOut(
        s
          .request(Method.ToolsCall, { name: tool.name, arguments: tool.arguments ?? {} })
          .then(() => s.request(Method.ToolsCall, { name: tool.name, arguments: tool.arguments ?? {} }, { capabilities: CLIENT_CAPABILITIES.nonDeclaring })),
      );
      if (r) ctx.expect(!answeredWithTask(r.result), `tools/call of a non-declaring client was answered with a task: ${show(r)}`);
      // Every request of the run that did not declare the extension, whatever its tool (the other checks' plain calls hand it here).
      await ctx.othersDone();
      const bad = runAnswers(ctx).filter(
        (a) => a.request?.method === Method.ToolsCall && !declaresTasksExtension(a.request.params) && answeredWithTask(a.response.result),
      );
      ctx.expect(
        bad.length === 0,
        `${bad.length} tools/call(s) of the run that did not declare the extension were answered with a task: ${bad
          .slice(0, 3)
          .map((a) => `tools/call of ${short(a.request!.params?.name)} (${a.source}) → ${short(a.response.result, 120)}`)
          .join('; ')}`,
      );
      const own = !r
        ? 'its own call unanswered in time'
        : r.error
          ? `answered error ${r.error.code}`
          : `answered resultType ${JSON.stringify(r.result?.resultType)}`;
      return `${own}; no non-declaring tools/call of the run got a task`;
    },
  }),
  modernCheck({
    id: '2026-negotiation.task-only-32021',
    title: 'a request the server can serve only with a task, from a non-declaring client, gets -32021',
    section: SECTION,
    requirements: ['2026-caps-required-32021'],
    level: 'MUST',
    killedBy: ['undeclared-wrong-code'],
    needs: ['taskOnly'],
    async run(ctx: CheckContext) {
      const r = await callTaskOnlyUndeclared(ctx, wire(ctx));
      ctx.expect(!answeredWithTask(r.result), `the task-only tool answered a non-declaring client with a task: ${show(r)}`);
      ctx.expect(
        r.error?.code === ErrorCode.MissingRequiredClientCapability,
        `expected error -32021, got ${show(r)}${earlierNumbering(r.error?.code, ErrorCode.MissingRequiredClientCapability)}`,
      );
    },
  }),
  modernCheck({
    id: '2026-negotiation.required-capabilities-data',
    title: 'the -32021 names the extension in data.requiredCapabilities',
    section: SECTION,
    requirements: ['2026-caps-required-32021', '2026-meta-missing-capability-32021'],
    level: 'MUST',
    killedBy: ['no-required-capabilities', 'no-required-capabilities-task-methods'],
    needs: ['taskOnly'],
    runsLast: true,
    async run(ctx: CheckContext) {
      const r = await callTaskOnlyUndeclared(ctx, wire(ctx));
      expect32021(ctx, r);
      const ext = (r.error!.data as any)?.[Field.requiredCapabilities]?.extensions?.[TASKS_EXTENSION];
      ctx.expect(ext && typeof ext === 'object', `-32021 without data.requiredCapabilities.extensions["${TASKS_EXTENSION}"]: ${show(r)}`);
      // Every -32021 of the run lists what is missing (2026-meta-missing-capability-32021), whatever the request.
      await ctx.othersDone();
      const all = runAnswers(ctx).filter((a) => errorOf(a)?.code === ErrorCode.MissingRequiredClientCapability);
      const bare = all.filter((a) => {
        const rc = (errorOf(a)!.data as any)?.[Field.requiredCapabilities];
        return !rc || typeof rc !== 'object' || Array.isArray(rc) || Object.keys(rc).length === 0;
      });
      ctx.expect(
        bare.length === 0,
        `${bare.length} of the run's ${all.length} -32021 errors list no missing capability in data.requiredCapabilities: ${bare
          .slice(0, 3)
          .map((a) => `${a.request?.method ?? 'a request'} (${a.source}) → ${short(errorOf(a), 160)}`)
          .join('; ')}`,
      );
      return `${all.length} -32021 errors in the run, each listing data.requiredCapabilities`;
    },
  }),
  modernCheck({
    id: '2026-negotiation.32021-http-400',
    title: 'over Streamable HTTP the -32021 comes with 400 Bad Request',
    section: SECTION,
    requirements: ['2026-meta-missing-capability-http-400'],
    level: 'MUST',
    killedBy: ['capability-error-http-200', 'task-methods-32021-http-200'],
    needs: ['taskOnly'],
    runsLast: true,
    notApplicable: (info) => (info.transport === 'http' ? undefined : 'an HTTP status rule (the target is not spoken to over Streamable HTTP)'),
    async run(ctx: CheckContext) {
      const r = await callTaskOnlyUndeclared(ctx, wire(ctx));
      expect32021(ctx, r);
      ctx.expect(r.httpStatus === 400, `-32021 came with HTTP ${r.httpStatus}`);
      // Every -32021 of the run on the shared connection whose HTTP status is known (tasks/*, subscriptions/listen …).
      await ctx.othersDone();
      const all = runAnswers(ctx).filter((a) => errorOf(a)?.code === ErrorCode.MissingRequiredClientCapability && a.httpStatus !== undefined);
      const bad = all.filter((a) => a.httpStatus !== 400);
      ctx.expect(
        bad.length === 0,
        `${bad.length} of the run's ${all.length} -32021 errors came with another HTTP status than 400: ${bad
          .slice(0, 3)
          .map((a) => `${a.request?.method ?? 'a request'} → HTTP ${a.httpStatus}`)
          .join('; ')}`,
      );
      return `${all.length} -32021 errors in the run over HTTP, each with 400`;
    },
  }),
  modernCheck({
    id: '2026-negotiation.legacy-capability-non-declaring',
    title: 'a client declaring only the 2025-11-25 tasks capability is a non-declaring client',
    section: SECTION,
    requirements: ['2026-compat-legacy-only-non-declaring'],
    level: 'MUST',
    killedBy: ['legacy-capability-counts'],
    async run(ctx: CheckContext) {
      const s = wire(ctx);
      const roles = (['completes', 'taskOnly'] as const).filter((r) => ctx.info.profile.tools[r]);
      if (!roles.length) ctx.skip(`needs a tool for role completes or taskOnly (${ctx.info.missingRoles.completes ?? 'none named'})`);
      const seen: string[] = [];
      for (const role of roles) {
        const tool = ctx.tool(role);
        const call = (capabilities: Record<string, unknown>) =>
          s.request(Method.ToolsCall, { name: tool.name, arguments: tool.arguments ?? {} }, { capabilities });
        // Judged against a plain non-declaring client: the legacy capability must make no difference.
        const plain = await call(CLIENT_CAPABILITIES.nonDeclaring);
        if (answeredWithTask(plain.result))
          ctx.skip(`the ${role} tool answers even a plain non-declaring client with a task`, { judgedBy: '2026-negotiation.no-task-for-non-declaring' });
        const r = await call(CLIENT_CAPABILITIES.legacyTasksOnly);
        ctx.expect(
          !answeredWithTask(r.result),
          `the ${role} tool answered a client declaring only the 2025-11-25 tasks capability with a task (a plain non-declaring client got ${show(plain)}): ${show(r)}`,
        );
        seen.push(`${role}: ${r.error ? `error ${r.error.code}` : `resultType ${JSON.stringify(r.result?.resultType)}`}`);
      }
      return seen.join('; ');
    },
  }),
  modernCheck({
    id: '2026-negotiation.task-methods-non-declaring-32021',
    title: 'tasks/get, tasks/update and tasks/cancel of a non-declaring client get -32021',
    section: SECTION,
    requirements: ['2026-errors-task-methods-non-declaring-32021'],
    level: 'MUST',
    killedBy: ['task-methods-undeclared'],
    needs: ['taskOnly'],
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      const s = wire(ctx);
      const taskId = (await createTask(ctx, 'taskOnly', { scope: s })).taskId;
      const calls: [string, Record<string, unknown>][] = [
        [Method.TasksGet, { taskId }],
        [Method.TasksUpdate, { taskId, inputResponses: {} }],
        [Method.TasksCancel, { taskId }],
      ];
      for (const [method, params] of calls) {
        const r = await s.request(method, params, { capabilities: CLIENT_CAPABILITIES.nonDeclaring });
        ctx.expect(
          r.error?.code === ErrorCode.MissingRequiredClientCapability,
          `${method} of a non-declaring client: expected -32021, got ${show(r)}${earlierNumbering(r.error?.code, ErrorCode.MissingRequiredClientCapability)}`,
        );
      }
    },
  }),
  modernCheck({
    id: '2026-negotiation.listen-non-declaring-32021',
    title: 'subscriptions/listen for task notifications from a non-declaring client gets -32021',
    section: SECTION,
    requirements: ['2026-notify-non-declaring-32021', '2026-errors-listen-non-declaring-32021'],
    level: 'MUST',
    killedBy: ['listen-undeclared'],
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      const s = wire(ctx);
      const taskId = ctx.info.profile.tools.taskOnly ? (await createTask(ctx, 'taskOnly', { scope: s })).taskId : unknownTaskId();
      const sub = await s.listen({ [Field.taskIds]: [taskId] }, { capabilities: CLIENT_CAPABILITIES.nonDeclaring });
      try {
        // The answer is an error response for the listen id, or the stream is served (its acknowledgement).
        const first = await sub
          .waitFor((m) => !('method' in m) || m.method === Method.SubscriptionsAcknowledged, ctx.options.requestTimeoutMs, 'an answer to subscriptions/listen')
          .catch((e) => {
            const x = sub.exchange;
            if (x?.endedWithout && !x.answered) throw new HttpNoAnswerError(x, x.endedWithout);
            return ctx.skip(`no answer to subscriptions/listen within ${ctx.options.requestTimeoutMs} ms (${e instanceof Error ? e.message : String(e)})`);
          });
        if ('method' in first) ctx.violation(`subscriptions/listen of a non-declaring client was served (acknowledged: ${brief(first.params, 200)})`);
        ctx.expect(
          first.error?.code === ErrorCode.MissingRequiredClientCapability,
          `expected -32021, got ${brief(first.error ?? first.result)}${earlierNumbering(first.error?.code, ErrorCode.MissingRequiredClientCapability)}`,
        );
      } finally {
        await sub.close();
      }
    },
  }),
  // "servers MUST ignore it ... rather than using it as an opt-in" (a declaring client): whether a call gets a task
  // is the server's choice per request, so one call proves nothing. Alone on its connection (loadsTarget: no other
  // check's calls between), the calls go without, without, with, with, without, with, with, without the parameter:
  // a task every time with it and never without is the parameter deciding. A server that alternates cannot give
  // that pattern (the first two differ), one that flips a coin gives it once in 256 runs.
  modernCheck({
    id: '2026-negotiation.task-param-not-opt-in',
    title: 'for a declaring client the 2025-11-25 `task` parameter is no opt-in: with it a call gets a task no more than without',
    section: SECTION,
    requirements: ['2026-compat-ignore-task-param'],
    level: 'MUST',
    killedBy: ['task-param-opts-in'],
    needs: ['completes'],
    loadsTarget: true,
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      const s = wire(ctx);
      const tool = ctx.tool('completes');
      const seen: { withParam: boolean; task: boolean; error?: number }[] = [];
      for (const withParam of [false, false, true, true, false, true, true, false]) {
        const r = await s.request(Method.ToolsCall, {
          name: tool.name,
          arguments: tool.arguments ?? {},
          ...(withParam ? { [LegacyField.task]: { [LegacyField.ttl]: 60_000 } } : {}),
        });
        seen.push({ withParam, task: !r.error && answeredWithTask(r.result), ...(r.error ? { error: r.error.code } : {}) });
        if (!r.error && answeredWithTask(r.result) && typeof r.result?.[Field.taskId] === 'string')
          await s.request(Method.TasksCancel, { [Field.taskId]: r.result[Field.taskId] }).catch(() => undefined);
      }
      const line = seen
        .map((x) => `${x.withParam ? 'with' : 'without'}: ${x.error !== undefined ? `error ${x.error}` : x.task ? 'task' : 'result'}`)
        .join(', ');
      if (seen.some((x) => x.error !== undefined))
        ctx.skip(`a call was answered with an error (${line}): judged by 2026-negotiation.task-param-ignored`, {
          judgedBy: '2026-negotiation.task-param-ignored',
        });
      ctx.expect(
        !seen.every((x) => x.task === x.withParam),
        `of 8 tools/call of "${tool.name}" by a declaring client, each with the 2025-11-25 task parameter got a task and each without got a result (${line}): the parameter is taken as an opt-in`,
      );
      return line;
    },
  }),
  modernCheck({
    id: '2026-negotiation.task-param-ignored',
    title: 'the 2025-11-25 `task` parameter of tools/call is ignored: neither refused nor an opt-in',
    section: SECTION,
    requirements: ['2026-compat-ignore-task-param'],
    level: 'MUST',
    killedBy: ['task-param-validated'],
    needs: ['completes'],
    async run(ctx: CheckContext) {
      const s = wire(ctx);
      const tool = ctx.tool('completes');
      const call = (extra: Record<string, unknown>, capabilities?: Record<string, unknown>) =>
        s.request(Method.ToolsCall, { name: tool.name, arguments: tool.arguments ?? {}, ...extra }, capabilities ? { capabilities } : {});
      // An unknown member: whatever shape it has, the answer is the one without it.
      const plain = await call({});
      if (plain.error) ctx.skip(`the completes tool answered a declaring client with error ${plain.error.code} even without a task parameter`);
      const odd = await call({ [LegacyField.task]: { [LegacyField.ttl]: 'not a number' } });
      ctx.expect(
        !odd.error,
        `tools/call with a 2025-11-25 task parameter was refused (without it: resultType ${JSON.stringify(plain.result?.resultType)}): ${show(odd)}`,
      );
      // Nor an opt-in: a non-declaring client asking for a task the 2025-11-25 way gets none.
      const bare = await call({}, CLIENT_CAPABILITIES.nonDeclaring);
      if (answeredWithTask(bare.result)) ctx.skip('even a plain non-declaring client gets a task', { judgedBy: '2026-negotiation.no-task-for-non-declaring' });
      const optIn = await call({ [LegacyField.task]: { [LegacyField.ttl]: 60_000 } }, CLIENT_CAPABILITIES.nonDeclaring);
      ctx.expect(!answeredWithTask(optIn.result), `a non-declaring client's 2025-11-25 task parameter was taken as an opt-in: ${show(optIn)}`);
      ctx.expect(
        !optIn.error || optIn.error.code === bare.error?.code,
        `the task parameter changed the answer to a non-declaring client: ${show(optIn)} (without it: ${show(bare)})`,
      );
    },
  }),
];
