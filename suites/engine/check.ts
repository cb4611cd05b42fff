// The check object (how one check runs: run-check.ts). Shaped after the official MCP conformance suite's
// check (id, description, status, spec references, details with the messages exchanged) and
// test262's one-requirement-one-small-test metadata.
//
// Facts on the check. Besides what it verifies (`requirements`, `level`), a check states:
// `killedBy`, the faults of the reference receiver (mocks/receiver/faults.ts; names checked by suites/checks.test.ts) that make it
// fail (MUST) or warn (SHOULD) — the kill matrix (suites/receiver/faults.test.ts) runs every fault and
// holds each check to exactly that list, so a MUST check has at least one; `level`, the strongest level of
// its requirements (schema/catalog.ts strongestLevel, enforced by suites/checks.test.ts) unless
// `weakerLevel` says why it only reports; where it applies: `notApplicable` (a transport or declared
// capability that rules it out: skip with the reason) and `clientReceiver` (true: also run against clients
// receiving task-augmented sampling/elicitation; a string: why not; absent: not vetted there); `revisions`, the spec revisions it
// judges (default: SPEC_REVISION). Requestor checks (suites/requestor/engine.ts) state `killedBy` against
// the reference client's faults (mocks/client/faults.ts). docs/COVERAGE.md and `mcp-tasks-conformance
// checks` are computed from these facts.
import type { Peer, Scope } from '../wire/peer.ts';
import type { TaskSupport } from '../../schema/protocol.ts';
import { DEFAULT_RUN_OPTIONS, type RunOptions } from './options.ts';
import { severity, type Level } from '../../schema/catalog.ts';
import type { OutsideTasksId } from '../../schema/outside-tasks.ts';
import type { LearnedLimits, Profile, ProfileRole, ProfileTool } from './profile.ts';
export type { LearnedLimits } from './profile.ts';
import type { Revision } from '../../schema/spec.ts';

import type { CheckResult, OutsideFinding, TargetDown } from './result.ts';

export { severity, type Level };
export type { CheckResult, OutsideFinding, Status, TargetDown } from './result.ts';
export type TargetTransport = 'stdio' | 'http' | 'in-process';

/** What every check names of itself, a receiver check or a requestor check (suites/requestor/engine.ts). */
export interface CheckMetadata {
  /** Stable id, `<section>.<what>` e.g. `cancel.terminal-rejected` (requestor checks: `requestor.<what>`). */
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
  /** Spec revisions the check judges (default: [SPEC_REVISION], schema/spec.ts); a run of one revision runs only its checks (suites/index.ts checksFor). */
  revisions?: readonly Revision[];
}

export interface CheckDef extends CheckMetadata {
  /**
   * Reference-receiver faults (mocks/receiver/faults.ts) that make this check fail (MUST) or warn (SHOULD):
   * exactly these (suites/receiver/faults.test.ts); known names only (suites/checks.test.ts). Plain names, so
   * that the judge does not import the mocks.
   */
  killedBy: readonly string[];
  /** A client receiving task-augmented sampling/elicitation: true → the check runs there too; a string → why it does not apply; absent → not vetted. */
  clientReceiver?: true | string;
  /** Profile roles the check needs; missing → skip ("not exercised") with the reason. */
  needs?: ProfileRole[];
  /** Server capabilities the check needs (e.g. 'tasks.list'); missing → skip with the reason. */
  needsCapabilities?: string[];
  /** Why its requirements do not apply to this target (e.g. another transport), or undefined when they do; not applicable → skip. */
  notApplicable?: (info: TargetInfo) => string | undefined;
  /**
   * Reads the whole run (e.g. the schema check, every transcript): the check may act first, alongside the
   * others, and reads the run (`ctx.history()`, the shared transcript) only after `await ctx.othersDone()`.
   */
  runsLast?: boolean;
  /**
   * The check loads the target on purpose (a huge ttl, a flood, many tasks): it runs after the others,
   * one at a time, on its own connection, and is not bound by the run's live-task slots.
   */
  loadsTarget?: boolean;
  /** Longest the check may take (ms, on top of the target's timeouts); defaults to the run's checkTimeoutMs. */
  timeoutMs?: number;
  /**
   * Scheduling only, never a bound or a verdict: about how long the check waits on timers against a prompt
   * target (ms; its own watches and ttls, the run of a role's tool it waits out: roleRunMs). A run starts the
   * checks that wait longest first, so that they overlap the short ones instead of being the run's tail.
   */
  waitsMs?: (profile: Profile) => number;
  /**
   * Scheduling only, never a bound or a verdict: how many connections of its own (ctx.openSession) the check
   * opens at most on any transport; default 0. Over stdio each is a process, and a run starts processes ahead
   * only for the connections its checks are still to open (runner/spares.ts).
   */
  opensConnections?: number;
  /**
   * The check. Return normally → pass (MAY checks: info, with the returned observation);
   * `ctx.violation()`/`ctx.expect()` → fail or warn by level; `ctx.skip()` → not exercised.
   */
  run(ctx: CheckContext): Promise<string | void>;
}

