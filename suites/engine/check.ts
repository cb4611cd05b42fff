// The check object and how one check runs. Shaped after the official MCP conformance suite's
// check (id, description, status, spec references, details with the messages exchanged) and
// test262's one-requirement-one-small-test metadata.
//
// Facts on the check. Besides what it verifies (`requirements`, `level`), a check states:
// `killedBy`, the faults of the reference receiver (mocks/receiver/faults.ts, type-checked) that make it
// fail (MUST) or warn (SHOULD) — the kill matrix (suites/receiver/faults.test.ts) runs every fault and
// holds each check to exactly that list, so a MUST check has at least one; `level`, the strongest level of
// its requirements (schema/catalog.ts strongestLevel, enforced by suites/checks.test.ts) unless
// `weakerLevel` says why it only reports; where it applies: `notApplicable` (a transport or declared
// capability that rules it out: skip with the reason) and `clientReceiver` (true: also run against clients
// receiving task-augmented sampling/elicitation; a string: why not; absent: not vetted there); `revisions`, the spec revisions it
// judges (default: SPEC_REVISION). Requestor checks (suites/requestor/engine.ts) state `killedBy` against
// the reference client's faults (mocks/client/faults.ts). docs/COVERAGE.md and `mcp-tasks-conformance
// checks` are computed from these facts.
import type { Peer, Scope, TranscriptEntry } from '../wire/peer.ts';
import { WireClosedError, WireTimeoutError } from '../wire/peer.ts';
import { isTerminal, type TaskSupport } from '../../schema/protocol.ts';
import { severity, type Level } from '../../schema/catalog.ts';
import type { OutsideTasksId } from '../../schema/outside-tasks.ts';
import type { Profile, ProfileRole, ProfileTool } from './profile.ts';

export { severity, type Level };
export type Status = 'pass' | 'fail' | 'warn' | 'info' | 'skip';
export type TargetTransport = 'stdio' | 'http' | 'in-process';

export interface CheckDef {
  /** Stable id, `<section>.<what>` e.g. `cancel.terminal-rejected`. */
  id: string;
  /** One line: what the check verifies. */
  title: string;
  /** Spec section (one suites/ file each), e.g. "Task Cancellation". */
  section: string;
  /** Requirement ids from schema/requirements.json. */
  requirements: string[];
  /** MUST → a violation fails, SHOULD → warns, MAY → the check reports (info). */
  level: Level;
  /** Why `level` is weaker than the strongest of `requirements` (the check observes, it cannot judge a violation). */
  weakerLevel?: string;
  /**
   * Reference-receiver faults (mocks/receiver/faults.ts) that make this check fail (MUST) or warn (SHOULD):
   * exactly these (suites/receiver/faults.test.ts); known names only (suites/checks.test.ts). Plain names, so
   * that the judge does not import the mocks.
   */
  killedBy: readonly string[];
  /** A client receiving task-augmented sampling/elicitation: true → the check runs there too; a string → why it does not apply; absent → not vetted. */
  clientReceiver?: true | string;
  /** Spec revisions the check judges (default: [SPEC_REVISION], schema/spec.ts). */
  revisions?: readonly string[];
  /** Profile roles the check needs; missing → skip ("not exercised") with the reason. */
  needs?: ProfileRole[];
  /** Server capabilities the check needs (e.g. 'tasks.list'); missing → skip with the reason. */
  needsCapabilities?: string[];
  /** Why its requirements do not apply to this target (e.g. another transport), or undefined when they do; not applicable → skip. */
  notApplicable?: (info: TargetInfo) => string | undefined;
  /** Runs after every other check (e.g. the schema check, which reads their transcripts). */
  runsLast?: boolean;
  /**
   * The check loads the target on purpose (a huge ttl, a flood, many tasks): it runs after the others,
   * one at a time, on its own connection, and is not bound by the run's live-task slots.
   */
  loadsTarget?: boolean;
  /** Longest the check may take (ms, on top of the target's timeouts); defaults to the run's checkTimeoutMs. */
  timeoutMs?: number;
  /**
   * The check. Return normally → pass (MAY checks: info, with the returned observation);
   * `ctx.violation()`/`ctx.expect()` → fail or warn by level; `ctx.skip()` → not exercised.
   */
  run(ctx: CheckContext): Promise<string | void>;
}

