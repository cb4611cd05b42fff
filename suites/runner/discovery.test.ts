// Discovery (runner/discovery.ts): the roles of the reference receiver are found by observation; unsafe
// tools are never called in safe mode; the budget bounds discovery on a target that does not answer.
import { describe, expect, it } from 'vitest';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type Message } from '../wire/peer.ts';
import { connectInMemory } from '../wire/connect.ts';
import { SUITE_CLIENT_CAPABILITIES, listTools, loadProfile } from './target.ts';
import { discover, formatPlan, pickRoles, planDiscovery, profileToKeep } from './discovery.ts';
import { toolSafety } from '../arrange/tool-safety.ts';
import { validateArguments } from '../arrange/arguments.ts';
import { PROFILE_ROLES, REQUESTOR_ROLES } from '../engine/profile.ts';
import { openTargetSession } from '../revisions.ts';

describe('discovery against the reference receiver', () => {
  it('finds every role, with the reviewed tools, and arguments that validate', { timeout: 60_000 }, async () => {
    const plans: string[] = [];
    const session = await openTargetSession(
      { target: { kind: 'reference' }, discover: { mode: 'safe' } },
      { onDiscoveryPlan: (p) => plans.push(...p.calls.map((c) => c.tool)) },
    );
    try {
      const reviewed = loadProfile('fixtures/reference.profile.json');
      const names = Object.fromEntries(PROFILE_ROLES.map((r) => [r, session.info.profile.tools[r]?.name]));
      expect(names).toEqual(Object.fromEntries(PROFILE_ROLES.map((r) => [r, reviewed.tools[r]?.name])));
      expect(session.info.missingRoles).toEqual({});
      for (const role of PROFILE_ROLES) {
        const t = session.info.profile.tools[role]!;
        const listed = session.info.tools.find((x) => x.name === t.name);
        expect(validateArguments(listed.inputSchema, t.arguments), role).toEqual([]);
        expect(session.discovery!.roles[role]!.observed, role).toBeTruthy();
      }
      // The plan was announced before the calls, and every task discovery left running was cancelled.
      expect(plans).toContain('slow');
      for (const o of session.discovery!.observations) if (o.outcome === 'working' || o.outcome === 'input_required') expect(o.cancelled, o.tool).toBe(true);
      const kept = profileToKeep(session.info.profile, session.discovery, 'reference') as any;
      // The requestor roles too (runner/requestor-discovery.ts; requestor-discovery.test.ts).
      expect(Object.keys(kept.tools).sort()).toEqual([...PROFILE_ROLES, ...REQUESTOR_ROLES].sort()); // a 2025-11-25 session: no 2026-07-28 roles
      expect(kept.tools.slow.observed).toMatch(/still working/);
    } finally {
      await session.close();
    }
  });

  it('an explicit profile wins for the roles it names; discovery looks only for the others', { timeout: 60_000 }, async () => {
    const profile = { tools: { completes: { name: 'echo', arguments: { x: 1 } } } };
    const session = await openTargetSession({ target: { kind: 'reference' }, profile, discover: { mode: 'safe' } });
    try {
      expect(session.info.profile.tools.completes).toEqual({ name: 'echo', arguments: { x: 1 } });
      expect(session.discovery!.plan.roles).not.toContain('completes');
      expect(session.info.profile.tools.fails?.name).toBe('fail');
    } finally {
      await session.close();
    }
  });

  it('looks only for the roles it is given', { timeout: 30_000 }, async () => {
    const session = await openTargetSession({ target: { kind: 'reference' }, discover: { mode: 'safe', roles: ['fails'] } });
    try {
      expect(session.discovery!.plan.roles).toEqual(['fails']);
      expect(Object.keys(session.info.profile.tools)).toEqual(['fails']);
      expect(session.info.missingRoles.slow).toMatch(/did not look for role slow/);
    } finally {
      await session.close();
    }
  });

  it('stops once the roles it looks for are found: no further call, the calls under way no longer observed', { timeout: 30_000 }, async () => {
    const session = await openTargetSession({ target: { kind: 'reference' }, discover: { mode: 'safe', roles: ['completes'] } });
    try {
      const d = session.discovery!;
      expect(d.roles.completes?.name).toBe('complete');
      expect(d.budgetExhausted).toBe(false);
      // The slow tool is not watched for its 2 s (slowAfterMs) once completes is found; later tools are not called.
      expect(d.observations.find((o) => o.tool === 'slow')?.slow).toBe(false);
      const skipped = d.observations.filter((o) => o.outcome === 'not-started');
      expect(skipped.length).toBeGreaterThan(0);
      for (const o of skipped) expect(o.error).toMatch(/not needed: every role sought \(completes\) was found/);
    } finally {
      await session.close();
    }
  });

  it('off: the profile alone', async () => {
    const session = await openTargetSession({ target: { kind: 'reference' }, discover: { mode: 'off' } });
    try {
      expect(session.discovery).toBeUndefined();
      expect(session.info.profile.tools).toEqual({});
      expect(session.info.missingRoles.completes).toMatch(/--profile/);
    } finally {
      await session.close();
    }
  });
});

