// Requestor checks (tasks.md / cancellation.md rules for the sender of task-augmented requests):
// each judges the recorded transcripts of the scenarios it applies to (mocks/receiver/scenarios.ts).
// Requirement ids from schema/requirements.json (role "requestor"); rulings: schema/RULINGS.md.
//
// Not graded, with the reason:
//  - progress tokens (progress.md 71-73): "the progressToken … MUST continue to be used for progress
//    notifications throughout the task's lifetime" binds the sender of the notifications, i.e. the
//    receiver (progress-same-token, checked by suites/receiver/progress.ts). The requestor only supplies the
//    token; its one duty, uniqueness across active requests (progress.md line 20), is not a task rule
//    and is not in the catalog.
//  - cancel-no-retention-reliance, audit-requestor-*: not observable on the wire (catalog `why`).
//  - sse-get-disconnect-may / sse-result-disconnect-may: MAYs about disconnecting, nothing to grade.
import { SCENARIO_NAMES } from '../../mocks/receiver/scenarios.ts';
import { RELATED_TASK_META } from '../../schema/protocol.ts';
import {
  allTasks,
  at,
  augmented,
  cancelledByClient,
  createdBy,
  declaredAugmentable,
  lastShown,
  relatedTask,
  short,
  terminal,
  toolSupport,
  type Analysis,
  type Exchange,
  type SessionView,
} from './analysis.ts';
import { receivingChecks } from './receiving-checks.ts';
import { defineRequestorCheck, type JudgeContext, type RequestorCheckDef } from './engine.ts';

/** Scenarios whose receiver declares task-augmented tools/call. */
const TASK_SCENARIOS = ['tool-negotiation', 'poll-interval', 'input-required', 'input-on-get-stream', 'result-error', 'failing-task', 'list-pages', 'cancel'];
const NO_CAPABILITY = ['no-tasks-capability', 'no-tools-call-capability'];
const INPUT = ['input-required', 'input-on-get-stream', 'result-error'];
/** Scenarios in which the requestor is asked to follow every task to its end (not cancel). */
const FOLLOW = TASK_SCENARIOS.filter((s) => s !== 'cancel');
/** Scenarios without input or cancellation: the outcome of every task is reachable by polling alone. */
const OUTCOME = ['tool-negotiation', 'poll-interval', 'failing-task', 'list-pages'];
const ALL = [...SCENARIO_NAMES];

/**
 * Runs of the `server` command that grade the target as requestor (suites/requestor/server-requestor.ts):
 * the suite's client, a task receiver, calls the target's requestsSampling / requestsElicitation tool;
 * `undeclared`: the same tools toward a client declaring no tasks capability; `receiver-checks`: every
 * message of the receiver checks, whose client declares none either.
 */
export const SERVER_RUNS = {
  sampling: 'server-requests-sampling',
  elicitation: 'server-requests-elicitation',
  undeclared: 'server-requests-undeclared',
  receiverChecks: 'server-receiver-checks',
} as const;
/** Server runs in which the target follows a task of the suite's client. */
const SERVER_TASKS = [SERVER_RUNS.sampling, SERVER_RUNS.elicitation];
const SERVER_ALL = Object.values(SERVER_RUNS);

/** The pollInterval tolerance: a gap between polls of at least this fraction of pollInterval respects it. */
export const POLL_TOLERANCE = 0.8;

const TOOLS_CALL = 'tools/call';

function calls(s: SessionView, method: string): Exchange[] {
  return s.clientRequests.filter((x) => x.method === method);
}

function describeReq(x: Exchange): string {
  const name = x.method === TOOLS_CALL ? ` "${String(x.params?.name)}"` : '';
  return `${x.method}${name} (id ${short(x.id)}${augmented(x) ? `, task ${short(x.params.task)}` : ''}) at ${at(x.sentMs)}`;
}

