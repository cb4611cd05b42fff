// Running one check: its context (verdicts, budget, connections, the tasks it created), its verdict from
// what it threw, and what it leaves behind (its tasks cancelled, its connections closed, the target's
// health). The check object is check.ts.
import type { Peer, Scope } from '../wire/peer.ts';
import { errorText, idKey, requestOn, WireClosedError, WireTimeoutError, type TranscriptEntry } from '../wire/peer.ts';
import { isTerminal } from '../../schema/protocol.ts';
import {
  checkBudgetMs,
  hasPath,
  NotExercised,
  notExercisedText,
  scaledBound,
  severity,
  verdicts,
  Violation,
  type CheckContext,
  type CheckDef,
  type CheckResult,
  type CreatedRef,
  type OutsideFinding,
  type RunState,
  type Status,
  type TargetConnector,
  type TargetDown,
  type TargetInfo,
  type TaskSlots,
} from './check.ts';
import type { RunOptions } from './options.ts';
import { budgetGrowth } from '../judge/pacing.ts';

/** The check's budget ran out while it was still running (the engine's own timer, not a request's bound). */
class BudgetSpent extends Error {
  constructor(readonly limitMs: number) {
    super(`the check's budget of ${limitMs} ms ran out`);
    this.name = 'BudgetSpent';
  }
}

/**
 * Runs one check against an open shared connection. Never throws; always returns a result. Time is never a
 * verdict by itself (RULINGS.md#response-time): a request unanswered within its bound, or the check's budget
 * spent, ends the check as not exercised (timed out); a check whose requirement is about answering or blocking
 * catches the timeout itself and decides from what it observes.
 */
export async function runCheck(
  def: CheckDef,
  shared: Peer,
  info: TargetInfo,
  connector: TargetConnector,
  options: RunOptions,
  history: () => readonly CheckResult[] = () => [],
  run: RunState = { health: {} },
): Promise<CheckResult> {
  const opens = { n: 0 };
  try {
    return await runOne(def, shared, info, connector, options, history, run, opens);
  } finally {
    // The connections it might have opened and did not will not be asked for (connector.expect).
    const unused = (def.opensConnections ?? 0) - opens.n;
    if (unused > 0) connector.expect?.(-unused);
  }
}