/**
 * A scripted receiver in process: lists `tools`, records every tools/call; tasks stay working until cancelled.
 * `maxLive`: more live tasks → -32000 "Too many concurrent tasks"; `asks`: tools that send elicitation/create
 * (with related-task _meta) while their task stays working.
 */
async function fakeTarget(tools: any[], opts: { hangToolsCall?: boolean; maxLive?: number; asks?: string[] } = {}) {
  const calls: string[] = [];
  const tasks = new Map<string, string>();
  let refused = 0;
  let nextId = 1;
  const peer = await connectInMemory(async (t: Transport) => {
    const reply = (id: unknown, result: unknown) => void t.send({ jsonrpc: '2.0', id, result } as any);
    t.onmessage = (m: Message) => {
      const now = new Date().toISOString();
      const task = (taskId: string) => ({ taskId, status: tasks.get(taskId), createdAt: now, lastUpdatedAt: now, ttl: 60_000, pollInterval: 50 });
      switch (m.method) {
        case 'initialize':
          return reply(m.id, {
            protocolVersion: '2025-11-25',
            capabilities: { tools: {}, tasks: { cancel: {}, requests: { tools: { call: {} } } } },
            serverInfo: { name: 'fake', version: '1' },
          });
        case 'tools/list':
          return reply(m.id, { tools });
        case 'tools/call': {
          if (opts.hangToolsCall) return void calls.push(m.params.name);
          const live = [...tasks.values()].filter((s) => s === 'working').length;
          if (opts.maxLive !== undefined && live >= opts.maxLive) {
            refused++;
            return void t.send({ jsonrpc: '2.0', id: m.id, error: { code: -32000, message: 'Too many concurrent tasks' } } as any);
          }
          calls.push(m.params.name);
          const id = `t${nextId++}`;
          tasks.set(id, 'working');
          reply(m.id, { task: task(id) });
          if (opts.asks?.includes(m.params.name)) {
            void t.send({
              jsonrpc: '2.0',
              id: `ask-${id}`,
              method: 'elicitation/create',
              params: {
                mode: 'form',
                message: 'which?',
                requestedSchema: { type: 'object', properties: {} },
                _meta: { 'io.modelcontextprotocol/related-task': { taskId: id } },
              },
            } as any);
          }
          return;
        }
        case 'tasks/get':
          return reply(m.id, task(m.params.taskId));
        case 'tasks/cancel':
          tasks.set(m.params.taskId, 'cancelled');
          return reply(m.id, task(m.params.taskId));
      }
    };
    await t.start();
  });
  await peer.initialize(SUITE_CLIENT_CAPABILITIES);
  return { peer, calls, refused: () => refused };
}

const tool = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  description: `the ${name} tool`,
  inputSchema: { type: 'object' },
  execution: { taskSupport: 'optional' },
  ...extra,
});

