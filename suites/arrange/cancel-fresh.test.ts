// cancelFresh: the checks that cancel a running task try a second one when the first ended before its
// tasks/cancel arrived (a loaded machine), and are not exercised when every task ends first. Played against the
// in-process reference receiver by holding a check's tasks/cancel until its task has completed.
import { describe, expect, it } from 'vitest';
import { receiverChecks2025 } from '../index.ts';
import { runChecks } from '../runner/session.ts';
import { loadProfile } from '../runner/target.ts';
import { holdCancels } from './test-helpers.ts';
import { openTargetSession } from '../revisions.ts';

/** The checks that cancel a task of the slow role right after creating it (the client-receiver ones among them; the last one after its tasks/result and a tasks/get). */
const CANCELLING = [
  'lifecycle.paths-cancelled',
  'lifecycle.terminal-sticky-cancelled',
  'cancel.cancelled-before-response',
  'cancel.stays-cancelled',
  'cancel.cancelled-rejected',
  'cancel.delete-may',
  'related-task.result-cancelled',
  'related-task.absent-on-cancel',
  'result.cancelled-answers',
  'result.waiting-answered-on-cancel',
];

const profile = loadProfile('fixtures/reference.profile.json');
const quickSlow = { ...profile, tools: { ...profile.tools, slow: { name: 'slow', arguments: { ms: 600 } } } };

/** Runs CANCELLING with the first `held` tasks/cancel of each check sent only once its task is terminal. */
async function runHolding(held: number): Promise<Map<string, { status: string; message: string }>> {
  const session = await openTargetSession({ target: { kind: 'reference', args: [] }, profile: quickSlow, options: { checkTimeoutMs: 20_000 } });
  holdCancels(session.shared, held);
  try {
    const rs = await runChecks(
      receiverChecks2025.filter((c) => CANCELLING.includes(c.id)),
      session,
      CANCELLING.length,
    );
    return new Map(rs.map((r) => [r.id, { status: r.status, message: r.message }]));
  } finally {
    await session.close();
  }
}

describe.concurrent('cancelFresh against a task that ends before its cancel', () => {
  it('the first task ended before its cancel: a second one is cancelled and the check passes as before', { timeout: 60_000 }, async () => {
    const rs = await runHolding(1);
    for (const id of CANCELLING) {
      const r = rs.get(id)!;
      expect(r.status, `${id}: ${r.message}`).toBe(id === 'cancel.delete-may' ? 'info' : 'pass');
      expect(r.message, id).toMatch(/the first slow task reached "completed" before its tasks\/cancel arrived .*tried again with a new one/);
    }
  });

  it('every task ends before its cancel: not exercised, saying so', { timeout: 60_000 }, async () => {
    const rs = await runHolding(2);
    for (const id of CANCELLING) {
      const r = rs.get(id)!;
      expect(r.status, `${id}: ${r.message}`).toBe('skip');
      expect(r.message, id).toMatch(/the slow task reached "completed" before tasks\/cancel arrived, twice/);
    }
  });
});
