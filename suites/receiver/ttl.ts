// Checks for "TTL and Resource Management" (tasks.md 454-461) and the ttl items of
// "Security Considerations > Resource Management" (tasks.md 887-888). Requirement ids from
// schema/requirements.json. That the actual ttl is present in tasks/get (ttl-actual-in-get) is
// checked in get.ts, not here.
//
// Timing: `ttl` is "time in milliseconds from creation before task may be deleted" (Data Types >
// Task). The suite cannot see the target's clock, so the creation instant is bounded by the moment
// the CreateTaskResult arrived: created ≤ received, hence the task's lifetime is over by
// received + ttl. Checks wait until then (plus a grace period), never longer than EXPIRY_BOUND_MS.
import { isLimitError, readLimit } from '../judge/error-codes.ts';
import { backoffMs } from '../judge/pacing.ts';
import { defineCheck, NotExercised, type CheckContext, type CheckDef } from '../engine/check.ts';
import type { JsonRpcError, Response } from '../wire/peer.ts';
import { createTask } from '../arrange/arrange.ts';
import { delay, getTask, observe, pollDelay } from '../arrange/poll.ts';
import { short } from '../engine/text.ts';
import type { Scope } from '../wire/peer.ts';
import { isTerminal } from '../../schema/protocol.ts';

const SECTION = 'TTL and Resource Management';

/** The short lifetime the expiry checks ask for (ms). */
export const SHORT_TTL_MS = 2_000;
/** A ttl the target raised above this is not waited for: the expiry checks are then not exercised. */
export const EXPIRY_BOUND_MS = 60_000;
/** How long the expiry checks that only need the deletion watch the task after its ttl elapsed. */
export const EXPIRY_GRACE_MS = 1_500;
/**
 * RULINGS.md#expired-cleanup-promptly: how long after the ttl elapsed a task may still be answered before
 * its cleanup counts as not prompt ("promptly" names no bound; a periodic sweep is a common design).
 */
export const CLEANUP_GRACE_MS = 20_000;
/** "Indefinite" for resource-max-ttl: ten years (ms). */
export const TEN_YEARS_MS = 10 * 365 * 24 * 3600 * 1000;

/** How long ttl.retained-until-expiry watches an ended task, and the ttl it asks for. */
const RETAIN_WATCH_MS = 3_000;
const RETAIN_TTL_MS = 60_000;
/** Allowance for a receiver whose clock runs ahead of ours. */
const CLOCK_MARGIN_MS = 500;

const EXPIRY_CHECK_TIMEOUT_MS = EXPIRY_BOUND_MS + EXPIRY_GRACE_MS + 15_000;
const CLEANUP_CHECK_TIMEOUT_MS = EXPIRY_BOUND_MS + CLEANUP_GRACE_MS + 15_000;

/** The ttl the target granted: tasks/get's value (the one the spec calls "actual"), else CreateTaskResult's. */
async function grantedTtl(
  ctx: CheckContext,
  taskId: string,
  created: any,
  peer: Scope = ctx.peer,
): Promise<{ ttl: unknown; get?: unknown; create?: unknown; gone?: NonNullable<Response['error']> }> {
  const r = await getTask(ctx, taskId, peer);
  const fromGet = r.result && typeof r.result === 'object' && 'ttl' in r.result ? r.result.ttl : undefined;
  const fromCreate = created && typeof created === 'object' && 'ttl' in created ? created.ttl : undefined;
  // A task gone at the next tasks/get was not granted anything, whatever its CreateTaskResult said.
  if (r.error) return { ttl: undefined, create: fromCreate, gone: r.error };
  return { ttl: fromGet !== undefined ? fromGet : fromCreate, get: fromGet, create: fromCreate };
}

interface ExpiryObservation {
  taskId: string;
  ttl: number;
  /** ms after received+ttl at which the first error answered tasks/get (undefined: still retained at the end). */
  goneAfterMs?: number;
  /** The tasks/get error after expiry, if any. */
  error?: NonNullable<Response['error']>;
  /** The last successful tasks/get result after expiry (still retained). */
  retained?: any;
  /** ms after received+ttl of the last probe. */
  lastProbeAfterMs: number;
}

