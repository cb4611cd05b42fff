// Checks for tasks.md "Capabilities", "Tool-Level Negotiation" and "Task Support and Handling";
// requirement ids from schema/requirements.json (rulings: RULINGS.md#required-tool-32601 and RULINGS.md#forbidden-needs-capability).
import { defineCheck, hasPath, type CheckContext, type CheckDef } from '../engine/check.ts';
import { toolSafety } from '../arrange/tool-safety.ts';
import { deriveArguments } from '../arrange/arguments.ts';
import { callRole, cancelQuietly, requestTask, sendTaskAugmented, TTL_MS } from '../arrange/arrange.ts';
import { isObj, oneLine, short } from '../engine/text.ts';
import { validate } from '../../schema/validate.ts';
import type { Response } from '../wire/peer.ts';

const SECTION = 'Capabilities';
const TOOLS_CALL = 'tasks.requests.tools.call';

function declaresToolsCall(ctx: CheckContext): boolean {
  return hasPath(ctx.info.serverCapabilities, TOOLS_CALL);
}

function describe(r: Response): string {
  if (r.error) return `error ${r.error.code} ${oneLine(r.error.message)}`;
  if (isObj(r.result?.task)) return `CreateTaskResult (task ${short(r.result.task.taskId)}, ${short(r.result.task.status)})`;
  if (Array.isArray(r.result?.content)) {
    const text = r.result.content.find((c: any) => c?.type === 'text')?.text;
    return `CallToolResult${r.result.isError ? ' (isError)' : ''}${r.result.isError && typeof text === 'string' ? ` ${short(text, 120)}` : ''}`;
  }
  return `result ${short(r.result)}`;
}

/**
 * A tool with no `execution.taskSupport`: the forbidsTask tool if it is one, else one from tools/list that
 * is safe to call (arrange/tool-safety.ts), with arguments derived from its inputSchema.
 */
function absentSupportTool(ctx: CheckContext): { name: string; arguments: Record<string, unknown> } | undefined {
  const f = ctx.info.profile.tools.forbidsTask;
  if (f && ctx.taskSupport(f.name) === undefined) return { name: f.name, arguments: f.arguments ?? {} };
  for (const t of ctx.info.tools) {
    if (typeof t?.name !== 'string' || t.execution?.taskSupport !== undefined || !toolSafety(t).safe) continue;
    const args = deriveArguments(t.inputSchema).variants[0];
    if (args) return { name: t.name, arguments: args.arguments };
  }
  return undefined;
}

/** The -32601 expectation for a tool that must not run as a task (tool-forbidden-should-32601); cleans up a task it created. */
async function expectForbidden(ctx: CheckContext, tool: { name: string; arguments: Record<string, unknown> }, kind: string): Promise<string> {
  const r = await sendTaskAugmented(ctx, () => ctx.peer.request('tools/call', { name: tool.name, arguments: tool.arguments, task: { ttl: TTL_MS } }));
  if (r.error?.code === -32601) return `task-augmented call of "${tool.name}" (${kind}) → -32601 ${r.error.message}`;
  if (r.error)
    ctx.violation(`task-augmented call of "${tool.name}" (${kind}) answered ${r.error.code} ${oneLine(r.error.message)}, expected -32601 (Method not found)`);
  const task = r.result?.task;
  if (isObj(task) && typeof task.taskId === 'string') {
    await cancelQuietly(ctx, task.taskId);
    ctx.violation(`the ${kind} tool "${tool.name}" was run as a task: CreateTaskResult ${short(task)} instead of -32601 (Method not found)`);
  }
  ctx.violation(`task-augmented call of "${tool.name}" (${kind}) was processed normally (${describe(r)}) instead of answered -32601 (Method not found)`);
}

/** The check that judges a request without `task` answered with a CreateTaskResult. */
const PLAIN_JUDGED_BY = 'creation.plain-call-not-task';