export interface CheckResult {
  id: string;
  title: string;
  section: string;
  requirements: string[];
  level: Level;
  status: Status;
  message: string;
  durationMs: number;
  transcript: TranscriptEntry[];
  /** The observed behaviour behind a fail/warn/skip, when it can be shared with other checks (root-cause groups). */
  cause?: string;
  /** Not exercised because of a behaviour that this other check judges. */
  judgedBy?: string;
  /** Set on the check during which the target stopped running (the target-health banner). */
  targetDown?: TargetDown;
  /** Deviations seen along the way from rules outside the Tasks page (schema/outside-tasks.ts): never this check's verdict. */
  outside?: OutsideFinding[];
  /** The receiver's first resource-limit refusal of the run, on the check that saw it (reported once). */
  limitObserved?: string;
}

export interface OutsideFinding {
  id: OutsideTasksId;
  message: string;
}

/** The target stopped running: a stdio process exited, an HTTP endpoint refused or reset, a client exited. */
export interface TargetDown {
  /** The check that was running when it was noticed. */
  check: string;
  reason: string;
  /** The last messages exchanged on the shared connection before (one line each). */
  lastMessages: string[];
  /** The tail of the target's stderr (stdio targets). */
  stderrTail: string;
  /** Only a connection of this check's own ended (a process of its own over stdio); the shared one still runs. */
  connectionOnly?: boolean;
}

/** What the run knows about the target's health; shared by every check of a session. */
export interface TargetHealth {
  down?: TargetDown;
}

/** What a target looks like after initialize + tools/list. */
export interface TargetInfo {
  /** Human label: the command or URL. */
  label: string;
  transport: TargetTransport;
  initializeResult: any;
  serverCapabilities: any;
  tools: any[];
  profile: Profile;
  /** Why each missing role is missing (for skip messages). */
  missingRoles: Partial<Record<ProfileRole, string>>;
  /**
   * Set only when the target is a client receiving task-augmented sampling/createMessage or
   * elicitation/create (suites/requestor/client-receiver.ts): the request for a role, task-augmented
   * when `task` is given. helpers.createTask / helpers.callTool send it instead of tools/call.
   */
  taskRequest?: (role: ProfileRole, task?: Record<string, unknown>) => { method: string; params: Record<string, unknown> };
}

export interface RunOptions {
  /** Bound for one request/response (ms). */
  requestTimeoutMs: number;
  /** Bound for a whole check (ms). */
  checkTimeoutMs: number;
  /** Upper bound on a poll delay even when the target asks for more (ms). */
  maxPollIntervalMs: number;
  /** Most tasks the run keeps live at once (checks that load the target on purpose excepted). */
  maxLiveTasks: number;
}

export const DEFAULT_RUN_OPTIONS: RunOptions = { requestTimeoutMs: 10_000, checkTimeoutMs: 30_000, maxPollIntervalMs: 1_000, maxLiveTasks: 20 };

/** A task a check created, and whether it still holds a live-task slot. */
export interface CreatedRef {
  taskId: string;
  peer: Scope;
  slot: boolean;
  /** Forgets the slot's holder (set by the engine). */
  unhold?: () => void;
  /** Cancelled when the check ends, if still running (long-running roles: slow, needsInput). */
  cancelAtEnd?: boolean;
}