/**
 * Creates a `completes` task asking for SHORT_TTL_MS, then polls tasks/get from the end of its
 * lifetime until an error arrives or `graceMs` have passed. Not exercised when the target
 * granted a null ttl or one above EXPIRY_BOUND_MS (overriding is its right, ttl-override-may).
 */
async function observeExpiry(ctx: CheckContext, graceMs = EXPIRY_GRACE_MS): Promise<ExpiryObservation> {
  const created = await createTask(ctx, 'completes', { ttl: SHORT_TTL_MS });
  const received = Date.now();
  const { ttl, get, create, gone } = await grantedTtl(ctx, created.taskId, created.task);
  if (gone)
    ctx.skip(
      `task ${created.taskId} was gone at the first tasks/get (${gone.code} ${short(gone.message)}), before its requested ttl of ${SHORT_TTL_MS} ms; expiry cannot be observed`,
    );
  if (ttl === null) ctx.skip(`target set ttl to null (unlimited) for a requested ${SHORT_TTL_MS} ms, so expiry cannot be observed`);
  if (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl < 0) {
    ctx.skip(
      `target reported no usable ttl for task ${created.taskId} (CreateTaskResult ttl ${short(create)}, tasks/get ttl ${short(get)}); ttl presence is judged by the get checks`,
    );
  }
  if (ttl > EXPIRY_BOUND_MS)
    ctx.skip(
      `target set ttl to ${ttl} ms for a requested ${SHORT_TTL_MS} ms (expiry is awaited only up to ${EXPIRY_BOUND_MS} ms); seen CreateTaskResult ttl ${short(create)}, tasks/get ttl ${short(get)}`,
    );
  const end = received + ttl;
  const wait = end - Date.now();
  if (wait > 0) await delay(wait);
  let last: any = created.task;
  for (;;) {
    const r = await getTask(ctx, created.taskId);
    const after = Date.now() - end;
    // A limit (suites/judge/error-codes.ts) says nothing of the task: back off and ask again.
    if (r.error && isLimitError(r.error) && after < graceMs) {
      await delay(backoffMs(2, { retryAfterMs: readLimit(r.error)?.retryAfterMs }));
      continue;
    }
    if (r.error) return { taskId: created.taskId, ttl, goneAfterMs: after, error: r.error, lastProbeAfterMs: after };
    last = r.result;
    if (after >= graceMs) return { taskId: created.taskId, ttl, retained: last, lastProbeAfterMs: after };
    await delay(Math.max(pollDelay(ctx, last), Math.min(after / 10, graceMs - after))); // never sooner than the pollInterval
  }
}

/** A ttl beyond the 2^31-1 ms a timer can wait (30 days). */
const LONG_TTL_MS = 30 * 24 * 3600 * 1000;
/** Longest delay setTimeout honours. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Creates a completes task asking for `requested` ms of ttl, polls it to its end and watches it for
 * RETAIN_WATCH_MS: gone while its reported ttl has not elapsed fails ttl-actual-in-get. For a ttl beyond
 * MAX_TIMER_MS, a grant at or below it (the target caps long ttls) is not exercised.
 */
/** One ttl a tasks/get reported, and when its request went out and its answer came. */
interface TtlReading {
  ttl: unknown;
  sentAt: number;
  at: number;
}

/**
 * The ttl is the task's lifetime "from creation" (Data Types > Task), the same number on every poll unless the
 * receiver overrides it: a ttl that falls on every poll by the time that passed between them (within the
 * polls' own round trips, over at least a second) is the time left, not that duration (ttl-actual-in-get).
 */
