// Requestor checks: capability and tool-level negotiation (Requestor: Capability Negotiation). Scenario sets and helpers they share: common.ts.
import { augmented, declaredAugmentable, short, toolSupport, type Analysis, type Exchange } from '../analysis.ts';
import { defineRequestorCheck, type JudgeContext, type RequestorCheckDef } from '../engine.ts';
import { AUGMENTABLE_REQUESTS } from '../../../schema/protocol.ts';
import {
  TASK_SCENARIOS,
  NO_CAPABILITY,
  ALL,
  SERVER_ALL,
  SERVER_RUNS,
  TOOLS_CALL,
  CAUSE_AUGMENTS_UNDECLARED_TOOLS,
  calls,
  countByMethod,
  describeReq,
  summarize,
  sessionsDeclaring,
} from './common.ts';

const SEC_CAPS = 'Requestor: Capability Negotiation';

export const checks: RequestorCheckDef[] = [
  defineRequestorCheck({
    id: 'requestor.augment-only-declared',
    title: 'Task augmentation only on request types the receiver declared in capabilities.tasks.requests',
    section: SEC_CAPS,
    requirements: ['caps-requestor-only-declared'],
    level: 'SHOULD',
    killedBy: ['ignore-tasks-capability', 'ignore-tools-call-capability', 'augment-task-requests'],
    scenarios: [...ALL, ...SERVER_ALL],
    judge(run: Analysis, ctx: JudgeContext) {
      const bad: Exchange[] = [];
      let n = 0;
      const declared = new Set<string>();
      for (const s of run.sessions) {
        const d = declaredAugmentable(s.receiverCapabilities);
        d.forEach((m) => declared.add(m));
        for (const x of s.clientRequests) {
          if (!augmented(x)) continue;
          n++;
          if (!d.includes(x.method)) bad.push(x);
        }
      }
      const decl = declared.size ? [...declared].join(', ') : 'none';
      const badMethods = [...new Set(bad.map((x) => x.method))];
      if (bad.length)
        ctx.violation(`${bad.length} of ${n} task-augmented requests are of types the receiver did not declare (declared: ${decl}): ${summarize(bad)}`, {
          cause:
            badMethods.length === 1 && badMethods[0] === TOOLS_CALL
              ? CAUSE_AUGMENTS_UNDECLARED_TOOLS
              : `\`task\` on ${badMethods.join(', ')} (not declared task-augmentable)`,
        });
      return n ? `${n} task-augmented requests, all of declared types (${decl})` : 'no task-augmented requests';
    },
  }),

  defineRequestorCheck({
    id: 'requestor.no-tasks-capability',
    title: 'No task creation toward a receiver without capabilities.tasks',
    section: SEC_CAPS,
    requirements: ['caps-no-tasks-should-not-create'],
    level: 'SHOULD',
    killedBy: ['ignore-tasks-capability'],
    // A server as requestor, toward the suite's client declaring no tasks capability: the undeclared run and the receiver checks' messages.
    scenarios: ['no-tasks-capability', SERVER_RUNS.undeclared, SERVER_RUNS.receiverChecks],
    judge(run: Analysis, ctx: JudgeContext) {
      const sessions = run.sessions.filter((s) => s.receiverCapabilities?.tasks === undefined);
      // Requests of the types a task may be created for (tools/call from a client; sampling, elicitation from a server).
      const creating = sessions.flatMap((s) => s.clientRequests.filter((x) => x.method in AUGMENTABLE_REQUESTS));
      if (creating.length === 0) ctx.skip(`the requestor sent no ${Object.keys(AUGMENTABLE_REQUESTS).join(' / ')} to a receiver without a tasks capability`);
      const aug = sessions.flatMap((s) => s.clientRequests.filter(augmented));
      const toolsOnly = aug.every((x) => x.method === TOOLS_CALL);
      ctx.expect(
        aug.length === 0,
        `the receiver declared no tasks capability, yet the requestor sent ${aug.length} task-augmented request(s): ${summarize(aug)}`,
        {
          cause: toolsOnly
            ? CAUSE_AUGMENTS_UNDECLARED_TOOLS
            : `\`task\` on ${[...new Set(aug.map((x) => x.method))].join(', ')} (not declared task-augmentable)`,
        },
      );
      return `${countByMethod(creating)}, none task-augmented`;
    },
  }),

  defineRequestorCheck({
    id: 'requestor.tool-no-capability',
    title: 'No task-augmented tools/call when the server lacks tasks.requests.tools.call, whatever taskSupport says',
    section: SEC_CAPS,
    requirements: ['tool-no-cap-must-not-augment'],
    level: 'MUST',
    killedBy: ['ignore-tasks-capability', 'ignore-tools-call-capability'],
    scenarios: NO_CAPABILITY,
    judge(run: Analysis, ctx: JudgeContext) {
      const sessions = run.sessions.filter((s) => !declaredAugmentable(s.receiverCapabilities).includes(TOOLS_CALL));
      const toolCalls = sessions.flatMap((s) => calls(s, TOOLS_CALL).map((x) => ({ s, x })));
      if (toolCalls.length === 0) ctx.skip('the requestor called no tool on the receiver without tasks.requests.tools.call');
      const bad = toolCalls.filter(({ x }) => augmented(x));
      ctx.expect(
        bad.length === 0,
        `the server does not declare tasks.requests.tools.call, yet ${bad.length} tools/call carried \`task\`: ${bad.map(({ s, x }) => `${describeReq(x)} (listed taskSupport ${short(toolSupport(s, x.params?.name))})`).join('; ')}`,
        { cause: CAUSE_AUGMENTS_UNDECLARED_TOOLS },
      );
      return `${toolCalls.length} tools/call (${toolCalls.map(({ s, x }) => `${String(x.params?.name)}: taskSupport ${toolSupport(s, x.params?.name) ?? 'absent'}`).join(', ')}), none task-augmented`;
    },
  }),

  defineRequestorCheck({
    id: 'requestor.tool-forbidden',
    title: 'Tools with taskSupport "forbidden" or absent are never invoked as tasks',
    section: SEC_CAPS,
    requirements: ['tool-forbidden-must-not-augment'],
    level: 'MUST',
    killedBy: ['augment-forbidden'],
    scenarios: TASK_SCENARIOS,
    judge(run: Analysis, ctx: JudgeContext) {
      const seen = sessionsDeclaring(run, TOOLS_CALL).flatMap((s) =>
        calls(s, TOOLS_CALL)
          .filter((x) => {
            const sup = toolSupport(s, x.params?.name);
            return sup === undefined || sup === 'forbidden';
          })
          .map((x) => ({ s, x })),
      );
      if (seen.length === 0) ctx.skip('the requestor called no tool listed with taskSupport "forbidden" or without execution.taskSupport');
      const bad = seen.filter(({ x }) => augmented(x));
      ctx.expect(
        bad.length === 0,
        `${bad.length} tools/call of tools whose taskSupport is "forbidden"/absent carried \`task\`: ${bad.map(({ s, x }) => `${describeReq(x)} (taskSupport ${toolSupport(s, x.params?.name) ?? 'absent'})`).join('; ')}`,
      );
      return `${seen.length} calls of forbidden/absent-taskSupport tools (${[...new Set(seen.map(({ x }) => String(x.params?.name)))].join(', ')}), none as a task`;
    },
  }),

  defineRequestorCheck({
    id: 'requestor.tool-required',
    title: 'Tools with taskSupport "required" are always invoked as tasks',
    section: SEC_CAPS,
    requirements: ['tool-required-must-augment'],
    level: 'MUST',
    killedBy: ['no-augment-required'],
    scenarios: TASK_SCENARIOS,
    judge(run: Analysis, ctx: JudgeContext) {
      const seen = sessionsDeclaring(run, TOOLS_CALL).flatMap((s) => calls(s, TOOLS_CALL).filter((x) => toolSupport(s, x.params?.name) === 'required'));
      if (seen.length === 0) ctx.skip('the requestor called no tool listed with taskSupport "required"');
      const bad = seen.filter((x) => !augmented(x));
      ctx.expect(bad.length === 0, `${bad.length} of ${seen.length} tools/call of "required" tools carried no \`task\`: ${bad.map(describeReq).join('; ')}`);
      return `${seen.length} calls of "required" tools, all task-augmented`;
    },
  }),

  defineRequestorCheck({
    id: 'requestor.tool-optional',
    title: 'How tools with taskSupport "optional" are invoked (either way is allowed)',
    section: SEC_CAPS,
    requirements: ['tool-optional-may'],
    level: 'MAY',
    killedBy: [],
    scenarios: TASK_SCENARIOS,
    judge(run: Analysis, ctx: JudgeContext) {
      const seen = sessionsDeclaring(run, TOOLS_CALL).flatMap((s) => calls(s, TOOLS_CALL).filter((x) => toolSupport(s, x.params?.name) === 'optional'));
      if (seen.length === 0) ctx.skip('the requestor called no tool listed with taskSupport "optional"');
      return seen.map((x) => `"${String(x.params?.name)}" ${augmented(x) ? 'as a task' : 'as a normal request'}`).join(', ');
    },
  }),

  defineRequestorCheck({
    id: 'requestor.task-ttl',
    title: 'Whether task-augmented requests ask for a ttl',
    section: SEC_CAPS,
    requirements: ['create-ttl-may'],
    level: 'MAY',
    killedBy: [],
    scenarios: TASK_SCENARIOS,
    judge(run: Analysis, ctx: JudgeContext) {
      const aug = run.sessions.flatMap((s) => calls(s, TOOLS_CALL).filter(augmented));
      if (aug.length === 0) ctx.skip('no task-augmented tools/call');
      const ttls = aug.map((x) => x.params.task?.ttl);
      const withTtl = ttls.filter((t) => t !== undefined);
      return withTtl.length
        ? `task.ttl on ${withTtl.length} of ${aug.length} task-augmented calls (${[...new Set(withTtl.map((t) => short(t)))].join(', ')} ms)`
        : `no task.ttl on ${aug.length} task-augmented calls (the receiver's default applies)`;
    },
  }),
];
