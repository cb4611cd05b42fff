// cancelFresh of 2026-07-28: a check that cancels a running task tries a second one when the first reached another
// terminal status before its tasks/cancel took effect (a loaded machine), and judges the second as it would have
// the first. Played against the reference extension server by holding a check's tasks/cancel until its task completed.
import { describe, expect, it } from 'vitest';
import { modernChecks, runAgainstReference } from '../receiver/test-helpers.ts';
import { holdCancels } from '../../arrange/test-helpers.ts';
import type { CheckResult } from '../../engine/check.ts';

/** The checks that cancel a new slow task and watch it end. */
const CANCELLING = ['2026-lifecycle.terminal-sticky', '2026-get.cancelled'];

/**
 * Runs CANCELLING with the first `held` tasks/cancel of each check's slow tasks sent only once its task is terminal.
 * terminal-sticky first cancels its failed task (RULINGS.md#ext-cancel-terminal), so one more of its cancels is held.
 */
async function runHolding(held: number, args: string[] = []): Promise<Map<string, CheckResult>> {
  const out = new Map<string, CheckResult>();
  for (const id of CANCELLING) {
    const n = id === '2026-lifecycle.terminal-sticky' ? held + 1 : held;
    const checks = modernChecks().filter((c) => c.id === id);
    for (const r of await runAgainstReference(args, checks, {}, 'http', (session) => holdCancels(session.shared, n))) out.set(r.id, r);
  }
  return out;
}

const RETRIED =
  /the first slow task reached "completed" before its tasks\/cancel took effect \(acknowledged, then tasks\/get showed "completed"\): tried again with a new one/;

describe.concurrent('cancelFresh (2026-07-28) against a task that ends before its cancel', () => {
  it('the first task completed before its cancel: a second one is cancelled and the check passes on it', { timeout: 60_000 }, async () => {
    const rs = await runHolding(1);
    for (const id of CANCELLING) {
      const r = rs.get(id)!;
      expect(r.status, `${id}: ${r.message}`).toBe('pass');
      expect(r.message, id).toMatch(RETRIED);
    }
    expect(rs.get('2026-lifecycle.terminal-sticky')!.message).toMatch(/slow cancelled: cancelled ×\d+/);
  });

  it('every task completes before its cancel: judged as it ended (terminal-sticky) or not exercised (get.cancelled)', { timeout: 60_000 }, async () => {
    const rs = await runHolding(2);
    for (const id of CANCELLING) expect(rs.get(id)!.message, id).toMatch(RETRIED);
    const sticky = rs.get('2026-lifecycle.terminal-sticky')!;
    expect(sticky.status, sticky.message).toBe('pass');
    expect(sticky.message).toMatch(/slow after tasks\/cancel: completed ×\d+/);
    const get = rs.get('2026-get.cancelled')!;
    expect(get.status, get.message).toBe('skip');
    expect(get.message).toMatch(/ended completed after tasks\/cancel/);
  });

  it('a fault the first task could not show (cancelled-resurrects) is still caught on the second', { timeout: 60_000 }, async () => {
    const r = (await runHolding(1, ['--fault', 'cancelled-resurrects'])).get('2026-lifecycle.terminal-sticky')!;
    expect(r.status, r.message).toBe('fail');
    expect(r.message).toMatch(/was cancelled, then tasks\/get showed "completed"/);
  });
});
