// A revision as a value: what schema/revisions.ts states about it, and what the judge does in it (connect,
// probe, discover, its checks, its property runs). Each dated folder builds one (suites/<date>/revision.ts;
// 2025-11-25's lives in suites/2025-11-25/revision.ts over the undated floors that implement it), the
// registry (suites/revisions.ts) lists them, the faces pick one and hand it down: the shared floors ask the
// adapter and never compare revision strings.
import type { RevisionStatement } from '../../schema/revisions.ts';
import type { Revision } from '../../schema/spec.ts';
import type { CheckDef, TargetInfo } from '../engine/check.ts';
import type { ProfileRole } from '../engine/profile.ts';
import type { Message } from '../wire/peer.ts';
import type { PropertyCheckResult, PropertyRunOptions } from '../properties/run.ts';
import type { DiscoveryPlan, DiscoverySettings } from './discovery.ts';
import type { RevisionChoice } from './revision.ts';
import type { RunConfig, SessionOpener } from './session.ts';

/** What `server --list` prints of the target's answer to the revision's handshake or discovery. */
export interface ListedHandshake {
  /** initialize's protocolVersion (a revision negotiated by initialize). */
  protocolVersion?: string;
  /** server/discover's supportedVersions (a per-request revision). */
  supportedVersions?: unknown;
  serverInfo: unknown;
}

export interface RevisionAdapter extends RevisionStatement, SessionOpener, RevisionChoice {
  /** The revision (RevisionStatement.revision), the key of the registry. */
  id: Revision;
  /** The receiver roles its checks and discovery use (profile keys). */
  roles: readonly ProfileRole[];
  /** Its receiver checks, in report order. */
  checks: readonly CheckDef[];
  /** Whether a server is graded as requestor in it too (task-augmented sampling/elicitation: suites/requestor/server-requestor.ts). */
  gradesServerAsRequestor: boolean;
  /** Which tools discovery would call for the roles left out (no I/O: `server --list`). */
  planDiscovery(info: TargetInfo, settings: DiscoverySettings, leftOut: readonly ProfileRole[]): DiscoveryPlan;
  /** The handshake's answer, as `server --list` shows it. */
  listed(info: TargetInfo): ListedHandshake;
  /** The HTTP headers a per-request revision derives from a request's body (2026-07-28: MCP-Protocol-Version, Mcp-Method, Mcp-Name); replays add them. */
  standardHeaders?(message: Message): Record<string, string>;
  /** Its properties as a replay token names them (--path <property>/<path>). */
  propertyTokens: readonly string[];
  /** Its property runs (--properties) on a session of its own; a replay token of another revision replays nothing. */
  runProperties(config: RunConfig, options: PropertyRunOptions): Promise<PropertyCheckResult[]>;
}
