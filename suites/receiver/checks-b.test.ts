// Tests of the result, related-task, list and cancel checks against the in-process reference
// receiver: all pass on the faultless receiver; each named fault (or configuration) that breaks one
// of their requirements makes the checks about it fail (MUST) or warn (SHOULD), and fails no other
// MUST check of these files.
import { describe, expect, it } from 'vitest';
import { checks as result } from './result.ts';
import { checks as relatedTask } from './related-task.ts';
import { checks as list } from './list.ts';
import { checks as cancel } from './cancel.ts';
import { openTargetSession, runChecks } from '../harness/session.ts';
import { loadProfile } from '../harness/target.ts';
import type { CheckResult } from '../engine.ts';
import { hasRequirement } from '../../schema/catalog.ts';

const mine = [...result, ...relatedTask, ...list, ...cancel];
const profile = loadProfile('fixtures/reference.profile.json');

async function runWith(args: string[]): Promise<CheckResult[]> {
  const session = await openTargetSession({ target: { kind: 'reference', args }, profile, options: { checkTimeoutMs: 20_000, requestTimeoutMs: 5_000 } });
  try {
    return await runChecks(mine, session, 16);
  } finally {
    await session.close();
  }
}

const show = (rs: CheckResult[]) => rs.map((r) => `${r.id}: ${r.status} ${r.message}`).join('\n');

/** Receiver arguments → the checks they must make fail (MUST) or warn (SHOULD). */
const KILLS: [string, string[], string[]][] = [
  ['result-not-blocking', ['--fault', 'result-not-blocking'], ['result.blocks-while-working', 'result.blocks-while-input-required']],
  ['result-differs', ['--fault', 'result-differs'], ['result.exact-success', 'result.exact-fails']],
  ['result-no-related-task', ['--fault', 'result-no-related-task'], ['related-task.result-completed', 'related-task.result-failed', 'related-task.result-cancelled']],
  ['input-no-related-task', ['--fault', 'input-no-related-task'], ['related-task.input-request']],
  ['related-task-on-get', ['--fault', 'related-task-on-get'], ['related-task.absent-on-get', 'related-task.absent-on-list', 'related-task.absent-on-cancel']],
  ['meta-taskid-wins', ['--fault', 'meta-taskid-wins'], ['related-task.param-wins-get', 'related-task.param-wins-result', 'related-task.param-wins-cancel']],
  ['no-next-cursor', ['--fault', 'no-next-cursor', '--page-size', '2'], ['list.next-cursor']],
  ['no-next-cursor (default page size)', ['--fault', 'no-next-cursor'], ['list.next-cursor']],
  ['list-omits-task', ['--fault', 'list-omits-task', '--page-size', '2'], ['list.get-implies-list']],
  ['bad-cursor-ignored', ['--fault', 'bad-cursor-ignored', '--page-size', '2'], ['list.invalid-cursor', 'list.tampered-cursor']],
  ['page size 1000 (no pagination)', ['--page-size', '1000'], ['list.paginate']],
  ['missing-created-at', ['--fault', 'missing-created-at'], ['list.entries-are-tasks']],
  ['bad-timestamp', ['--fault', 'bad-timestamp'], ['list.entries-are-tasks']],
  ['cancel-after-response', ['--fault', 'cancel-after-response'], ['cancel.cancelled-before-response']],
  ['cancelled-resurrects', ['--fault', 'cancelled-resurrects'], ['cancel.stays-cancelled']],
  ['cancel-terminal-ok', ['--fault', 'cancel-terminal-ok'], ['cancel.completed-rejected', 'cancel.failed-rejected', 'cancel.cancelled-rejected']],
];

/**
 * Faults of other requirements: none of these checks may fail under them (skips are fine).
 */
const OTHERS = ['illegal-transition', 'unknown-task-32603', 'ttl-missing', 'sequential-ids', 'no-isolation', 'progress-new-token', 'starts-completed', 'no-status-message-on-failure', 'slow-create', 'required-runs-without-task', 'forbidden-runs-as-task'];

describe('checks-b metadata', () => {
  it('cite known catalog ids, have unique ids and a matching level', () => {
    const ids = mine.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const c of mine) {
      expect(c.requirements.length, c.id).toBeGreaterThan(0);
      for (const r of c.requirements) expect(hasRequirement(r), `${c.id} cites ${r}`).toBe(true);
    }
  });
});

describe('checks-b against the reference receiver', () => {
  it('all pass on the faultless receiver (MAY: info), none skipped', { timeout: 90_000 }, async () => {
    const rs = await runWith([]);
    const bad = rs.filter((r) => !(r.status === 'pass' || (r.status === 'info' && r.level === 'MAY')));
    expect(bad.map((r) => `${r.id}: ${r.status} ${r.message}`)).toEqual([]);
  });

  it.concurrent.each(KILLS)('%s kills its checks and fails no other MUST check', { timeout: 120_000 }, async (_name, args, killed) => {
    const rs = await runWith(args);
    for (const id of killed) {
      const r = rs.find((x) => x.id === id)!;
      expect(r, id).toBeDefined();
      const want = r.level === 'MUST' ? 'fail' : 'warn';
      expect(r.status, `${id} under ${args.join(' ')}:\n${show([r])}`).toBe(want);
    }
    const collateral = rs.filter((r) => r.status === 'fail' && !killed.includes(r.id));
    expect(collateral.map((r) => `${r.id}: ${r.message}`), `unrelated failures under ${args.join(' ')}`).toEqual([]);
  });

  it.concurrent.each(OTHERS.map((f) => [f]))('fault %s fails none of these checks', { timeout: 120_000 }, async (fault) => {
    const rs = await runWith(['--fault', fault]);
    const failed = rs.filter((r) => r.status === 'fail');
    expect(failed.map((r) => `${r.id}: ${r.message}`)).toEqual([]);
  });
});
