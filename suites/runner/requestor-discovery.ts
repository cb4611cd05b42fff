// Discovery of the requestor roles (requestsSampling, requestsElicitation): which tool, called plainly,
// makes the target send a task-augmented sampling/createMessage or elicitation/create to the client.
// On a connection of its own whose client declares tasks.requests.sampling.createMessage and
// tasks.requests.elicitation.create (a target may list such tools only to those clients) and answers as a
// task receiver (mocks/client/task-receiver.ts: quick work, short pollInterval), it lists the tools and
// calls, one at a time and within discovery's budget, those that are safe to call (as for the receiver
// roles, arrange/tool-safety.ts) and either say sampling or elicitation in their name, title or
// description, or are listed only to this client. What it will call is printed before it calls anything.
import { RECEIVABLE, ClientTaskReceiver, receiverCapabilities, type ReceivableMethod } from '../../mocks/client/task-receiver.ts';
import { elicitationContent } from '../wire/elicitation.ts';
import type { Peer } from '../wire/peer.ts';
import type { TargetConnector } from '../engine/check.ts';
import { REQUESTOR_ROLES } from '../engine/profile.ts';
import { deriveArguments } from '../arrange/arguments.ts';
import { toolSafety } from '../arrange/tool-safety.ts';
import type { DiscoverMode, DiscoveredRole } from './discover-mode.ts';

export type RequestorRole = (typeof REQUESTOR_ROLES)[number];
const ROLE_OF: Record<ReceivableMethod, RequestorRole> = { 'sampling/createMessage': 'requestsSampling', 'elicitation/create': 'requestsElicitation' };

/** Words in a tool's name, title or description that say it makes the server ask the client. */
const ASKS_CLIENT = /sampl|createMessage|elicit/i;
/** The suite's client answers every Task with this pollInterval here: discovery waits on the target, not on us. */
const POLL_INTERVAL_MS = 200;

export interface RequestorCall {
  tool: string;
  arguments: Record<string, unknown>;
  /** Why it is a candidate (its words, or listed only to a client declaring tasks.requests.*). */
  why: string;
}

export interface RequestorPlan {
  roles: RequestorRole[];
  calls: RequestorCall[];
  notCalled: { tool: string; reason: string }[];
  noCalls?: string;
}

export interface RequestorObservation extends RequestorCall {
  /** Task-augmented requests the target sent while this call ran. */
  sent: ReceivableMethod[];
  /** Plain (not task-augmented) ones. */
  plain: ReceivableMethod[];
  error?: string;
  elapsedMs: number;
}

export interface RequestorDiscovery {
  plan: RequestorPlan;
  observations: RequestorObservation[];
  roles: Partial<Record<RequestorRole, DiscoveredRole>>;
  missing: Partial<Record<RequestorRole, string>>;
}

const DECLARED: ReceivableMethod[] = [...RECEIVABLE];
const declaredText = 'a client declaring tasks.requests.sampling.createMessage and tasks.requests.elicitation.create';

/** Which tools it will call (no I/O): `listed` on the requestor connection, `plainNames` on a connection declaring no tasks. */
export function planRequestorDiscovery(listed: any[], plainNames: ReadonlySet<string>, mode: DiscoverMode, roles: readonly RequestorRole[]): RequestorPlan {
  const plan: RequestorPlan = { roles: [...roles], calls: [], notCalled: [] };
  for (const tool of listed) {
    const name = String(tool?.name ?? '');
    const words = ASKS_CLIENT.exec(`${name} ${tool?.title ?? ''} ${tool?.description ?? ''}`);
    const onlyHere = !plainNames.has(name);
    if (!words && !onlyHere) continue;
    const why = words ? `its name or description says "${words[0]}"` : `listed only to ${declaredText}`;
    if (tool?.execution?.taskSupport === 'required') {
      plan.notCalled.push({ tool: name, reason: 'taskSupport "required": a requestor tool is called plainly' });
      continue;
    }
    const safety = toolSafety(tool);
    if (mode === 'safe' && !safety.safe) {
      plan.notCalled.push({ tool: name, reason: `not safe to call: ${safety.reason} (--discover all calls it)` });
      continue;
    }
    const derived = deriveArguments(tool?.inputSchema, 1);
    if (!derived.variants.length) {
      plan.notCalled.push({ tool: name, reason: `no valid arguments could be derived from its inputSchema: ${derived.problems.join('; ')}` });
      continue;
    }
    plan.calls.push({ tool: name, arguments: derived.variants[0]!.arguments, why });
  }
  if (!plan.calls.length) plan.noCalls = `no tool listed to ${declaredText} is a safe candidate (none says sampling or elicitation, or is listed only to it)`;
  return plan;
}

export function formatRequestorPlan(plan: RequestorPlan): string[] {
  const lines = [`discovery looks for requestor roles: ${plan.roles.join(', ')}, on a connection of ${declaredText}`];
  if (plan.noCalls) lines.push(`  calls no tool: ${plan.noCalls}`);
  for (const c of plan.calls) lines.push(`  will call ${c.tool} ${JSON.stringify(c.arguments)} plainly (${c.why})`);
  for (const n of plan.notCalled) lines.push(`  will not call ${n.tool}: ${n.reason}`);
  return lines;
}

