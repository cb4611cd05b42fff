// Tests of the result, related-task, list and cancel checks against the in-process reference
// receiver: all pass on the faultless receiver; receiver configurations that are not named faults kill
// the checks about them. What each named fault kills is the checks' `killedBy`, run by faults.test.ts.
import { describe, expect, it } from 'vitest';
import { checks as result } from './result.ts';
import { checks as relatedTask } from './related-task.ts';
import { checks as list } from './list.ts';
import { checks as cancel } from './cancel.ts';
import { runChecks } from '../runner/session.ts';
import { loadProfile } from '../runner/target.ts';
import type { CheckResult } from '../engine/check.ts';
import { hasRequirement, severity } from '../../schema/catalog.ts';
import { openTargetSession } from '../revisions.ts';

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

/** Receiver configurations (not named faults) → the checks they must make fail (MUST) or warn (SHOULD). */
const KILLS: [string, string[], string[]][] = [
  ['no-next-cursor (default page size)', ['--fault', 'no-next-cursor'], ['list.next-cursor']],
  ['page size 1000 (no pagination)', ['--page-size', '1000'], ['list.paginate']],
];

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

const KEEPS_CANCELLED = 'cancel.deleted-answers-32602';

describe('checks-b against the reference receiver', () => {
  it('all pass on the faultless receiver (MAY: info), none skipped but the deleted-task check', { timeout: 90_000 }, async () => {
    const rs = await runWith([]);
    // The reference keeps cancelled tasks (deleting them is a MAY): no answer for a deleted one to judge.
    const bad = rs.filter((r) => !(r.status === 'pass' || (r.status === 'info' && r.level === 'MAY') || (r.id === KEEPS_CANCELLED && r.status === 'skip')));
    expect(bad.map((r) => `${r.id}: ${r.status} ${r.message}`)).toEqual([]);
  });

  it.concurrent.each(KILLS)('%s kills its checks and fails no other MUST check', { timeout: 120_000 }, async (_name, args, killed) => {
    const rs = await runWith(args);
    for (const id of killed) {
      const r = rs.find((x) => x.id === id)!;
      expect(r, id).toBeDefined();
      const want = severity(r.level);
      expect(r.status, `${id} under ${args.join(' ')}:\n${show([r])}`).toBe(want);
    }
    const collateral = rs.filter((r) => r.status === 'fail' && !killed.includes(r.id));
    expect(
      collateral.map((r) => `${r.id}: ${r.message}`),
      `unrelated failures under ${args.join(' ')}`,
    ).toEqual([]);
  });
});
