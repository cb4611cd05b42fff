// The server as task REQUESTOR (`server` command): servers send task-augmented sampling/createMessage
// and elicitation/create to clients that declare tasks.requests.sampling.createMessage /
// tasks.requests.elicitation.create, then poll the client's tasks/get and fetch tasks/result.
//
// For each requestor role of the profile (requestsSampling, requestsElicitation) the suite opens a
// connection of its own whose client declares the matching tasks.requests.* capability (with list and
// cancel) and acts as a spec-exact task receiver (mocks/client/task-receiver.ts, on the reference
// receiver's store): it creates the task, answers with a pollInterval long enough to tell respect from
// disregard, runs sampling for a while in `working`, and keeps an elicitation `input_required` (the
// answer needs the user) until the target calls tasks/result or a bound passes; then the task
// completes. It calls the role tool, records every message, and the requestor checks
// (suites/requestor/checks.ts) judge the transcripts. Two passive runs join them:
// `server-requests-undeclared` calls the same tools toward a client declaring no tasks capability, and
// `server-receiver-checks` reads every message of the receiver checks (whose client declares none
// either): a task-augmented request there violates caps-requestor-only-declared.
import { elicitationContent } from '../wire/elicitation.ts';
import { WireTimeoutError, type Peer } from '../wire/peer.ts';
import { REQUESTOR_ROLES } from '../engine/profile.ts';
import type { CheckResult, TargetConnector, TargetInfo } from '../engine/check.ts';
import { abortableSleep, ClientTaskReceiver, receiverCapabilities, type ReceivableMethod, type WorkContext } from '../../mocks/client/task-receiver.ts';
import type { Scenario } from '../../mocks/receiver/scenarios.ts';
import { analyse, type Analysis } from './analysis.ts';
import { requestorChecks, SERVER_RUNS } from './checks.ts';
import { gradeCheck, type RequestorCheckDef } from './engine.ts';
import type { RecordedEntry, ScenarioRun } from './harness.ts';

type RequestorRole = (typeof REQUESTOR_ROLES)[number];

const ROLE_METHOD: Record<RequestorRole, ReceivableMethod> = { requestsSampling: 'sampling/createMessage', requestsElicitation: 'elicitation/create' };
const ROLE_RUN: Record<RequestorRole, string> = { requestsSampling: SERVER_RUNS.sampling, requestsElicitation: SERVER_RUNS.elicitation };

/** pollInterval the suite's client reports (ms): three times the 1 s many servers poll at. */
export const SERVER_REQUESTOR_POLL_INTERVAL_MS = 3000;

export interface ServerRequestorOptions {
  /** pollInterval in every Task of the suite's client (ms). */
  pollIntervalMs: number;
  /** How long a sampling task stays working, and an elicitation input_required at most (ms). */
  workMs: number;
  /** Bound for the role tool's tools/call (ms); the target polls meanwhile. */
  callTimeoutMs: number;
}

/** Work long enough for two polls at pollInterval while working (the first poll after creation is not judged). */
export function serverRequestorOptions(pollIntervalMs = SERVER_REQUESTOR_POLL_INTERVAL_MS, requestTimeoutMs = 10_000): ServerRequestorOptions {
  const workMs = Math.round(Math.max(pollIntervalMs * 2.2, pollIntervalMs + 1000));
  return { pollIntervalMs, workMs, callTimeoutMs: workMs + pollIntervalMs * 4 + requestTimeoutMs };
}

/** The requestor checks that judge server runs. */
export const serverRequestorChecks: RequestorCheckDef[] = requestorChecks.filter((c) =>
  c.scenarios.some((s) => (Object.values(SERVER_RUNS) as string[]).includes(s)),
);

export const SERVER_REQUESTOR_SECTION_PREFIX = 'Server as requestor: ';

function pseudoScenario(name: string, title: string, ask: string, timeoutMs: number): Scenario {
  return { name, title, ask, receiver: {}, timeoutMs };
}

/** The work of the suite's client: sampling takes workMs as a task; an elicitation as a task needs the user. */
function suiteWork(o: ServerRequestorOptions) {
  return async (method: ReceivableMethod, p: Record<string, any>, ctx: WorkContext): Promise<Record<string, unknown>> => {
    if (method === 'elicitation/create') {
      await ctx.awaitUser(o.workMs);
      return { action: 'accept', content: elicitationContent(p, 'mcp-tasks-conformance') };
    }
    await abortableSleep(ctx.task ? o.workMs : 20, ctx.signal);
    return {
      role: 'assistant',
      content: { type: 'text', text: 'mcp-tasks-conformance: sampled reply' },
      model: 'mcp-tasks-conformance',
      stopReason: 'endTurn',
    };
  };
}

function entriesOf(peer: Peer, session: string): RecordedEntry[] {
  return peer.transcript.map((e) => ({ ...e, session }));
}

interface ToolCall {
  role: RequestorRole;
  name: string;
  arguments: Record<string, unknown>;
}

/**
 * One connection: declare `declared`, list tools, call each tool that is listed, wait for the calls
 * (bounded), record. Resolves with the run, or a reason why nothing could be called.
 */
