// The property runs of 2026-07-28 (run.ts next to this file) as results of a run (`server --properties`,
// runConformance), reported as 2025-11-25's are (suites/properties/run.ts): one result per property, id
// `2026-properties.<name>`; a failure carries the model's verdict and its requirement ids, the counterexample,
// the seed, its path and the command that replays it (`--properties --seed=<s> --path 2026-<name>/<path>`), and as
// transcript the exchange of the shrunk counterexample; an interrupted run is not exercised, never a pass.
import { openSessionIn, type RunConfig } from '../../runner/session.ts';
import { SESSIONS_2026 } from '../runner/session.ts';
import { severity, type CheckResult, type Level } from '../../engine/check.ts';
import { MODEL_REQUIREMENTS, ModelViolation } from './model.ts';
import { MODERN_PROPERTY_NAMES, propertyRoles, runExtensionProperties, type ModernPropertyName, type PropertyOutcome } from './run.ts';
import { DEFAULT_PROPERTY_TIMEOUT_MS, splitReplayToken, replayCommand, type PropertyCheckResult, type PropertyRunOptions } from '../../properties/run.ts';
import { extensionNotAdvertised } from '../engine/check.ts';
import { ModernPeer } from '../wire/peer.ts';
import { REVISION } from '../../../schema/2026-07-28/protocol.ts';
import { oneLine } from '../../judge/text.ts';

export const MODERN_PROPERTY_SECTION = `Properties (${REVISION})`;

const ABOUT: Record<ModernPropertyName, { title: string; unit: string; requirements: readonly string[] }> = {
  'state-machine': {
    title:
      'random command sequences (create a task per role, tasks/get, answer inputRequests in full, in part or with a stray key, tasks/cancel, waits) fit the model of the extension',
    unit: 'command sequences',
    requirements: MODEL_REQUIREMENTS,
  },
  races: {
    title: 'overlapping tasks/get, tasks/update and tasks/cancel of one task, in scheduler-chosen orders, fit a sequential order of the model',
    unit: 'race schedules',
    requirements: ['2026-get-by-status', '2026-update-ack-empty', '2026-cancel-ack-empty', '2026-input-keys-unique'],
  },
  'hostile-input': {
    title: 'hostile taskIds (tasks/get: -32602) and inputResponses of any shape leave the server serving and its tasks legal',
    unit: 'inputs',
    requirements: ['2026-errors-get-unknown-32602', '2026-get-by-status'],
  },
};

const idOf = (name: ModernPropertyName) => `2026-properties.${name}`;

/** How a 2026-07-28 property is named in a replay token (--path 2026-<name>/<path>). */
export const replayName = (name: ModernPropertyName) => `2026-${name}`;

/** The names of its properties in replay tokens (RevisionAdapter.propertyTokens). */
export const PROPERTY_TOKENS_2026: readonly string[] = MODERN_PROPERTY_NAMES.map(replayName);

/** Every 2026-07-28 property run as the `checks` command lists it: id, level, requirement ids, title. */
export function modernPropertyCatalog(): { id: string; title: string; level: Level; requirements: readonly string[] }[] {
  return MODERN_PROPERTY_NAMES.map((name) => ({ id: idOf(name), title: ABOUT[name].title, level: 'MUST', requirements: ABOUT[name].requirements }));
}

/** The ids of the 2026-07-28 property results (a baseline may list them). */
export const MODERN_PROPERTY_IDS: readonly string[] = MODERN_PROPERTY_NAMES.map(idOf);

function base(name: ModernPropertyName, durationMs: number): Omit<CheckResult, 'status' | 'message' | 'transcript' | 'requirements'> {
  return { id: idOf(name), title: ABOUT[name].title, section: MODERN_PROPERTY_SECTION, level: 'MUST', durationMs, revision: REVISION };
}

function skipped(name: ModernPropertyName, why: string): PropertyCheckResult {
  return {
    ...base(name, 0),
    requirements: [],
    status: 'skip',
    message: `not exercised: ${why}`,
    transcript: [],
    property: { name, seed: 0, runs: 0, numShrinks: 0, interrupted: false },
  };
}