async function runOne(
  def: CheckDef,
  shared: Peer,
  info: TargetInfo,
  connector: TargetConnector,
  options: RunOptions,
  history: () => readonly CheckResult[],
  run: RunState,
  opens: { n: number },
): Promise<CheckResult> {
  const started = Date.now();
  let waitedMs = 0; // a runsLast check's wait for the others: not its own time (durationMs)
  const scope = shared.scope(def.id);
  const extra: { peer: Peer; scope: Scope }[] = [];
  const notes: string[] = [];
  const outside: OutsideFinding[] = [];
  const created: CreatedRef[] = [];
  const base = { id: def.id, title: def.title, section: def.section, requirements: def.requirements, level: def.level };

  const finish = (status: Status, message: string, more: Partial<CheckResult> = {}): CheckResult => {
    const transcript = [
      ...scope.transcript,
      ...extra.flatMap((e) => e.peer.transcript.map((t) => ({ ...t, connection: e.scope.label, note: t.note ?? `session ${e.scope.label}` }))),
    ];
    transcript.sort((a, b) => a.time.localeCompare(b.time) || a.seq - b.seq);
    const r: CheckResult = {
      ...base,
      status,
      message: [message, ...notes].filter(Boolean).join('; '),
      durationMs: Date.now() - started - waitedMs,
      transcript,
    };
    for (const [k, v] of Object.entries(more)) if (v !== undefined) (r as any)[k] = v;
    if (outside.length) r.outside = [...outside];
    if (run.limit?.check === def.id) r.limitObserved = run.limit.what;
    const learned = run.slots?.learned?.();
    if (learned && JSON.stringify(learned) !== run.learnedShown) {
      run.learnedShown = JSON.stringify(learned);
      r.limitLearned = learned;
    }
    return r;
  };
  const freeSlot = (c: CreatedRef) => {
    if (!c.slot) return;
    c.slot = false;
    c.unhold?.();
    slots?.release(c.peer.peer);
  };
  const notRunning = () => {
    const down = run.health.down!;
    return finish('skip', `not exercised: target not running since ${down.check} (${down.reason})`, { cause: `target not running since ${down.check}` });
  };

  if (run.health.down) return notRunning();
  const unmet = unmetPrecondition(def, info);
  if (unmet) return finish('skip', `not exercised: ${unmet}`);

  const limit = checkBudgetMs(def, options, info);
  const bound = (ms: number, roundTrips = 2) => scaledBound(ms, options, info, roundTrips);
  // Connections being opened for the check, and whether it ended. The time spent opening them (a new process
  // starting on a loaded machine) is added to the budget: it is the machine's, not the check's, and each
  // opening is bounded by the connector's own start-up bound. So is a runsLast check's wait for the others.
  const state = { opening: 0, paused: 0, pausedSince: 0, ended: false, extendedMs: 0, grownMs: 0, resumed: () => {} };
  const pause = () => {
    if (state.paused++ === 0) state.pausedSince = Date.now();
    return () => {
      if (--state.paused > 0) return;
      state.extendedMs += Date.now() - state.pausedSince;
      state.resumed();
    };
  };
  const deadline = () => started + limit + state.extendedMs;
  const slots = def.loadsTarget || !run.slots ? undefined : checkSlots(run.slots, def.waitsMs?.(info.profile) ?? 0, pause, limit);
  // A runsLast check: whether it may read the run (no barrier: it already runs after the others), and the barrier it passed.
  let mayRead = !run.barrier;
  let passed: RunState['barrier'];
  const ctx = checkContext();

  let result: CheckResult;
  try {
    const observed = await withinBudget(def.run(ctx), deadline, state);
    result = finish(def.level === 'MAY' ? 'info' : 'pass', observed ?? '');
  } catch (e) {
    const waitingForConnection = e instanceof BudgetSpent && state.opening > 0;
    result = waitingForConnection
      ? finish('skip', notExercisedText(`a connection of the check's own was still opening when its budget (${limit} ms) ran out`, true), {
          cause: 'opening a new connection to the target took longer than a check',
          timedOut: true,
        })
      : await judgeError(e);
  } finally {
    state.ended = true;
  }
  await passed?.judged(def.id);
  result = await withTargetDown(result);
  await cleanUp();
  return result;

  /** What the check sees (CheckContext): the target, its budget, its connections, the run's task slots, its verdicts. */
  function checkContext(): CheckContext {
    return {
      def,
      info,
      options,
      get deadline() {
        return deadline();
      },
      bound,
      taskSlots: slots,
      created,
      finished(taskId) {
        for (const c of created) if (c.taskId === taskId) freeSlot(c);
      },
      hold(ref) {
        created.push(ref);
        if (!ref.slot || !run.slots) return;
        // Asked while another check waits for a slot: one tasks/get outside the check's transcript.
        const stillLive = async () => {
          if (ref.peer.peer.closed) return false;
          const g = await requestOn(ref.peer.peer, 'tasks/get', { taskId: ref.taskId }, { timeoutMs: bound(2_000) });
          return !g.error && !isTerminal(g.result?.status);
        };
        ref.unhold = run.slots.hold(stillLive, () => freeSlot(ref));
      },
      limitSeen(what) {
        if (run.limit) return;
        run.limit = { check: def.id, what };
      },
      pace(waitMs, what) {
        const g = budgetGrowth(waitMs, state.grownMs, limit);
        if (g.exceeds)
          throw new NotExercised(`${what}: ${g.exceeds}`, {
            cause: "the target's pollInterval or Retry-After does not fit the check's budget",
            timedOut: true,
          });
        state.grownMs += g.growMs;
        state.extendedMs += g.growMs;
        return g.growMs;
      },
      peer: scope,
      connector,
      async openSession(opts) {
        let peer: Peer;
        state.opening++;
        const resume = pause();
        try {
          const { revision, ...rest } = opts ?? {};
          const via = revision === undefined || revision === info.revision ? connector : connector.otherRevisions?.[revision];
          if (!via) throw new NotExercised(`no ${revision} connection can be opened from a ${info.revision} session`);
          if (via === connector) opens.n++;
          peer = await via.open(rest);
        } catch (e) {
          if (e instanceof NotExercised) throw e;
          // A connection of the check's own is a precondition; a target that is gone is the run's finding (judgeError).
          if (await detectDown(shared, e)) throw e;
          // An initialize unanswered within its bound is time, not a finding (RULINGS.md#response-time).
          throw new NotExercised(`could not open a connection of its own: ${errorText(e)}`, {
            cause: 'opening a new connection to the target failed',
            timedOut: e instanceof WireTimeoutError,
          });
        } finally {
          state.opening--;
          resume();
        }
        // Opened after the check had ended: nobody will use it.
        if (state.ended) {
          await peer.close();
          throw new NotExercised('the check ended while its connection was opening');
        }
        const s = peer.scope(`${def.id}#${extra.length + 2}`);
        extra.push({ peer, scope: s });
        return s;
      },
      tool(role) {
        const t = info.profile.tools[role];
        if (!t) throw new NotExercised(info.missingRoles[role] ?? `target has no tool for role ${role}`);
        return t;
      },
      taskSupport(name) {
        const t = info.tools.find((x) => x?.name === name);
        return t?.execution?.taskSupport;
      },
      ...verdicts(notes, outside),
      history() {
        if (def.runsLast && !mayRead) throw new Error(`${def.id} reads the run before ctx.othersDone()`);
        return history();
      },
      async othersDone() {
        if (!def.runsLast) throw new Error(`${def.id} is not runsLast: it cannot wait for the others`);
        const barrier = run.barrier;
        if (mayRead || !barrier) return void (mayRead = true);
        const resume = pause();
        const since = Date.now();
        try {
          await barrier.reached(def.id, () => finish('skip', 'judging'));
        } finally {
          resume();
          waitedMs += Date.now() - since;
        }
        passed = barrier;
        mayRead = true;
      },
    };
  }

  /** A target that stopped running while (or right after) the check ran: said once, on this check. */
  async function withTargetDown(r: CheckResult): Promise<CheckResult> {
    if (r.targetDown || run.health.down) return r;
    const down = await detectDown(shared, undefined);
    return down && !run.health.down ? { ...r, targetDown: (run.health.down = describeDown(def.id, down, shared, bound(DOWN_WINDOW_MS, 0))) } : r;
  }

  async function judgeError(e: unknown): Promise<CheckResult> {
    if (e instanceof NotExercised)
      return finish('skip', notExercisedText(`${e.message}${e.judgedBy ? ` (judged by ${e.judgedBy})` : ''}`, e.timedOut), {
        cause: e.cause,
        judgedBy: e.judgedBy,
        ...(e.timedOut ? { timedOut: true as const } : {}),
      });
    if (e instanceof Violation) return finish(e.status ?? severity(def.level), e.message, { cause: e.cause });
    // The target stopped running: not a violation of this check's requirement, but a finding of the run.
    if (run.health.down) return notRunning();
    const down = await detectDown(shared, e);
    if (run.health.down) return notRunning(); // another check noticed first
    if (down) {
      const d = (run.health.down = describeDown(def.id, down, shared, bound(DOWN_WINDOW_MS, 0)));
      return finish('skip', `not exercised: the target stopped running during this check (${down})`, {
        targetDown: d,
        cause: `target not running since ${def.id}`,
      });
    }
    // A connection of this check's own (a process of its own over stdio) ended: a crash of the target, not of the run.
    const own = extra.find((x) => x.peer.closed && !x.peer.closed.startsWith('closed by us'));
    if (own) {
      const d = { ...describeDown(def.id, own.peer.closed!, own.peer), connectionOnly: true };
      return finish('skip', `not exercised: the target's connection for this check closed (${own.peer.closed})`, {
        targetDown: d,
        cause: `the target crashed during ${def.id}`,
      });
    }
    // One exchange broken in transport (a connection reset, "fetch failed: other side closed") while the target
    // still answers ping (detectDown above): a precondition that failed, like a timeout, not a violation of this
    // check's requirement. A check whose requirement is about that very answer catches the error itself.
    if (!(e instanceof WireClosedError) && DEAD.test(errorText(e)))
      return finish('skip', `not exercised: a request failed in transport while the target still answered (${errorText(e)})`, {
        cause: 'a request failed in transport (the target still answered ping)',
      });
    const stderr = shared.stderr ? ` — target stderr (tail): ${shared.stderr.slice(-500).trim()}` : '';
    // What the transport saw meanwhile (e.g. output that is not JSON-RPC) explains many a missing answer.
    const transportErrors = [...new Set(scope.transcript.filter((t) => t.note?.startsWith('transport error')).map((t) => t.note))].slice(-3);
    const seen = transportErrors.length ? ` — meanwhile: ${transportErrors.join('; ')}` : '';
    // Output the transport could not read is the target's finding; a missing answer alone is time (RULINGS.md#response-time).
    if ((e instanceof WireTimeoutError || e instanceof BudgetSpent) && transportErrors.length)
      return finish(severity(def.level), `target did not answer: ${e.message}${seen}${stderr}`, {
        cause: 'the target wrote output the transport could not read',
      });
    // A target that answers not even a ping stopped answering altogether: the run's finding (like a crash), not a slow answer.
    if (e instanceof WireTimeoutError || e instanceof BudgetSpent) {
      const hung = await detectHang(shared, options.requestTimeoutMs + bound(0));
      if (run.health.down) return notRunning();
      if (hung) {
        const d = (run.health.down = describeDown(def.id, `the target stopped answering: ${e.message}, and ${hung}`, shared, bound(DOWN_WINDOW_MS, 0)));
        return finish('skip', notExercisedText(`the target stopped answering during this check (${e.message}; ${hung})`, true), {
          targetDown: d,
          cause: `target not running since ${def.id}`,
          timedOut: true,
        });
      }
    }
    if (e instanceof WireTimeoutError)
      return finish('skip', notExercisedText(`the target did not answer: ${e.message}${stderr}`, true), {
        cause: 'the target did not answer within the bound',
        timedOut: true,
      });
    if (e instanceof BudgetSpent)
      return finish('skip', notExercisedText(`${e.message} before the check could decide${stderr}`, true), {
        cause: "a check's budget ran out before it could decide",
        timedOut: true,
      });
    // HTTP 429 that outlasted the transport's backoff (suites/wire/connect.ts): a rate limit is back-pressure, never a
    // verdict (the page names no signal for it, tasks.md:881).
    if (httpStatusOf(e) === 429)
      return finish('skip', notExercisedText(`the target kept answering HTTP 429 (rate limited) after the suite backed off: ${errorText(e)}`), {
        cause: 'the target rate-limited the suite (HTTP 429)',
      });
    // The target answered what the check could not read: a finding against the requirement under check.
    if (e instanceof WireClosedError) return finish(severity(def.level), `${e.message}${stderr}`);
    return finish(severity(def.level), `check could not complete: ${errorText(e)}${stderr}`);
  }

  async function cleanUp(): Promise<void> {
    // Finish what the check created: cancel its unfinished tasks (bounded; best effort), then free their slots.
    // 2025-11-25: when the receiver declares tasks.cancel; 2026-07-28 (cancelsTasks): tasks/cancel is one of the extension's three methods.
    const canCancel = info.cancelsTasks ?? hasPath(info.serverCapabilities, 'tasks.cancel');
    // Once the target's limit was learned, every task the check leaves running is ended (it holds a place the
    // others wait for); else those of the long-running roles.
    const ending = (c: CreatedRef) => c.cancelAtEnd || (c.slot && run.slots?.learned?.() !== undefined);
    if (!run.health.down && created.some(ending) && canCancel) {
      const quiet = shared.scope(`${def.id} cleanup`);
      await Promise.all(
        created.filter(ending).map(async ({ taskId, peer }) => {
          const via = peer.peer === shared ? quiet : peer;
          if (via.peer.closed) return;
          try {
            const g = await requestOn(via, 'tasks/get', { taskId }, { timeoutMs: bound(2_000) });
            const st = g.result?.status;
            if (st === 'working' || st === 'input_required') await requestOn(via, 'tasks/cancel', { taskId }, { timeoutMs: bound(2_000) });
          } catch {
            /* cleanup is best effort */
          }
        }),
      );
      quiet.close();
    }
    for (const c of created) freeSlot(c);
    scope.close();
    await Promise.all(extra.map((x) => x.peer.close()));
  }
}

