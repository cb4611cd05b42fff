// Property-based testing of a Tasks receiver: the state-machine, races and
// hostile-input properties, run with fast-check against one target, reported as checks.
//
// Public API
//   runProperties(config: RunConfig, opts: PropertyRunOptions): Promise<PropertyCheckResult[]>
//   parsePropertyArgs(values, commandLine): PropertyRunOptions | undefined      (CLI flags → options)
//   formatPropertyFailure(result): string                                        (console block)
//   PROPERTY_NAMES, parseReplayToken(token)
//
// Check ids: properties.state-machine, properties.races, properties.hostile-input.<category>.
// A failure's message carries the shrunk steps as run, the seed, the path and the command that replays it;
// its `transcript` is the JSON-RPC exchange of the shrunk counterexample. See README.md here.
import fc from 'fast-check';
import type { TranscriptEntry } from '../wire/peer.ts';
import { hasPath, severity, type CheckResult, type Level, type Status } from '../engine/check.ts';
import { openSessionIn, SESSIONS_2025, type RunConfig } from '../runner/session.ts';
import type { TargetSpec } from '../runner/target.ts';
import { formatTranscript } from '../wire/transcript.ts';
import { newModel, Real, stateMachineCommands, STATE_MACHINE_REQUIREMENTS } from './commands.ts';
import { makePool, TASK_ROLES, type PropertyEnv } from './env.ts';
import { HOSTILE_CATEGORIES, HostileConnection, runHostileInput, type HostileName } from './hostile.ts';
import { Findings, isPropertyViolation } from './model.ts';
import { describeScenario, RACES_REQUIREMENTS, runRace, scenarioArbitraries } from './races.ts';
import { oneLine } from '../judge/text.ts';
import { errorText } from '../wire/peer.ts';

export type PropertyName = 'state-machine' | 'races' | `hostile-input.${HostileName}`;
export const PROPERTY_NAMES: PropertyName[] = ['state-machine', 'races', ...HOSTILE_CATEGORIES.map((c) => `hostile-input.${c.name}` as PropertyName)];

export const DEFAULT_PROPERTY_RUNS = 100;
export const DEFAULT_PROPERTY_TIMEOUT_MS = 60_000;

export interface PropertyRunOptions {
  /** Runs (command sequences / race schedules) of the state-machine and races properties. */
  runs: number;
  /** Inputs per hostile-input category (default runs × 10). */
  hostileRuns?: number;
  /** fast-check seed (default: random, reported). */
  seed?: number;
  /** Replay token `<property>/<fc path>[/<commands replayPath>]`: replays that one counterexample. */
  path?: string;
  /** Time limit per property (ms); an interrupted property is reported as skip, never as pass. */
  timeoutMs: number;
  /** Which properties to run (default: all; with `path`, the one it names). */
  only?: PropertyName[];
  /** The `server …` arguments as given, for the replay command. */
  commandLine?: string[];
  /** Progress lines. */
  log?: (line: string) => void;
}

export interface PropertyInfo {
  /** The property (2025-11-25's, or another revision's: suites/2026-07-28/properties/report.ts). */
  name: string;
  seed: number;
  runs: number;
  numShrinks: number;
  interrupted: boolean;
  /** fast-check path of the counterexample. */
  path?: string;
  /** Token for --path. */
  replayToken?: string;
  /** Command line that replays the counterexample. */
  replay?: string;
  /** fast-check's rendering of the counterexample (commands, scenario + schedule, or input). */
  counterexample?: string;
  /** What each step of the shrunk counterexample did. */
  steps?: string[];
}

export interface PropertyCheckResult extends CheckResult {
  property: PropertyInfo;
}

const SECTION = 'Properties';

/**
 * A replay token `<property>/<fc path>[/<replayPath>]`, `property` as tokens name it: 2025-11-25's by its name
 * (`state-machine/…`), another revision's with its prefix (`2026-state-machine/…`: RevisionAdapter.propertyTokens).
 */
export interface ReplayToken {
  property: string;
  fcPath: string;
  replayPath?: string;
}

/** The token's parts, whoever's property it names (undefined when it is not of that form). */
export function splitReplayToken(token: string): ReplayToken | undefined {
  const m = /^([a-z0-9][a-z0-9.-]*)\/(\d+(?::\d+)*)(?:\/(.+))?$/.exec(token);
  return m ? { property: m[1]!, fcPath: m[2]!, ...(m[3] ? { replayPath: m[3] } : {}) } : undefined;
}

