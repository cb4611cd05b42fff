// The scenarios of `mcp-tasks-conformance client --revision 2026-07-28`: how the reference extension server
// (server.ts, spec-exact) is set up for each, and what the client under test is asked to do. The judge runs
// the client once per scenario against a ScenarioServer and grades the recorded messages
// (suites/2026-07-28/requestor/). Every scenario's server is the reference one with its options and
// latitudes; only `task-for-tools-list` answers one request the way no correct server does (on purpose:
// the client's handling of an invalid answer is what it grades).
import { randomUUID } from 'node:crypto';
import { decodeHeaderValue, ExtensionServer, type Answer, type RequestCtx, type ServerOptions } from './server.ts';
import { ErrorCode, Header, Meta, Method, ResultType, SUPPORTED_VERSIONS } from './protocol.ts';
import type { JsonObject } from './store.ts';
import { isObj } from '../../schema/json.ts';

export type ScenarioTransport = 'http' | 'stdio';

export interface ClientScenario {
  name: string;
  title: string;
  /** What the client is asked to do (beyond the shared behaviour, docs/CLIENTS.md). */
  ask: string;
  /** Bound for the client's run (ms). */
  timeoutMs: number;
  /** The tools tools/list shows (by name, in this order); unlisted tools are still served. */
  tools: readonly string[];
  /** Tools listed under another name: listed name → the reference tool that serves it. */
  aliases?: Readonly<Record<string, string>>;
  /** Options of the reference extension server (latitudes, timings, pollIntervalMs). */
  server: ServerOptions;
  /** pollIntervalMs shown by the n-th tasks/get of a task (the last value from then on). */
  pollIntervalSteps?: readonly number[];
  /** Under the latitude update-applies-later: an acknowledged tasks/update applies once the task's next tasks/get is answered (its keys stay listed one poll longer). */
  updateAppliesAfterNextGet?: boolean;
  /** The first tools/call is answered with a result of a resultType no revision defines (shaped like a task): invalid to every client. */
  unknownResultType?: boolean;
  /** The first tools/list is answered with a CreateTaskResult (an invalid answer: tools/list is not a supported request). */
  toolsListAsTask?: boolean;
  /**
   * The server is a legacy one (2025-11-25: the reference receiver of that revision, mocks/receiver, serving `tools` as
   * plain tools): it needs the initialize handshake, and its results carry no resultType. Only a dual-era client goes on.
   */
  legacy?: boolean;
  /** The first request of this method is answered -32022 UnsupportedProtocolVersionError naming the supported versions. */
  rejectVersionOnce?: string;
  transports?: readonly ScenarioTransport[];
}

/** pollIntervalMs of the scenarios' tasks: short (fast runs), long enough that a poll 10 ms apart stands out. */
export const SCENARIO_POLL_INTERVAL_MS = 200;

