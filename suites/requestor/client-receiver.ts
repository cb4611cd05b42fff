// The client as task RECEIVER: the client endpoint (suites/wire/client-endpoint.ts, the server end) sends
// task-augmented sampling/createMessage or elicitation/create to a client that declares
// tasks.requests.sampling.createMessage / tasks.requests.elicitation.create, and the receiver checks
// of the `server` command (suites/index.ts) run against the client, once per request type.
//
// How: a TargetConnector whose open() starts a client process in scenario `task-receiver` and returns
// the server end of its connection; TargetInfo.taskRequest makes helpers.createTask/callTool send the
// request type (with the role contract below) instead of tools/call. Checks that are specific to
// tools/call (tool-level negotiation, the tools.call capability, profile tools, progress, input, the
// schema check that expects CallToolResult payloads) are reported as skipped with the reason.
import { SPEC_REVISION } from '../../schema/spec.ts';
import { listenForClient } from '../wire/client-endpoint.ts';
import type { ProfileRole } from '../engine/profile.ts';
import { stderrExcerpt, type Peer } from '../wire/peer.ts';
import { hasPath, type CheckDef, type CheckResult, type TargetConnector, type TargetInfo } from '../engine/check.ts';
import { runOptions, type RunOptions } from '../engine/options.ts';
import { taskSlots } from '../runner/task-slots.ts';
import { checks as receiverChecks2025 } from '../receiver/index.ts';
import { runChecks, type TargetSession } from '../runner/session.ts';
import { measureLatency } from '../runner/target.ts';
import { startClient, type ClientLauncher } from './harness.ts';

export const TASK_RECEIVER_SCENARIO = 'task-receiver';

export const REQUEST_TYPES = {
  sampling: { method: 'sampling/createMessage', capability: 'tasks.requests.sampling.createMessage' },
  elicitation: { method: 'elicitation/create', capability: 'tasks.requests.elicitation.create' },
} as const;
export type RequestType = keyof typeof REQUEST_TYPES;
export const REQUEST_TYPE_NAMES = Object.keys(REQUEST_TYPES) as RequestType[];

/** The role contract: the word in the request's text tells the client how to behave (docs/CLIENTS.md). */
const ROLE_WORD: Partial<Record<ProfileRole, string>> = { completes: 'complete', slow: 'slow', fails: 'fail' };

export function roleRequest(type: RequestType, role: ProfileRole, task?: Record<string, unknown>): { method: string; params: Record<string, unknown> } {
  const text = `conformance: ${ROLE_WORD[role] ?? 'complete'}`;
  const params: Record<string, unknown> =
    type === 'sampling'
      ? { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 32 }
      : { mode: 'form', message: text, requestedSchema: { type: 'object', properties: { answer: { type: 'string', title: 'Answer' } } } };
  if (task) params.task = task;
  return { method: REQUEST_TYPES[type].method, params };
}

/**
 * Receiver checks that run against a client receiver (their `clientReceiver: true`): they create tasks only
 * through helpers.createTask / result.createTask (or send only tasks/* requests) and need no tools. Every
 * other receiver check is reported as skipped (see skipReason).
 */
export const CLIENT_RECEIVER_CHECKS: readonly string[] = receiverChecks2025.filter((c) => c.clientReceiver === true).map((c) => c.id);

function skipReason(check: CheckDef): string {
  if (typeof check.clientReceiver === 'string') return `${check.clientReceiver}: not applicable to a client receiver`;
  if (check.needsCapabilities?.some((c) => c.startsWith('tasks.requests.tools')))
    return 'tools/call-specific (needs tasks.requests.tools.call): not applicable to a client receiver';
  if (check.id.startsWith('capabilities.')) return 'tool-level negotiation / tools/call capability: not applicable to a client receiver';
  if (check.needs?.some((r) => !(r in ROLE_WORD)))
    return `needs a ${check.needs.filter((r) => !(r in ROLE_WORD)).join('/')} role, which a client receiver does not have in this suite`;
  return 'sends tools/call or reads server-only behaviour: not (yet) vetted for client receivers';
}

function skipped(check: CheckDef, type: RequestType, reason: string, cause?: string): CheckResult {
  return { ...clientResultBase(check, type), status: 'skip', message: `not exercised: ${reason}`, durationMs: 0, transcript: [], ...(cause ? { cause } : {}) };
}

function clientResultBase(check: CheckDef, type: RequestType) {
  return {
    id: `${check.id}@${type}`,
    title: `${check.title} (client receiving ${REQUEST_TYPES[type].method})`,
    section: `Client as receiver (${REQUEST_TYPES[type].method}): ${check.section}`,
    requirements: check.requirements,
    level: check.level,
  };
}

/** The client's capabilities with the declaration at `cap` (tasks.requests.<type>) also at tasks.requests.tools.call. */
function asToolsCall(caps: any, cap: string): any {
  const declared = cap.split('.').reduce((o: any, k) => (o && typeof o === 'object' ? o[k] : undefined), caps);
  const tasks = caps?.tasks ?? {};
  return { ...caps, tasks: { ...tasks, requests: { ...(tasks.requests ?? {}), tools: { call: declared } } } };
}

/** The client's connections, by server-end peer (capabilities seen in its initialize). */
const connections = new WeakMap<Peer, { clientCapabilities: any; clientInfo: any; protocolVersion: unknown }>();

