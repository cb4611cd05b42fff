// The client as task RECEIVER in its normal routine: in every scenario, while the client's first
// tools/call is in flight, the reference receiver sends it one task-augmented request of each type it
// declared in tasks.requests (sampling/createMessage, elicitation/create), follows the task like a
// requestor (tasks/get until terminal, one more tasks/get, tasks/result), and sends each type the client
// supports but did not declare (all of them to a client declaring no tasks capability) once without and
// once with `task` (mocks/receiver/client-probe.ts). These checks judge the
// client's answers: the receiver rules that this window can observe. What the probe did not get to (the
// client exited or disconnected first) is not exercised, never failed. The full receiver battery runs
// in scenario task-receiver (suites/requestor/client-receiver.ts).
import { SCENARIO_NAMES } from '../../../mocks/receiver/scenarios.ts';
import { creationError, creationErrorCause, judgeFirstStatus } from '../../arrange/arrange.ts';
import type { ProfileRole } from '../../engine/profile.ts';
import { AUGMENTABLE_REQUESTS, firstIllegalStep, isTaskStatus, RELATED_TASK_META, type TaskStatus } from '../../../schema/protocol.ts';
import { at, declaredAugmentable, relatedTask, short, type Analysis, type Exchange, type SessionView } from '../analysis.ts';
import { defineRequestorCheck, type JudgeContext, type RequestorCheckDef } from '../engine.ts';
import { isObj } from '../../../schema/json.ts';

