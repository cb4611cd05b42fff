// `server --list`: it says what would run and why a check would not be exercised, and sends nothing but
// initialize, tools/list and the pre-flight's pings (no tool called, nothing task-augmented).
import { describe, expect, it } from 'vitest';
import { loadProfile } from './target.ts';
import { formatListing, listRun } from './list.ts';
import { checksToRun } from '../index.ts';
import { serverRequestorChecks } from '../requestor/server-requestor.ts';
import { parseServerArgs, UsageError } from '../../scripts/server.ts';
import { MODERN_PROFILE_ROLES, profileFor, type Profile } from '../engine/profile.ts';
import { createExtensionServer } from '../../mocks/2026-07-28/index.ts';
import { adapterFor, openTargetSession } from '../revisions.ts';

async function list(profile: Profile | undefined, only: string[] = [], args: string[] = []) {
  const session = await openTargetSession({ target: { kind: 'reference', args }, ...(profile ? { profile } : {}) });
  try {
    const listing = listRun(
      session.info,
      { ...(profile ? { profile } : {}), discover: { mode: 'safe' }, only, requestTimeoutMs: 5_000 },
      adapterFor(session.revision),
    );
    return {
      listing,
      sent: session.shared.transcript.filter((e) => e.dir === 'out').map((e) => e.message as { method?: string; params?: Record<string, unknown> }),
    };
  } finally {
    await session.close();
  }
}
const verdicts = (l: Awaited<ReturnType<typeof list>>['listing']) => Object.fromEntries(l.checks.map((c) => [c.id, c.verdict]));

