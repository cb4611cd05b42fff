// runChecks and its checks marked runsLast: they act among the others and read the run only after the
// barrier (every other check done, every runsLast check's acting done, the checks that load the target done).
import { describe, expect, it } from 'vitest';
import { runChecks, type TargetSession } from './session.ts';
import { loadProfile } from './target.ts';
import { defineCheck, type CheckContext, type CheckDef } from '../engine/check.ts';
import { openTargetSession } from '../revisions.ts';

const profile = loadProfile('fixtures/reference.profile.json');
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What the checks saw: events in order, and how many checks ran at once when a loadsTarget check ran. */
function recorder() {
  const events: string[] = [];
  let active = 0;
  const alone: number[] = [];
  const def = (id: string, more: Partial<CheckDef> & { act?: (ctx: CheckContext) => Promise<void>; read?: (ctx: CheckContext) => string }): CheckDef =>
    defineCheck({
      id,
      title: id,
      section: 'test',
      requirements: ['lifecycle-begin-working'],
      level: 'MUST',
      killedBy: [],
      ...more,
      async run(ctx) {
        active++;
        events.push(`start ${id}`);
        try {
          if (more.loadsTarget) alone.push(active);
          await more.act?.(ctx);
          if (more.runsLast) {
            events.push(`acted ${id}`);
            active--;
            await ctx.othersDone();
            active++;
          }
          const seen = more.read?.(ctx);
          events.push(`done ${id}`);
          return seen;
        } finally {
          active--;
        }
      },
    });
  return { events, alone, def };
}

/** The checks a runsLast check read (ctx.history), each with the pings in its transcript. */
const readRun = (ctx: CheckContext) =>
  ctx
    .history()
    .map((r) => `${r.id}:${r.transcript.filter((e) => e.dir === 'out' && (e.message as any)?.method === 'ping').length}`)
    .sort()
    .join(',');

async function withSession<T>(f: (s: TargetSession) => Promise<T>, checkTimeoutMs = 15_000): Promise<T> {
  const session = await openTargetSession({ target: { kind: 'reference' }, profile, options: { checkTimeoutMs, requestTimeoutMs: 5_000 } });
  try {
    return await f(session);
  } finally {
    await session.close();
  }
}

describe('runsLast checks and the barrier', () => {
  for (const concurrency of [2, 3, 16])
    it(`at concurrency ${concurrency}: act among the others, read after all of them (the others' acting included), the loadsTarget check alone`, async () => {
      const { events, alone, def } = recorder();
      const ping = async (ctx: CheckContext, own = false) => void (await (own ? await ctx.openSession() : ctx.peer).request('ping'));
      const checks = [
        def('a.slow', { act: async (ctx) => (await pause(150), ping(ctx)) }),
        def('b.last', { runsLast: true, act: (ctx) => ping(ctx, true), read: readRun }),
        def('c.quick', { act: (ctx) => ping(ctx) }),
        def('d.load', { loadsTarget: true, act: (ctx) => ping(ctx) }),
        def('e.last', { runsLast: true, act: (ctx) => ping(ctx), read: readRun }),
        def('f.last', { runsLast: true, read: readRun }),
        def('g.quick', { act: (ctx) => ping(ctx) }),
      ];
      const results = await withSession((s) => runChecks(checks, s, concurrency));
      expect(results.map((r) => `${r.id} ${r.status}`)).toEqual(checks.map((c) => `${c.id} pass`));
      // Each judge read every other check, the others' acting on connections of their own included.
      const seen = (id: string) => results.find((r) => r.id === id)!.message;
      expect(seen('b.last')).toBe('a.slow:1,c.quick:1,d.load:1,e.last:1,f.last:0,g.quick:1');
      expect(seen('e.last')).toBe('a.slow:1,b.last:1,c.quick:1,d.load:1,f.last:0,g.quick:1');
      expect(seen('f.last')).toBe('a.slow:1,b.last:1,c.quick:1,d.load:1,e.last:1,g.quick:1');
      const at = (e: string) => events.indexOf(e);
      // The runsLast checks acted before the slow check ended; none read before the load check ended.
      expect(at('acted b.last')).toBeLessThan(at('done a.slow'));
      for (const id of ['b.last', 'e.last', 'f.last']) expect(at(`done ${id}`)).toBeGreaterThan(at('done d.load'));
      expect(at('start d.load')).toBeGreaterThan(Math.max(at('done a.slow'), at('done g.quick'), at('acted e.last'), at('acted f.last')));
      expect(alone).toEqual([1]);
    });

  it('at concurrency 1: one check at a time, each runsLast check whole after the others and the loadsTarget check', async () => {
    const { events, def } = recorder();
    const checks = [
      def('a.last', { runsLast: true, read: readRun }),
      def('b.one', {}),
      def('c.load', { loadsTarget: true }),
      def('d.two', {}),
      def('e.last', { runsLast: true, read: readRun }),
    ];
    const results = await withSession((s) => runChecks(checks, s, 1));
    expect(events).toEqual(
      ['b.one', 'd.two', 'c.load']
        .flatMap((id) => [`start ${id}`, `done ${id}`])
        .concat(['a.last', 'e.last'].flatMap((id) => [`start ${id}`, `acted ${id}`, `done ${id}`])),
    );
    expect(results.find((r) => r.id === 'a.last')!.message).toBe('b.one:0,c.load:0,d.two:0');
    expect(results.find((r) => r.id === 'e.last')!.message).toBe('a.last:0,b.one:0,c.load:0,d.two:0');
  });

  it("the wait for the others is not counted in a runsLast check's budget or duration", async () => {
    const { def } = recorder();
    const checks = [def('a.last', { runsLast: true, timeoutMs: 200, read: readRun }), def('b.slow', { act: async () => void (await pause(600)) })];
    const results = await withSession((s) => runChecks(checks, s, 4));
    expect(results.map((r) => `${r.id} ${r.status}`)).toEqual(['a.last pass', 'b.slow pass']);
    // Nor in its duration: its own time is a fraction of the other's.
    expect(results[0]!.durationMs).toBeLessThan(results[1]!.durationMs);
  });

  it('a runsLast check that reads the run before othersDone() fails loudly (a bug of the check, not a verdict on the target)', async () => {
    const early = defineCheck({
      id: 'a.early',
      title: 'reads too early',
      section: 'test',
      requirements: ['lifecycle-begin-working'],
      level: 'MUST',
      killedBy: [],
      runsLast: true,
      async run(ctx) {
        return String(ctx.history().length);
      },
    });
    const [r] = await withSession((s) => runChecks([early], s, 4));
    expect(r!.status).toBe('fail');
    expect(r!.message).toMatch(/a\.early reads the run before ctx\.othersDone\(\)/);
  });
});
