// Tests of the capability / creation / lifecycle / get / notification checks against the in-process
// reference receiver: every check passes (or reports) on the faultless receiver, and each named fault
// kills the check written for it.
import { describe, expect, it } from 'vitest';
import { severity, type CheckDef, type CheckResult, type Status } from '../engine/check.ts';
import { runChecks } from '../runner/session.ts';
import { loadProfile } from '../runner/target.ts';
import { checks as capabilities } from './capabilities.ts';
import { checks as creation } from './creation.ts';
import { checks as lifecycle } from './lifecycle.ts';
import { checks as get } from './get.ts';
import { checks as notifications } from './notifications.ts';
import { estimateIdBits, predictability } from '../judge/ids.ts';
import { openTargetSession } from '../revisions.ts';

const mine: CheckDef[] = [...capabilities, ...creation, ...lifecycle, ...get, ...notifications];
const profile = loadProfile('fixtures/reference.profile.json');

async function run(args: string[], ids?: string[]): Promise<Map<string, CheckResult>> {
  const selected = ids ? mine.filter((c) => ids.includes(c.id)) : mine;
  if (ids) expect(selected.map((c) => c.id).sort()).toEqual([...ids].sort());
  const session = await openTargetSession({ target: { kind: 'reference', args }, profile });
  try {
    const results = await runChecks(selected, session);
    return new Map(results.map((r) => [r.id, r]));
  } finally {
    await session.close();
  }
}

function statusOf(results: Map<string, CheckResult>): Record<string, string> {
  return Object.fromEntries([...results].map(([id, r]) => [id, r.status]));
}

function explain(results: Map<string, CheckResult>, want: Record<string, Status>): string {
  return Object.keys(want)
    .map((id) => results.get(id))
    .filter((r): r is CheckResult => !!r && r.status !== want[r.id])
    .map((r) => `${r.id}: ${r.status} — ${r.message}`)
    .join('\n');
}

// Defaults: everything passes, MAY checks report (info). These are not exercised on the plain receiver.
const baseline: Record<string, Status> = Object.fromEntries(mine.map((c) => [c.id, c.level === 'MAY' ? 'info' : 'pass']));