const SEC = 'Client as receiver: while its tools/call runs';
const ALL = [...SCENARIO_NAMES];
const RECEIVABLE = ['sampling/createMessage', 'elicitation/create'];
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** A task-augmented request the receiver (here: the scenario's server) sent the client, with what followed. */
interface Probe {
  session: SessionView;
  request: Exchange;
  /** The client declared task augmentation for this request type. */
  declared: boolean;
  /** The Task of the CreateTaskResult, if the answer was one. */
  task?: Record<string, any>;
  gets: Exchange[];
  results: Exchange[];
}

function probes(run: Analysis): Probe[] {
  const out: Probe[] = [];
  for (const s of run.sessions) {
    const declared = declaredAugmentable(s.clientCapabilities);
    for (const x of s.serverRequests) {
      if (!RECEIVABLE.includes(x.method) || !isObj(x.params) || !('task' in x.params)) continue;
      const task = isObj(x.result) && isObj(x.result.task) ? x.result.task : undefined;
      const id = task?.taskId;
      const mine = (y: Exchange) => id !== undefined && y.params?.taskId === id;
      out.push({
        session: s,
        request: x,
        declared: declared.includes(x.method),
        ...(task ? { task } : {}),
        gets: s.serverRequests.filter((y) => y.method === 'tasks/get' && mine(y)),
        results: s.serverRequests.filter((y) => y.method === 'tasks/result' && mine(y)),
      });
    }
  }
  return out;
}

/** The role a probe's text asks for (the role contract of docs/CLIENTS.md): "slow", "fail", else completes. */
function roleOf(p: Probe): ProfileRole {
  const x = p.request.params ?? {};
  const text = String(p.request.method === 'sampling/createMessage' ? (x.messages?.[0]?.content?.text ?? '') : (x.message ?? ''));
  return /slow/i.test(text) ? 'slow' : /fail/i.test(text) ? 'fails' : 'completes';
}

/** The request the client answered for comparison: the same type without `task`, sent just before (undeclared types). */
function plainCounterpart(p: Probe): Exchange | undefined {
  let found: Exchange | undefined;
  for (const y of p.session.serverRequests)
    if (y.method === p.request.method && y.sentMs <= p.request.sentMs && y !== p.request && !(isObj(y.params) && 'task' in y.params)) found = y;
  return found;
}

/** The answered probes of declared types whose answer can be judged as a task; skip when there are none (with why). */
function declaredTasks(run: Analysis, ctx: JudgeContext): Probe[] {
  const ps = declaredProbes(run, ctx);
  const tasks = ps.filter((p) => p.task);
  if (tasks.length === 0) {
    const errors = ps.filter((p) => p.request.error);
    // The one behaviour that got in the way, named like the receiver checks name it (root-cause groups).
    if (errors.length)
      ctx.skip(`no CreateTaskResult to judge: ${errors.map((p) => `${describe(p)} answered error ${p.request.error!.code}`).join('; ')}`, {
        cause: creationErrorCause(errors[0]!.request.error!),
      });
    ctx.skip('no CreateTaskResult to judge');
  }
  return tasks;
}

/** The answered probes of declared types; skip when there are none (with why). */
function declaredProbes(run: Analysis, ctx: JudgeContext): Probe[] {
  const all = probes(run);
  const declared = all.filter((p) => p.declared);
  if (declared.length === 0) {
    const caps = run.sessions.map((s) => declaredAugmentable(s.clientCapabilities).filter((m) => RECEIVABLE.includes(m)));
    ctx.skip(
      caps.some((c) => c.length)
        ? 'the client declared task augmentation for sampling/elicitation, but the receiver sent it no such request (it made no tools/call, or left first)'
        : `the client declared no task augmentation for ${RECEIVABLE.join(' or ')} (capabilities.tasks.requests), so it is not a task receiver here`,
    );
  }
  const answered = declared.filter((p) => p.request.response);
  if (answered.length === 0) ctx.skip(`the client answered none of the ${declared.length} task-augmented request(s) (it exited or disconnected first)`);
  return answered;
}

function describe(p: Probe): string {
  return `${p.request.method} (id ${short(p.request.id)}) at ${at(p.request.sentMs)}`;
}

/** The Tasks the client showed for a probe: the CreateTaskResult's, then each tasks/get answer's. */
function shown(p: Probe): { via: string; ms: number; task: Record<string, any> }[] {
  const out: { via: string; ms: number; task: Record<string, any> }[] = [];
  if (p.task) out.push({ via: 'CreateTaskResult', ms: p.request.answeredMs ?? p.request.sentMs, task: p.task });
  for (const g of p.gets) if (isObj(g.result)) out.push({ via: 'tasks/get', ms: g.answeredMs ?? g.sentMs, task: g.result });
  return out;
}

export const receivingChecks: RequestorCheckDef[] = [
  defineRequestorCheck({
    id: 'receiving.create-task-result',
    title: 'A task-augmented request of a declared type is answered with a CreateTaskResult',
    section: SEC,
    requirements: ['create-returns-createtaskresult'],
    level: 'MUST',
    killedBy: ['receiver-ignores-task', 'receiver-rejects-task'],
    scenarios: ALL,
    judge(run: Analysis, ctx: JudgeContext) {
      const ps = declaredProbes(run, ctx);
      // An error answer: one of JSON-RPC's own codes refuses the task the client declared support for; an
      // application's code (a user who declined) is the request's own outcome (creationError, as creation.create-task-result).
      const refused = ps.filter((p) => p.request.error && creationError(p.request.error) === 'refused');
      const bad = ps.filter((p) => !p.request.error && !p.task);
      const outcomes = ps.filter((p) => p.request.error && !refused.includes(p));
      for (const p of outcomes)
        ctx.note(`${describe(p)} answered error ${p.request.error!.code} ${short(p.request.error!.message, 80)} (the request's own outcome: not judged)`);
      const problems = [
        ...refused.map(
          (p) =>
            `${describe(p)} answered error ${p.request.error!.code} ${short(p.request.error!.message, 80)}, not a CreateTaskResult, although the client declares tasks for it`,
        ),
        ...bad.map((p) => `${describe(p)} was answered without a task: ${short(p.request.result)}`),
      ];
      const cause = refused[0]
        ? creationErrorCause(refused[0].request.error!)
        : bad.length
          ? 'task creation returned no CreateTaskResult with a string taskId'
          : undefined;
      ctx.expect(problems.length === 0, problems.join('; '), { cause });
      const judged = ps.length - outcomes.length;
      if (judged === 0)
        ctx.skip(`every task-augmented request was answered with the request's own error (${outcomes.map((p) => p.request.error!.code).join(', ')})`);
      return `${judged} task-augmented request(s) answered with a CreateTaskResult`;
    },
  }),

  defineRequestorCheck({
    id: 'receiving.begins-working',
    title: 'The task starts in "working"',
    section: SEC,
    requirements: ['lifecycle-begin-working'],
    level: 'MUST',
    killedBy: ['receiver-starts-input-required'],
    scenarios: ALL,
    judge(run: Analysis, ctx: JudgeContext) {
      const ps = declaredTasks(run, ctx);
      // RULINGS.md#new-task-working, judged as every CreateTaskResult of the suite is (judgeFirstStatus), with the role the request's text asks for.
      const judged = ps.map((p) => ({ p, v: judgeFirstStatus(p.task!.status, [roleOf(p)]) }));
      for (const { p, v } of judged) if (v.note) ctx.note(`${describe(p)}: ${v.note}`);
      const bad = judged.filter(({ v }) => v.violation);
      ctx.expect(bad.length === 0, bad.map(({ p, v }) => `the CreateTaskResult for ${describe(p)} (role ${roleOf(p)}): ${v.violation}`).join('; '));
      return `${ps.length} task(s): ${judged.map(({ p }) => `${short(p.task!.status)} (role ${roleOf(p)})`).join(', ')}`;
    },
  }),

  defineRequestorCheck({
    id: 'receiving.id-string',
    title: 'Task ids are strings',
    section: SEC,
    requirements: ['id-string'],
    level: 'MUST',
    killedBy: ['receiver-numeric-id'],
    scenarios: ALL,
    judge(run: Analysis, ctx: JudgeContext) {
      const ps = declaredTasks(run, ctx);
      const bad = ps.filter((p) => typeof p.task!.taskId !== 'string');
      ctx.expect(
        bad.length === 0,
        bad.map((p) => `the CreateTaskResult for ${describe(p)} has taskId ${short(p.task!.taskId)} (${typeof p.task!.taskId})`).join('; '),
      );
      return `${ps.length} task id(s), all strings`;
    },
  }),

  defineRequestorCheck({
    id: 'receiving.task-fields',
    title: 'Tasks carry createdAt and lastUpdatedAt (ISO 8601), and tasks/get the ttl',
    section: SEC,
    requirements: ['ttl-created-at', 'ttl-last-updated-at', 'ttl-actual-in-get'],
    level: 'MUST',
    killedBy: ['receiver-no-created-at'],
    scenarios: ALL,
    judge(run: Analysis, ctx: JudgeContext) {
      const views = declaredTasks(run, ctx).flatMap(shown);
      const bad: string[] = [];
      for (const v of views) {
        const t = v.task;
        if (typeof t.createdAt !== 'string' || !ISO_8601.test(t.createdAt)) bad.push(`${v.via} at ${at(v.ms)}: createdAt ${short(t.createdAt)}`);
        if (typeof t.lastUpdatedAt !== 'string' || !ISO_8601.test(t.lastUpdatedAt))
          bad.push(`${v.via} at ${at(v.ms)}: lastUpdatedAt ${short(t.lastUpdatedAt)}`);
        if (v.via === 'tasks/get' && !(typeof t.ttl === 'number' || t.ttl === null)) bad.push(`${v.via} at ${at(v.ms)}: ttl ${short(t.ttl)}`);
      }
      ctx.expect(bad.length === 0, `Task fields missing or malformed: ${bad.join('; ')}`);
      return `${views.length} Task(s) with createdAt, lastUpdatedAt${views.some((v) => v.via === 'tasks/get') ? ' and (tasks/get) ttl' : ''}`;
    },
  }),

  defineRequestorCheck({
    id: 'receiving.valid-paths',
    title: 'Statuses follow the allowed transitions; a terminal status stays',
    section: SEC,
    requirements: ['lifecycle-valid-paths', 'lifecycle-terminal-sticky'],
    level: 'MUST',
    killedBy: ['receiver-resumes'],
    scenarios: ALL,
    judge(run: Analysis, ctx: JudgeContext) {
      const ps = declaredTasks(run, ctx).filter((p) => p.gets.length > 0);
      if (ps.length === 0) ctx.skip('no task was polled');
      const bad: string[] = [];
      const seen: string[] = [];
      for (const p of ps) {
        const statuses = shown(p).map((v) => v.task.status);
        const unknown = statuses.filter((x) => !isTaskStatus(x));
        if (unknown.length) {
          bad.push(`${describe(p)}: status ${short(unknown[0])} is not a task status`);
          continue;
        }
        const step = firstIllegalStep(statuses as TaskStatus[]);
        if (step) bad.push(`${describe(p)}: ${step.from} → ${step.to} (statuses seen: ${statuses.join(' → ')})`);
        else seen.push(statuses.join(' → '));
      }
      ctx.expect(bad.length === 0, bad.join('; '));
      return `statuses seen: ${seen.join('; ')}`;
    },
  }),

  defineRequestorCheck({
    id: 'receiving.result-related-task',
    title: 'tasks/result answers carry related-task _meta with the task id',
    section: SEC,
    requirements: ['related-task-result-must'],
    level: 'MUST',
    killedBy: ['receiver-result-no-related-task'],
    scenarios: ALL,
    judge(run: Analysis, ctx: JudgeContext) {
      const rs = declaredTasks(run, ctx).flatMap((p) => p.results.filter((r) => r.response && !r.error).map((r) => ({ p, r })));
      if (rs.length === 0) ctx.skip('no tasks/result was answered with a result');
      const bad = rs.filter(({ p, r }) => relatedTask(r.result).taskId !== p.task!.taskId);
      ctx.expect(
        bad.length === 0,
        bad
          .map(
            ({ p, r }) =>
              `tasks/result for ${short(p.task!.taskId)} at ${at(r.sentMs)} answered ${short(r.result)} (no _meta["${RELATED_TASK_META}"] with the task id)`,
          )
          .join('; '),
      );
      return `${rs.length} tasks/result answer(s) with related-task _meta`;
    },
  }),

  defineRequestorCheck({
    id: 'receiving.undeclared-processed-normally',
    title: 'A request type the client did not declare for tasks is processed normally, `task` ignored',
    section: SEC,
    requirements: ['support-undeclared-process-normally'],
    level: 'MUST',
    killedBy: ['receiver-undeclared-creates-task', 'receiver-undeclared-rejects', 'receiver-undeclared-tasks'],
    scenarios: ALL,
    judge(run: Analysis, ctx: JudgeContext) {
      const ps = probes(run).filter((p) => !p.declared && p.request.response);
      if (ps.length === 0)
        ctx.skip(
          'the receiver sent no task-augmented request of an undeclared type (the client declared every type it supports, supports none, or left first)',
        );
      const declaredText = (p: Probe) =>
        declaredAugmentable(p.session.clientCapabilities)
          .filter((m) => m in AUGMENTABLE_REQUESTS && RECEIVABLE.includes(m))
          .join(', ') || 'none of these';
      const bad: string[] = [];
      const seen: string[] = [];
      for (const p of ps) {
        const plain = plainCounterpart(p);
        if (p.task) {
          bad.push(`${describe(p)} (the client declares tasks for ${declaredText(p)}) was answered with a CreateTaskResult: ${short(p.request.result)}`);
        } else if (p.request.error && plain?.response && !plain.error) {
          // Processed normally = answered as without `task`: the same request without it got a result.
          bad.push(
            `${describe(p)} (the client declares tasks for ${declaredText(p)}) was answered error ${p.request.error.code} ${short(p.request.error.message, 80)}, while the same request without \`task\` at ${at(plain.sentMs)} got a result: \`task\` was not ignored`,
          );
        } else if (p.request.error && !plain?.response) {
          ctx.note(`${describe(p)} answered error ${p.request.error.code}, and no answer of the same request without \`task\` to compare it with (not judged)`);
          continue;
        }
        seen.push(p.request.error ? `error ${p.request.error.code}, as without \`task\`` : 'a result');
      }
      ctx.expect(bad.length === 0, bad.join('; '));
      if (seen.length === 0) ctx.skip('no answer of an undeclared type could be compared with the same request without `task`');
      return `${seen.length} request(s) of undeclared types processed normally (${seen.join(', ')})`;
    },
  }),

  defineRequestorCheck({
    id: 'receiving.caps-declared',
    title: 'A client that answers task-augmented requests with CreateTaskResults declares a tasks capability',
    section: SEC,
    requirements: ['caps-declare'],
    level: 'MUST',
    killedBy: ['receiver-undeclared-tasks'],
    scenarios: ALL,
    judge(run: Analysis, ctx: JudgeContext) {
      const created = probes(run).filter((p) => p.task);
      if (created.length === 0) ctx.skip('the client answered no task-augmented request with a CreateTaskResult');
      const bad = created.filter((p) => !isObj(p.session.clientCapabilities?.tasks));
      ctx.expect(
        bad.length === 0,
        `the client declares no \`tasks\` capability, yet answered ${bad.map(describe).join(', ')} with a CreateTaskResult (it supports task-augmented requests)`,
      );
      return `${created.length} CreateTaskResult(s), from a client declaring capabilities.tasks`;
    },
  }),
];
