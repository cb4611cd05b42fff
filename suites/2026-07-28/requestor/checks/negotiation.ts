// Requestor checks (2026-07-28): capability negotiation (tasks.md "Capability Negotiation").
import { CAUSE_CUT_OFF } from '../../../requestor/checks/common.ts';
import { actWindowMs } from '../../../requestor/analysis.ts';
import { at, endedTooSoon, type Analysis } from '../analysis.ts';

import { defineExtensionRequestorCheck, type ExtensionRequestorCheckDef, type JudgeContext } from '../engine.ts';
import { isObj } from '../../../../schema/json.ts';

const SECTION = 'Requestor (2026-07-28): Capability Negotiation';

export const checks: ExtensionRequestorCheckDef[] = [
  defineExtensionRequestorCheck({
    id: '2026-requestor.handles-plain-and-task',
    title: 'Takes a plain CallToolResult as well as a CreateTaskResult: goes on to the next tool after either',
    section: SECTION,
    requirements: ['2026-caps-client-handle-both'],
    level: 'MUST',
    killedBy: ['expects-tasks'],
    scenarios: ['mixed-results'],
    judge(run: Analysis, ctx: JudgeContext) {
      // The scenario's server answers every other tools/call plainly; the client is asked to call every listed tool.
      // (Following the task answers is judged by 2026-requestor.poll-until-terminal.)
      const listing = run.requests.filter((x) => x.method === 'tools/list' && Array.isArray(x.result?.tools)).at(-1);
      const listed: string[] = (listing?.result.tools ?? []).map((t: any) => String(t?.name));
      const calls = run.requests.filter((x) => x.method === 'tools/call');
      const plain = calls.filter((x) => x.result !== undefined && (x.result.resultType === undefined || x.result.resultType === 'complete'));
      const tasks = calls.filter((x) => x.result?.resultType === 'task');
      if (plain.length === 0 || tasks.length === 0) ctx.skip('the client did not get both a plain CallToolResult and a CreateTaskResult');
      const bad: string[] = [];
      const cut: string[] = [];
      for (const x of plain) {
        const rest = listed.slice(listed.indexOf(String(x.params?.name)) + 1);
        // By recording order: the next call can come in within the millisecond of the answer.
        const laterCalls = calls.filter((c) => c.request.seq > (x.response?.seq ?? Infinity));
        const later = new Set(laterCalls.map((c) => String(c.params?.name)));
        const skipped = rest.filter((n) => !later.has(n));
        // Killed at the scenario's bound within a poll of its last call (or of this answer): only time stopped it.
        const since = Math.max(x.answeredMs ?? x.sentMs, ...laterCalls.map((c) => c.answeredMs ?? c.sentMs));
        const late = skipped.length ? endedTooSoon(run, since, actWindowMs(undefined), 'before it could call the next tool') : undefined;
        if (late) cut.push(`after the plain CallToolResult of "${String(x.params?.name)}" (${at(x.answeredMs)}): ${late}`);
        else if (skipped.length)
          bad.push(
            `after the plain CallToolResult of "${String(x.params?.name)}" (${at(x.answeredMs)}) the client called none of ${skipped.map((n) => `"${n}"`).join(', ')}`,
          );
      }
      ctx.expect(bad.length === 0, bad.join('; '));
      if (cut.length === plain.length) ctx.skip(cut.join('; '), { timedOut: true, cause: CAUSE_CUT_OFF });
      for (const c of cut) ctx.note(`not judged: ${c}`);
      return `${plain.length - cut.length} plain CallToolResult(s) and ${tasks.length} CreateTaskResult(s), the client went on after each`;
    },
  }),

  defineExtensionRequestorCheck({
    id: '2026-requestor.unsupported-task-result-invalid',
    title: 'A CreateTaskResult answering a request that does not support tasks (tools/list) is not taken as a task',
    section: SECTION,
    requirements: ['2026-caps-unsupported-request-invalid'],
    level: 'MUST',
    killedBy: ['follow-any-task'],
    scenarios: ['task-for-tools-list'],
    judge(run: Analysis, ctx: JudgeContext) {
      if (run.invalidTasks.size === 0) ctx.skip('the server sent no CreateTaskResult to an unsupported request (the client sent no tools/list)');
      const bad: string[] = [];
      for (const [taskId, x] of run.invalidTasks) {
        const used = run.requests.filter((r) => r.method.startsWith('tasks/') && r.params?.taskId === taskId);
        if (used.length)
          bad.push(
            `the CreateTaskResult answering ${x.method} at ${at(x.answeredMs)} was taken as task ${taskId}: ${used.map((u) => `${u.method} at ${at(u.sentMs)}`).join(', ')}`,
          );
      }
      ctx.expect(bad.length === 0, `${bad.join('; ')}; a CreateTaskResult to an unsupported request is an invalid response`);
      return `the CreateTaskResult answering ${[...run.invalidTasks.values()].map((x) => x.method).join(', ')} was not taken as a task`;
    },
  }),

  defineExtensionRequestorCheck({
    id: '2026-requestor.unknown-result-type-invalid',
    title: 'A result with a resultType the client does not recognise is invalid (not followed as a task)',
    section: SECTION,
    requirements: ['2026-core-result-type-unknown-invalid'],
    level: 'MUST',
    killedBy: ['task-by-shape'],
    scenarios: ['unknown-result-type'],
    judge(run: Analysis, ctx: JudgeContext) {
      if (run.unknownResults.size === 0) ctx.skip('the server sent no result of an unknown resultType (the client called no tool)');
      const bad: string[] = [];
      for (const [taskId, x] of run.unknownResults) {
        const used = run.requests.filter((r) => r.method.startsWith('tasks/') && r.params?.taskId === taskId);
        if (used.length)
          bad.push(
            `the ${x.method} answered at ${at(x.answeredMs)} with resultType "${String(x.result?.resultType)}" was taken as task ${taskId}: ${used.map((u) => `${u.method} at ${at(u.sentMs)}`).join(', ')}`,
          );
      }
      ctx.expect(bad.length === 0, `${bad.join('; ')}; an unrecognised resultType makes the result invalid`);
      return `the result of resultType ${[...run.unknownResults.values()].map((x) => `"${String(x.result?.resultType)}"`).join(', ')} was not followed as a task`;
    },
  }),

  defineExtensionRequestorCheck({
    id: '2026-requestor.result-type-absent-complete',
    title: 'A result without resultType from a legacy server is taken as "complete": the tools of its tools/list result are called',
    section: SECTION,
    requirements: ['2026-core-result-type-absent-complete'],
    level: 'MUST',
    killedBy: ['result-type-required'],
    scenarios: ['legacy-server'],
    judge(run: Analysis, ctx: JudgeContext) {
      // The line is for results of servers implementing an earlier revision (schema.ts Result.resultType; a 2026-07-28 server
      // must send it, 2026-core-result-type-required): the scenario's server is a 2025-11-25 one. The client is asked to call
      // the tools a tools/list result names: calling them shows it read the result; calling none, that it took it for invalid.
      const lists = run.requests.filter(
        (x) => x.method === 'tools/list' && isObj(x.result) && !('resultType' in x.result) && Array.isArray(x.result.tools) && x.result.tools.length > 0,
      );
      if (lists.length === 0)
        ctx.skip(
          'no tools/list of the client was answered by the legacy server (a client of modern versions only does not fall back to initialize: it surfaces an error)',
        );
      const first = lists[0]!;
      const names = new Set(lists.flatMap((x) => x.result.tools.map((t: any) => String(t?.name))));
      const answered = first.response?.seq ?? Infinity;
      const after = run.requests.filter((x) => x.request.seq > answered);
      const called = after.filter((x) => x.method === 'tools/call' && names.has(String(x.params?.name)));
      ctx.expect(
        called.length > 0,
        `the tools/list result without resultType at ${at(first.answeredMs)} names ${[...names].map((n) => `"${n}"`).join(', ')}; the client called none of them (afterwards it sent: ${after.map((x) => x.method).join(', ') || 'nothing'}); an absent resultType means "complete"`,
      );
      return `${lists.length} tools/list result(s) of the legacy server, without resultType, taken as complete: the client called ${[...new Set(called.map((x) => `"${String(x.params?.name)}"`))].join(', ')}`;
    },
  }),
];