/** Why a check does not apply to the target or cannot run on it (a role or a capability missing), or undefined. */
function unmetPrecondition(def: CheckDef, info: TargetInfo): string | undefined {
  const notApplicable = def.notApplicable?.(info);
  if (notApplicable) return notApplicable;
  const missing = (def.needs ?? []).filter((r) => !info.profile.tools[r]);
  if (missing.length) return missing.map((r) => info.missingRoles[r] ?? `target has no tool for role ${r}`).join('; ');
  for (const cap of def.needsCapabilities ?? []) if (!hasPath(info.serverCapabilities, cap)) return `target does not declare capability ${cap}`;
  return undefined;
}

/** The check's run, or BudgetSpent once `deadline()` passes while nothing pauses its budget (a connection of its own opening, the wait for the others). */
async function withinBudget<T>(running: Promise<T>, deadline: () => number, state: { paused: number; resumed: () => void }): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const started = Date.now();
  try {
    return await Promise.race([
      running,
      new Promise<never>((_, reject) => {
        const arm = () => {
          const left = deadline() - Date.now();
          if (left > 0) timer = setTimeout(arm, left);
          else if (state.paused > 0) state.resumed = arm;
          else reject(new BudgetSpent(Date.now() - started));
        };
        arm();
      }),
    ]);
  } finally {
    clearTimeout(timer);
    state.resumed = () => {};
  }
}