/** A bound on the run's live tasks: a slot per task created, freed when the check that created it ends. */
export interface TaskSlots {
  readonly limit: number;
  /**
   * Waits until a slot is free or `deadline` (epoch ms) passes; false when none freed in time. While
   * waiting it asks the holders whether their tasks still run (a task that ended frees its slot).
   */
  acquire(deadline: number): Promise<boolean>;
  /** Ties the slot just acquired to a task: `stillLive()` answers whether it still runs; `free()` releases the slot. */
  hold(stillLive: () => Promise<boolean>, free: () => void): () => void;
  release(): void;
}

export function taskSlots(limit: number): TaskSlots {
  let used = 0;
  const waiting: (() => void)[] = [];
  const holders = new Set<{ stillLive: () => Promise<boolean>; free: () => void }>();
  let lastReclaim = 0;
  const reclaim = async () => {
    lastReclaim = Date.now();
    await Promise.all([...holders].map(async (h) => ((await h.stillLive().catch(() => true)) ? undefined : h.free())));
  };
  const slots: TaskSlots = {
    limit,
    async acquire(deadline) {
      while (used >= limit) {
        const left = deadline - Date.now();
        if (left <= 0) return false;
        if (Date.now() - lastReclaim > 500) await reclaim();
        if (used < limit) break;
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, Math.min(left, 500));
          waiting.push(() => (clearTimeout(t), resolve()));
        });
      }
      used++;
      return true;
    },
    hold(stillLive, free) {
      const h = { stillLive, free };
      holders.add(h);
      return () => holders.delete(h);
    },
    release() {
      used = Math.max(0, used - 1);
      waiting.shift()?.();
    },
  };
  return slots;
}

/** What a run shares between its checks besides the connection: target health, the live-task bound, the limit seen. */
export interface RunState {
  health: TargetHealth;
  slots?: TaskSlots;
  /** The first resource-limit refusal seen (reported once, on the check that saw it). */
  limit?: { check: string; what: string };
}

/** Opens connections to the target under test. */
export interface TargetConnector {
  readonly transport: TargetInfo['transport'];
  readonly label: string;
  /** A fresh, initialized connection (new process for stdio, new session for HTTP). `identity` picks extra HTTP headers. */
  open(opts?: { identity?: 'primary' | 'secondary'; capabilities?: Record<string, unknown> }): Promise<Peer>;
  /** Whether a distinct second identity (e.g. another bearer token) was configured. */
  readonly hasSecondIdentity: boolean;
}

/** What a verdict may say beyond its message: the shared observed behaviour, for root-cause groups. */
export interface VerdictOptions {
  /** One line naming the observed behaviour (e.g. "ill-typed taskId answered -32603"); equal causes are grouped. */
  cause?: string;
}

export class Violation extends Error {
  readonly cause?: string;
  /** Set by `warn()`: the status regardless of the check's level. */
  readonly status?: 'warn';
  constructor(message: string, opts: VerdictOptions & { status?: 'warn' } = {}) {
    super(message);
    this.name = 'Violation';
    this.cause = opts.cause;
    this.status = opts.status;
  }
}

/**
 * A precondition of the check failed (no task created, a status not reached, a role not behaving as the
 * profile says, the target gone): the check's requirement was not exercised. `judgedBy` names the check
 * that judges the behaviour that got in the way, so it is judged once, there.
 */
export class NotExercised extends Error {
  readonly cause?: string;
  readonly judgedBy?: string;
  constructor(reason: string, opts: VerdictOptions & { judgedBy?: string } = {}) {
    super(reason);
    this.name = 'NotExercised';
    this.cause = opts.cause;
    this.judgedBy = opts.judgedBy;
  }
}

