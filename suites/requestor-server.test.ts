// The server as requestor (suites/requestor/server-requestor.ts): the reference receiver's requestor
// tools pass every requestor check that applies; each of its requestor faults is caught by its check
// and by no other; server-everything's two deviations are reported.
import { describe, expect, it } from 'vitest';
import { FAULTS, type FaultInfo } from '../mocks/receiver/faults.ts';
import { primaryId } from '../schema/catalog.ts';
import type { CheckResult, Status } from './engine/check.ts';
import { loadProfile, type TargetSpec } from './runner/target.ts';
import type { Profile } from './engine/profile.ts';
import {
  gradeServerAsRequestor,
  receiverChecksRun,
  runServerAsRequestor,
  serverRequestorChecks,
  serverRequestorOptions,
} from './requestor/server-requestor.ts';
import { openTargetSession } from './revisions.ts';

const reference = loadProfile('fixtures/reference.profile.json');
/** A short pollInterval keeps the runs quick; the tolerance (0.8 ×) still tells 50 ms polls from respectful ones. */
const options = serverRequestorOptions(400, 5_000);

async function grade(target: TargetSpec, profile: Profile, pollIntervalMs = options.pollIntervalMs): Promise<CheckResult[]> {
  const session = await openTargetSession({ target, profile, options: { requestTimeoutMs: 5_000 } });
  try {
    const o = serverRequestorOptions(pollIntervalMs, 5_000);
    const active = await runServerAsRequestor(session.connector, session.info, o);
    return gradeServerAsRequestor({ runs: [...active.runs, receiverChecksRun([], session.info.label)], notRun: active.notRun });
  } finally {
    await session.close();
  }
}

const statusOf = (results: CheckResult[]) => Object.fromEntries(results.map((r) => [r.id, r.status]));
const bad = (s: Status) => s === 'fail' || s === 'warn';

describe('server as requestor', () => {
  it('the reference receiver (sample_via_client, elicit_via_client) passes; the polling and input checks are exercised', { timeout: 60_000 }, async () => {
    const results = await grade({ kind: 'reference' }, reference);
    expect(results.map((r) => r.id).sort()).toEqual(serverRequestorChecks.map((c) => c.id).sort());
    for (const r of results) expect(bad(r.status), `${r.id}: ${r.message}`).toBe(false);
    const s = statusOf(results);
    for (const id of [
      'requestor.augment-only-declared',
      'requestor.poll-interval',
      'requestor.poll-until-terminal',
      'requestor.input-required-result',
      'requestor.no-related-task-in-task-requests',
    ])
      expect(s[id], id).toBe('pass');
    const poll = results.find((r) => r.id === 'requestor.poll-interval')!;
    expect(poll.section).toBe('Server as requestor: Polling');
    expect(poll.message).toMatch(/\[server-requests-sampling\] intervals between tasks\/get/);
    expect(poll.transcript.length).toBeGreaterThan(0);
  });

  it('a target without the requestor roles: every check not exercised, with the reason', { timeout: 30_000 }, async () => {
    const results = await grade({ kind: 'reference' }, { tools: { completes: reference.tools.completes! } });
    const poll = results.find((r) => r.id === 'requestor.poll-interval')!;
    expect(poll.status).toBe('skip');
    expect(poll.message).toMatch(/requestsSampling/);
  });

  for (const fault of (FAULTS as readonly FaultInfo[]).filter((f) => f.asRequestor)) {
    it(`fault ${fault.name} is caught by the checks of ${fault.requirement}, and only by them`, { timeout: 60_000 }, async () => {
      const results = await grade({ kind: 'reference', args: ['--fault', fault.name] }, reference);
      const cites = (r: CheckResult) => r.requirements.some((q) => primaryId(q) === primaryId(fault.requirement));
      const caught = results.filter((r) => cites(r) && bad(r.status));
      expect(
        caught.map((r) => r.id),
        results.map((r) => `${r.id}: ${r.status} ${r.message}`).join('\n'),
      ).not.toEqual([]);
      // requestor-stops-polling: without status notifications, a requestor that stops polling never learns the outcome (notify-no-reliance).
      // requestor-augments-undeclared: toward a client declaring no tasks capability at all, the same requests also break caps-no-tasks-should-not-create.
      const also: Record<string, string[]> = {
        'requestor-stops-polling': ['requestor.no-status-notification-reliance'],
        'requestor-augments-undeclared': ['requestor.no-tasks-capability'],
      };
      const allowed = also[fault.name] ?? [];
      const unrelated = results.filter((r) => bad(r.status) && !cites(r) && !allowed.includes(r.id));
      expect(unrelated.map((r) => `${r.id}: ${r.message}`)).toEqual([]);
    });
  }

  it('server-everything: polls faster than pollInterval and keeps polling while input_required (both SHOULD)', { timeout: 90_000 }, async () => {
    const profile: Profile = {
      tools: {
        requestsSampling: { name: 'trigger-sampling-request-async', arguments: { prompt: 'conformance' } },
        requestsElicitation: { name: 'trigger-elicitation-request-async', arguments: {} },
      },
    };
    // It polls every 1000 ms whatever the client says: pollInterval 1500 (at least 1200 ms between polls) tells.
    const results = await grade(
      { kind: 'stdio', command: `${process.execPath} node_modules/@modelcontextprotocol/server-everything/dist/index.js stdio` },
      profile,
      1500,
    );
    const s = statusOf(results);
    expect(s['requestor.poll-interval']).toBe('warn');
    expect(s['requestor.input-required-result']).toBe('warn');
    expect(results.find((r) => r.id === 'requestor.input-required-result')!.message).toMatch(
      /\[server-requests-elicitation\] .*no tasks\/result while it was input_required/,
    );
    for (const r of results.filter((x) => !['requestor.poll-interval', 'requestor.input-required-result'].includes(x.id)))
      expect(bad(r.status), `${r.id}: ${r.message}`).toBe(false);
  });
});
