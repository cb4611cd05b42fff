// Discovery of the requestor roles (runner/requestor-discovery.ts): with no profile, the reference
// receiver's requestor tools are found (so `server` grades it as requestor too), the plan is announced
// before any call, and only safe, plainly callable candidates are called.
import { describe, expect, it } from 'vitest';
import { planRequestorDiscovery, type RequestorPlan } from './requestor-discovery.ts';
import { gradeServerAsRequestor, receiverChecksRun, runServerAsRequestor, serverRequestorOptions } from '../requestor/server-requestor.ts';
import { openTargetSession } from '../revisions.ts';

describe('requestor-role discovery', () => {
  it('finds sample_via_client and elicit_via_client on the reference receiver; the requestor checks then run', { timeout: 90_000 }, async () => {
    const plans: RequestorPlan[] = [];
    const session = await openTargetSession(
      { target: { kind: 'reference' }, discover: { mode: 'safe', roles: ['requestsSampling', 'requestsElicitation'] } },
      { onRequestorPlan: (p) => plans.push(p) },
    );
    try {
      expect(session.info.profile.tools.requestsSampling?.name).toBe('sample_via_client');
      expect(session.info.profile.tools.requestsElicitation?.name).toBe('elicit_via_client');
      expect(session.discovery?.roles.requestsSampling?.observed).toMatch(/sent a task-augmented sampling\/createMessage/);
      // Announced once, before the calls; every call it made is in the plan.
      expect(plans).toHaveLength(1);
      const planned = plans[0]!.calls.map((c) => c.tool);
      for (const o of session.discovery!.requestor!.observations) expect(planned).toContain(o.tool);
      // The server-as-requestor runs use the discovered tools (a short pollInterval keeps this quick).
      const o = serverRequestorOptions(400, 5_000);
      const active = await runServerAsRequestor(session.connector, session.info, o);
      const results = gradeServerAsRequestor({ runs: [...active.runs, receiverChecksRun([], session.info.label)], notRun: active.notRun });
      const status = Object.fromEntries(results.map((r) => [r.id, r.status]));
      expect(status['requestor.poll-interval']).toBe('pass');
      expect(status['requestor.input-required-result']).toBe('pass');
    } finally {
      await session.close();
    }
  });

  it('--discover off leaves them to the profile, with the reason', async () => {
    const session = await openTargetSession({ target: { kind: 'reference' }, discover: { mode: 'off' } });
    try {
      expect(session.info.profile.tools.requestsSampling).toBeUndefined();
    } finally {
      await session.close();
    }
  });

  it('plans only safe candidates that can be called plainly', () => {
    const tools = [
      { name: 'sample_via_client', description: 'sends sampling/createMessage', inputSchema: { type: 'object' } },
      { name: 'delete_via_sampling', inputSchema: { type: 'object' } },
      { name: 'ask_the_model', description: 'elicits an answer', execution: { taskSupport: 'required' }, inputSchema: { type: 'object' } },
      {
        name: 'trigger',
        description: 'listed only to clients declaring tasks',
        inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
      },
      { name: 'echo', description: 'echoes', inputSchema: { type: 'object' } },
    ];
    const plan = planRequestorDiscovery(tools, new Set(['sample_via_client', 'delete_via_sampling', 'ask_the_model', 'echo']), 'safe', ['requestsSampling']);
    expect(plan.calls.map((c) => c.tool)).toEqual(['sample_via_client', 'trigger']);
    expect(plan.calls[1]!.arguments).toEqual({ n: expect.any(Number) });
    expect(Object.fromEntries(plan.notCalled.map((n) => [n.tool, n.reason]))).toEqual({
      delete_via_sampling: expect.stringMatching(/not safe to call: its name says "delete"/),
      ask_the_model: expect.stringMatching(/taskSupport "required"/),
    });
    expect(planRequestorDiscovery(tools, new Set(), 'all', ['requestsSampling']).calls.map((c) => c.tool)).toContain('delete_via_sampling');
  });
});