/** One outcome as a result, worded as 2025-11-25's property results are. */
function asResult(o: PropertyOutcome, config: RunConfig, opts: PropertyRunOptions, durationMs: number, replayed: boolean): PropertyCheckResult {
  const about = ABOUT[o.name];
  const wanted = replayed ? 1 : o.name === 'hostile-input' ? (opts.hostileRuns ?? opts.runs * 10) : opts.runs;
  const property = { name: o.name, seed: o.seed, runs: o.runs, numShrinks: o.numShrinks, interrupted: o.interrupted };
  const common = { ...base(o.name, durationMs), transcript: o.transcript ?? [] };
  const timeLimit = opts.timeoutMs ?? DEFAULT_PROPERTY_TIMEOUT_MS;
  if (!o.ok && o.counterexample !== undefined) {
    const violation = o.error instanceof ModelViolation ? o.error : undefined;
    const what = o.error instanceof Error ? o.error.message : String(o.error);
    const token = `${replayName(o.name)}/${o.path}`;
    const replay = replayCommand(config.target, opts, o.seed, token);
    const lines = [
      violation ? what : `the property could not complete: ${what}`,
      `${replayed ? 'replayed' : `falsified after ${o.runs} run(s), shrunk ${o.numShrinks} time(s)`}${o.interrupted ? ' (shrinking interrupted by the time limit: the counterexample may not be minimal)' : ''}`,
      `counterexample: ${oneLine(o.counterexample, 1500)}`,
      `seed ${o.seed}, path ${o.path}`,
      `replay: ${replay}`,
    ];
    return {
      ...common,
      requirements: [...(violation?.requirements ?? about.requirements)],
      status: severity('MUST'),
      message: lines.join('\n'),
      property: { ...property, ...(o.path ? { path: o.path } : {}), replayToken: token, replay, counterexample: o.counterexample, steps: [] },
    };
  }
  if (!o.ok || o.interrupted) {
    const interrupted = o.interrupted
      ? `interrupted: after ${o.runs} of ${wanted} ${about.unit} (time limit ${timeLimit} ms; --properties-timeout): not a pass (seed ${o.seed})`
      : undefined;
    return {
      ...common,
      requirements: [...about.requirements],
      status: interrupted ? 'skip' : 'fail',
      message: interrupted ?? `the property could not run: ${o.error instanceof Error ? o.error.message : String(o.error)}`,
      property,
    };
  }
  return {
    ...common,
    requirements: [...about.requirements],
    status: 'pass',
    message: replayed
      ? `replay of ${opts.path} (seed ${o.seed}) did not fail: the counterexample no longer reproduces`
      : `${o.runs} ${about.unit} passed (seed ${o.seed})`,
    property,
  };
}

/**
 * Runs the 2026-07-28 properties against the target, on a session of that revision (the config's profile and
 * discovery give the roles). With a replay token (`path`) only its property runs, once; a token of 2025-11-25
 * runs none here. Never throws for target misbehaviour (that becomes a result).
 */
export async function runModernProperties(config: RunConfig, opts: PropertyRunOptions): Promise<PropertyCheckResult[]> {
  const token = opts.path ? splitReplayToken(opts.path) : undefined;
  const replayed = token && MODERN_PROPERTY_NAMES.find((n) => replayName(n) === token.property);
  // A token of another revision's property replays nothing here.
  if (token && !replayed) return [];
  const replay = replayed ? { ...token!, name: replayed } : undefined;
  const names: readonly ModernPropertyName[] = replay ? [replay.name] : MODERN_PROPERTY_NAMES;
  const session = await openSessionIn(SESSIONS_2026, config);
  const results: PropertyCheckResult[] = [];
  try {
    const tools = session.info.profile.tools;
    const roles = propertyRoles(tools);
    const why =
      extensionNotAdvertised(session.info) ??
      (roles.length
        ? undefined
        : 'no tool for the roles the runs play (completes, slow, failsWithError, returnsIsError, needsInput, needsTwoInputs): give --profile');
    const scope = ModernPeer.of(session.shared)!.all();
    for (const name of names) {
      if (why) {
        results.push(skipped(name, why));
      } else {
        const started = Date.now();
        const [o] = await runExtensionProperties(
          { scope, tools },
          {
            runs: opts.runs,
            hostileRuns: opts.hostileRuns ?? opts.runs * 10,
            ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
            only: [name],
            ...(replay ? { path: replay.fcPath } : {}),
            timeoutMs: opts.timeoutMs,
          },
        );
        results.push(asResult(o!, config, opts, Date.now() - started, replay !== undefined));
      }
      const r = results.at(-1)!;
      opts.log?.(`${r.status.toUpperCase().padEnd(4)} ${r.id} — ${r.message.split('\n')[0]}`);
    }
  } finally {
    await session.close();
  }
  return results;
}
