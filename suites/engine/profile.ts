// Profiles (fixtures/*.profile.json): which tool of a target plays which role in the checks.
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
export interface Profile {
  tools: Partial<Record<ProfileRole, ProfileTool>>;
}

/** What a role's run takes when its profile arguments do not say (`ms`): scheduling hints only (CheckDef.waitsMs). */
const RUN_MS_UNKNOWN: Partial<Record<ProfileRole, number>> = { slow: 3_000 };

/** A role's run time as its profile gives it (a numeric `ms` argument), else a guess: for scheduling (CheckDef.waitsMs), never for a bound. */
export function roleRunMs(profile: Profile, role: ProfileRole): number {
  const ms = profile.tools[role]?.arguments?.ms;
  return typeof ms === 'number' && Number.isFinite(ms) && ms >= 0 ? ms : (RUN_MS_UNKNOWN[role] ?? 500);
}
