// Profiles (fixtures/*.profile.json): which tool of a target plays which role in the checks.
/** Profile roles (fixtures/*.profile.json): which tool of a target plays which part. */
export const PROFILE_ROLES = ['completes', 'slow', 'fails', 'needsInput', 'requiresTask', 'forbidsTask', 'progress', 'requestsSampling', 'requestsElicitation'] as const;
/**
 * Roles that make the target a requestor: calling the tool makes it send sampling/createMessage
 * (resp. elicitation/create) to the client (suites/requestor/server-requestor.ts). A target may list
 * them only to clients declaring tasks.requests.*, so they are resolved on a connection of their own.
 */
export const REQUESTOR_ROLES = ['requestsSampling', 'requestsElicitation'] as const;
export type ProfileRole = (typeof PROFILE_ROLES)[number];
export interface ProfileTool {
  name: string;
  arguments?: Record<string, unknown>;
  /** What discovery observed when it chose this tool (written by --write-profile; informative only). */
  observed?: string;
}
export interface Profile {
  tools: Partial<Record<ProfileRole, ProfileTool>>;
}