/** What the run knows about the target's health; shared by every check of a session. */
export interface TargetHealth {
  down?: TargetDown;
}

/** The target's round trip as the pre-flight saw it (runner/target.ts measureLatency). */
export interface TargetLatency {
  /** The slowest of the samples (ms): the bounds of the run grow by it (scaledBound). */
  roundTripMs: number;
  samples: number[];
  /** The request measured: ping, or tools/list for a target that left a ping unanswered. */
  method: 'ping' | 'tools/list';
}

/** What a target looks like after initialize + tools/list. */
export interface TargetInfo {
  /** Human label: the command or URL. */
  label: string;
  transport: TargetTransport;
  /** The revision the target is spoken to in (absent: SPEC_REVISION). */
  revision?: Revision;
  /** 2025-11-25: the initialize result; 2026-07-28 (no handshake): empty. */
  initializeResult: any;
  /** 2026-07-28: the server/discover result (supportedVersions, capabilities, serverInfo). */
  discoverResult?: any;
  /**
   * 2026-07-28: whether the target speaks 2025-11-25 too (an initialize in the pre-flight): true, false (refused),
   * `unanswered` (no answer within its bound, `detail` says which and after how long: not known); absent: not known.
   */
  legacy?: { speaks: boolean | 'unanswered'; detail: string };
  serverCapabilities: any;
  /** The target takes tasks/cancel whatever it declares (a revision whose Tasks define it unconditionally); absent: as its capabilities declare tasks.cancel. */
  cancelsTasks?: boolean;
  tools: any[];
  profile: Profile;
  /** Why each missing role is missing (for skip messages). */
  missingRoles: Partial<Record<ProfileRole, string>>;
  /** Roles whose tool the profile names but the target does not list: role → tool name (a usage error unless allowed: suites/api.ts). */
  unlistedProfileTools?: Partial<Record<ProfileRole, string>>;
  /**
   * Set only when the target is a client receiving task-augmented sampling/createMessage or
   * elicitation/create (suites/requestor/client-receiver.ts): the request for a role, task-augmented
   * when `task` is given. helpers.createTask / helpers.callTool send it instead of tools/call.
   */
  taskRequest?: (role: ProfileRole, task?: Record<string, unknown>) => { method: string; params: Record<string, unknown> };
  /** The round trip measured in the pre-flight (absent: not measured, taken as 0). */
  latency?: TargetLatency;
}

/** How much longer than the defaults the run's bounds are: --timeout against its default, never below 1 (RULINGS.md#response-time). */
export function timeScale(options: Pick<RunOptions, 'requestTimeoutMs'>): number {
  return Math.max(1, options.requestTimeoutMs / DEFAULT_RUN_OPTIONS.requestTimeoutMs);
}

/** Round trips a check's budget allows for on top of its own time: the exchanges of a long check, each paying the target's latency. */
export const BUDGET_ROUND_TRIPS = 40;

/**
 * A bound scaled to the run (RULINGS.md#response-time): `ms`, a wait sized for a quick target at the default
 * --timeout, times timeScale, plus `roundTrips` times the round trip the pre-flight measured.
 */