export function countsDown(readings: readonly TtlReading[]): string | undefined {
  const r = readings.filter((x) => typeof x.ttl === 'number') as (TtlReading & { ttl: number })[];
  if (r.length < 3 || r[r.length - 1]!.at - r[0]!.at < 1_000) return undefined;
  for (let i = 1; i < r.length; i++) {
    const drop = r[i - 1]!.ttl - r[i]!.ttl;
    // The ttl was read somewhere within each request's round trip: the time between two readings lies in these bounds.
    const least = r[i]!.sentAt - r[i - 1]!.at;
    const most = r[i]!.at - r[i - 1]!.sentAt;
    if (!(drop > 0 && drop >= least - 50 && drop <= most + 50)) return undefined;
  }
  return `tasks/get reported ttl ${r.map((x) => x.ttl).join(' → ')} ms over ${r[r.length - 1]!.at - r[0]!.at} ms: it falls by the time that passes, so it is the time left, not the actual ttl (a duration from creation)`;
}

async function watchRetained(ctx: CheckContext, requested: number): Promise<string> {
  // The task is created after the request is sent: it may be deleted no earlier than sent + ttl.
  const sent = Date.now();
  const created = await createTask(ctx, 'completes', { ttl: requested });
  const { ttl, gone } = await grantedTtl(ctx, created.taskId, created.task);
  const reportedAtCreation = created.task?.ttl;
  if (gone && requested > MAX_TIMER_MS && typeof reportedAtCreation === 'number' && reportedAtCreation > MAX_TIMER_MS)
    ctx.violation(
      `task ${created.taskId}, created with ttl ${reportedAtCreation} ms (beyond 2^31-1 ms), answered tasks/get ${gone.code} ${short(gone.message)} ${Date.now() - sent} ms after it was requested: it did not have the ttl it reported (a timer given that ttl fires at once)`,
    );
  if (gone) ctx.skip(`task ${created.taskId} was gone at the first tasks/get (${gone.code}); its ttl cannot be watched`);
  if (ttl !== null && (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl < 0))
    ctx.skip(`target reported no usable ttl (${short(ttl)}); ttl presence is judged by get.ttl`, { judgedBy: 'get.ttl' });
  if (requested > MAX_TIMER_MS && ttl !== null && ttl <= MAX_TIMER_MS) ctx.skip(`a requested ttl of ${requested} ms was granted as ${ttl} ms`);
  const until = ttl === null ? Infinity : sent + ttl - CLOCK_MARGIN_MS;
  const reported = ttl === null ? 'null (unlimited)' : `${ttl} ms`;
  const vanished = (e: JsonRpcError, when: string) =>
    `task ${created.taskId} (reported ttl ${reported}) answered tasks/get ${e.code} ${short(e.message)} ${when}, ${Date.now() - sent} ms after it was requested: it vanished before its ttl elapsed`;
  // Polled to its end; gone (-32602) before its ttl elapsed is the violation.
  const o = await observe(ctx, created.taskId, (t) => isTerminal(t.status), {
    boundMs: ctx.deadline - RETAIN_WATCH_MS - 3_000 - Date.now(),
    allowGone: true,
    label: 'polling the task to its end',
  });
  let last: any = o.last ?? created.task;
  if (o.gone) {
    if (Date.now() < until) ctx.violation(vanished(o.gone, `while ${short(last?.status)}`));
    ctx.skip(`the task's ttl elapsed before it ended (${reported})`);
  }
  if (o.timedOut) ctx.skip(`the task did not end within the check's time (last status ${short(last?.status)})`);
  const watchEnd = Math.min(Date.now() + RETAIN_WATCH_MS, until);
  if (watchEnd - Date.now() < 500) ctx.skip(`the reported ttl (${reported}) leaves no time to watch the ${short(last.status)} task`);
  let polls = 0;
  const readings: TtlReading[] = [];
  while (Date.now() < watchEnd) {
    await delay(Math.min(pollDelay(ctx, last), Math.max(20, watchEnd - Date.now())));
    const before = Date.now();
    const r = await getTask(ctx, created.taskId);
    polls++;
    if (r.error && isLimitError(r.error)) continue; // a limit says nothing of the task (suites/judge/error-codes.ts)
    if (r.error && Date.now() < until) ctx.violation(vanished(r.error, `after it was ${short(last.status)}`));
    if (!r.error) {
      last = r.result;
      readings.push({ ttl: r.result?.ttl, sentAt: before, at: Date.now() });
    }
  }
  const down = countsDown(readings);
  if (down) ctx.violation(`task ${created.taskId}: ${down}`);
  return `the ${short(last.status)} task (reported ttl ${reported}) answered ${polls} tasks/get over ${RETAIN_WATCH_MS} ms after it ended`;
}