describe('discovery safety', () => {
  const tools = [
    tool('wipe_cache', { annotations: { destructiveHint: true } }),
    tool('lookup', { annotations: { readOnlyHint: true } }),
    tool('get-env', { annotations: { readOnlyHint: true }, description: 'Returns all environment variables' }),
    tool('delete_all'),
    tool('fetch_url', { annotations: { readOnlyHint: true, openWorldHint: true } }),
    tool('archive', { description: 'Permanently removes old records' }),
    tool('toggle', { annotations: { readOnlyHint: false } }),
    tool('plain'),
  ];

  it('a tool marked destructive (or looking so) is never called in safe mode', { timeout: 30_000 }, async () => {
    const { peer, calls } = await fakeTarget(tools);
    try {
      const listed = await listTools(peer);
      const plan = planDiscovery(listed, { tasks: { requests: { tools: { call: {} } } } }, { mode: 'safe' });
      expect(plan.calls.map((c) => c.tool)).toEqual(['lookup', 'plain']);
      expect(plan.notCalled.map((n) => n.tool)).toEqual(['wipe_cache', 'get-env', 'delete_all', 'fetch_url', 'archive', 'toggle']);
      const result = await discover(peer, listed, plan, { mode: 'safe', budgetMs: 5_000, slowAfterMs: 200, observeMs: 400 });
      expect(calls.sort()).toEqual(['lookup', 'plain']);
      expect(result.roles.slow?.name).toBe('lookup');
      expect(result.observations.every((o) => o.cancelled)).toBe(true);
    } finally {
      await peer.close();
    }
  });

  it('all: every task-capable tool is called', () => {
    const plan = planDiscovery(tools, { tasks: { requests: { tools: { call: {} } } } }, { mode: 'all' });
    expect(plan.calls.map((c) => c.tool)).toEqual(tools.map((t) => t.name));
    expect(formatPlan(plan, 1000).find((l) => l.includes('wipe_cache'))).toMatch(/although annotated destructiveHint: true \(--discover all\)/);
  });

  it('forbidsTask is chosen among safe tools only (never get-env)', () => {
    const forbidden = [
      { name: 'get-env', inputSchema: { type: 'object' }, execution: { taskSupport: 'forbidden' }, annotations: { readOnlyHint: true } },
      {
        name: 'echo',
        inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
        execution: { taskSupport: 'forbidden' },
        annotations: { readOnlyHint: true },
      },
    ];
    const plan = planDiscovery(forbidden, {}, { mode: 'safe' }, ['forbidsTask']);
    expect(plan.calls).toEqual([]);
    expect(toolSafety(forbidden[0]).safe).toBe(false);
    const { roles } = pickRoles(forbidden, plan, [], 2_000);
    expect(roles.forbidsTask?.name).toBe('echo');
    expect(validateArguments(forbidden[1]!.inputSchema, roles.forbidsTask?.arguments)).toEqual([]);
  });
});

describe('discovery budget', () => {
  it('bounds discovery on a target that never answers tools/call', { timeout: 30_000 }, async () => {
    const { peer, calls } = await fakeTarget([tool('a'), tool('b'), tool('c'), tool('d'), tool('e')], { hangToolsCall: true });
    try {
      const listed = await listTools(peer);
      const plan = planDiscovery(listed, { tasks: { requests: { tools: { call: {} } } } }, { mode: 'safe' });
      const result = await discover(peer, listed, plan, { mode: 'safe', budgetMs: 1_000, concurrency: 2 });
      expect(result.budgetExhausted).toBe(true);
      // Two calls in flight when the budget ran out; the rest were never started.
      expect(calls.length).toBe(2);
      expect(result.observations.filter((o) => o.outcome === 'not-started').map((o) => o.tool)).toEqual(['c', 'd', 'e']);
      expect(Object.keys(result.roles)).toEqual([]);
      // Bounded by the budget plus the bounded cancels, not by the 10 s request timeout or observation time.
      expect(result.elapsedMs).toBeLessThan(1_000 + 5_000);
    } finally {
      await peer.close();
    }
  });
});

describe('discovery against limits and input requests', () => {
  const caps = { tasks: { requests: { tools: { call: {} } } } };

  it('backs off when the target reports a limit, and still observes every tool', { timeout: 30_000 }, async () => {
    const { peer, calls, refused } = await fakeTarget([tool('a'), tool('b'), tool('c'), tool('d')], { maxLive: 1 });
    try {
      const listed = await listTools(peer);
      const plan = planDiscovery(listed, caps, { mode: 'safe' });
      const result = await discover(peer, listed, plan, { mode: 'safe', budgetMs: 20_000, concurrency: 4, slowAfterMs: 100, observeMs: 200 });
      expect(refused()).toBeGreaterThan(0);
      expect(calls.sort()).toEqual(['a', 'b', 'c', 'd']);
      expect(result.observations.map((o) => o.outcome)).toEqual(['working', 'working', 'working', 'working']);
    } finally {
      await peer.close();
    }
  });

  it('a tool that sends an input request for its task is needsInput (the request is answered, the task cancelled)', { timeout: 30_000 }, async () => {
    const { peer } = await fakeTarget([tool('lookup'), tool('clarify')], { asks: ['clarify'] });
    try {
      const listed = await listTools(peer);
      const plan = planDiscovery(listed, caps, { mode: 'safe' });
      const result = await discover(peer, listed, plan, { mode: 'safe', budgetMs: 10_000, slowAfterMs: 300, observeMs: 600 });
      expect(result.roles.needsInput?.name).toBe('clarify');
      expect(result.roles.needsInput?.observed).toMatch(/elicitation\/create/);
      expect(result.roles.slow?.name).toBe('lookup');
      const answered = peer.transcript.filter((e) => e.dir === 'out' && (e.message as any)?.id === 'ask-t2' && (e.message as any)?.result);
      expect(answered.length).toBe(1);
      expect(result.observations.every((o) => o.cancelled)).toBe(true);
    } finally {
      await peer.close();
    }
  });
});