/** "tasks/get ×4, tasks/result ×1; first: …" */
function summarize(list: Exchange[], max = 3): string {
  const counts = new Map<string, number>();
  for (const x of list) counts.set(x.method, (counts.get(x.method) ?? 0) + 1);
  const head = [...counts].map(([m, n]) => `${m} ×${n}`).join(', ');
  return `${head}; ${list.slice(0, max).map(describeReq).join('; ')}${list.length > max ? ` (+${list.length - max} more)` : ''}`;
}

function sessionsDeclaring(run: Analysis, method: string): SessionView[] {
  return run.sessions.filter((s) => declaredAugmentable(s.receiverCapabilities).includes(method));
}

const SEC_CAPS = 'Requestor: Capability Negotiation';
const SEC_POLL = 'Requestor: Polling';
const SEC_INPUT = 'Requestor: Input Required';
const SEC_META = 'Requestor: Related-Task Metadata';
const SEC_LIST = 'Requestor: Task Listing';
const SEC_CANCEL = 'Requestor: Cancellation';

export const requestorChecks: RequestorCheckDef[] = [
  // --- capability and tool-level negotiation ----------------------------------------------------
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
      if (bad.length)
        ctx.violation(`${bad.length} of ${n} task-augmented requests are of types the receiver did not declare (declared: ${decl}): ${summarize(bad)}`);
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
    scenarios: ['no-tasks-capability'],
    judge(run: Analysis, ctx: JudgeContext) {
      const sessions = run.sessions.filter((s) => s.receiverCapabilities?.tasks === undefined);
      const toolCalls = sessions.flatMap((s) => calls(s, TOOLS_CALL));
      if (toolCalls.length === 0) ctx.skip('the requestor called no tool on the receiver without a tasks capability');
      const aug = sessions.flatMap((s) => s.clientRequests.filter(augmented));
      ctx.expect(
        aug.length === 0,
        `the receiver declared no tasks capability, yet the requestor sent ${aug.length} task-augmented request(s): ${summarize(aug)}`,
      );
      return `${toolCalls.length} tools/call, none task-augmented`;
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

  // --- polling -------------------------------------------------------------------------------------
  defineRequestorCheck({
    id: 'requestor.poll-interval',
    title: `Polls no faster than pollInterval (gap between tasks/get ≥ ${POLL_TOLERANCE} × pollInterval)`,
    section: SEC_POLL,
    requirements: ['poll-respect-interval'],
    level: 'SHOULD',
    killedBy: ['fast-poll'],
    scenarios: [...TASK_SCENARIOS, ...SERVER_TASKS],
    judge(run: Analysis, ctx: JudgeContext) {
      const gaps: { gap: number; pi: number; taskId: string; ms: number }[] = [];
      for (const t of allTasks(run)) {
        // The first poll counts too: the CreateTaskResult carries a pollInterval, from its arrival.
        for (let i = 0; i < t.gets.length; i++) {
          const cur = t.gets[i]!;
          const since = i === 0 ? t.created.response?.ms : t.gets[i - 1]!.sentMs;
          const pi = lastShown(t, cur.sentMs)?.pollInterval;
          if (pi === undefined || since === undefined) continue;
          gaps.push({ gap: cur.sentMs - since, pi, taskId: t.taskId, ms: cur.sentMs });
        }
      }
      if (gaps.length === 0) ctx.skip('no tasks/get after a pollInterval was shown: no polling interval to measure');
      const list = (g: typeof gaps) =>
        g
          .slice(0, 12)
          .map((x) => x.gap)
          .join(', ') + (g.length > 12 ? ` … (${g.length} in all)` : '');
      const pis = [...new Set(gaps.map((g) => g.pi))].join('/');
      const bad = gaps.filter((g) => g.gap < POLL_TOLERANCE * g.pi);
      if (bad.length) {
        ctx.violation(
          `${bad.length} of ${gaps.length} gaps between tasks/get were shorter than ${POLL_TOLERANCE} × pollInterval (pollInterval ${pis} ms, so at least ${[...new Set(gaps.map((g) => Math.round(g.pi * POLL_TOLERANCE)))].join('/')} ms): too short (ms): ${list(bad)}; all intervals seen (ms): ${list(gaps)}`,
        );
      }
      return `intervals between tasks/get (ms): ${list(gaps)} (pollInterval ${pis} ms, tolerance ≥ ${POLL_TOLERANCE}×)`;
    },
  }),

  defineRequestorCheck({
    id: 'requestor.poll-until-terminal',
    title: 'Keeps polling until the task is terminal or input_required (or waits on tasks/result)',
    section: SEC_POLL,
    requirements: ['poll-until-terminal'],
    level: 'SHOULD',
    killedBy: ['stop-polling'],
    scenarios: [...FOLLOW, ...SERVER_TASKS],
    judge(run: Analysis, ctx: JudgeContext) {
      const tasks = allTasks(run).filter((t) => !cancelledByClient(t));
      if (tasks.length === 0) ctx.skip('the requestor created no task (or cancelled every one)');
      const bad: string[] = [];
      const how: string[] = [];
      for (const t of tasks) {
        const last = lastShown(t);
        if (!last) continue;
        if (terminal(last) || last.status === 'input_required') {
          how.push(`${last.status} (${last.via})`);
          continue;
        }
        // Waiting on a blocking tasks/result sent after the last status seen is following the task too.
        const waiting = t.results.filter((x) => x.sentMs >= last.ms && !x.error);
        const pendingGet = t.gets.some((x) => x.sentMs >= last.ms && !x.response);
        if (waiting.length || pendingGet) {
          how.push(`waited on tasks/result while ${last.status}`);
          continue;
        }
        bad.push(
          `task ${t.taskId} (${createdBy(t)}): the last status the requestor saw was "${last.status}" (${last.via} at ${at(last.ms)}), and afterwards it sent no tasks/get and no tasks/result it waited on (${t.gets.length} tasks/get in all)`,
        );
      }
      ctx.expect(bad.length === 0, `the requestor stopped following ${bad.length} of ${tasks.length} task(s): ${bad.join('; ')}`);
      return `${tasks.length} task(s) followed to: ${[...new Set(how)].join(', ')}`;
    },
  }),

  defineRequestorCheck({
    id: 'requestor.poll-after-result-error',
    title: 'Resumes polling tasks/get when a tasks/result fails while the task is still running',
    section: SEC_POLL,
    requirements: ['poll-not-stopped-by-result'],
    level: 'SHOULD',
    killedBy: ['no-poll-after-result-error'],
    scenarios: TASK_SCENARIOS,
    judge(run: Analysis, ctx: JudgeContext) {
      const cases = allTasks(run).flatMap((t) =>
        t.results.filter((r) => r.error && r.answeredMs !== undefined && !terminal(lastShown(t, r.answeredMs))).map((r) => ({ t, r })),
      );
      if (cases.length === 0) ctx.skip('no tasks/result failed while its task was still running');
      const bad: string[] = [];
      const ok: string[] = [];
      for (const { t, r } of cases) {
        const later = [...t.gets, ...t.results].filter((x) => x.sentMs > r.answeredMs!).sort((a, b) => a.sentMs - b.sentMs);
        if (later.length === 0)
          bad.push(
            `task ${t.taskId}: tasks/result answered error ${r.error!.code} at ${at(r.answeredMs)}; afterwards the requestor sent no tasks/get or tasks/result for the task`,
          );
        else ok.push(`after the failed tasks/result (${at(r.answeredMs)}) the requestor sent ${later[0]!.method} at ${at(later[0]!.sentMs)}`);
      }
      ctx.expect(bad.length === 0, bad.join('; '));
      return ok.join('; ');
    },
  }),

  defineRequestorCheck({
    id: 'requestor.no-status-notification-reliance',
    title: 'Reaches every task outcome without notifications/tasks/status (the receiver sends none)',
    section: SEC_POLL,
    requirements: ['notify-no-reliance'],
    level: 'MUST',
    killedBy: ['stop-polling'],
    scenarios: [...OUTCOME, ...SERVER_TASKS],
    judge(run: Analysis, ctx: JudgeContext) {
      if (run.sessions.some((s) => s.serverNotifications.some((e) => (e.message as any)?.method === 'notifications/tasks/status'))) {
        ctx.skip('the receiver sent notifications/tasks/status in this scenario');
      }
      const tasks = allTasks(run).filter((t) => !cancelledByClient(t));
      if (tasks.length === 0) ctx.skip('the requestor created no task');
      const bad: string[] = [];
      for (const t of tasks) {
        const last = lastShown(t);
        const learned = terminal(last) || t.results.some((x) => x.response !== undefined);
        if (!learned) {
          bad.push(
            `task ${t.taskId} (${createdBy(t)}): last status the requestor saw "${last?.status}" at ${at(last?.ms)}; it neither polled to a terminal status nor got a tasks/result answer`,
          );
        }
      }
      ctx.expect(
        bad.length === 0,
        `the receiver sends no notifications/tasks/status, and the requestor did not reach the outcome of ${bad.length} of ${tasks.length} task(s) by polling: ${bad.join('; ')}`,
      );
      return `outcome of all ${tasks.length} task(s) reached without status notifications`;
    },
  }),

  // --- input_required -------------------------------------------------------------------------------
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
      for (const { t, first } of cases) {
        // The tasks/result must come while the task is input_required: before the requestor saw it leave that status.
        const left = t.shown.find((s) => s.ms > first!.ms && s.status !== 'input_required');
        const until = left?.ms ?? Infinity;
        const after = t.results.find((x) => x.sentMs >= first!.ms && x.sentMs < until);
        const pending = t.results.find((x) => x.sentMs < first!.ms && (x.answeredMs === undefined || x.answeredMs > first!.ms));
        if (after) ok.push(`saw input_required at ${at(first!.ms)} (${first!.via}), called tasks/result at ${at(after.sentMs)}`);
        else if (pending) ok.push(`tasks/result was already pending when input_required was seen`);
        else {
          const getsWhile = t.gets.filter((x) => x.sentMs > first!.ms && x.sentMs < until).length;
          const late = t.results.find((x) => x.sentMs >= until);
          bad.push(
            `task ${t.taskId}: saw input_required at ${at(first!.ms)} (${first!.via}), then sent ${getsWhile} more tasks/get and no tasks/result while it was input_required` +
              (left ? ` (it saw "${left.status}" at ${at(left.ms)}${late ? `; tasks/result only at ${at(late.sentMs)}` : ''})` : ''),
          );
        }
      }
      ctx.expect(bad.length === 0, bad.join('; '));
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
      const standalone = inputs.filter((x) => !x.request.note?.startsWith('related to request'));
      if (standalone.length === 0) {
        ctx.violation(
          `the requestor opened no standalone GET SSE stream, so the receiver could only deliver the ${inputs[0]!.method} on the tasks/result stream; clients SHOULD expect messages on any SSE stream, including the HTTP GET stream (tasks.md line 441)`,
        );
      }
      const unanswered = standalone.filter((x) => !x.response);
      ctx.expect(unanswered.length === 0, `${unanswered.length} ${unanswered[0]?.method} sent on the GET stream at ${at(unanswered[0]?.sentMs)} got no answer`);
      return `${standalone.length} input request(s) on the GET stream answered (after ${standalone.map((x) => `${Math.round(x.answeredMs! - x.sentMs)} ms`).join(', ')})`;
    },
  }),

  // --- related-task metadata -------------------------------------------------------------------------
  defineRequestorCheck({
    id: 'requestor.input-response-related-task',
    title: "The answer to a task's elicitation carries related-task _meta with the task's id",
    section: SEC_META,
    requirements: ['related-task-all-messages', 'related-task-nested-same-id'],
    level: 'MUST',
    killedBy: ['elicitation-no-related-task'],
    scenarios: INPUT,
    judge(run: Analysis, ctx: JudgeContext) {
      const reqs = allTasks(run).flatMap((t) => t.inputRequests);
      if (reqs.length === 0) ctx.skip('the receiver sent no input request (the requestor did not reach the input step)');
      const answered = reqs.filter((x) => x.response);
      if (answered.length === 0) ctx.skip(`the requestor answered none of the ${reqs.length} input request(s)`);
      const bad: string[] = [];
      let good = 0;
      for (const x of answered) {
        const want = relatedTask(x.params).taskId;
        if (x.error) {
          ctx.note(`the ${x.method} at ${at(x.sentMs)} was answered with error ${x.error.code} (an error response has no _meta to judge)`);
          continue;
        }
        const r = relatedTask(x.result);
        if (!r.present)
          bad.push(
            `the response to ${x.method} (id ${short(x.id)}, task ${String(want)}) carries no _meta["${RELATED_TASK_META}"] (result: ${short(x.result)})`,
          );
        else if (r.taskId !== want)
          bad.push(`the response to ${x.method} (id ${short(x.id)}) carries related-task taskId ${short(r.taskId)}, not the task's ${short(want)}`);
        else good++;
      }
      if (bad.length === 0 && good === 0) ctx.skip('every input request was answered with an error');
      ctx.expect(bad.length === 0, bad.join('; '));
      return `${good} response(s) to input requests carry related-task _meta with the task's id`;
    },
  }),

  defineRequestorCheck({
    id: 'requestor.no-related-task-in-task-requests',
    title: 'No related-task _meta in tasks/get, tasks/result, tasks/cancel requests',
    section: SEC_META,
    requirements: ['related-task-requestor-omit-in-requests'],
    level: 'SHOULD',
    killedBy: ['related-task-in-requests'],
    scenarios: [...ALL, ...SERVER_ALL],
    judge(run: Analysis, ctx: JudgeContext) {
      const reqs = run.sessions.flatMap((s) => s.clientRequests.filter((x) => ['tasks/get', 'tasks/result', 'tasks/cancel'].includes(x.method)));
      if (reqs.length === 0) ctx.skip('the requestor sent no tasks/get, tasks/result or tasks/cancel');
      const bad = reqs.filter((x) => relatedTask(x.params).present);
      ctx.expect(bad.length === 0, `${bad.length} of ${reqs.length} requests carry _meta["${RELATED_TASK_META}"]: ${summarize(bad)}`);
      return `${reqs.length} tasks/get|result|cancel requests, none with related-task _meta`;
    },
  }),

  defineRequestorCheck({
    id: 'requestor.no-related-task-in-list',
    title: 'No related-task _meta in tasks/list requests',
    section: SEC_META,
    requirements: ['related-task-get-list-cancel-should-not'],
    level: 'SHOULD',
    killedBy: ['related-task-in-list'],
    scenarios: [...ALL, ...SERVER_ALL],
    judge(run: Analysis, ctx: JudgeContext) {
      const reqs = run.sessions.flatMap((s) => calls(s, 'tasks/list'));
      if (reqs.length === 0) ctx.skip('the requestor sent no tasks/list');
      const bad = reqs.filter((x) => relatedTask(x.params).present);
      ctx.expect(bad.length === 0, `${bad.length} of ${reqs.length} tasks/list requests carry _meta["${RELATED_TASK_META}"]: ${summarize(bad)}`);
      return `${reqs.length} tasks/list requests, none with related-task _meta`;
    },
  }),

  // --- listing ------------------------------------------------------------------------------------------
  defineRequestorCheck({
    id: 'requestor.cursor-opaque',
    title: 'tasks/list cursors are sent back exactly as received',
    section: SEC_LIST,
    requirements: ['list-cursor-opaque'],
    level: 'MUST',
    killedBy: ['modify-cursor'],
    scenarios: [...ALL, ...SERVER_ALL],
    judge(run: Analysis, ctx: JudgeContext) {
      let listed = 0;
      let sent = 0;
      let lastPageReached = false;
      const bad: string[] = [];
      for (const s of run.sessions) {
        const lists = calls(s, 'tasks/list');
        listed += lists.length;
        const received: { cursor: unknown; ms: number }[] = [];
        for (const x of lists) {
          if (x.result && x.answeredMs !== undefined) {
            if (x.result.nextCursor !== undefined && x.result.nextCursor !== null) received.push({ cursor: x.result.nextCursor, ms: x.answeredMs });
            else lastPageReached = true;
          }
        }
        for (const x of lists) {
          if (!x.params || !('cursor' in x.params)) continue;
          sent++;
          const known = received.filter((r) => r.ms <= x.sentMs).map((r) => r.cursor);
          if (!known.some((c) => c === x.params.cursor)) {
            bad.push(
              `tasks/list at ${at(x.sentMs)} sent cursor ${short(x.params.cursor)}, which the receiver never returned (returned so far: ${known.map((c) => short(c, 60)).join(', ') || 'none'})`,
            );
          }
        }
      }
      if (listed === 0) ctx.skip('the requestor sent no tasks/list');
      if (sent === 0) ctx.skip(`the requestor sent ${listed} tasks/list without a cursor (it did not follow nextCursor)`);
      ctx.expect(bad.length === 0, bad.join('; '));
      return `${sent} cursor(s) sent back unchanged over ${listed} tasks/list request(s)${lastPageReached ? ', last page reached' : ''}`;
    },
  }),

  // --- cancellation -------------------------------------------------------------------------------------
  defineRequestorCheck({
    id: 'requestor.cancel-with-tasks-cancel',
    title: 'Cancels tasks with tasks/cancel, never notifications/cancelled for the task-creating request',
    section: SEC_CANCEL,
    requirements: ['cancellation-use-tasks-cancel'],
    level: 'MUST',
    killedBy: ['cancel-notification'],
    scenarios: [...ALL, ...SERVER_ALL],
    judge(run: Analysis, ctx: JudgeContext) {
      const bad: string[] = [];
      let cancels = 0;
      for (const s of run.sessions) {
        const creating = new Map([...s.tasks.values()].map((t) => [JSON.stringify(t.created.id), t] as const));
        for (const e of s.clientNotifications) {
          const m = e.message as any;
          if (m?.method !== 'notifications/cancelled') continue;
          const t = creating.get(JSON.stringify(m.params?.requestId));
          if (t && t.created.answeredMs !== undefined && e.ms >= t.created.answeredMs) {
            bad.push(
              `notifications/cancelled at ${at(e.ms)} for request ${short(m.params.requestId)}, which created task ${t.taskId} (CreateTaskResult at ${at(t.created.answeredMs)})`,
            );
          }
        }
        cancels += [...s.tasks.values()].filter(cancelledByClient).length;
      }
      ctx.expect(bad.length === 0, `${bad.join('; ')}; task-augmented requests are cancelled with tasks/cancel (cancellation.md line 38)`);
      if (cancels === 0) ctx.skip('the requestor cancelled no task');
      return `${cancels} task(s) cancelled with tasks/cancel, no notifications/cancelled for a task`;
    },
  }),
  // --- the client as task receiver while its tools/call runs ---------------------------------------
  ...receivingChecks,
];

export function requestorCheck(id: string): RequestorCheckDef {
  const c = requestorChecks.find((x) => x.id === id);
  if (!c) throw new Error(`unknown requestor check ${id}`);
  return c;
}
