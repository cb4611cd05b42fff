// What the requestor checks share: the scenario sets they judge (mocks/receiver/scenarios.ts), the server
// runs of the `server` command, and helpers that describe exchanges.
import { SCENARIO_NAMES } from '../../../mocks/receiver/scenarios.ts';
import { at, augmented, declaredAugmentable, short, type Analysis, type Exchange, type SessionView } from '../analysis.ts';

/** Scenarios whose receiver declares task-augmented tools/call. */
export const TASK_SCENARIOS = [
  'tool-negotiation',
  'poll-interval',
  'input-required',
  'input-on-get-stream',
  'result-error',
  'failing-task',
  'list-pages',
  'cancel',
];
export const NO_CAPABILITY = ['no-tasks-capability', 'no-tools-call-capability'];
export const INPUT = ['input-required', 'input-on-get-stream', 'result-error'];
/** Scenarios in which the requestor is asked to follow every task to its end (not cancel). */
export const FOLLOW = TASK_SCENARIOS.filter((s) => s !== 'cancel');
/** Scenarios without input or cancellation: the outcome of every task is reachable by polling alone. */
export const OUTCOME = ['tool-negotiation', 'poll-interval', 'failing-task', 'list-pages'];
export const ALL = [...SCENARIO_NAMES];

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
export const SERVER_TASKS = [SERVER_RUNS.sampling, SERVER_RUNS.elicitation];
export const SERVER_ALL = Object.values(SERVER_RUNS);

/** The pollInterval tolerance: a gap between polls of at least this fraction of pollInterval respects it. */
export const POLL_TOLERANCE = 0.8;

export const TOOLS_CALL = 'tools/call';

/** Root causes shared by several checks (root-cause groups of the report). */
export const CAUSE_AUGMENTS_UNDECLARED_TOOLS = 'task-augmented tools/call toward a receiver that does not declare tasks.requests.tools.call';
export const CAUSE_CUT_OFF = "the client's run ended (killed at its bound, or exited with an error) before it could act";
export const CAUSE_STOPPED_FOLLOWING = 'the requestor stopped following a task before its outcome (no tasks/get, no tasks/result waited on)';

export function calls(s: SessionView, method: string): Exchange[] {
  return s.clientRequests.filter((x) => x.method === method);
}

export function describeReq(x: Exchange): string {
  const name = x.method === TOOLS_CALL ? ` "${String(x.params?.name)}"` : '';
  return `${x.method}${name} (id ${short(x.id)}${augmented(x) ? `, task ${short(x.params.task)}` : ''}) at ${at(x.sentMs)}`;
}

/** "tasks/get ×4, tasks/result ×1" */
export function countByMethod(list: Exchange[]): string {
  const counts = new Map<string, number>();
  for (const x of list) counts.set(x.method, (counts.get(x.method) ?? 0) + 1);
  return [...counts].map(([m, n]) => `${m} ×${n}`).join(', ');
}

/** "tasks/get ×4, tasks/result ×1; first: …" */
export function summarize(list: Exchange[], max = 3): string {
  return `${countByMethod(list)}; ${list.slice(0, max).map(describeReq).join('; ')}${list.length > max ? ` (+${list.length - max} more)` : ''}`;
}

export function sessionsDeclaring(run: Analysis, method: string): SessionView[] {
  return run.sessions.filter((s) => declaredAugmentable(s.receiverCapabilities).includes(method));
}