export const checks: CheckDef[] = [
  defineCheck({
    id: 'capabilities.tasks-shape',
    title: 'a declared tasks capability has the schema shape (list/cancel/requests.tools.call are objects)',
    section: SECTION,
    requirements: ['caps-declare'],
    level: 'MUST',
    killedBy: ['caps-not-objects'],
    async run(ctx: CheckContext) {
      const tasks = ctx.info.serverCapabilities?.tasks;
      if (tasks === undefined) ctx.skip('target declares no capabilities.tasks (capabilities.declared-if-supported judges whether it should)');
      if (!isObj(tasks)) ctx.violation(`capabilities.tasks is ${short(tasks)}, not an object`);
      const problems: string[] = [];
      const objectAt = (path: string, v: unknown) => {
        if (!isObj(v)) problems.push(`tasks.${path} is ${short(v)}, expected an object ({})`);
      };
      for (const k of ['list', 'cancel'] as const) if (k in tasks) objectAt(k, tasks[k]);
      if ('requests' in tasks) {
        objectAt('requests', tasks.requests);
        if (isObj(tasks.requests)) {
          for (const [cat, methods] of Object.entries(tasks.requests)) {
            objectAt(`requests.${cat}`, methods);
            if (isObj(methods)) for (const [m, v] of Object.entries(methods)) objectAt(`requests.${cat}.${m}`, v);
          }
        }
      }
      const v = validate('ServerCapabilities', { tasks });
      if (!v.valid) problems.push(...v.errors.map((e) => `schema: ${e}`));
      ctx.expect(
        problems.length === 0,
        `${[...new Set(problems)].join('; ')} (schema.ts ServerCapabilities and the page's example use objects; the prose's "boolean properties" means presence) — declared ${short(tasks)}`,
      );
      const extra = isObj(tasks.requests) ? Object.keys(tasks.requests).filter((c) => c !== 'tools') : [];
      if (extra.length) ctx.note(`server declares task augmentation for ${extra.join(', ')} (a server receives only tools/call as tasks in this revision)`);
      return `capabilities.tasks = ${short(tasks)}`;
    },
  }),
  defineCheck({
    // Only a CreateTaskResult shows support; listed taskSupport alone does not.
    id: 'capabilities.declared-if-supported',
    title: 'a target that answers a task-augmented tools/call with a CreateTaskResult declares tasks.requests.tools.call',
    section: SECTION,
    requirements: ['caps-declare'],
    level: 'MUST',
    killedBy: ['undeclared-creates-task'],
    async run(ctx: CheckContext) {
      const taskTools = ctx.info.tools.filter((t) => ['required', 'optional'].includes(t?.execution?.taskSupport));
      const listed = taskTools.map((t) => `${t.name} (${t.execution.taskSupport})`).join(', ');
      if (declaresToolsCall(ctx)) {
        return `declares ${TOOLS_CALL}; ${taskTools.length} tool(s) with taskSupport required/optional${listed ? `: ${listed}` : ''}`;
      }
      const tasksDecl = ctx.info.serverCapabilities?.tasks;
      const declared = tasksDecl === undefined ? 'declares no capabilities.tasks' : `declares tasks ${short(tasksDecl)} without requests.tools.call`;
      // Listing taskSupport without the capability is anticipated by the page: "If a server's capabilities include
      // tasks.requests.tools.call, … regardless of the execution.taskSupport value" — not a violation by itself.
      if (taskTools.length) ctx.note(`lists tools with task support (${listed}); without ${TOOLS_CALL} that setting is moot`);
      const probe = ctx.info.profile.tools.completes ?? ctx.info.profile.tools.slow;
      if (!probe) return `${declared} and lists no task-capable tools (no profile tool to probe with a task-augmented call)`;
      const r = await sendTaskAugmented(ctx, () =>
        ctx.peer.request('tools/call', { name: probe.name, arguments: probe.arguments ?? {}, task: { ttl: TTL_MS } }),
      );
      const task = r.result?.task;
      if (isObj(task) && typeof task.taskId === 'string') {
        await cancelQuietly(ctx, task.taskId);
        ctx.violation(`target ${declared}, yet answered a task-augmented tools/call of "${probe.name}" with a CreateTaskResult (task ${short(task.taskId)})`);
      }
      return `${declared}; a task-augmented tools/call of "${probe.name}" → ${describe(r)} (not a task)`;
    },
  }),
  defineCheck({
    // Runs against a receiver without the capability (reference: --no-tasks-capability).
    id: 'capabilities.undeclared-processed-normally',
    title: 'without tasks.requests.tools.call, a tools/call carrying `task` is processed as a normal call',
    section: SECTION,
    requirements: ['support-undeclared-process-normally'],
    level: 'MUST',
    clientReceiver:
      'judges the answer as a CallToolResult; for clients, receiving.undeclared-processed-normally (client command, every scenario) sends a request type the client did not declare with `task`',
    killedBy: ['undeclared-creates-task'],
    needs: ['completes'],
    notApplicable: (info) =>
      hasPath(info.serverCapabilities, TOOLS_CALL)
        ? `target declares ${TOOLS_CALL}, so task augmentation of tools/call is declared and this requirement does not apply (run against a receiver without the capability, e.g. the reference with --no-tasks-capability)`
        : undefined,
    async run(ctx: CheckContext) {
      const name = ctx.tool('completes').name;
      const plain = await callRole(ctx, 'completes');
      const aug = await requestTask(ctx, 'completes');
      const task = aug.result?.task;
      if (isObj(task) && !Array.isArray(aug.result?.content)) {
        if (typeof task.taskId === 'string') await cancelQuietly(ctx, task.taskId);
        ctx.violation(
          `tools/call of "${name}" with task ${short({ ttl: TTL_MS })} answered a CreateTaskResult (${short(task)}) although the target declares no ${TOOLS_CALL}`,
        );
      }
      if (aug.error) {
        ctx.expect(
          plain.error !== undefined && plain.error.code === aug.error.code,
          `tools/call of "${name}" with \`task\` answered error ${aug.error.code} ${aug.error.message}, whereas without \`task\` it ${plain.error ? `answered ${plain.error.code}` : 'succeeded'}: the task field was not ignored`,
        );
        return `with and without \`task\` the call answers the same error ${aug.error.code}`;
      }
      ctx.expect(Array.isArray(aug.result?.content), `tools/call of "${name}" with \`task\` answered ${short(aug.result)}, not a CallToolResult`);
      return `tools/call with \`task\` answered a normal CallToolResult (${short(aug.result.content, 80)}); without: ${describe(plain)}`;
    },
  }),
  defineCheck({
    // A server can declare task augmentation only for tools/call in this revision; every other request type
    // it serves is undeclared, so `task` there is ignored (support-undeclared-process-normally).
    id: 'capabilities.undeclared-types-processed-normally',
    title: 'request types not declared under tasks.requests (tools/list, tasks/get, tasks/list, ping …) carrying `task` are processed normally',
    section: SECTION,
    requirements: ['support-undeclared-process-normally'],
    level: 'MUST',
    clientReceiver: true,
    killedBy: ['task-on-undeclared-types'],
    async run(ctx: CheckContext) {
      const caps = ctx.info.serverCapabilities ?? {};
      const probes: { method: string; params: Record<string, unknown> }[] = [{ method: 'ping', params: {} }];
      if (caps.tools) probes.push({ method: 'tools/list', params: {} });
      if (caps.prompts) probes.push({ method: 'prompts/list', params: {} });
      if (caps.resources) probes.push({ method: 'resources/list', params: {} });
      if (hasPath(caps, 'tasks.list')) probes.push({ method: 'tasks/list', params: {} });
      const role = ctx.info.profile.tools.completes ? 'completes' : undefined;
      if (role && declaresToolsCall(ctx)) {
        const c = await requestTask(ctx, role);
        const id = c.result?.task?.taskId;
        if (typeof id === 'string') probes.push({ method: 'tasks/get', params: { taskId: id } });
        else ctx.note(`no task to probe tasks/get with (${describe(c)})`);
      }
      const declared = (method: string) => {
        const [cat, verb] = method.split('/');
        return hasPath(caps, `tasks.requests.${cat}.${verb}`);
      };
      // The kind of a result: its keys, leaving out what may come and go between two answers (_meta, a cursor,
      // a Task's optional statusMessage and pollInterval).
      const keys = (r: any) =>
        isObj(r)
          ? Object.keys(r)
              .filter((k) => !['_meta', 'nextCursor', 'statusMessage', 'pollInterval'].includes(k))
              .sort()
              .join(',')
          : typeof r;
      const seen: string[] = [];
      for (const { method, params } of probes) {
        if (declared(method)) continue;
        let plain = await ctx.peer.request(method, params);
        const aug = await ctx.peer.request(method, { ...params, task: { ttl: TTL_MS } });
        // The task may have ended (or been deleted) between the two: asked again, the plain form answers as the augmented one did.
        if (method === 'tasks/get' && (!!plain.error !== !!aug.error || keys(plain.result) !== keys(aug.result))) {
          const again = await ctx.peer.request(method, params);
          if (!!again.error === !!aug.error && keys(again.result) === keys(aug.result)) {
            ctx.note('tasks/get changed between the plain and the augmented request (the task moved on); compared with a second plain one');
            plain = again;
          }
        }
        const what = `${method} with \`task\``;
        if (plain.error) {
          ctx.expect(
            aug.error?.code === plain.error.code,
            `${what} answered ${aug.error ? `error ${aug.error.code}` : `a result ${short(aug.result)}`}, whereas without \`task\` it answered error ${plain.error.code}: the task field was not ignored`,
          );
          seen.push(`${method} → the same error ${plain.error.code}`);
          continue;
        }
        if (aug.error)
          ctx.violation(
            `${what} answered error ${aug.error.code} ${oneLine(aug.error.message)}, whereas without \`task\` it succeeds: ${method} is not declared under tasks.requests, so \`task\` must be ignored`,
          );
        const createdTask = isObj(aug.result?.task) && !isObj(plain.result?.task);
        if (createdTask && typeof aug.result.task.taskId === 'string') await cancelQuietly(ctx, aug.result.task.taskId);
        ctx.expect(!createdTask, `${what} answered a CreateTaskResult (${short(aug.result.task)}) although ${method} is not declared under tasks.requests`);
        ctx.expect(
          keys(aug.result) === keys(plain.result),
          `${what} answered ${short(aug.result)}, not the same kind of result as without \`task\` (${short(plain.result)})`,
        );
        seen.push(`${method} → processed normally`);
      }
      return seen.join('; ');
    },
  }),
  defineCheck({
    id: 'capabilities.required-without-task',
    title: 'a taskSupport "required" tool called without a task → -32601',
    section: SECTION,
    requirements: ['tool-required-must-32601'],
    level: 'MUST',
    clientReceiver: 'tool-level negotiation (execution.taskSupport) is about tools; sampling/createMessage and elicitation/create have none',
    killedBy: ['required-runs-without-task'],
    needs: ['requiresTask'],
    needsCapabilities: [TOOLS_CALL],
    async run(ctx: CheckContext) {
      const name = ctx.tool('requiresTask').name;
      const support = ctx.taskSupport(name);
      if (support !== 'required') ctx.skip(`the requiresTask tool "${name}" is listed with taskSupport ${short(support)}, not "required"`);
      const r = await callRole(ctx, 'requiresTask');
      if (r.error?.code === -32601) return `tools/call of "${name}" without task → -32601 ${r.error.message}`;
      if (r.error?.code === -32600) {
        // RULINGS.md#required-tool-32601: the page's own Error Handling (errors-task-required-may-32600) names -32600 for this case.
        ctx.warn(
          `tools/call of "${name}" without task answered -32600 (${r.error.message}), not the -32601 (Method not found) of Tool-Level Negotiation. ` +
            `tasks.md "Protocol Errors" lets receivers MAY use -32600 when task augmentation is required, which conflicts with that MUST; ` +
            `the suite warns (RULINGS.md#required-tool-32601)`,
        );
      }
      if (r.error) ctx.violation(`tools/call of "${name}" without task answered ${r.error.code} ${r.error.message}, expected -32601 (Method not found)`);
      if (isObj(r.result?.task) && typeof r.result.task.taskId === 'string') await cancelQuietly(ctx, r.result.task.taskId);
      ctx.violation(`tools/call of "${name}" (taskSupport "required") without task was answered ${describe(r)} instead of -32601 (Method not found)`);
    },
  }),
  defineCheck({
    id: 'capabilities.forbidden-with-task',
    title: 'the forbidsTask tool called with a task → -32601, and no task is created',
    section: SECTION,
    requirements: ['tool-forbidden-should-32601'],
    level: 'SHOULD',
    clientReceiver: 'tool-level negotiation (execution.taskSupport) is about tools; sampling/createMessage and elicitation/create have none',
    killedBy: ['forbidden-runs-as-task'],
    needs: ['forbidsTask'],
    needsCapabilities: [TOOLS_CALL],
    async run(ctx: CheckContext) {
      const tool = ctx.tool('forbidsTask');
      const support = ctx.taskSupport(tool.name);
      if (support === 'required' || support === 'optional') ctx.skip(`the forbidsTask tool "${tool.name}" is listed with taskSupport "${support}"`);
      return expectForbidden(
        ctx,
        { name: tool.name, arguments: tool.arguments ?? {} },
        support === 'forbidden' ? 'taskSupport "forbidden"' : 'no execution.taskSupport',
      );
    },
  }),
  defineCheck({
    id: 'capabilities.absent-with-task',
    title: 'a tool without execution.taskSupport called with a task → -32601, and no task is created',
    section: SECTION,
    requirements: ['tool-forbidden-should-32601'],
    level: 'SHOULD',
    clientReceiver: 'tool-level negotiation (execution.taskSupport) is about tools; sampling/createMessage and elicitation/create have none',
    killedBy: ['forbidden-runs-as-task'],
    needsCapabilities: [TOOLS_CALL],
    async run(ctx: CheckContext) {
      const tool = absentSupportTool(ctx);
      if (!tool) ctx.skip('target lists no tool without execution.taskSupport that is safe to call with arguments derived from its inputSchema');
      return expectForbidden(ctx, tool, 'no execution.taskSupport');
    },
  }),
  defineCheck({
    // MAY: an "optional" tool accepts both forms. A target rejecting either form is reported (info);
    // fault that shows it: `forbidden-runs-as-task` does not; needed: "optional-requires-task".
    id: 'capabilities.optional-both-forms',
    title: 'a taskSupport "optional" tool accepts a plain call and a task-augmented call',
    section: SECTION,
    requirements: ['tool-optional-may'],
    level: 'MAY',
    clientReceiver: 'tool-level negotiation (execution.taskSupport) is about tools; sampling/createMessage and elicitation/create have none',
    killedBy: [],
    needs: ['completes'],
    needsCapabilities: [TOOLS_CALL],
    async run(ctx: CheckContext) {
      const name = ctx.tool('completes').name;
      const support = ctx.taskSupport(name);
      if (support !== 'optional') ctx.skip(`the completes tool "${name}" is listed with taskSupport ${short(support)}, not "optional"`);
      const plain = await callRole(ctx, 'completes');
      if (isObj(plain.result?.task))
        ctx.skip(`the plain call of "${name}" was answered with a CreateTaskResult (RULINGS.md#plain-request-plain-answer)`, { judgedBy: PLAIN_JUDGED_BY });
      const aug = await requestTask(ctx, 'completes');
      const plainOk = Array.isArray(plain.result?.content) && !isObj(plain.result?.task);
      const augOk = isObj(aug.result?.task);
      ctx.expect(plainOk && augOk, `"${name}" (optional): plain call → ${describe(plain)}; task-augmented call → ${describe(aug)}`);
      return `"${name}" (optional): plain call → ${describe(plain)}; task-augmented → ${describe(aug)}`;
    },
  }),
  defineCheck({
    // MAY (info): how the target treats non-task requests for task-capable tools. Reported, never failed.
    id: 'capabilities.may-require-task',
    title: 'receiver declaring task-augmented tools/call MAY reject non-task requests (observed)',
    section: SECTION,
    requirements: ['support-declared-may-require'],
    level: 'MAY',
    clientReceiver: 'tool-level negotiation (execution.taskSupport) is about tools; sampling/createMessage and elicitation/create have none',
    killedBy: [],
    needsCapabilities: [TOOLS_CALL],
    async run(ctx: CheckContext) {
      const seen: string[] = [];
      const odd: string[] = [];
      const done = new Set<string>();
      for (const role of ['completes', 'requiresTask'] as const) {
        const t = ctx.info.profile.tools[role];
        if (!t || done.has(t.name)) continue;
        done.add(t.name);
        const r = await callRole(ctx, role);
        const support = ctx.taskSupport(t.name) ?? 'absent';
        seen.push(`"${t.name}" (${support}) without task → ${describe(r)}`);
        if (isObj(r.result?.task)) {
          await cancelQuietly(ctx, r.result.task.taskId);
          ctx.skip(`"${t.name}" answered a CreateTaskResult to a request without task (RULINGS.md#plain-request-plain-answer)`, { judgedBy: PLAIN_JUDGED_BY });
        }
        if (r.error && support !== 'required' && r.error.code !== -32600)
          odd.push(`"${t.name}" rejected with ${r.error.code}; errors-task-required-may-32600 names -32600 for this case`);
      }
      if (!seen.length) ctx.skip('target has no tool for role completes or requiresTask');
      ctx.expect(odd.length === 0, `${odd.join('; ')} (${seen.join('; ')})`);
      return seen.join('; ');
    },
  }),
];