/** A token naming one of `properties` (the faces pass every registered revision's: RevisionAdapter.propertyTokens); throws otherwise. */
export function parseReplayToken(token: string, properties: readonly string[] = PROPERTY_NAMES): ReplayToken {
  const t = splitReplayToken(token);
  if (!t || !properties.includes(t.property))
    throw new Error(`--path: expected <property>/<path>[/<replayPath>] with property one of ${properties.join(', ')}, got "${token}"`);
  return t;
}

/** CLI flags → options (undefined when --properties is absent). Throws Error on bad values. */
export function parsePropertyArgs(
  values: { properties?: boolean; runs?: string; seed?: string; path?: string; 'properties-timeout'?: string },
  commandLine: string[] = [],
  properties: readonly string[] = PROPERTY_NAMES,
): PropertyRunOptions | undefined {
  const given = ['runs', 'seed', 'path', 'properties-timeout'].filter((k) => values[k as keyof typeof values] !== undefined);
  if (!values.properties) {
    if (given.length) throw new Error(`--${given[0]} needs --properties`);
    return undefined;
  }
  const posInt = (name: string, v: string | undefined, def: number) => {
    if (v === undefined) return def;
    const n = Number(v);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} takes a positive whole number, got "${v}"`);
    return n;
  };
  let seed: number | undefined;
  if (values.seed !== undefined) {
    seed = Number(values.seed);
    if (!Number.isInteger(seed) || Math.abs(seed) > 2 ** 31) throw new Error(`--seed takes a 32-bit integer, got "${values.seed}"`);
  }
  if (values.path !== undefined) {
    parseReplayToken(values.path, properties);
    if (seed === undefined) throw new Error('--path needs the --seed it was printed with');
  }
  return {
    runs: posInt('runs', values.runs, DEFAULT_PROPERTY_RUNS),
    seed,
    path: values.path,
    timeoutMs: posInt('properties-timeout', values['properties-timeout'], DEFAULT_PROPERTY_TIMEOUT_MS),
    commandLine,
  };
}

// --- running -------------------------------------------------------------------------------------

interface RunRecord {
  log: string[];
  transcript: TranscriptEntry[];
}

interface PropertySpec<T> {
  name: PropertyName;
  title: string;
  level: Level;
  requirements: string[];
  numRuns: number;
  arbitrary(replayPath: string | undefined): fc.Arbitrary<T>;
  predicate(value: T, rec: RunRecord, findings: Findings): Promise<void>;
  /** What a pass means, e.g. "100 command sequences". */
  unit: string;
  /** The commands' replayPath, read from the counterexample (state machine only). */
  replayPathOf?(counterexample: T): string | undefined;
  after?(): Promise<void>;
}

/** Runs every selected property against the target. Never throws for target misbehaviour (that becomes a result). */
export async function runProperties(config: RunConfig, opts: PropertyRunOptions): Promise<PropertyCheckResult[]> {
  const token = opts.path ? splitReplayToken(opts.path) : undefined;
  // A token of another revision's property replays nothing here.
  const replay = token && (PROPERTY_NAMES as string[]).includes(token.property) ? { ...token, name: token.property as PropertyName } : undefined;
  const selected = new Set<PropertyName>(replay ? [replay.name] : token ? [] : (opts.only ?? PROPERTY_NAMES));
  const session = await openSessionIn(SESSIONS_2025, config);
  const { info, options, connector } = session;
  const pool = makePool(connector, session.shared, 10);
  const env: PropertyEnv = {
    target: config.target,
    connector,
    info,
    options,
    roles: TASK_ROLES.filter((r) => info.profile.tools[r] !== undefined),
    caps: { list: hasPath(info.serverCapabilities, 'tasks.list'), cancel: hasPath(info.serverCapabilities, 'tasks.cancel') },
    answerMs: Math.min(options.requestTimeoutMs, 5_000),
    slackMs: 10,
    timingsControllable: config.target.kind === 'reference',
    acquire: () => pool.acquire(),
    close: () => pool.close(),
  };
  const results: PropertyCheckResult[] = [];
  const hostileRuns = opts.hostileRuns ?? opts.runs * 10;
  try {
    for (const name of PROPERTY_NAMES) {
      if (!selected.has(name)) continue;
      const spec: PropertySpec<any> | string = !hasPath(info.serverCapabilities, 'tasks')
        ? 'the target declares no tasks capability'
        : name === 'state-machine' || name === 'races'
          ? !hasPath(info.serverCapabilities, 'tasks.requests.tools.call')
            ? 'the target does not declare task-augmented tools/call (tasks.requests.tools.call)'
            : name === 'state-machine'
              ? stateMachineSpec(env, opts.runs)
              : racesSpec(env, opts.runs)
          : hostileSpec(env, name, hostileRuns);
      const r = typeof spec === 'string' ? skipped(name, spec) : await runSpec(spec, config.target, opts, replay?.name === name ? replay : undefined);
      opts.log?.(`${r.status.toUpperCase().padEnd(4)} ${r.id} — ${r.message.split('\n')[0]}`);
      results.push(r);
    }
  } finally {
    await pool.close();
  }
  return results;
}

function skipped(name: PropertyName, why: string): PropertyCheckResult {
  return {
    id: `properties.${name}`,
    title: titles[name] ?? name,
    section: SECTION,
    requirements: [],
    level: 'MUST',
    status: 'skip',
    message: `not exercised: ${why}`,
    durationMs: 0,
    transcript: [],
    property: { name, seed: 0, runs: 0, numShrinks: 0, interrupted: false },
  };
}

/** Every property run as the `checks` command and docs/COVERAGE.md list it: id, level, requirement ids, title. */
export function propertyCatalog(): { id: string; title: string; level: Level; requirements: readonly string[] }[] {
  return PROPERTY_NAMES.map((name) => {
    const cat = HOSTILE_CATEGORIES.find((c) => `hostile-input.${c.name}` === name);
    const requirements = cat ? cat.requirements : name === 'state-machine' ? STATE_MACHINE_REQUIREMENTS : RACES_REQUIREMENTS;
    return { id: `properties.${name}`, title: cat?.title ?? titles[name] ?? name, level: cat?.level ?? 'MUST', requirements };
  });
}

const titles: Partial<Record<PropertyName, string>> = {
  'state-machine': 'random command sequences (create/get/result/cancel/list/bad cursors/unknown ids/input/waits) agree with the model of the spec',
  races: 'overlapping get/result/cancel/input answers, in scheduler-chosen orders, fit a sequential order of the spec',
};

async function runSpec<T>(
  spec: PropertySpec<T>,
  target: TargetSpec,
  opts: PropertyRunOptions,
  replay: { fcPath: string; replayPath?: string } | undefined,
): Promise<PropertyCheckResult> {
  const started = Date.now();
  const findings = new Findings();
  let lastFailure: (RunRecord & { error: unknown }) | undefined;
  const prop = fc.asyncProperty(spec.arbitrary(replay?.replayPath), async (value: T) => {
    const rec: RunRecord = { log: [], transcript: [] };
    try {
      await spec.predicate(value, rec, findings);
    } catch (e) {
      lastFailure = { ...rec, error: e };
      throw e;
    }
  });
  let details: fc.RunDetails<[T]>;
  try {
    details = await fc.check(prop, {
      numRuns: replay ? 1 : spec.numRuns, // a replay runs exactly the value at the path
      ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
      ...(replay ? { path: replay.fcPath, endOnFailure: true } : {}),
      plugins: [fc.interruptAfterTimeLimit(opts.timeoutMs)],
    } as fc.Parameters<[T]>);
  } finally {
    await spec.after?.();
  }
  const base = {
    id: `properties.${spec.name}`,
    title: spec.title,
    section: SECTION,
    level: spec.level,
    durationMs: Date.now() - started,
  };
  const info: PropertyInfo = { name: spec.name, seed: details.seed, runs: details.numRuns, numShrinks: details.numShrinks, interrupted: details.interrupted };

  if (details.failed && details.counterexample) {
    const err = lastFailure?.error ?? details.errorInstance;
    const violation = isPropertyViolation(err) ? err : undefined;
    const status: Status = severity(violation?.level ?? spec.level);
    const counterexample = details.counterexample[0];
    const replayPath = spec.replayPathOf?.(counterexample);
    const token = `${spec.name}/${details.counterexamplePath}${replayPath ? `/${replayPath}` : ''}`;
    info.path = details.counterexamplePath ?? undefined;
    info.replayToken = token;
    info.replay = replayCommand(target, opts, details.seed, token);
    info.counterexample = fc.stringify(counterexample);
    info.steps = lastFailure?.log ?? [];
    const what = err instanceof Error ? err.message : String(err);
    const lines = [
      violation ? what : `the property could not complete: ${what}`,
      `${replay ? 'replayed' : `falsified after ${details.numRuns} run(s), shrunk ${details.numShrinks} time(s)`}${details.interrupted ? ' (shrinking interrupted by the time limit: the counterexample may not be minimal)' : ''}; steps of the shrunk counterexample as run:`,
      ...info.steps.map((s, i) => `  ${i + 1}. ${s}`),
      `counterexample: ${oneLine(info.counterexample, 1500)}`,
      `seed ${details.seed}, path ${details.counterexamplePath}`,
      `replay: ${info.replay}`,
    ];
    if (findings.list.length) lines.push(`also (SHOULD): ${findings.list.map((f) => `[${f.requirements.join(', ')}] ${f.message}`).join('; ')}`);
    return {
      ...base,
      requirements: violation?.requirements ?? spec.requirements,
      status,
      message: lines.join('\n'),
      transcript: lastFailure?.transcript ?? [],
      property: info,
    };
  }
  if (details.failed) {
    // Failed without a counterexample: nothing ran (e.g. interrupted before the first run ended).
    const status: Status = details.interrupted ? 'skip' : 'fail';
    const msg = details.interrupted
      ? `interrupted: after ${details.numRuns} of ${spec.numRuns} ${spec.unit} (time limit ${opts.timeoutMs} ms): not a pass`
      : `the property could not run: ${errorText(details.errorInstance as unknown)}`;
    return { ...base, requirements: spec.requirements, status, message: msg, transcript: [], property: info };
  }
  if (details.interrupted) {
    return {
      ...base,
      requirements: spec.requirements,
      status: 'skip',
      message: `interrupted: after ${details.numRuns} of ${spec.numRuns} ${spec.unit} (time limit ${opts.timeoutMs} ms; --properties-timeout): not a pass (seed ${details.seed})`,
      transcript: [],
      property: info,
    };
  }
  if (replay) {
    return {
      ...base,
      requirements: spec.requirements,
      status: 'pass',
      message: `replay of ${opts.path} (seed ${details.seed}) did not fail: the counterexample no longer reproduces`,
      transcript: [],
      property: info,
    };
  }
  const warn = findings.list.length > 0;
  return {
    ...base,
    requirements: warn ? [...new Set(findings.list.flatMap((f) => f.requirements))] : spec.requirements,
    status: warn ? 'warn' : 'pass',
    message: [`${details.numRuns} ${spec.unit} passed (seed ${details.seed})`, ...findings.list.map((f) => `[${f.requirements.join(', ')}] ${f.message}`)].join(
      '; ',
    ),
    transcript: [],
    property: info,
  };
}

function stateMachineSpec(env: PropertyEnv, runs: number): PropertySpec<Iterable<fc.AsyncCommand<any, Real, false>>> | string {
  if (env.roles.length === 0) return 'no profile role names a tool that can run as a task (give --profile)';
  return {
    name: 'state-machine',
    title: titles['state-machine']!,
    level: 'MUST',
    requirements: STATE_MACHINE_REQUIREMENTS,
    numRuns: runs,
    unit: 'command sequences',
    arbitrary: (replayPath) => fc.commands(stateMachineCommands(env), { maxCommands: 20, ...(replayPath ? { replayPath } : {}) }),
    replayPathOf: (cmds) => /replayPath="([^"]*)"/.exec(String(cmds))?.[1],
    async predicate(cmds, rec, findings) {
      const lease = await env.acquire();
      const model = newModel(env, findings);
      const real = new Real(env, lease.peer, model);
      let broken = false;
      try {
        await fc.asyncModelRun(() => ({ model, real }), cmds);
        model.throwDeferred();
      } catch (e) {
        broken = !isPropertyViolation(e);
        throw e;
      } finally {
        rec.log = real.log;
        rec.transcript = lease.peer.transcript.slice(lease.start);
        await real.cleanup(model).catch(() => undefined);
        await lease.release({ broken });
      }
    },
  };
}

function racesSpec(env: PropertyEnv, runs: number): PropertySpec<[import('./races.ts').Scenario, fc.Scheduler]> | string {
  const scenarios = scenarioArbitraries(env);
  if (scenarios.length === 0) return 'no scenario fits the target (needs a profile role that runs as a task)';
  return {
    name: 'races',
    title: titles.races!,
    level: 'MUST',
    requirements: RACES_REQUIREMENTS,
    numRuns: runs,
    unit: 'race schedules',
    arbitrary: () => fc.tuple(fc.oneof(...scenarios), fc.scheduler()),
    async predicate([scenario, s], rec) {
      rec.log.push(describeScenario(scenario));
      const rr: { log: string[]; lease?: import('./env.ts').Lease } = { log: rec.log };
      let broken = false;
      try {
        await runRace(env, scenario, s, rr);
      } catch (e) {
        broken = !isPropertyViolation(e);
        rec.log.push(`schedule (fast-check scheduler, in release order): ${oneLine(String(s), 1500)}`);
        throw e;
      } finally {
        if (rr.lease) {
          rec.transcript = rr.lease.peer.transcript.slice(rr.lease.start);
          await rr.lease.release({ broken });
        }
      }
    },
  };
}

function hostileSpec(env: PropertyEnv, name: PropertyName, runs: number): PropertySpec<import('./hostile.ts').HostileInput> | string {
  const cat = HOSTILE_CATEGORIES.find((c) => `hostile-input.${c.name}` === name)!;
  const bytes = env.connector.transport !== 'in-process';
  const why = cat.unavailable(env, bytes);
  if (why) return why;
  const conn = new HostileConnection(env);
  titles[name] = cat.title;
  return {
    name,
    title: cat.title,
    level: cat.level,
    requirements: cat.requirements,
    numRuns: runs,
    unit: 'inputs',
    arbitrary: () => cat.arbitrary(env, bytes),
    async predicate(input, rec) {
      const hr: { log: string[]; peer?: import('../wire/peer.ts').Peer; start: number } = { log: rec.log, start: 0 };
      try {
        await runHostileInput(env, cat, conn, input, hr);
      } finally {
        if (hr.peer) rec.transcript = hr.peer.transcript.slice(hr.start);
      }
    },
    after: () => conn.close(),
  };
}

// --- reporting -------------------------------------------------------------------------------------

function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

const DROP_WITH_VALUE = new Set([
  '--seed',
  '--path',
  '--runs',
  '--json',
  '--junit',
  '--markdown',
  '--only',
  '--baseline',
  '--properties-timeout',
  '--concurrency',
]);
const DROP_FLAG = new Set(['--properties', '--strict', '--no-color']);

/** The command that replays one counterexample (the checks are not rerun when --path is given). */
export function replayCommand(target: TargetSpec, opts: PropertyRunOptions, seed: number, token: string): string {
  let args: string[];
  if (opts.commandLine && opts.commandLine.length) {
    args = [];
    const cl = opts.commandLine;
    for (let i = 0; i < cl.length; i++) {
      const a = cl[i]!;
      const key = a.includes('=') ? a.slice(0, a.indexOf('=')) : a;
      if (DROP_FLAG.has(key)) continue;
      if (DROP_WITH_VALUE.has(key)) {
        if (!a.includes('=')) i++;
        continue;
      }
      args.push(a);
    }
  } else if (target.kind === 'stdio') args = ['--stdio', target.command];
  else if (target.kind === 'http') args = ['--url', target.url, ...Object.entries(target.headers ?? {}).flatMap(([k, v]) => ['--header', `${k}: ${v}`])];
  else if (target.kind === 'reference')
    args = [
      '--stdio',
      `npx mcp-tasks-conformance mock --stdio${target.args?.length ? ' ' + target.args.join(' ') : ''}`,
      '--profile',
      '<the profile of the run>',
    ];
  else args = ['--stdio', '<a command serving the in-process target over stdio>', '--profile', '<the profile of the run>'];
  return ['npx mcp-tasks-conformance server', ...args.map(shellQuote), '--properties', `--seed=${seed}`, '--path', shellQuote(token)].join(' ');
}

/** The console block for a failed (or warned) property: message, requirement ids, transcript, replay. */
export function formatPropertyFailure(r: PropertyCheckResult): string {
  const out = [`── ${r.id}: ${r.status.toUpperCase()} [${r.level}: ${r.requirements.join(', ')}]`, r.message];
  if (r.transcript.length) out.push('JSON-RPC transcript of the shrunk counterexample:', ...formatTranscript(r.transcript));
  return out.join('\n') + '\n';
}