export const checks: CheckDef[] = [
  // MAY: overriding the requested ttl is the receiver's right; this reports what came back.
  defineCheck({
    id: 'ttl.override-reported',
    title: `A requested ttl of ${SHORT_TTL_MS} ms: what the receiver grants (it MAY override)`,
    section: SECTION,
    requirements: ['ttl-override-may'],
    level: 'MAY',
    killedBy: [],
    clientReceiver: true,
    needs: ['completes'],
    async run(ctx: CheckContext) {
      const created = await createTask(ctx, 'completes', { ttl: SHORT_TTL_MS });
      const { get, create, gone } = await grantedTtl(ctx, created.taskId, created.task);
      if (gone)
        return `requested ttl ${SHORT_TTL_MS} ms: CreateTaskResult ttl ${short(create)}, but the task was gone at the next tasks/get (${gone.code} ${short(gone.message)})`;
      const verdict = (v: unknown) =>
        v === SHORT_TTL_MS ? 'honoured' : v === null ? 'overridden to null (unlimited)' : v === undefined ? 'absent' : `overridden to ${short(v)}`;
      const parts = [`requested ttl ${SHORT_TTL_MS} ms: CreateTaskResult ttl ${verdict(create)}, tasks/get ttl ${verdict(get)}`];
      if (create !== undefined && get !== undefined && create !== get)
        parts.push(`(CreateTaskResult and tasks/get disagree: ${short(create)} vs ${short(get)})`);
      return parts.join(' ');
    },
  }),

  // SHOULD enforce a maximum ttl: a 10-year request granted as is, or a null (unlimited) ttl, warns
  // (RULINGS.md#ttl-null: null passes ttl-actual-in-get but warns here). The reference receiver with
  // `--max-ttl 400000000000` (above ten years) warns here too (suites/receiver/checks-c.test.ts).
  // A ten-year timer can hurt a target (a store that cannot arm it): this runs last, on its own connection.
  defineCheck({
    id: 'ttl.max-enforced',
    title: 'A ten-year ttl request is capped; no task gets an unlimited (null) ttl',
    section: SECTION,
    requirements: ['resource-max-ttl'],
    level: 'SHOULD',
    killedBy: ['ttl-uncapped'],
    clientReceiver: 'sends a task-augmented tools/call directly',
    needs: ['completes'],
    needsCapabilities: ['tasks.requests.tools.call'],
    loadsTarget: true,
    opensConnections: 1,
    async run(ctx: CheckContext) {
      const tool = ctx.tool('completes');
      const problems: string[] = [];
      const seen: string[] = [];
      const s = await ctx.openSession();
      // A target may also refuse an excessive ttl outright: an error is a way of enforcing the maximum.
      const huge = await s.request('tools/call', { name: tool.name, arguments: tool.arguments ?? {}, task: { ttl: TEN_YEARS_MS } });
      if (huge.error) {
        seen.push(`ttl ${TEN_YEARS_MS} refused with ${huge.error.code} ${short(huge.error.message)}`);
      } else {
        const t = huge.result?.task;
        if (!t || typeof t.taskId !== 'string')
          ctx.skip(`task-augmented tools/call with ttl ${TEN_YEARS_MS} answered no CreateTaskResult (got ${short(huge.result)})`, {
            judgedBy: 'creation.create-task-result',
          });
        const { ttl, get, create, gone } = await grantedTtl(ctx, t.taskId, t, s);
        if (gone)
          seen.push(
            `requested ${TEN_YEARS_MS} ms (10 years) → CreateTaskResult ttl ${short(create)}, but the task was gone at the next tasks/get (${gone.code} ${short(gone.message)}): nothing is retained, and the ttl reported was not the actual one (ttl-actual-in-get: judged by ttl.retained-until-expiry)`,
          );
        else seen.push(`requested ${TEN_YEARS_MS} ms (10 years) → granted ${short(ttl)}`);
        if (gone) {
          /* not retained at all: nothing kept indefinitely */
        } else if (ttl === undefined)
          ctx.skip(
            `target reported no ttl for task ${t.taskId} (CreateTaskResult ${short(create)}, tasks/get ${short(get)}); ttl presence is judged by the get checks`,
          );
        if (ttl === null) problems.push(`a requested ttl of ${TEN_YEARS_MS} ms (10 years) was granted as null (unlimited retention)`);
        else if (typeof ttl === 'number' && ttl >= TEN_YEARS_MS)
          problems.push(`a requested ttl of ${TEN_YEARS_MS} ms (10 years) was granted as ${ttl} ms: no maximum ttl enforced`);
      }
      const plain = await createTask(ctx, 'completes', { peer: s, task: {} });
      const { ttl: dflt, gone: plainGone } = await grantedTtl(ctx, plain.taskId, plain.task, s);
      seen.push(plainGone ? `no ttl requested → gone at the next tasks/get (${plainGone.code})` : `no ttl requested → granted ${short(dflt)}`);
      if (!plainGone && dflt === null) problems.push('a task created without a requested ttl was granted null (unlimited retention)');
      ctx.expect(problems.length === 0, `${problems.join('; ')} (resource-max-ttl; RULINGS.md#ttl-null)`);
      return seen.join('; ');
    },
  }),

  // MUST report the actual ttl: a task that vanishes while the ttl it reported has not elapsed did not have
  // that ttl. "Not found" is legitimate only after createdAt + ttl (or after cancellation, not used here).
  // A second task asks for a ttl beyond 2^31-1 ms (about 24.8 days): a store that hands a granted ttl that
  // long to setTimeout sees the timer fire at once and deletes the task (seen in SDK task stores); a target
  // that caps such a ttl leaves that part not exercised.
  defineCheck({
    id: 'ttl.retained-until-expiry',
    title: `A completed task stays retrievable for ${RETAIN_WATCH_MS} ms while its reported ttl (short, or beyond 2^31-1 ms) has not elapsed`,
    section: SECTION,
    requirements: ['ttl-actual-in-get'],
    level: 'MUST',
    clientReceiver: true,
    killedBy: ['deleted-early', 'ttl-timer-overflow', 'ttl-counts-down'],
    needs: ['completes'],
    waitsMs: () => RETAIN_WATCH_MS,
    async run(ctx: CheckContext) {
      const [brief, long] = await Promise.all([
        watchRetained(ctx, RETAIN_TTL_MS),
        watchRetained(ctx, LONG_TTL_MS).catch((e: unknown) => {
          if (e instanceof NotExercised) return `the ttl beyond 2^31-1 ms was not exercised: ${e.message}`;
          throw e;
        }),
      ]);
      return `${brief}; ${long}`;
    },
  }),

  // MAY delete after ttl: reports whether the task was gone after its lifetime. Info only.
  defineCheck({
    id: 'ttl.expired-deleted',
    title: 'After its ttl elapsed, a task may be deleted (reported)',
    section: SECTION,
    requirements: ['ttl-delete-after-expiry-may'],
    level: 'MAY',
    killedBy: [],
    clientReceiver: true,
    needs: ['completes'],
    waitsMs: () => SHORT_TTL_MS,
    timeoutMs: EXPIRY_CHECK_TIMEOUT_MS,
    async run(ctx: CheckContext) {
      const o = await observeExpiry(ctx);
      if (o.error)
        return `task ${o.taskId} (ttl ${o.ttl} ms) answered error ${o.error.code} ${short(o.error.message)} ${o.goneAfterMs} ms after its ttl elapsed: deleted`;
      return `task ${o.taskId} (ttl ${o.ttl} ms) was still retained ${o.lastProbeAfterMs} ms after its ttl elapsed (status ${short(o.retained?.status)}): not deleted (allowed)`;
    },
  }),

  // SHOULD clean up expired tasks promptly: still answered CLEANUP_GRACE_MS after ttl → warn (RULINGS.md#expired-cleanup-promptly).
  defineCheck({
    id: 'ttl.expired-cleaned-up',
    title: `A task is gone (tasks/get errors) within ${CLEANUP_GRACE_MS} ms after its short ttl elapsed`,
    section: SECTION,
    requirements: ['resource-cleanup-expired'],
    level: 'SHOULD',
    killedBy: ['expired-retained'],
    clientReceiver: true,
    needs: ['completes'],
    waitsMs: () => SHORT_TTL_MS,
    timeoutMs: CLEANUP_CHECK_TIMEOUT_MS,
    async run(ctx: CheckContext) {
      const o = await observeExpiry(ctx, CLEANUP_GRACE_MS);
      ctx.expect(
        o.error !== undefined,
        `task ${o.taskId} with ttl ${o.ttl} ms was still returned by tasks/get ${o.lastProbeAfterMs} ms after its ttl elapsed (status ${short(o.retained?.status)}); expired tasks should be cleaned up promptly (RULINGS.md#expired-cleanup-promptly)`,
      );
      return `task ${o.taskId} (ttl ${o.ttl} ms) gone ${o.goneAfterMs} ms after its ttl elapsed`;
    },
  }),

  // MUST: an expired (purged) task is a nonexistent taskId → -32602 in tasks/get, tasks/result and
  // tasks/cancel (errors-invalid-taskid-32602; examples at tasks.md 807-822). A target that keeps the
  // task is not judged here (MAY delete).
  defineCheck({
    id: 'ttl.expired-error-code',
    title: 'An expired and deleted task answers -32602 in tasks/get, tasks/result and tasks/cancel',
    section: SECTION,
    requirements: ['errors-invalid-taskid-32602'],
    level: 'MUST',
    killedBy: ['unknown-task-32603'],
    clientReceiver: true,
    needs: ['completes'],
    waitsMs: () => SHORT_TTL_MS,
    timeoutMs: EXPIRY_CHECK_TIMEOUT_MS,
    async run(ctx: CheckContext) {
      const o = await observeExpiry(ctx);
      if (!o.error)
        ctx.skip(
          `target still retains task ${o.taskId} ${o.lastProbeAfterMs} ms after its ttl of ${o.ttl} ms (deleting is a MAY), so no expired-task error was seen`,
        );
      const problems: string[] = [];
      const seen: string[] = [`tasks/get → ${o.error.code}`];
      if (o.error.code !== -32602) problems.push(`tasks/get of expired task ${o.taskId} answered ${o.error.code} ${short(o.error.message)}, expected -32602`);
      const methods = ['tasks/result', ...(ctx.info.serverCapabilities?.tasks?.cancel ? ['tasks/cancel'] : [])];
      for (const method of methods) {
        const r = await ctx.peer.request(method, { taskId: o.taskId });
        if (r.error) {
          seen.push(`${method} → ${r.error.code}`);
          if (r.error.code !== -32602)
            problems.push(`${method} of expired task ${o.taskId} answered ${r.error.code} ${short(r.error.message)}, expected -32602`);
        } else {
          // tasks/get already said "gone"; a result here is odd but not this requirement's business.
          ctx.note(`${method} of the expired task still answered a result (${short(r.result, 120)}) although tasks/get answered ${o.error.code}`);
        }
      }
      ctx.expect(problems.length === 0, problems.join('; '));
      return `expired task ${o.taskId} (ttl ${o.ttl} ms): ${seen.join(', ')}`;
    },
  }),
];