/** The HTTP status of a transport error that carries one (the SDK's StreamableHTTPError: `code`), else undefined. */
function httpStatusOf(e: unknown): number | undefined {
  const code = (e as { code?: unknown } | undefined)?.code;
  if (typeof code === 'number' && code >= 400 && code < 600) return code;
  const m = /\bHTTP (\d{3})\b|Error POSTing to endpoint \(HTTP (\d{3})\)/.exec(errorText(e));
  return m ? Number(m[1] ?? m[2]) : undefined;
}

const DEAD = /fetch failed|ECONNREFUSED|ECONNRESET|EPIPE|socket hang up|other side closed|UND_ERR_SOCKET/i;

/** Why the shared connection's target is not running any more, or undefined if it still is. */
async function detectDown(shared: Peer, e: unknown): Promise<string | undefined> {
  if (shared.closed && !shared.closed.startsWith('closed by us')) return shared.closed;
  const text = e === undefined ? '' : errorText(e);
  if (!(e instanceof WireClosedError) && !DEAD.test(text)) return undefined;
  // One request on the shared connection tells whether the target is gone or only that exchange failed.
  try {
    await shared.request('ping', undefined, { timeoutMs: 2_000 });
    return undefined;
  } catch (p) {
    if (shared.closed && !shared.closed.startsWith('closed by us')) return shared.closed;
    const pt = errorText(p);
    return DEAD.test(pt) ? `${text || pt}` : undefined;
  }
}