export const CLIENT_SCENARIOS: readonly ClientScenario[] = [
  {
    name: 'tasks',
    title: 'Every tool call is answered with a task (completed, failed, completed with isError)',
    ask: 'call each tool; poll each task with tasks/get, honouring pollIntervalMs, until it is terminal',
    timeoutMs: 20_000,
    tools: ['complete', 'fail_rpc', 'tool_error'],
    server: { pollIntervalMs: SCENARIO_POLL_INTERVAL_MS, timings: { completesMs: 300 } },
  },
  {
    name: 'poll-interval-changes',
    title: 'pollIntervalMs changes: 100 ms on the CreateTaskResult and the first tasks/get, 1500 ms from the second on',
    ask: 'poll the task until it completes, each time no sooner than the pollIntervalMs of the latest answer',
    timeoutMs: 20_000,
    tools: ['slow'],
    server: { pollIntervalMs: 100, timings: { slowMs: 1_600 } },
    // 2026-poll-interval-may-change; a wide step, so that a client still polling at 100 ms stands out on a slow machine.
    pollIntervalSteps: [100, 1_500],
  },
  {
    name: 'input',
    title: 'Tasks that need input: one question, two at once, two rounds',
    ask: 'answer each outstanding inputRequests key once through tasks/update, and keep polling until the task is terminal',
    timeoutMs: 20_000,
    tools: ['ask', 'ask_two', 'ask_rounds'],
    server: { pollIntervalMs: SCENARIO_POLL_INTERVAL_MS },
  },
  {
    name: 'input-eventual',
    title: 'tasks/update acknowledged before it applies: the first tasks/get after the answer still lists its keys',
    ask: 'answer each key once, though the next poll still lists it',
    timeoutMs: 20_000,
    tools: ['ask_two'],
    server: { pollIntervalMs: 100, latitudes: ['update-applies-later'] },
    updateAppliesAfterNextGet: true,
  },
  {
    name: 'mixed-results',
    title: 'The server decides per call: every other tools/call is answered with a plain CallToolResult',
    ask: 'take a plain result as final, follow a task to its end',
    timeoutMs: 20_000,
    tools: ['complete', 'tool_error', 'fail_rpc', 'slow'],
    // calls 1 and 3 (complete, fail_rpc) become tasks, 2 and 4 plain results (slow: after 600 ms)
    server: { pollIntervalMs: SCENARIO_POLL_INTERVAL_MS, latitudes: ['alternate-results'], timings: { slowMs: 600 } },
  },
  {
    name: 'cancel',
    title: 'A long task (10 s) to cancel',
    ask: 'cancel the task with tasks/cancel after at most one tasks/get (one more tasks/get to confirm is allowed), then exit',
    timeoutMs: 20_000,
    tools: ['slow'],
    server: { pollIntervalMs: SCENARIO_POLL_INTERVAL_MS, timings: { slowMs: 10_000 } },
  },
  {
    name: 'task-for-tools-list',
    title: 'The first tools/list is answered with a CreateTaskResult (tools/list does not support tasks)',
    ask: 'treat that answer as invalid (do not poll it); a second tools/list gets the tools; call them as usual',
    timeoutMs: 20_000,
    tools: ['complete'],
    server: { pollIntervalMs: SCENARIO_POLL_INTERVAL_MS },
    toolsListAsTask: true,
  },
  {
    name: 'non-ascii-tool-name',
    title: 'The tool is named "tâche" (not a plain ASCII header value)',
    ask: 'call it as usual: over Streamable HTTP its Mcp-Name goes in the Base64 sentinel form',
    timeoutMs: 20_000,
    tools: ['tâche'],
    aliases: { tâche: 'complete' },
    server: { pollIntervalMs: SCENARIO_POLL_INTERVAL_MS },
  },
  {
    name: 'unknown-result-type',
    title: `The first tools/call is answered with resultType "x-reference-unknown" (the rest of a CreateTaskResult kept)`,
    ask: 'treat that answer as invalid (do not poll it); call the other tools as usual',
    timeoutMs: 20_000,
    tools: ['complete', 'tool_error'],
    server: { pollIntervalMs: SCENARIO_POLL_INTERVAL_MS },
    unknownResultType: true,
  },
  {
    name: 'legacy-server',
    title: 'A legacy server (2025-11-25, initialize handshake): its results carry no resultType',
    ask: 'a client that also speaks 2025-11-25 falls back to initialize (stdio: after server/discover fails) and calls the tools as usual, taking each result without resultType as complete; a client of modern versions only surfaces an error',
    timeoutMs: 20_000,
    tools: ['complete', 'echo'],
    server: {},
    legacy: true,
  },
  {
    name: 'version-retry',
    title: 'The first tools/list is answered -32022 (UnsupportedProtocolVersionError) with data.supported ["2026-07-28"]',
    ask: 'select a version from data.supported and retry the tools/list; then call the tools as usual',
    timeoutMs: 20_000,
    tools: ['complete'],
    server: { pollIntervalMs: SCENARIO_POLL_INTERVAL_MS },
    rejectVersionOnce: Method.ToolsList,
  },
  {
    name: 'subscribe',
    title: 'subscriptions/listen for a task is acknowledged without its taskId (the server agrees to none: latitude listen-agrees-none)',
    ask: "subscribe to each task's notifications/tasks through subscriptions/listen; a task the acknowledgement leaves out is followed with tasks/get to its end; end the subscription (stdio: notifications/cancelled for the subscriptions/listen request)",
    timeoutMs: 20_000,
    tools: ['complete'],
    server: { pollIntervalMs: SCENARIO_POLL_INTERVAL_MS, latitudes: ['listen-agrees-none'], timings: { completesMs: 600 } },
  },
];

/** The resultType of scenario unknown-result-type: defined by no revision or extension. */
export const UNKNOWN_RESULT_TYPE = 'x-reference-unknown';

export const CLIENT_SCENARIO_NAMES: readonly string[] = CLIENT_SCENARIOS.map((s) => s.name);

export function clientScenario(name: string): ClientScenario {
  const s = CLIENT_SCENARIOS.find((x) => x.name === name);
  if (!s) throw new Error(`unknown scenario ${name} (scenarios: ${CLIENT_SCENARIO_NAMES.join(', ')})`);
  return s;
}