describe.concurrent('checks-a against the reference receiver', () => {
  it('plain receiver: all pass; the no-capability and notification checks are not exercised', async () => {
    const results = await run([]);
    const want: Record<string, Status> = {
      ...baseline,
      'capabilities.undeclared-processed-normally': 'skip',
      'notifications.consistent-status': 'skip',
      'notifications.no-related-task': 'skip',
    };
    expect(statusOf(results), explain(results, want)).toEqual(want);
    expect(results.get('notifications.status-may')!.message).toMatch(/sent no notifications\/tasks\/status/);
    expect(results.get('capabilities.undeclared-processed-normally')!.message).toMatch(/declares tasks\.requests\.tools\.call/);
  });

  it('--status-notifications: the notification checks run and pass', async () => {
    const ids = [
      'notifications.status-may',
      'notifications.consistent-status',
      'notifications.no-related-task',
      'get.created-at',
      'get.last-updated-at',
      'lifecycle.paths-fails',
    ];
    const results = await run(['--status-notifications'], ids);
    const want = {
      'notifications.status-may': 'info',
      'notifications.consistent-status': 'pass',
      'notifications.no-related-task': 'pass',
      'get.created-at': 'pass',
      'get.last-updated-at': 'pass',
      'lifecycle.paths-fails': 'pass',
    } as const;
    expect(statusOf(results), explain(results, want)).toEqual(want);
    expect(results.get('notifications.status-may')!.message).toMatch(/^saw \d+ notifications/);
    expect(results.get('get.created-at')!.message).toMatch(/notifications\/tasks\/status/);
  });

  it('--no-tasks-capability: task-augmented calls are processed normally; every task check is not exercised', async () => {
    const results = await run(['--no-tasks-capability']);
    const want: Record<string, Status> = {
      ...Object.fromEntries(mine.map((c) => [c.id, 'skip' as Status])),
      'capabilities.undeclared-processed-normally': 'pass',
      'capabilities.declared-if-supported': 'pass',
      'capabilities.undeclared-types-processed-normally': 'pass',
      // RULINGS.md#plain-request-plain-answer holds whatever the capabilities: a plain call is judged here too.
      'creation.plain-call-not-task': 'pass',
    };
    expect(statusOf(results), explain(results, want)).toEqual(want);
  });

  // what a killed check's message must say (the status follows from its level: MUST → fail, SHOULD → warn)
  const killed: [string[], Record<string, RegExp>][] = [
    [['--fault', 'required-runs-without-task'], { 'capabilities.required-without-task': /answered CallToolResult instead of -32601/ }],
    [['--fault', 'forbidden-runs-as-task'], { 'capabilities.forbidden-with-task': /was run as a task/, 'capabilities.absent-with-task': /was run as a task/ }],
    [['--fault', 'slow-create'], { 'creation.prompt': /did not come while the slow task was running/ }],
    [['--fault', 'starts-completed'], { 'creation.begin-working': /status "completed", expected "working"/ }],
    [['--fault', 'sequential-ids'], { 'creation.id-entropy': /guessable.*small steps/ }],
    [['--fault', 'missing-created-at'], { 'get.created-at': /no createdAt/, 'creation.create-task-result': /required property 'createdAt'/ }],
    [['--fault', 'bad-timestamp'], { 'get.last-updated-at': /lastUpdatedAt ".*" is not an ISO 8601/ }],
    [['--fault', 'ttl-missing'], { 'get.ttl': /has no ttl/ }],
    [['--fault', 'no-status-message-on-failure'], { 'get.failed-status-message': /statusMessage undefined/ }],
    [
      ['--fault', 'illegal-transition'],
      {
        'lifecycle.paths-fails': /illegal transition failed → working/,
        'lifecycle.terminal-sticky-failed': /reached failed, then tasks\/get reported working/,
      },
    ],
    [['--fault', 'illegal-transition', '--status-notifications'], { 'notifications.consistent-status': /notifications went failed → working/ }],
    [['--fault', 'cancelled-resurrects'], { 'lifecycle.terminal-sticky-cancelled': /was cancelled, then tasks\/get reported completed/ }],
    [['--fault', 'ids-per-session'], { 'creation.id-unique': /task ids repeat across \d+ creations \(.*3 on each of two other sessions\)/ }],
    [['--fault', 'task-on-undeclared-types'], { 'capabilities.undeclared-types-processed-normally': /ping with `task` answered error -32600/ }],
    [['--fault', 'last-updated-frozen'], { 'get.last-updated-moves': /yet lastUpdatedAt .*: the change is not reflected/ }],
    [
      ['--fault', 'input-to-every-session'],
      { 'lifecycle.input-to-own-requestor': /input request\(s\) for tasks of another session arrived on a bystander session/ },
    ],
    [['--fault', 'input-no-related-task'], { 'lifecycle.input-related-task': /has no _meta\["io.modelcontextprotocol\/related-task"\]/ }],
  ];
  for (const [args, expected] of killed) {
    it(`${args.join(' ')} kills ${Object.keys(expected).join(', ')}`, async () => {
      const want = Object.fromEntries(Object.keys(expected).map((id) => [id, severity(mine.find((c) => c.id === id)!.level)]));
      const results = await run(args, Object.keys(want));
      expect(statusOf(results), explain(results, want)).toEqual(want);
      for (const [id, re] of Object.entries(expected)) expect(results.get(id)!.message, id).toMatch(re);
    });
  }
});

describe('the runs-last first-status check', () => {
  it('created-input-required: it fails on the tasks of tools that ask for no input, which other checks created', async () => {
    const results = await run(['--fault', 'created-input-required'], ['creation.first-status-everywhere', 'creation.id-string', 'get.last-updated-moves']);
    const want: Record<string, Status> = { 'creation.first-status-everywhere': 'fail', 'creation.id-string': 'pass', 'get.last-updated-moves': 'pass' };
    expect(statusOf(results), explain(results, want)).toEqual(want);
    // The ask tool's task may ask at once (RULINGS.md#new-task-working): only noted; a tool that asks for none and
    // is seen working again with nothing asked (the slow task polled by get.last-updated-moves) fails.
    expect(results.get('creation.first-status-everywhere')!.message).toMatch(
      /which asks for no input, shows "input_required" in its CreateTaskResult.*"working" again with no input request sent for it/,
    );
  });
});

describe('task id entropy estimate', () => {
  it('rates UUIDv4 ids at ~122+ bits and counters as guessable', () => {
    const uuids = Array.from({ length: 8 }, () => crypto.randomUUID());
    expect(estimateIdBits(uuids).bits).toBeGreaterThanOrEqual(120);
    expect(predictability(uuids)).toBeNull();
    const counter = ['17', '18', '21', '22', '30', '31', '33', '40'];
    expect(estimateIdBits(counter).bits).toBeLessThan(64);
    expect(predictability(counter)).toMatch(/small steps/);
    const prefixed = Array.from({ length: 8 }, (_, i) => `task-000${100 + i}`);
    expect(estimateIdBits(prefixed).bits).toBeLessThan(64);
    expect(predictability(prefixed)).toMatch(/counter-like/);
  });
});