/**
 * Whether the shared connection's target answers nothing any more: a ping (which every MCP peer answers at
 * once, basic/utilities/ping) unanswered within `ms`. Any answer, an error too, is life.
 */
async function detectHang(shared: Peer, ms: number): Promise<string | undefined> {
  if (shared.closed) return undefined;
  try {
    await shared.request('ping', undefined, { timeoutMs: ms });
    return undefined;
  } catch (p) {
    return p instanceof WireTimeoutError ? `a ping on the shared connection got no answer within ${ms} ms` : undefined;
  }
}

/** What a stderr says when a process died writing to a stream or socket the other side had closed. */
const CLOSED_STREAM = /write after end|ERR_STREAM|EPIPE|ECONNRESET|socket hang up|aborted|premature close|closed|destroyed|Cannot set headers/i;

/**
 * The finding on the check whose disconnect the target's death followed (TargetDown.afterDisconnect), when the
 * evidence points there: a stderr that names a write to a closed stream, or no stderr to say otherwise (an HTTP
 * target the run did not start). The receiver stopped serving after a requestor disconnected: disconnecting is not
 * cancelling (transports.md), still less a reason to stop serving. Undefined: the evidence points elsewhere.
 */
export function afterDisconnectFinding(r: CheckResult, down: TargetDown): CheckResult | undefined {
  const d = down.afterDisconnect;
  if (!d || d.check !== r.id || down.connectionOnly) return undefined;
  const stderr = down.stderrTail.trim();
  const named = stderr.split('\n').find((l) => CLOSED_STREAM.test(l));
  if (stderr && !named) return undefined;
  return {
    ...r,
    status: severity(r.level),
    message: `the receiver stopped serving after this check disconnected from a stream (${d.what}, at ${d.at}; its last answer ${d.msBeforeLastAnswer} ms later): ${down.reason}${named ? `; its stderr: ${named.trim().slice(0, 200)}` : ''}. Disconnecting is not cancelling (transports.md), still less a reason to stop serving (before: ${r.status} — ${r.message})`,
    cause: 'the receiver stopped serving after a requestor disconnected',
  };
}