/** The verdict half of a check's context: shared by receiver checks and requestor checks. */
export interface Verdicts {
  /** Records a violation of the check's requirement and ends the check. */
  violation(message: string, opts?: VerdictOptions): never;
  /**
   * Ends the check with `warn` whatever its level: the observation departs from the requirement in a way a
   * ruling (schema/RULINGS.md) says is only worth a warning, e.g. where the page contradicts itself.
   */
  warn(message: string, opts?: VerdictOptions): never;
  /** Violation unless `cond`. */
  expect(cond: unknown, message: string, opts?: VerdictOptions): asserts cond;
  /** Ends the check as not exercised. */
  skip(reason: string, opts?: VerdictOptions & { judgedBy?: string }): never;
  /** Adds a line to the check's message (observations worth reporting even on pass). */
  note(line: string): void;
  /** Records a deviation from a rule outside the Tasks page (own id; reported apart, never this check's verdict). */
  outside(id: OutsideTasksId, message: string): void;
}

/** Verdict methods that throw Violation / NotExercised and collect notes into `notes`. */
export function verdicts(notes: string[], outside: OutsideFinding[] = []): Verdicts {
  return {
    outside(id, message) {
      outside.push({ id, message });
    },
    violation(message, opts) {
      throw new Violation(message, opts);
    },
    warn(message, opts) {
      throw new Violation(message, { ...opts, status: 'warn' });
    },
    expect(cond, message, opts) {
      if (!cond) throw new Violation(message, opts);
    },
    skip(reason, opts) {
      throw new NotExercised(reason, opts);
    },
    note(line) {
      notes.push(line);
    },
  };
}

export interface CheckContext extends Verdicts {
  readonly def: CheckDef;
  readonly info: TargetInfo;
  readonly options: RunOptions;
  /** When the check's budget ends (epoch ms): its start plus `timeoutMs` (or the run's checkTimeoutMs). See arrange/budget.ts. */
  readonly deadline: number;
  /** The run's bound on live tasks (arrange/arrange.ts takes a slot per task it creates). */
  readonly taskSlots?: TaskSlots;
  /** Tasks this check created (arrange/arrange.ts); the unfinished ones are cancelled when the check ends. */
  readonly created: CreatedRef[];
  /** A created task was seen terminal or gone: its live-task slot is free again (arrange/poll.ts calls it). */
  finished(taskId: string): void;
  /** Records a task the check created (arrange/arrange.ts), with the slot it holds. */
  hold(ref: CreatedRef): void;
  /** Records that the receiver refused work with a resource-limit error (reported once per run). */
  limitSeen?(what: string): void;
  /** This check's view of the shared connection. */
  readonly peer: Scope;
  /** A new connection for this check alone (closed when the check ends); its messages join the evidence. */
  openSession(opts?: { identity?: 'primary' | 'secondary'; capabilities?: Record<string, unknown> }): Promise<Scope>;
  readonly connector: TargetConnector;
  /** The profile tool for a role (the check declared it in `needs`). */
  tool(role: ProfileRole): ProfileTool;
  /** `execution.taskSupport` of a tool as listed (absent → undefined). */
  taskSupport(name: string): TaskSupport | undefined;
  /** Results of the checks that finished before this one (the schema check reads their transcripts). */
  history(): readonly CheckResult[];
}

export function defineCheck(def: CheckDef): CheckDef {
  return def;
}