export function scaledBound(ms: number, options: Pick<RunOptions, 'requestTimeoutMs'>, info: Pick<TargetInfo, 'latency'>, roundTrips = 1): number {
  return Math.round(ms * timeScale(options) + roundTrips * (info.latency?.roundTripMs ?? 0));
}

/** A check's whole budget: its own `timeoutMs` scaled like every bound, or the run's checkTimeoutMs (already sized from --timeout), plus the latency of BUDGET_ROUND_TRIPS exchanges. */
export function checkBudgetMs(def: Pick<CheckDef, 'timeoutMs'>, options: RunOptions, info: Pick<TargetInfo, 'latency'>): number {
  if (def.timeoutMs !== undefined) return scaledBound(def.timeoutMs, options, info, BUDGET_ROUND_TRIPS);
  return Math.round(options.checkTimeoutMs + BUDGET_ROUND_TRIPS * (info.latency?.roundTripMs ?? 0));
}

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
  /** The run's --max-tasks, or the lower bound learned from the target's refusals. */
  readonly maxTasks: number;
  /**
   * Waits until a slot is free or `deadline` (epoch ms) passes; false when none freed in time. While
   * waiting it asks the holders whether their tasks still run (a task that ended frees its slot). A freed
   * slot goes to the waiter of the highest `priority` (default 0; the engine gives a check's its waitsMs).
   * `on`: the connection the task will be created on (a requestor: learned bounds apply per connection).
   */
  acquire(deadline: number, priority?: number, on?: object): Promise<boolean>;
  /** Ties the slot just acquired to a task: `stillLive()` answers whether it still runs; `free()` releases the slot. */
  hold(stillLive: () => Promise<boolean>, free: () => void): () => void;
  release(on?: object): void;
  /**
   * A creation on `on` was refused at a limit (`what`: code and message) while its caller holds the slot: true
   * when the caller should give the slot back and wait for one (a bound was learned, or is in force), false when
   * the limit is to be waited out in time (throttling; none of the run's tasks live on that connection).
   */
  refused(on?: object, what?: string): boolean;
  /** The bounds learned so far (undefined: none). */
  learned?(): LearnedLimits | undefined;
}

/**
 * Where a run's `runsLast` checks stop acting and start reading (runner/session.ts runChecks). Absent: they
 * run after every other check, one at a time, and nothing need wait.
 */
export interface RunBarrier {
  /** A runsLast check has acted (`evidence`: its messages so far, for the others to read); resolves when every other check is done and every runsLast check has acted. */
  reached(id: string, evidence: () => CheckResult): Promise<void>;
  /** A runsLast check past the barrier has judged; resolves when all have (their clean-up waits: what the judges read stays as it was at the barrier). */
  judged(id: string): Promise<void>;
  /** What check `id` reads as the run's history: `results` and the evidence of the runsLast checks still judging. */
  history(results: readonly CheckResult[], id: string): readonly CheckResult[];
}

/** What a run shares between its checks besides the connection: target health, the live-task bound, the limit seen. */
export interface RunState {
  health: TargetHealth;
  slots?: TaskSlots;
  /** Set while runChecks runs its runsLast checks alongside the others. */
  barrier?: RunBarrier;
  /** The first resource-limit refusal seen (reported once, on the check that saw it). */
  limit?: { check: string; what: string };
  /** The learned bounds last put on a check's result (limitLearned), as JSON. */
  learnedShown?: string;
}

/** Opens connections to the target under test. */
export interface TargetConnector {
  readonly transport: TargetInfo['transport'];
  readonly label: string;
  /** A fresh, initialized connection (new process for stdio, new session for HTTP). `identity` picks extra HTTP headers. */
  open(opts?: { identity?: 'primary' | 'secondary'; capabilities?: Record<string, unknown> }): Promise<Peer>;
  /** Whether a distinct second identity (e.g. another bearer token) was configured. */
  readonly hasSecondIdentity: boolean;
  /** Ends what the connector keeps beside the connections it handed out (stdio: processes started ahead). */
  close?(): Promise<void>;
  /**
   * `n` more connections will be opened (runChecks: the checks' `opensConnections`; negative: a check ended
   * having opened fewer): stdio starts no more processes ahead than that. A hint, never a bound.
   */
  expect?(n: number): void;
  /**
   * Connectors to the same target in other revisions (a 2026-07-28 session's in 2025-11-25, initialize first):
   * the cross-version checks open such connections with `openSession({ revision: '2025-11-25' })`.
   */
  readonly otherRevisions?: Partial<Record<Revision, TargetConnector>>;
  /** Streamable HTTP: the requests carry an Authorization header of the user's (one requestor across connections and eras). */
  readonly credentials?: boolean;
}

