// Client-grading scenarios: how the reference receiver is set up for each scenario of
// `mcp-tasks-conformance client` (docs/CLIENTS.md). The client under test learns the scenario from
// MCP_CONFORMANCE_SCENARIO and does what `ask` says; suites/requestor/checks/ grades the messages.
//
// Over Streamable HTTP the receiver answers with plain JSON (its default), except in the input
// scenarios, which use SSE answers so that the stream carrying the input request is the scenario's choice.
//
// Every scenario shares one contract (the "generic client"): connect, initialize (declaring
// elicitation form support), list tools (following nextCursor), then call every listed tool once
// with `{}` arguments, in listed order, task-augmenting exactly as tool-level negotiation allows;
// for each task created, poll tasks/get (honouring pollInterval) until terminal or input_required,
// call tasks/result on input_required (answering its elicitation/create) and on completion; then
// do the scenario's extra step (if any) and exit 0.
import type { TaskSupport } from '../../schema/protocol.ts';
import type { ReceiverOptions } from './index.ts';
import { buildTools, DEFAULT_TIMINGS, type ToolDef } from './tools.ts';

export type ScenarioTransport = 'http' | 'stdio';

export interface Scenario {
  name: string;
  title: string;
  /** What the client is asked to do (besides the shared contract above). */
  ask: string;
  /** Reference receiver options (the harness adds its tap). */
  receiver: Omit<ReceiverOptions, 'scenario'> & { scenario?: Omit<NonNullable<ReceiverOptions['scenario']>, 'tap'> };
  /** Transports the scenario makes sense on (default both). */
  transports?: ScenarioTransport[];
  /** Bound for the client's whole run (ms); the harness kills it afterwards. */
  timeoutMs: number;
  /** Status notifications are never sent in these scenarios unless this says so. */
  statusNotifications?: boolean;
  /** The tool that serves the client's own tool names (listed with --tool, or called unlisted); default the first. */
  serves?: string;
}

/** A reference tool under another name and/or taskSupport (`null`: no `execution` field). */
function tool(base: string, opts: { name?: string; taskSupport?: TaskSupport | null; ms?: number; description?: string } = {}): ToolDef {
  const timings = { ...DEFAULT_TIMINGS, completesMs: opts.ms ?? 200, slowMs: opts.ms ?? 3000, failMs: opts.ms ?? 300 };
  const b = buildTools(timings).find((t) => t.name === base);
  if (!b) throw new Error(`no reference tool ${base}`);
  const t: ToolDef = { ...b, name: opts.name ?? b.name, title: opts.name ?? b.title, description: opts.description ?? b.description };
  if (opts.taskSupport === null) delete t.taskSupport;
  else if (opts.taskSupport !== undefined) t.taskSupport = opts.taskSupport;
  return t;
}

/** The four tool-level negotiation cases. */
function negotiationTools(): ToolDef[] {
  return [
    tool('complete', {
      name: 'required_task',
      taskSupport: 'required',
      description: 'taskSupport "required": must be called as a task; completes after 200 ms with "done".',
    }),
    tool('complete', {
      name: 'optional_task',
      taskSupport: 'optional',
      description: 'taskSupport "optional": may be called either way; completes after 200 ms with "done".',
    }),
    tool('complete', {
      name: 'forbidden_task',
      taskSupport: 'forbidden',
      description: 'taskSupport "forbidden": must not be called as a task; completes after 200 ms with "done".',
    }),
    tool('complete', {
      name: 'plain',
      taskSupport: null,
      description: 'no execution field (forbidden by default): must not be called as a task; completes after 200 ms with "done".',
    }),
  ];
}

export const POLL_INTERVAL_SCENARIO_MS = 1500;
/** The poll-interval scenario's CreateTaskResult pollInterval: a first tasks/get sent at once stays far below it on a slow machine. */
export const POLL_INTERVAL_CREATED_MS = 3000;

