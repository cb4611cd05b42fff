// The status line of a run on a terminal (suites/report/progress.ts), and when it is shown at all.
import { describe, expect, it } from 'vitest';
import { RunProgress, progressWanted } from './progress.ts';

function fake() {
  let t = 1_000;
  const writes: string[] = [];
  const p = new RunProgress({ write: (s) => writes.push(s), columns: 200 }, () => t);
  return { p, writes, advance: (ms: number) => (t += ms), last: () => writes.at(-1)! };
}

describe('run progress', () => {
  it('shows the phase, then checks done/total overall and in the running check’s section, the running check and the time', () => {
    const { p, advance, last } = fake();
    p.setPhase('discovery: 3 call(s) as tasks, budget 30000 ms');
    expect(last()).toBe('\r\x1b[K[0 s] discovery: 3 call(s) as tasks, budget 30000 ms');
    p.addChecks(['Capabilities', 'Capabilities', 'Cancellation']);
    advance(2_400);
    p.start('capabilities.tasks-shape', 'Capabilities');
    expect(last()).toBe('\r\x1b[K[2 s] 0/3 checks · Capabilities 0/2 · running capabilities.tasks-shape');
    p.start('cancel.stays-cancelled', 'Cancellation');
    expect(last()).toMatch(/running capabilities.tasks-shape \(\+1\)$/);
    p.finish('capabilities.tasks-shape', 'Capabilities');
    advance(10_000);
    expect(p.line()).toBe('[12 s] 1/3 checks · Cancellation 0/1 · running cancel.stays-cancelled');
  });

  it('fits the terminal width and clears itself', () => {
    const writes: string[] = [];
    const p = new RunProgress({ write: (s) => writes.push(s), columns: 30 }, () => 0);
    p.setPhase('a phase whose text is far longer than thirty columns');
    expect(writes.at(-1)!.replace('\r\x1b[K', '').length).toBeLessThanOrEqual(29);
    p.stop();
    expect(writes.at(-1)).toBe('\r\x1b[K');
  });

  it('is shown on a terminal only, never in CI, with --json or --no-color', () => {
    const base = { isTTY: true, env: {}, json: false, noColor: false };
    expect(progressWanted(base)).toBe(true);
    expect(progressWanted({ ...base, isTTY: false })).toBe(false);
    expect(progressWanted({ ...base, env: { CI: 'true' } })).toBe(false);
    expect(progressWanted({ ...base, json: true })).toBe(false);
    expect(progressWanted({ ...base, noColor: true })).toBe(false);
  });
});
