// Profiles (fixtures/*.profile.json): which tool of a target plays which role in the checks.
/** Receiver roles (fixtures/*.profile.json): which tool of a target plays which part in the receiver checks. */
export const PROFILE_ROLES = ['completes', 'slow', 'fails', 'needsInput', 'requiresTask', 'forbidsTask', 'progress'] as const;
/**
 * Requestor roles: calling the tool makes the target send sampling/createMessage (resp.
 * elicitation/create) to the client (suites/requestor/server-requestor.ts). A target may list them only
 * to clients declaring tasks.requests.*, so they are resolved on connections of their own; discovery
 * looks for them on such a connection (runner/requestor-discovery.ts).
 */
export const REQUESTOR_ROLES = ['requestsSampling', 'requestsElicitation'] as const;
/** Every role a profile may name. */
export const ALL_ROLES = [...PROFILE_ROLES, ...REQUESTOR_ROLES] as const;
export type ProfileRole = (typeof ALL_ROLES)[number];
export interface ProfileTool {
  name: string;
  arguments?: Record<string, unknown>;
  /** What discovery observed when it chose this tool (written by --write-profile; informative only). */
  observed?: string;
}
export interface Profile {
  tools: Partial<Record<ProfileRole, ProfileTool>>;
}
