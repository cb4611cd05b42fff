// Profiles (fixtures/*.profile.json): which tool of a target plays which role in the checks.
import type { Revision } from '../../schema/spec.ts';
/**
 * Receiver roles (fixtures/*.profile.json): which tool of a target plays which part in the receiver checks.
 * logs: as a task, the tool sends notifications/message (logging) after its CreateTaskResult (profile only).
 */
export const PROFILE_ROLES = ['completes', 'slow', 'fails', 'needsInput', 'requiresTask', 'forbidsTask', 'progress', 'logs'] as const;
/**
 * Requestor roles: calling the tool makes the target send sampling/createMessage (resp.
 * elicitation/create) to the client (suites/requestor/server-requestor.ts). A target may list them only
 * to clients declaring tasks.requests.*, so they are resolved on connections of their own; discovery
 * looks for them on such a connection (runner/requestor-discovery.ts).
 */
export const REQUESTOR_ROLES = ['requestsSampling', 'requestsElicitation'] as const;
/**
 * Roles of a 2026-07-28 server (the Tasks extension): the server decides per tools/call whether to answer
 * with a task, so the roles say what a tool does, not whether it must or may be a task — except taskOnly
 * (it cannot be served without a task: a non-declaring client gets -32021). needsInputBeforeTask asks its
 * first input through MRTR on the tools/call itself, before any task exists.
 */
export const MODERN_PROFILE_ROLES = [
  'completes',
  'slow',
  'failsWithError',
  'returnsIsError',
  'needsInput',
  'needsTwoInputs',
  'needsInputTwice',
  'needsInputBeforeTask',
  'taskOnly',
] as const;
/** Every role a 2025-11-25 profile may name. */
export const ALL_ROLES = [...PROFILE_ROLES, ...REQUESTOR_ROLES] as const;
/** Every role a profile of either revision may name (a profile is written for one revision; some names are shared). */
export const ANY_REVISION_ROLES = [...new Set([...ALL_ROLES, ...MODERN_PROFILE_ROLES])] as (
  (typeof ALL_ROLES)[number] | (typeof MODERN_PROFILE_ROLES)[number]
)[];
export type ProfileRole = (typeof ANY_REVISION_ROLES)[number];
export type ModernProfileRole = (typeof MODERN_PROFILE_ROLES)[number];
export interface ProfileTool {
  name: string;
  arguments?: Record<string, unknown>;
  /** What discovery observed when it chose this tool (written by --write-profile; informative only). */
  observed?: string;
}
/** Live-task bounds learned from the target's refusals (runner/task-slots.ts); kept in a profile by --write-profile. */
export interface LearnedLimits {
  /** At most this many live tasks per connection (a requestor). */
  perConnection?: number;
  /** At most this many live tasks of the run in all. */
  run?: number;
  /** The refusal it was learned from (code and message). */
  what?: string;
}
export interface Profile {
  tools: Partial<Record<ProfileRole, ProfileTool>>;
  /** Roles no tool of the target plays, each with why (written by --write-profile): discovery does not look for them. */
  absent?: Partial<Record<ProfileRole, string>>;
  /**
   * The roles of one revision (--write-profile writes a section per revision graded: a dual-era target may play a
   * role with different tools in each); a section wins over `tools` and `absent` for the roles it names.
   */
  revisions?: Partial<Record<Revision, { tools?: Profile['tools']; absent?: Profile['absent'] }>>;
  /** The target's live-task limits a run learned (a run with this profile starts within them). */
  limits?: LearnedLimits;
}

/** The profile as a run of `revision` reads it: its `revisions` section over the roles given for every revision. */
export function profileFor(profile: Profile | undefined, revision: Revision): Profile | undefined {
  if (!profile) return undefined;
  const section = profile.revisions?.[revision];
  const tools = { ...profile.tools, ...section?.tools };
  const absent = { ...profile.absent, ...section?.absent };
  for (const role of Object.keys(section?.tools ?? {}) as ProfileRole[]) delete absent[role];
  for (const role of Object.keys(section?.absent ?? {}) as ProfileRole[]) delete tools[role];
  return { tools, ...(Object.keys(absent).length ? { absent } : {}), ...(profile.limits ? { limits: profile.limits } : {}) };
}

/** Is `role` settled by the profile (a tool named, or said to be absent), so that discovery need not look for it? */
export function profileSettles(profile: Profile | undefined, role: ProfileRole): boolean {
  return profile?.tools[role] !== undefined || profile?.absent?.[role] !== undefined;
}

/** The lowest of each bound learned (several sessions, or checks, each with what it learned); undefined when none. */
export function lowestLimits(all: readonly LearnedLimits[]): LearnedLimits | undefined {
  if (!all.length) return undefined;
  const min = (k: 'perConnection' | 'run') => {
    const v = all.flatMap((l) => (l[k] !== undefined ? [l[k]] : []));
    return v.length ? { [k]: Math.min(...v) } : {};
  };
  return { ...min('perConnection'), ...min('run'), what: all[all.length - 1]!.what };
}

/** A one-line account of learned limits ("at most 3 live tasks per connection"). */
export function limitsText(l: LearnedLimits): string {
  const parts = [
    ...(l.perConnection !== undefined ? [`at most ${l.perConnection} live task(s) per connection`] : []),
    ...(l.run !== undefined ? [`at most ${l.run} live task(s) in all`] : []),
  ];
  return parts.join(' and ');
}

/** What a role's run takes when its profile arguments do not say (`ms`): scheduling hints only (CheckDef.waitsMs). */
const RUN_MS_UNKNOWN: Partial<Record<ProfileRole, number>> = { slow: 3_000 };

/** A role's run time as its profile gives it (a numeric `ms` argument), else a guess: for scheduling (CheckDef.waitsMs), never for a bound. */
export function roleRunMs(profile: Profile, role: ProfileRole): number {
  const ms = profile.tools[role]?.arguments?.ms;
  return typeof ms === 'number' && Number.isFinite(ms) && ms >= 0 ? ms : (RUN_MS_UNKNOWN[role] ?? 500);
}