/** Runs one check against an open shared connection. Never throws; always returns a result. */
export async function runCheck(
  def: CheckDef,
  shared: Peer,
  info: TargetInfo,
  connector: TargetConnector,
  options: RunOptions,
  history: () => readonly CheckResult[] = () => [],
  run: RunState = { health: {} },
): Promise<CheckResult> {
  const started = Date.now();
  const scope = shared.scope(def.id);
  const extra: { peer: Peer; scope: Scope }[] = [];
  const notes: string[] = [];
  const outside: OutsideFinding[] = [];
  const created: CreatedRef[] = [];
  const base = { id: def.id, title: def.title, section: def.section, requirements: def.requirements, level: def.level };

  const finish = (status: Status, message: string, more: Partial<CheckResult> = {}): CheckResult => {
    const transcript = [...scope.transcript, ...extra.flatMap((e) => e.peer.transcript.map((t) => ({ ...t, note: t.note ?? `session ${e.scope.label}` })))];
    transcript.sort((a, b) => a.time.localeCompare(b.time) || a.seq - b.seq);
    const r: CheckResult = { ...base, status, message: [message, ...notes].filter(Boolean).join('; '), durationMs: Date.now() - started, transcript };
    for (const [k, v] of Object.entries(more)) if (v !== undefined) (r as any)[k] = v;
    if (outside.length) r.outside = [...outside];
    if (run.limit?.check === def.id) r.limitObserved = run.limit.what;
    return r;
  };
  const freeSlot = (c: CreatedRef) => {
    if (!c.slot) return;
    c.slot = false;
    c.unhold?.();
    run.slots?.release();
  };
  const notRunning = () => {
    const down = run.health.down!;
    return finish('skip', `not exercised: target not running since ${down.check} (${down.reason})`, { cause: `target not running since ${down.check}` });
  };

  if (run.health.down) return notRunning();
  const notApplicable = def.notApplicable?.(info);
  if (notApplicable) return finish('skip', `not exercised: ${notApplicable}`);
  const missing = (def.needs ?? []).filter((r) => !info.profile.tools[r]);
  if (missing.length) {
    const why = missing.map((r) => info.missingRoles[r] ?? `target has no tool for role ${r}`).join('; ');
    return finish('skip', `not exercised: ${why}`);
  }
  for (const cap of def.needsCapabilities ?? []) {
    if (!hasPath(info.serverCapabilities, cap)) return finish('skip', `not exercised: target does not declare capability ${cap}`);
  }

  const limit = def.timeoutMs ?? options.checkTimeoutMs;
  const ctx: CheckContext = {
    def,
    info,
    options,
    deadline: started + limit,
    taskSlots: def.loadsTarget ? undefined : run.slots,
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
        const g = await ref.peer.peer.request('tasks/get', { taskId: ref.taskId }, { timeoutMs: 2_000 });
        return !g.error && !isTerminal(g.result?.status);
      };
      ref.unhold = run.slots.hold(stillLive, () => freeSlot(ref));
    },
    limitSeen(what) {
      if (run.limit) return;
      run.limit = { check: def.id, what };
    },
    peer: scope,
    connector,
    async openSession(opts) {
      let peer: Peer;
      opening++;
      try {
        peer = await connector.open(opts);
      } catch (e) {
        // A connection of the check's own is a precondition; a target that is gone is the run's finding (judgeError).
        if (await detectDown(shared, e)) throw e;
        throw new NotExercised(`could not open a connection of its own: ${errorText(e)}`, { cause: 'opening a new connection to the target failed' });
      } finally {
        opening--;
      }
      // Opened after the check had ended: nobody will use it.
      if (ended) {
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
    history,
  };

  let timer: NodeJS.Timeout | undefined;
  let result: CheckResult;
  // Connections being opened for the check (a budget spent waiting for one is not the target's verdict).
  let opening = 0;
  let ended = false;
  try {
    const observed = await Promise.race([
      def.run(ctx),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new WireTimeoutError(`end of check ${def.id}`, limit)), limit);
      }),
    ]);
    result = finish(def.level === 'MAY' ? 'info' : 'pass', observed ?? '');
  } catch (e) {
    const waitingForConnection = e instanceof WireTimeoutError && e.message.startsWith('no end of check') && opening > 0;
    result = waitingForConnection
      ? finish('skip', `not exercised: a connection of the check's own was still opening when its budget (${limit} ms) ran out`, {
          cause: 'opening a new connection to the target took longer than a check',
        })
      : await judgeError(e);
  } finally {
    ended = true;
    clearTimeout(timer);
  }
  // A target that stopped running while (or right after) the check ran: say so once, on this check.
  if (!result.targetDown && !run.health.down) {
    const down = await detectDown(shared, undefined);
    if (down && !run.health.down) result = { ...result, targetDown: (run.health.down = describeDown(def.id, down, shared)) };
  }
  await cleanUp();
  return result;

  async function judgeError(e: unknown): Promise<CheckResult> {
    if (e instanceof NotExercised)
      return finish('skip', `not exercised: ${e.message}${e.judgedBy ? ` (judged by ${e.judgedBy})` : ''}`, { cause: e.cause, judgedBy: e.judgedBy });
    if (e instanceof Violation) return finish(e.status ?? severity(def.level), e.message, { cause: e.cause });
    // The target stopped running: not a violation of this check's requirement, but a finding of the run.
    if (run.health.down) return notRunning();
    const down = await detectDown(shared, e);
    if (run.health.down) return notRunning(); // another check noticed first
    if (down) {
      const d = (run.health.down = describeDown(def.id, down, shared));
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
    // The target hung or answered garbage: a finding against the requirement under check.
    const stderr = shared.stderr ? ` — target stderr (tail): ${shared.stderr.slice(-500).trim()}` : '';
    // What the transport saw meanwhile (e.g. output that is not JSON-RPC) explains many a missing answer.
    const transportErrors = [...new Set(scope.transcript.filter((t) => t.note?.startsWith('transport error')).map((t) => t.note))].slice(-3);
    const seen = transportErrors.length ? ` — meanwhile: ${transportErrors.join('; ')}` : '';
    // Grouped as one root cause: a target that stops answering, or writes what is not JSON-RPC.
    const cause = transportErrors.length ? 'the target wrote output the transport could not read' : 'the target did not answer within the bound';
    if (e instanceof WireTimeoutError) return finish(severity(def.level), `target did not answer: ${e.message}${seen}${stderr}`, { cause });
    if (e instanceof WireClosedError) return finish(severity(def.level), `${e.message}${stderr}`);
    return finish(severity(def.level), `check could not complete: ${errorText(e)}${stderr}`);
  }

  async function cleanUp(): Promise<void> {
    // Finish what the check created: cancel its unfinished tasks (bounded; best effort), then free their slots.
    if (!run.health.down && created.some((c) => c.cancelAtEnd) && hasPath(info.serverCapabilities, 'tasks.cancel')) {
      const quiet = shared.scope(`${def.id} cleanup`);
      await Promise.all(
        created
          .filter((c) => c.cancelAtEnd)
          .map(async ({ taskId, peer }) => {
            const via = peer.peer === shared ? quiet : peer;
            if (via.peer.closed) return;
            try {
              const g = await via.request('tasks/get', { taskId }, { timeoutMs: 2_000 });
              const st = g.result?.status;
              if (st === 'working' || st === 'input_required') await via.request('tasks/cancel', { taskId }, { timeoutMs: 2_000 });
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

/** Error text with its cause chain (fetch failures put the socket error in `cause`). */
function errorText(e: unknown): string {
  const parts: string[] = [];
  for (let x: any = e, i = 0; x && i < 4; x = x.cause, i++)
    parts.push(x instanceof Error ? x.message : typeof x === 'object' ? (x.code ?? JSON.stringify(x)) : String(x));
  return parts.join(': ');
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

function describeDown(check: string, reason: string, peer: Peer): TargetDown {
  const lastMessages = peer.transcript
    .filter((t) => t.message !== undefined || t.note)
    .slice(-6)
    .map((t) => {
      const m = t.message as any;
      const what = m ? (m.method ?? (m.error ? `error ${m.error.code} ${m.error.message}` : 'result')) + (m.id !== undefined ? ` id=${m.id}` : '') : t.note;
      return `${t.time} ${t.dir} ${String(what).slice(0, 160)}`;
    });
  return { check, reason, lastMessages, stderrTail: peer.stderr.slice(-1000).trim() };
}

export function hasPath(obj: any, path: string): boolean {
  let cur = obj;
  for (const k of path.split('.')) {
    if (cur === null || typeof cur !== 'object' || !(k in cur)) return false;
    cur = cur[k];
  }
  return cur !== undefined && cur !== null && cur !== false;
}
