// The check object and how one check runs. Shaped after the official MCP conformance suite's
// check (id, description, status, spec references, details with the messages exchanged) and
// test262's one-requirement-one-small-test metadata.
import type { Peer, Scope, TranscriptEntry } from './harness/wire.ts';
import { WireClosedError, WireTimeoutError } from './harness/wire.ts';
import type { TaskSupport } from '../schema/protocol.ts';
import type { Profile, ProfileRole, ProfileTool } from './harness/profile.ts';

/** Severity of a violation: MUST/MUST NOT → fail, SHOULD/SHOULD NOT → warn, MAY → info. */
export type Level = 'MUST' | 'SHOULD' | 'MAY';
export type Status = 'pass' | 'fail' | 'warn' | 'info' | 'skip';

export interface CheckDef {
  /** Stable id, `<section>.<what>` e.g. `cancel.terminal-rejected`. */
  id: string;
  /** One line: what the check verifies. */
  title: string;
  /** Spec section (one suites/ file each), e.g. "Task Cancellation". */
  section: string;
  /** Requirement ids from schema/requirements.json. */
  requirements: string[];
  level: Level;
  /** Profile roles the check needs; missing → skip ("not exercised") with the reason. */
  needs?: ProfileRole[];
  /** Server capabilities the check needs (e.g. 'tasks.list'); missing → skip with the reason. */
  needsCapabilities?: string[];
  /** Why its requirements do not apply to this target (e.g. another transport), or undefined when they do; not applicable → skip. */
  notApplicable?: (info: TargetInfo) => string | undefined;
  /** Runs after every other check (e.g. the schema check, which reads their transcripts). */
  runsLast?: boolean;
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
}

/** What a target looks like after initialize + tools/list. */
export interface TargetInfo {
  /** Human label: the command or URL. */
  label: string;
  transport: 'stdio' | 'http' | 'in-process';
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
}

export const DEFAULT_RUN_OPTIONS: RunOptions = { requestTimeoutMs: 10_000, checkTimeoutMs: 30_000, maxPollIntervalMs: 1_000 };

/** Opens connections to the target under test. */
export interface TargetConnector {
  readonly transport: TargetInfo['transport'];
  readonly label: string;
  /** A fresh, initialized connection (new process for stdio, new session for HTTP). `identity` picks extra HTTP headers. */
  open(opts?: { identity?: 'primary' | 'secondary'; capabilities?: Record<string, unknown> }): Promise<Peer>;
  /** Whether a distinct second identity (e.g. another bearer token) was configured. */
  readonly hasSecondIdentity: boolean;
}

export class Violation extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Violation';
  }
}
export class NotExercised extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'NotExercised';
  }
}

/** The verdict half of a check's context: shared by receiver checks and requestor checks. */
export interface Verdicts {
  /** Records a violation of the check's requirement and ends the check. */
  violation(message: string): never;
  /** Violation unless `cond`. */
  expect(cond: unknown, message: string): asserts cond;
  /** Ends the check as not exercised. */
  skip(reason: string): never;
  /** Adds a line to the check's message (observations worth reporting even on pass). */
  note(line: string): void;
}

/** Verdict methods that throw Violation / NotExercised and collect notes into `notes`. */
export function verdicts(notes: string[]): Verdicts {
  return {
    violation(message) {
      throw new Violation(message);
    },
    expect(cond, message) {
      if (!cond) throw new Violation(message);
    },
    skip(reason) {
      throw new NotExercised(reason);
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

const statusOnViolation: Record<Level, Status> = { MUST: 'fail', SHOULD: 'warn', MAY: 'info' };

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
): Promise<CheckResult> {
  const started = Date.now();
  const scope = shared.scope(def.id);
  const extra: { peer: Peer; scope: Scope }[] = [];
  const notes: string[] = [];
  const base = { id: def.id, title: def.title, section: def.section, requirements: def.requirements, level: def.level };

  const finish = (status: Status, message: string): CheckResult => {
    const transcript = [...scope.transcript, ...extra.flatMap((e) => e.peer.transcript.map((t) => ({ ...t, note: t.note ?? `session ${e.scope.label}` })))];
    transcript.sort((a, b) => a.time.localeCompare(b.time) || a.seq - b.seq);
    return { ...base, status, message: [message, ...notes].filter(Boolean).join('; '), durationMs: Date.now() - started, transcript };
  };

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

  const ctx: CheckContext = {
    def,
    info,
    options,
    peer: scope,
    connector,
    async openSession(opts) {
      const peer = await connector.open(opts);
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
    ...verdicts(notes),
    history,
  };

  const limit = def.timeoutMs ?? options.checkTimeoutMs;
  let timer: NodeJS.Timeout | undefined;
  try {
    const observed = await Promise.race([
      def.run(ctx),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new WireTimeoutError(`end of check ${def.id}`, limit)), limit);
      }),
    ]);
    return finish(def.level === 'MAY' ? 'info' : 'pass', observed ?? '');
  } catch (e) {
    if (e instanceof NotExercised) return finish('skip', `not exercised: ${e.message}`);
    if (e instanceof Violation) return finish(statusOnViolation[def.level], e.message);
    // The target hung, closed or answered garbage: a finding against the requirement under check.
    const stderr = shared.stderr ? ` — target stderr (tail): ${shared.stderr.slice(-500).trim()}` : '';
    // What the transport saw meanwhile (e.g. output that is not JSON-RPC) explains many a missing answer.
    const transportErrors = [...new Set(scope.transcript.filter((t) => t.note?.startsWith('transport error')).map((t) => t.note))].slice(-3);
    const seen = transportErrors.length ? ` — meanwhile: ${transportErrors.join('; ')}` : '';
    if (e instanceof WireTimeoutError) return finish(statusOnViolation[def.level], `target did not answer: ${e.message}${seen}${stderr}`);
    if (e instanceof WireClosedError) return finish(statusOnViolation[def.level], `${e.message}${stderr}`);
    return finish(statusOnViolation[def.level], `check could not complete: ${e instanceof Error ? e.message : String(e)}${stderr}`);
  } finally {
    clearTimeout(timer);
    scope.close();
    await Promise.all(extra.map((x) => x.peer.close()));
  }
}

export function hasPath(obj: any, path: string): boolean {
  let cur = obj;
  for (const k of path.split('.')) {
    if (cur === null || typeof cur !== 'object' || !(k in cur)) return false;
    cur = cur[k];
  }
  return cur !== undefined && cur !== null && cur !== false;
}
