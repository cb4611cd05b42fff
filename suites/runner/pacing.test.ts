// The suite obeys the target's pace (poll-respect-interval): a check's budget grows to fit the waits the target
// asks for (suites/judge/pacing.ts budgetGrowth, CheckContext.pace), and a wait that cannot fit leaves the check
// not exercised with the reason, never failed (RULINGS.md#response-time).
import { describe, expect, it } from 'vitest';
import { defineCheck, type CheckContext, type CheckDef } from '../engine/check.ts';
import { createTask } from '../arrange/arrange.ts';
import { observe } from '../arrange/poll.ts';
import { isTerminal } from '../../schema/protocol.ts';
import { runChecks } from './session.ts';
import { openTargetSession } from '../revisions.ts';
import { loadProfile } from './target.ts';

const profile = loadProfile('fixtures/reference.profile.json');

async function run(args: string[], checks: CheckDef[]) {
  const session = await openTargetSession({ target: { kind: 'reference', args }, profile, options: { checkTimeoutMs: 5_000 } });
  try {
    return await runChecks(checks, session, 2);
  } finally {
    await session.close();
  }
}

/** A completes task polled to its end: with a pollInterval above the check's budget, the budget must grow. */
const follows = defineCheck({
  id: 'test.follows-at-pace',
  title: 'polls a task to its end at the target pollInterval',
  section: 'Test',
  requirements: [],
  level: 'MUST',
  killedBy: [],
  needs: ['completes'],
  async run(ctx: CheckContext) {
    const c = await createTask(ctx, 'completes');
    const started = Date.now();
    const o = await observe(ctx, c.taskId, (t, n) => isTerminal(t.status) && n >= 2, { onFailure: 'violation' });
    ctx.expect(!o.timedOut, `timed out after ${o.elapsedMs} ms`);
    return `${o.polls} polls in ${Date.now() - started} ms`;
  },
});

/** A wait far beyond what the budget may grow to. */
const tooLong = defineCheck({
  id: 'test.too-long',
  title: 'asks for a wait that cannot fit',
  section: 'Test',
  requirements: [],
  level: 'MUST',
  killedBy: [],
  async run(ctx: CheckContext) {
    ctx.pace?.(10 * 60_000, 'a Retry-After of 10 minutes');
    ctx.violation('not reached');
  },
});

describe('pacing', () => {
  it('a pollInterval longer than the check budget grows the budget: the poll waits as asked', { timeout: 60_000 }, async () => {
    const [r] = await run(['--poll-interval', '5000'], [follows]);
    expect(r!.status, r!.message).toBe('pass');
    // Two polls, the second a full pollInterval after the first, within a check whose own budget is 5 s (its poll loop's bound about 2 s).
    expect(Number(/in (\d+) ms/.exec(r!.message)![1])).toBeGreaterThanOrEqual(5_000);
  });

  it('a wait that cannot fit is not exercised (timed out), with the reason', { timeout: 30_000 }, async () => {
    const [r] = await run([], [tooLong]);
    expect(r!.status).toBe('skip');
    expect(r!.timedOut).toBe(true);
    expect(r!.message).toMatch(/a Retry-After of 10 minutes: the waits the target asks for .* do not fit 4 × the check's budget/);
  });
});