async function listAll(peer: Peer, timeoutMs: number): Promise<any[]> {
  const tools: any[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const r = await peer.request('tools/list', cursor ? { cursor } : {}, { timeoutMs });
    if (r.error || !Array.isArray(r.result?.tools)) break;
    tools.push(...r.result.tools);
    cursor = typeof r.result.nextCursor === 'string' ? r.result.nextCursor : undefined;
    if (!cursor) break;
  }
  return tools;
}

export interface RequestorDiscoverySettings {
  mode: DiscoverMode;
  /** Time left of discovery's budget. */
  budgetMs: number;
  requestTimeoutMs: number;
  onPlan?: (plan: RequestorPlan) => void;
}

/** Finds the requestor roles left out; never throws (a connection that fails is a reason for each role). */
export async function discoverRequestorRoles(
  connector: TargetConnector,
  roles: readonly RequestorRole[],
  plainNames: ReadonlySet<string>,
  s: RequestorDiscoverySettings,
): Promise<RequestorDiscovery> {
  const deadline = Date.now() + s.budgetMs;
  const result: RequestorDiscovery = { plan: { roles: [...roles], calls: [], notCalled: [] }, observations: [], roles: {}, missing: {} };
  const missAll = (why: string) => {
    for (const r of roles) result.missing[r] = why;
    return result;
  };
  if (s.mode === 'off') return missAll('discovery is off (--discover off)');
  let peer: Peer;
  try {
    peer = await connector.open({ capabilities: receiverCapabilities(DECLARED) });
  } catch (e) {
    return missAll(`could not open a connection of ${declaredText}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const receiver = new ClientTaskReceiver(peer, {
    declared: DECLARED,
    pollIntervalMs: POLL_INTERVAL_MS,
    work: async (method, p) =>
      method === 'elicitation/create'
        ? { action: 'accept', content: elicitationContent(p, 'mcp-tasks-conformance') }
        : { role: 'assistant', content: { type: 'text', text: 'mcp-tasks-conformance: sampled reply' }, model: 'mcp-tasks-conformance', stopReason: 'endTurn' },
  });
  try {
    const listed = await listAll(peer, Math.min(s.requestTimeoutMs, Math.max(1, deadline - Date.now())));
    result.plan = planRequestorDiscovery(listed, plainNames, s.mode, roles);
    s.onPlan?.(result.plan);
    // One call at a time: a request the target sends is then the doing of the call in flight.
    for (const call of result.plan.calls) {
      if (roles.every((r) => result.roles[r])) break;
      const left = deadline - Date.now();
      if (left < 250) break;
      const from = peer.transcript.length;
      const started = Date.now();
      const obs: RequestorObservation = { ...call, sent: [], plain: [], elapsedMs: 0 };
      try {
        const r = await peer.request('tools/call', { name: call.tool, arguments: call.arguments }, { timeoutMs: Math.min(s.requestTimeoutMs, left) });
        if (r.error) obs.error = `answered error ${r.error.code} ${r.error.message}`;
      } catch (e) {
        obs.error = e instanceof Error ? e.message : String(e);
      }
      obs.elapsedMs = Date.now() - started;
      for (const e of peer.transcript.slice(from)) {
        const m = e.message as { method?: string; id?: unknown; params?: Record<string, unknown> } | undefined;
        if (e.dir !== 'in' || m?.id === undefined || !(RECEIVABLE as readonly string[]).includes(m.method ?? '')) continue;
        const method = m.method as ReceivableMethod;
        (m.params && typeof m.params.task === 'object' ? obs.sent : obs.plain).push(method);
      }
      result.observations.push(obs);
      for (const method of new Set(obs.sent)) {
        const role = ROLE_OF[method];
        if (roles.includes(role) && !result.roles[role])
          result.roles[role] = {
            name: call.tool,
            arguments: call.arguments,
            observed: `called plainly with ${JSON.stringify(call.arguments)} by ${declaredText}: it sent a task-augmented ${method}`,
          };
      }
    }
  } catch (e) {
    result.plan.noCalls ??= `the connection failed: ${e instanceof Error ? e.message : String(e)}`;
  } finally {
    receiver.close();
    await peer.close();
  }
  for (const role of roles) {
    if (result.roles[role]) continue;
    const method = role === 'requestsSampling' ? 'sampling/createMessage' : 'elicitation/create';
    const called = result.observations.map((o) => o.tool);
    const notCalled = result.plan.notCalled.length ? `; not called: ${result.plan.notCalled.map((n) => `${n.tool} (${n.reason})`).join(', ')}` : '';
    result.missing[role] =
      (called.length
        ? `discovery called ${called.join(', ')} (plainly, as ${declaredText}), and none sent a task-augmented ${method}${deadline - Date.now() < 250 ? ' (the budget ran out)' : ''}`
        : `discovery found no tool to call for it: ${result.plan.noCalls ?? 'the budget ran out'}`) + notCalled;
  }
  return result;
}