describe('server --list', () => {
  it('with a written profile (roles absent, a section per revision): discovery would look for nothing', async () => {
    const reference = loadProfile('fixtures/reference.profile.json');
    const { slow: _slow, ...tools } = reference.tools;
    const written: Profile = { tools: {}, revisions: { '2025-11-25': { tools, absent: { slow: 'no tool stayed working' } } } };
    const { listing } = await list(profileFor(written, '2025-11-25'));
    expect(listing.plan).toBeUndefined();
    expect(listing.roles.find((r) => r.role === 'slow')?.from).toMatch(/the profile says no tool plays role slow/);
  });
  it('with the reference profile: every check that applies would run; it sends initialize and tools/list only', async () => {
    const { listing, sent } = await list(loadProfile('fixtures/reference.profile.json'));
    // The pre-flight's latency pings (runner/target.ts measureLatency) are the only other messages.
    expect(sent.map((m) => m.method).filter((m) => m !== 'ping')).toEqual(['initialize', 'notifications/initialized', 'tools/list']);
    expect(sent.some((m) => m.params && 'task' in m.params)).toBe(false);
    expect(listing.plan).toBeUndefined(); // the profile names every role
    const v = verdicts(listing);
    expect(Object.keys(v).sort()).toEqual([...checksToRun([]).map((c) => c.id), ...serverRequestorChecks.map((c) => c.id)].sort());
    // Over the in-process transport the stdio/HTTP checks do not apply; the capability check needs a receiver without it.
    const skipped = listing.checks.filter((c) => c.verdict === 'skip');
    expect(skipped.map((c) => c.id)).toContain('capabilities.undeclared-processed-normally');
    for (const c of skipped) expect(c.why, c.id).toBeTruthy();
    expect(v['creation.create-task-result']).toBe('runs');
    expect(v['requestor.poll-interval']).toBe('runs');
  });

  it('without a profile: role checks wait on discovery (its plan is printed, nothing is called), the requestor checks too', async () => {
    const { listing, sent } = await list(undefined);
    expect(sent.some((m) => m.method === 'tools/call')).toBe(false);
    expect(listing.plan?.calls.length).toBeGreaterThan(0);
    const byId = Object.fromEntries(listing.checks.map((c) => [c.id, c]));
    expect(byId['creation.create-task-result']).toMatchObject({ verdict: 'depends', why: 'role completes, if discovery finds it' });
    // Discovery would look for the requestor roles at run time (on a connection of their own).
    expect(byId['requestor.poll-interval']).toMatchObject({ verdict: 'depends' });
    expect(byId['requestor.poll-interval']!.why).toMatch(/if discovery finds requestsSampling, requestsElicitation/);
    const text = formatListing(listing).join('\n');
    expect(text).toMatch(/would call complete .* as a task/);
    expect(text).toMatch(/--list calls none of them/);
  });

  it('honours --only, and a receiver without tasks.requests.tools.call skips what needs it with the reason', async () => {
    const { listing } = await list(loadProfile('fixtures/reference.profile.json'), ['cancel'], ['--no-tasks-capability']);
    // The cancel checks, and the runsLast checks every run has (they read the others' transcripts).
    expect(listing.checks.map((c) => c.id)).toEqual(checksToRun(['cancel']).map((c) => c.id));
    const cancel = listing.checks.filter((c) => c.id.startsWith('cancel.'));
    expect(cancel.length).toBeGreaterThan(0);
    for (const c of cancel) expect(c.verdict, c.id).toBe('skip');
    expect(cancel.some((c) => /does not declare capability/.test(c.why))).toBe(true);
  });

  it('with --discover off and no requestor roles in the profile, the requestor checks say why they would not run', async () => {
    const session = await openTargetSession({ target: { kind: 'reference' } });
    try {
      const listing = listRun(session.info, { discover: { mode: 'off' }, requestTimeoutMs: 5_000 }, adapterFor(session.revision));
      const poll = listing.checks.find((c) => c.id === 'requestor.poll-interval')!;
      expect(poll.verdict).toBe('skip');
      expect(poll.why).toMatch(/no tool for role requestsSampling/);
    } finally {
      await session.close();
    }
  });

  it('revision 2026-07-28 without a profile: its roles wait on its discovery (the plan of a declaring client), no server-as-requestor checks', async () => {
    const server = createExtensionServer();
    const h = await server.listenHttp(0);
    const session = await openTargetSession({ target: { kind: 'http', url: h.url }, options: { revision: '2026-07-28' } });
    try {
      const listing = listRun(session.info, { discover: { mode: 'safe' }, requestTimeoutMs: 5_000 }, adapterFor(session.revision));
      const sent = session.shared.transcript.filter((e) => e.dir === 'out').map((e) => (e.message as { method?: string }).method);
      expect(sent).toEqual(['server/discover', 'tools/list']);
      expect(listing.plan).toMatchObject({ revision: '2026-07-28', roles: [...MODERN_PROFILE_ROLES] });
      expect(listing.plan!.calls.map((c) => c.tool)).toEqual(session.info.tools.map((t) => t.name));
      expect(listing.checks.map((c) => c.id)).toEqual(checksToRun([], [], '2026-07-28').map((c) => c.id));
      const byId = Object.fromEntries(listing.checks.map((c) => [c.id, c]));
      expect(byId['2026-negotiation.task-only-32021']).toMatchObject({ verdict: 'depends', why: 'role taskOnly, if discovery finds it' });
      const text = formatListing(listing).join('\n');
      expect(text).toMatch(/server\/discover answered supportedVersions \["2026-07-28"\]/);
      expect(text).toMatch(/would call complete \{\} as a client declaring the Tasks extension/);
    } finally {
      await session.close();
      await server.close();
    }
  });

  it('rejects options --list would ignore', () => {
    expect(() => parseServerArgs(['--stdio', 'x', '--list', '--json', 'r.json'])).toThrow(UsageError);
    expect(() => parseServerArgs(['--stdio', 'x', '--list', '--properties'])).toThrow(/--properties/);
    expect(parseServerArgs(['--stdio', 'x', '--list', '--only', 'cancel'])).toMatchObject({ list: true });
  });
});