async function connectionRun(
  connector: TargetConnector,
  runName: string,
  declared: ReceivableMethod[],
  calls: ToolCall[],
  o: ServerRequestorOptions,
  title: string,
): Promise<{ run?: Analysis; notRun?: string }> {
  const startedAt = Date.now();
  let peer: Peer;
  try {
    peer = await connector.open({ capabilities: receiverCapabilities(declared) });
  } catch (e) {
    return {
      notRun: `could not open a connection declaring ${declared.length ? declared.map((m) => `tasks.requests for ${m}`).join(', ') : 'no tasks capability'}: ${e instanceof Error ? e.message : String(e)}`,
    };
  }
  const receiver = new ClientTaskReceiver(peer, { declared, pollIntervalMs: o.pollIntervalMs, work: suiteWork(o) });
  const problems: string[] = [];
  // A role tool's call cut off at its bound: the target's polling was stopped by time, like a client killed at its bound.
  let cutOff = false;
  try {
    const listed = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < 50; page++) {
      const r = await peer.request('tools/list', cursor ? { cursor } : {});
      if (r.error || !Array.isArray(r.result?.tools)) break;
      for (const t of r.result.tools) if (typeof t?.name === 'string') listed.add(t.name);
      cursor = typeof r.result.nextCursor === 'string' ? r.result.nextCursor : undefined;
      if (!cursor) break;
    }
    const callable = calls.filter((c) => listed.has(c.name));
    const unlisted = calls.filter((c) => !listed.has(c.name));
    if (callable.length === 0) {
      return {
        notRun: `the target does not list ${calls.map((c) => `"${c.name}" (${c.role})`).join(', ')} to a client declaring ${declared.length ? declared.map((m) => `tasks.requests for ${m}`).join(', ') : 'no tasks capability'}`,
      };
    }
    if (unlisted.length) problems.push(`not listed on this connection: ${unlisted.map((c) => `"${c.name}" (${c.role})`).join(', ')}`);
    await Promise.all(
      callable.map(async (c) => {
        try {
          const r = await peer.request('tools/call', { name: c.name, arguments: c.arguments }, { timeoutMs: o.callTimeoutMs });
          if (r.error) problems.push(`tools/call "${c.name}" answered error ${r.error.code} ${r.error.message}`);
        } catch (e) {
          if (e instanceof WireTimeoutError) cutOff = true;
          problems.push(`tools/call "${c.name}": ${e instanceof Error ? e.message : String(e)} (graded on what was seen)`);
        }
      }),
    );
    // Messages already on their way (a trailing tasks/result, say) still count.
    await new Promise((r) => setTimeout(r, 100));
  } catch (e) {
    problems.push(`connection failed: ${e instanceof Error ? e.message : String(e)} (graded on what was seen)`);
  } finally {
    receiver.close();
    await peer.close();
  }
  const run: ScenarioRun = {
    scenario: pseudoScenario(runName, title, `call ${calls.map((c) => c.name).join(', ')}`, o.callTimeoutMs),
    transport: connector.transport === 'http' ? 'http' : 'stdio',
    serverArg: connector.label,
    startedAt,
    timeoutMs: o.callTimeoutMs,
    entries: entriesOf(peer, runName),
    exit: { code: 0, signal: null, timedOut: cutOff, durationMs: Date.now() - startedAt, stdout: '', stderr: '' },
    ...(problems.length ? { problem: problems.join('; ') } : {}),
  };
  return { run: analyse(run) };
}

/** Every message of the receiver checks, one session per check: the suite's client declared no tasks capability there. */
export function receiverChecksRun(history: readonly CheckResult[], label: string): Analysis {
  const entries: RecordedEntry[] = history.flatMap((r) => r.transcript.map((e) => ({ ...e, session: r.id })));
  return analyse({
    scenario: pseudoScenario(SERVER_RUNS.receiverChecks, 'The receiver checks (the suite’s client declares no tasks capability)', 'nothing: passive', 0),
    transport: 'stdio',
    serverArg: label,
    startedAt: 0,
    timeoutMs: 0,
    entries,
    exit: { code: 0, signal: null, timedOut: false, durationMs: 0, stdout: '', stderr: '' },
  });
}

export interface ServerRequestorRuns {
  runs: Analysis[];
  notRun: Record<string, string>;
}

/** Runs the active server-as-requestor runs (one connection per role, plus the undeclared one). Never throws. */
export async function runServerAsRequestor(connector: TargetConnector, info: TargetInfo, o: ServerRequestorOptions): Promise<ServerRequestorRuns> {
  const runs: Analysis[] = [];
  const notRun: Record<string, string> = {};
  const calls: ToolCall[] = [];
  for (const role of REQUESTOR_ROLES) {
    const t = info.profile.tools[role];
    if (!t) notRun[ROLE_RUN[role]] = info.missingRoles[role] ?? `the profile names no tool for role ${role}, and discovery did not look for one`;
    else calls.push({ role, name: t.name, arguments: t.arguments ?? {} });
  }
  const active = calls.map((c) =>
    connectionRun(
      connector,
      ROLE_RUN[c.role],
      [ROLE_METHOD[c.role]],
      [c],
      o,
      `The target sends ${ROLE_METHOD[c.role]} to a client declaring tasks for it`,
    ).then((r) => {
      if (r.run) runs.push(r.run);
      else notRun[ROLE_RUN[c.role]] = r.notRun!;
    }),
  );
  const undeclared = calls.length
    ? connectionRun(connector, SERVER_RUNS.undeclared, [], calls, o, 'The requestor tools toward a client declaring no tasks capability').then((r) => {
        if (r.run) runs.push(r.run);
        else notRun[SERVER_RUNS.undeclared] = r.notRun!;
      })
    : (notRun[SERVER_RUNS.undeclared] = 'the profile names no requestsSampling/requestsElicitation tool');
  await Promise.all([...active, undeclared]);
  return { runs, notRun };
}

/** Grades the requestor checks over the server runs; results in their own report sections. */
export function gradeServerAsRequestor(g: ServerRequestorRuns): CheckResult[] {
  return serverRequestorChecks.map((c) => {
    const r = gradeCheck(c, g.runs, g.notRun);
    return { ...r, section: SERVER_REQUESTOR_SECTION_PREFIX + r.section.replace(/^Requestor: /, '') };
  });
}