/** What a verdict may say beyond its message: the shared observed behaviour, for root-cause groups. */
export interface VerdictOptions {
  /** One line naming the observed behaviour (e.g. "ill-typed taskId answered -32603"); equal causes are grouped. */
  cause?: string;
}

/** What a not-exercised may say beyond its reason. */
export interface SkipOptions extends VerdictOptions {
  /** The check that judges the behaviour that got in the way. */
  judgedBy?: string;
  /** Time ran out while arranging (an answer not within its bound, a status not reached in the budget): "not exercised (timed out)". */
  timedOut?: boolean;
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
  readonly timedOut: boolean;
  constructor(reason: string, opts: SkipOptions = {}) {
    super(reason);
    this.name = 'NotExercised';
    this.cause = opts.cause;
    this.judgedBy = opts.judgedBy;
    this.timedOut = opts.timedOut === true;
  }
}

/** The message of a not-exercised result: "not exercised: …", or "not exercised (timed out): …". */
export function notExercisedText(reason: string, timedOut = false): string {
  return `not exercised${timedOut ? ' (timed out)' : ''}: ${reason}`;
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
  /** Ends the check as not exercised (with `timedOut`: because time ran out while arranging, never a verdict). */
  skip(reason: string, opts?: SkipOptions): never;
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
  /** When the check's budget ends (epoch ms): its start plus checkBudgetMs (timeoutMs or the run's checkTimeoutMs, scaled). See arrange/budget.ts. */
  readonly deadline: number;
  /**
   * A wait sized for a quick target at the default --timeout (`ms`), scaled to this run: times timeScale, plus
   * `roundTrips` (default 2) of the target's round trip measured in the pre-flight (scaledBound).
   */
  bound(ms: number, roundTrips?: number): number;
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
  /**
   * Announces a wait the target asked for (its pollInterval, a Retry-After) before taking it: the check's budget
   * grows by the part above the pace it was sized for (suites/judge/pacing.ts budgetGrowth); a wait that cannot fit
   * ends the check as not exercised, with the reason. Returns how much the budget grew (ms).
   */
  pace?(waitMs: number, what: string): number;
  /** This check's view of the shared connection. */
  readonly peer: Scope;
  /**
   * A new connection for this check alone (closed when the check ends); its messages join the evidence. With
   * `revision` another than the session's (2025-11-25 on a 2026-07-28 session: connector.otherRevisions) it speaks that one.
   */
  openSession(opts?: { identity?: 'primary' | 'secondary'; capabilities?: Record<string, unknown>; revision?: Revision }): Promise<Scope>;
  readonly connector: TargetConnector;
  /** The profile tool for a role (the check declared it in `needs`). */
  tool(role: ProfileRole): ProfileTool;
  /** `execution.taskSupport` of a tool as listed (absent → undefined). */
  taskSupport(name: string): TaskSupport | undefined;
  /** Results of the checks that finished before this one (the schema check reads their transcripts); a runsLast check reads it after othersDone(). */
  history(): readonly CheckResult[];
  /**
   * runsLast checks only: waits until every other check has finished and every runsLast check has acted, so
   * that the run can be read; the wait is not counted in the check's budget.
   */
  othersDone(): Promise<void>;
}

export function defineCheck(def: CheckDef): CheckDef {
  return def;
}

export function hasPath(obj: any, path: string): boolean {
  let cur = obj;
  for (const k of path.split('.')) {
    if (cur === null || typeof cur !== 'object' || !(k in cur)) return false;
    cur = cur[k];
  }
  return cur !== undefined && cur !== null && cur !== false;
}