/** How far back before a target's last answer the actions of every check are named (scaled: bound(DOWN_WINDOW_MS)). */
export const DOWN_WINDOW_MS = 10_000;

/**
 * The target stopped: where it was noticed, why, the last messages, the last action of every check within `windowMs`
 * before its last answer (not only the check that happened to notice), its stderr, and a disconnect in that window
 * (ours: Peer.dropResponse), the evidence that the receiver died of a requestor disconnecting (transports.md:
 * disconnecting is not cancelling).
 */
function describeDown(check: string, reason: string, peer: Peer, windowMs = DOWN_WINDOW_MS): TargetDown {
  const line = (t: TranscriptEntry) => {
    const m = t.message as any;
    const what = m ? (m.method ?? (m.error ? `error ${m.error.code} ${m.error.message}` : 'result')) + (m.id !== undefined ? ` id=${m.id}` : '') : t.note;
    return `${t.time} ${t.dir} ${String(what).slice(0, 160)}`;
  };
  const entries = peer.transcript;
  const lastMessages = entries
    .filter((t) => t.message !== undefined || t.note)
    .slice(-6)
    .map(line);
  const lastIn = [...entries].reverse().find((t) => t.dir === 'in');
  const since = (lastIn?.ms ?? 0) - windowMs;
  // The last action of each check in the window: a request it sent, or a stream it dropped.
  const last = new Map<string, TranscriptEntry>();
  let disconnect: { entry: TranscriptEntry; check: string } | undefined;
  for (const t of entries) {
    if (t.ms < since) continue;
    const m = t.message as any;
    const key =
      t.dir === 'out' && m && typeof m.method === 'string' && m.id !== undefined
        ? idKey(m.id)
        : /^dropped the HTTP response of .* id=(\S+)/.exec(t.note ?? '')?.[1];
    const owner = key !== undefined ? peer.ownerOf(key) : undefined;
    if (!owner) continue;
    last.set(owner, t);
    if (t.dir === 'event') disconnect = { entry: t, check: owner.replace(/ cleanup$/, '') };
  }
  const recentActions = [...last].sort(([, a], [, b]) => a.ms - b.ms).map(([owner, t]) => `${line(t)} (${owner})`);
  const afterDisconnect =
    disconnect !== undefined
      ? {
          check: disconnect.check,
          at: disconnect.entry.time,
          msBeforeLastAnswer: Math.max(0, (lastIn?.ms ?? disconnect.entry.ms) - disconnect.entry.ms),
          what: disconnect.entry.note!,
        }
      : undefined;
  return {
    check,
    reason,
    lastMessages,
    stderrTail: peer.stderr.slice(-1000).trim(),
    ...(recentActions.length ? { recentActions, windowMs } : {}),
    ...(afterDisconnect ? { afterDisconnect } : {}),
  };
}

/**
 * The run's slots as one check takes them: at its priority (the longer it waits on timers, the sooner it gets a
 * freed slot). A check that holds no slot waits for one without spending its budget (`pause`), for up to one
 * budget more: the pace of a capped target is the run's, not the check's. A check that holds slots waits on its
 * budget (so that two checks each waiting for another's slot cannot wait for ever).
 */
function checkSlots(slots: TaskSlots, priority: number, pause: () => () => void, budgetMs: number): TaskSlots {
  let held = 0;
  return {
    get maxTasks() {
      return slots.maxTasks;
    },
    learned: () => slots.learned?.(),
    async acquire(deadline, _priority, on) {
      const idle = held === 0;
      const resume = idle ? pause() : undefined;
      held++; // counted while it waits: a second creation of the same check does not pause the budget again
      try {
        const ok = await slots.acquire(idle ? Math.max(deadline, Date.now() + budgetMs) : deadline, priority, on);
        if (!ok) held--;
        return ok;
      } catch (e) {
        held--;
        throw e;
      } finally {
        resume?.();
      }
    },
    hold: (stillLive, free) => slots.hold(stillLive, free),
    release(on) {
      held = Math.max(0, held - 1);
      slots.release(on);
    },
    refused: (on, what) => slots.refused(on, what),
  };
}