export const SCENARIOS: readonly Scenario[] = [
  {
    name: 'tool-negotiation',
    title: 'Tool-level negotiation: required / optional / forbidden / absent taskSupport',
    ask: 'Call each of the four tools once. `required_task` must be a task, `forbidden_task` and `plain` must not, `optional_task` either way.',
    receiver: { tools: negotiationTools() },
    serves: 'optional_task',
    timeoutMs: 20_000,
  },
  {
    name: 'no-tasks-capability',
    title: 'A server without the tasks capability',
    ask: 'Call each of the four tools once. The server declares no `tasks` capability (its tools still list taskSupport), so no request may be task-augmented.',
    receiver: { tools: negotiationTools(), tasksCapability: false, scenario: { listTaskSupportAlways: true } },
    serves: 'optional_task',
    timeoutMs: 20_000,
  },
  {
    name: 'no-tools-call-capability',
    title: 'tasks capability without tasks.requests.tools.call',
    ask: 'Call each of the four tools once. The server declares `tasks` (list, cancel) but not `tasks.requests.tools.call`, so no tools/call may be task-augmented, whatever taskSupport says.',
    receiver: { tools: negotiationTools(), scenario: { toolsCallTasks: false } },
    serves: 'optional_task',
    timeoutMs: 20_000,
  },
  {
    name: 'poll-interval',
    title: `A long pollInterval (${POLL_INTERVAL_CREATED_MS} ms on the CreateTaskResult, then ${POLL_INTERVAL_SCENARIO_MS} ms)`,
    ask: `Call the one tool (\`slow_task\`, required, runs about 4 s) as a task and poll it to completion. The CreateTaskResult's task carries pollInterval ${POLL_INTERVAL_CREATED_MS}, every later Task ${POLL_INTERVAL_SCENARIO_MS}: polls must not come faster than the latest one.`,
    receiver: {
      tools: [tool('slow', { name: 'slow_task', taskSupport: 'required', ms: 4000 })],
      pollInterval: POLL_INTERVAL_SCENARIO_MS,
      scenario: { createdPollInterval: POLL_INTERVAL_CREATED_MS },
    },
    timeoutMs: 30_000,
  },
  {
    name: 'input-required',
    title: 'A task that needs input (input_required → elicitation)',
    ask: 'Call `ask_task` (required) as a task. It moves to input_required; call tasks/result, answer its elicitation/create (form, one string field "answer") with action "accept", then finish the task.',
    // SSE answers: the input request rides on the tasks/result stream (with JSON answers it would take the GET stream).
    receiver: { tools: [tool('ask', { name: 'ask_task', taskSupport: 'required' })], sseResponses: true },
    timeoutMs: 20_000,
  },
  {
    name: 'input-on-get-stream',
    title: 'Input request delivered on the HTTP GET stream (Streamable HTTP only)',
    ask: 'As input-required, but the server sends the elicitation/create on the standalone GET SSE stream, not on the tasks/result stream: answer it all the same.',
    // SSE answers, but the input request goes on the GET stream when the client has one open (else on the tasks/result stream).
    receiver: { tools: [tool('ask', { name: 'ask_task', taskSupport: 'required' })], sseResponses: true, scenario: { inputOnStandaloneStream: true } },
    transports: ['http'],
    timeoutMs: 20_000,
  },
  {
    name: 'result-error',
    title: 'An interrupted tasks/result',
    ask: 'As input-required, but the first tasks/result answers -32603 (the result stream was interrupted). Keep polling tasks/get and call tasks/result again.',
    receiver: { tools: [tool('ask', { name: 'ask_task', taskSupport: 'required' })], sseResponses: true, scenario: { failFirstResult: true } },
    timeoutMs: 20_000,
  },
  {
    name: 'failing-task',
    title: 'A failing task',
    ask: 'Call `fail_task` (required) as a task; it ends "failed" after about 300 ms. Poll it to its terminal status (and fetch its result if you like).',
    receiver: { tools: [tool('fail', { name: 'fail_task', taskSupport: 'required' })] },
    timeoutMs: 20_000,
  },
  {
    name: 'list-pages',
    title: 'tasks/list with several pages',
    ask: 'Call the five tools `job_1` … `job_5` (required) as tasks, then list the tasks with tasks/list, following every nextCursor until there is none (page size 2: three pages).',
    receiver: {
      tools: [1, 2, 3, 4, 5].map((i) =>
        tool('complete', {
          name: `job_${i}`,
          taskSupport: 'required',
          ms: 50,
          description: `Job ${i}: completes after 50 ms with "done" (taskSupport "required").`,
        }),
      ),
      pageSize: 2,
    },
    timeoutMs: 20_000,
  },
  {
    name: 'cancel',
    title: 'Cancelling a task',
    ask: 'Call `slow_task` (required, runs 10 s) as a task, then cancel it (after at most one tasks/get), and confirm with tasks/get that it is cancelled. Do not wait for it to finish.',
    receiver: { tools: [tool('slow', { name: 'slow_task', taskSupport: 'required', ms: 10_000 })] },
    timeoutMs: 20_000,
  },
];

export const SCENARIO_NAMES: readonly string[] = SCENARIOS.map((s) => s.name);

export function scenario(name: string): Scenario {
  const s = SCENARIOS.find((x) => x.name === name);
  if (!s) throw new Error(`unknown scenario "${name}" (known: ${SCENARIO_NAMES.join(', ')})`);
  return s;
}

/** The scenario tool that serves the client's own tool names. */
export function servingTool(s: Scenario): ToolDef {
  const tools = s.receiver.tools ?? [];
  return tools.find((t) => t.name === s.serves) ?? tools[0]!;
}

/**
 * Receiver options for a scenario, with the harness's tap added. Clients call the tools they were
 * written for: `clientTools` are listed too, and any unlisted name is served as well, both with the
 * behaviour and taskSupport of the scenario's serving tool.
 */
export function receiverOptionsFor(
  s: Scenario,
  tap: NonNullable<NonNullable<ReceiverOptions['scenario']>['tap']>,
  clientTools: readonly string[] = [],
): ReceiverOptions {
  const base = servingTool(s);
  const own = s.receiver.tools ?? [];
  const extra = clientTools
    .filter((n) => !own.some((t) => t.name === n))
    .map((name): ToolDef => ({ ...base, name, title: name, description: `${base.description} (the client's own tool name, served as "${base.name}")` }));
  return {
    ...s.receiver,
    tools: [...own, ...extra],
    statusNotifications: s.statusNotifications ?? false,
    scenario: { ...(s.receiver.scenario ?? {}), servesAnyToolAs: base.name, probeClientReceiver: true, tap },
  };
}