/** The reference extension server set up for one scenario. */
export class ScenarioServer extends ExtensionServer {
  /**
   * A tools/call of an alias goes to its tool; an Mcp-Name that names the alias (decoded) names the tool then, so the
   * server's header validation holds the client to the name it was shown. (The recording has the client's own message.)
   */
  private unaliased(msg: unknown, ctx: RequestCtx): unknown {
    const aliases = this.scenario.aliases;
    if (!aliases || !isObj(msg) || msg.method !== Method.ToolsCall || !isObj(msg.params) || typeof msg.params.name !== 'string') return msg;
    const real = aliases[msg.params.name];
    if (real === undefined) return msg;
    const key = Header.Name.toLowerCase();
    const h = ctx.headers?.[key];
    if (ctx.headers && typeof h === 'string' && decodeHeaderValue(h) === msg.params.name) ctx.headers = { ...ctx.headers, [key]: real };
    return { ...msg, params: { ...msg.params, name: real } };
  }

  private toolsListTasked = false;
  /** Acknowledged tasks/update waiting for the task's next tasks/get (updateAppliesAfterNextGet). */
  private readonly deferred: Map<string, (() => void)[]>;
  private unknownSent = false;
  private versionRejected = false;

  constructor(
    readonly scenario: ClientScenario,
    options: Omit<ServerOptions, 'faults'> = {},
  ) {
    const deferred = new Map<string, (() => void)[]>();
    super({
      ...scenario.server,
      ...options,
      latitudes: [...(scenario.server.latitudes ?? []), ...(options.latitudes ?? [])],
      ...(scenario.updateAppliesAfterNextGet
        ? { deferUpdate: (taskId: string, apply: () => void) => deferred.set(taskId, [...(deferred.get(taskId) ?? []), apply]) }
        : {}),
    });
    this.deferred = deferred;
  }

  override async handle(msg: unknown, ctx: RequestCtx): Promise<Answer | undefined> {
    const steps = this.scenario.pollIntervalSteps;
    if (steps?.length && isObj(msg) && msg.method === Method.TasksGet && isObj(msg.params) && typeof msg.params.taskId === 'string') {
      const t = this.store.peek(msg.params.taskId);
      if (t) t.pollIntervalMs = steps[Math.min(t.gets, steps.length - 1)];
    }
    if (this.scenario.rejectVersionOnce && !this.versionRejected && isObj(msg) && msg.method === this.scenario.rejectVersionOnce && 'id' in msg) {
      // 2026-version-client-retry-supported: -32022 with the versions this server supports; the retry is served.
      this.versionRejected = true;
      const meta = isObj(msg.params) && isObj(msg.params._meta) ? msg.params._meta : {};
      const requested = typeof meta[Meta.ProtocolVersion] === 'string' ? meta[Meta.ProtocolVersion] : '';
      const error = {
        code: ErrorCode.UnsupportedProtocolVersion,
        message: 'Unsupported protocol version',
        data: { supported: [...SUPPORTED_VERSIONS], requested },
      };
      return { message: { jsonrpc: '2.0', id: msg.id as string | number, error }, httpStatus: 400 };
    }
    const answer = await super.handle(this.unaliased(msg, ctx), ctx);
    if (isObj(msg) && msg.method === Method.TasksGet && isObj(msg.params) && typeof msg.params.taskId === 'string') {
      // The tasks/get is answered (still without the update); now the update applies.
      const applies = this.deferred.get(msg.params.taskId);
      this.deferred.delete(msg.params.taskId);
      for (const apply of applies ?? []) apply();
    }
    if (!isObj(msg) || !answer || !isObj(answer.message.result)) return answer;
    const result = answer.message.result;
    if (msg.method === Method.ToolsCall && this.scenario.unknownResultType && !this.unknownSent) {
      // 2026-core-result-type-unknown-invalid: the answer's resultType is one no client recognises.
      this.unknownSent = true;
      const { resultType: _rt, ...rest } = result;
      return { ...answer, message: { ...answer.message, result: { resultType: UNKNOWN_RESULT_TYPE, ...rest } } };
    }
    if (msg.method !== Method.ToolsList) return answer;
    if (this.scenario.toolsListAsTask && !this.toolsListTasked) {
      // Accepted by the ladder (a valid request): answered with a task it does not support.
      this.toolsListTasked = true;
      const taskId = randomUUID();
      const now = new Date().toISOString();
      const task = { resultType: ResultType.Task, taskId, status: 'working', createdAt: now, lastUpdatedAt: now, ttlMs: 60_000 };
      return { ...answer, message: { ...answer.message, result: { ...task, pollIntervalMs: this.opts.pollIntervalMs ?? 200, _meta: result._meta } } };
    }
    const tools = Array.isArray(result.tools) ? (result.tools as JsonObject[]) : [];
    const aliases = this.scenario.aliases ?? {};
    const listed = this.scenario.tools.flatMap((n) => tools.filter((t) => t.name === (aliases[n] ?? n)).map((t) => ({ ...t, name: n })));
    return { ...answer, message: { ...answer.message, result: { ...result, tools: listed } } };
  }
}