/** Opens connections to the client under test: each one is a new client process in scenario task-receiver. */
export function clientReceiverConnector(launcher: ClientLauncher, transport: 'http' | 'stdio', requestTimeoutMs: number): TargetConnector {
  const label = launcher.kind === 'command' ? launcher.command : launcher.label;
  return {
    transport,
    label: `client ${label} (${transport})`,
    hasSecondIdentity: false,
    async open() {
      const ep = await listenForClient(transport, { requestTimeoutMs });
      const h = startClient(launcher, { serverArg: ep.serverArg, scenario: TASK_RECEIVER_SCENARIO, transport });
      try {
        const exitedEarly = h.exited.then((x) => {
          throw new Error(
            `the client exited (${x.startError ?? x.code ?? x.signal}) before it was ready${x.stderr.trim() ? `: ${stderrExcerpt(x.stderr)}` : ''}`,
          );
        });
        const c = await Promise.race([ep.connection(Math.max(10_000, requestTimeoutMs)), exitedEarly]);
        exitedEarly.catch(() => undefined);
        // A client that exits later leaves the connection dead, whatever its transport says.
        void h.exited.then((x) => c.peer.markGone(`the client exited (${x.startError ?? x.code ?? x.signal})`));
        connections.set(c.peer, { clientCapabilities: c.clientCapabilities, clientInfo: c.clientInfo, protocolVersion: c.initializeParams?.protocolVersion });
        const close = c.peer.close.bind(c.peer);
        let closing: Promise<void> | undefined;
        c.peer.close = () =>
          (closing ??= (async () => {
            await close();
            h.stop();
            // (ep.close() closes its peers again, i.e. calls this: not awaited, or the two would wait on each other.)
            void ep.close().catch(() => undefined);
          })());
        return c.peer;
      } catch (e) {
        h.stop();
        await ep.close().catch(() => undefined);
        throw e;
      }
    },
  };
}

export interface ClientReceiverRun {
  results: CheckResult[];
  /** Set when the client could not be reached at all. */
  error?: string;
  /** The capabilities the client declared. */
  clientCapabilities?: any;
}

/** Runs the receiver checks against the client for one request type. Never throws. */
export async function runClientReceiverChecks(
  launcher: ClientLauncher,
  transport: 'http' | 'stdio',
  type: RequestType,
  opts: { options?: Partial<RunOptions>; only?: readonly string[]; concurrency?: number } = {},
): Promise<ClientReceiverRun> {
  const options = runOptions(opts.options);
  const wanted = receiverChecks2025.filter((c) => !opts.only || opts.only.includes(c.id));
  const runnable = wanted.filter((c) => CLIENT_RECEIVER_CHECKS.includes(c.id));
  const skippedChecks = (reason: (c: CheckDef) => string, cause?: string) => wanted.map((c) => skipped(c, type, reason(c), cause));
  const connector = clientReceiverConnector(launcher, transport, options.requestTimeoutMs);
  let shared: Peer;
  try {
    shared = await connector.open();
  } catch (e) {
    const error = `could not connect the client as a task receiver: ${e instanceof Error ? e.message : String(e)}`;
    // One root cause for every check of the battery (root-cause groups), not one reason each.
    const cause = /the client exited \(([^)]*)\) before it was ready/.exec(error)?.[0] ?? 'could not connect the client as a task receiver';
    return { results: skippedChecks(() => error, cause), error };
  }
  const c = connections.get(shared)!;
  const cap = REQUEST_TYPES[type].capability;
  if (!hasPath(c.clientCapabilities, cap)) {
    await shared.close();
    return {
      results: skippedChecks(() => `the client does not declare ${cap}`, `the client does not declare ${cap}`),
      clientCapabilities: c.clientCapabilities,
    };
  }
  const method = REQUEST_TYPES[type].method;
  // The client's round trip, as the server command's pre-flight measures a server's: the run's bounds grow by it.
  const latency = await measureLatency(shared);
  const info: TargetInfo = {
    label: connector.label,
    transport,
    latency,
    initializeResult: { protocolVersion: c.protocolVersion, capabilities: c.clientCapabilities, clientInfo: c.clientInfo },
    // The request type under test stands where the checks look for task-augmented tools/call
    // (needsCapabilities 'tasks.requests.tools.call'): declared exactly when the client declares it.
    serverCapabilities: asToolsCall(c.clientCapabilities, cap),
    // One pseudo-tool per role: the request type, which may be sent with or without a task.
    tools: [{ name: method, execution: { taskSupport: 'optional' } }],
    profile: { tools: { completes: { name: method }, slow: { name: method }, fails: { name: method } } },
    missingRoles: {
      needsInput: 'a client receiver has no input_required flow in this suite',
      progress: 'progress of client tasks is not exercised in this suite',
      requiresTask: 'tool-level negotiation does not apply to sampling/elicitation',
      forbidsTask: 'tool-level negotiation does not apply to sampling/elicitation',
    },
    taskRequest: (role, task) => roleRequest(type, role, task),
  };
  const session: TargetSession = {
    revision: SPEC_REVISION,
    revisionWhy: [`revision ${SPEC_REVISION}: a client receiving task-augmented requests is graded in it`],
    connector,
    shared,
    info,
    options,
    results: [],
    run: { health: {}, slots: taskSlots(options.maxTasks) },
    close: () => shared.close(),
  };
  try {
    const ran = await runChecks(runnable, session, opts.concurrency ?? 4);
    const byId = new Map(ran.map((r) => [r.id, r]));
    const results = wanted.map((check) => {
      const r = byId.get(check.id);
      return r ? { ...r, ...clientResultBase(check, type) } : skipped(check, type, skipReason(check));
    });
    return { results, clientCapabilities: c.clientCapabilities };
  } finally {
    await session.close();
  }
}
