// One run of 2026-07-28 against one target: connections without a handshake (suites/2026-07-28/wire), the
// probe (server/discover + tools/list), the roles (MODERN_PROFILE_ROLES) from the profile and discovery; the
// pre-flight of --revision auto (preflightDiscover). Its adapter (suites/2026-07-28/revision.ts) hands them to the floors.
import { splitCommand } from '../../wire/connect.ts';
import { startupAllowance, WireTimeoutError, type Peer } from '../../wire/peer.ts';
import { MODERN_PROFILE_ROLES, profileSettles, type Profile, type ProfileRole } from '../../engine/profile.ts';
import type { TargetConnector, TargetInfo } from '../../engine/check.ts';
import { REVISION, TASKS_EXTENSION } from '../../../schema/2026-07-28/protocol.ts';
import { SPEC_REVISION } from '../../../schema/spec.ts';
import { isObj } from '../../engine/text.ts';
import { DEFAULT_DISCOVERY, type DiscoveryPlan, type DiscoverySettings } from '../../runner/discovery.ts';
import { discoverModern, isModernDiscovery, planModernDiscovery, type ModernDiscoveryResult } from './discovery.ts';
import type { OpenedSession, RunConfig, SessionHooks, SessionOpener } from '../../runner/session.ts';
import type { RunOptions } from '../../engine/options.ts';
import { absentNote, connectorFor, describeTarget, type TargetSpec } from '../../runner/target.ts';
import { limiter } from '../../runner/limiter.ts';
import { connectModern, listTools, ModernPeer, type ModernScope } from '../wire/peer.ts';

/** Opens fresh 2026-07-28 connections to a target (a process per connection over stdio; nothing to open over HTTP but a label). */
export function modernConnector(spec: TargetSpec, requestTimeoutMs: number): TargetConnector {
  switch (spec.kind) {
    case 'stdio': {
      const { command, args } = splitCommand(spec.command);
      const starting = limiter(2); // as for 2025-11-25: process start-up two at a time
      // The first process (the shared connection) gets STARTUP_MS, every other (of either revision) the request bound plus 3 × its start-up (startupAllowance).
      let first: Peer | undefined;
      const allowance = startupAllowance(() => first, requestTimeoutMs);
      return {
        transport: 'stdio',
        label: spec.command,
        hasSecondIdentity: false,
        // The same target in 2025-11-25, for the cross-version checks: no connections started ahead (concurrency 0).
        otherRevisions: { [SPEC_REVISION]: connectorFor(spec, requestTimeoutMs, 0, allowance) },
        open: (opts) =>
          starting(async () => {
            const mp = await connectModern(
              { kind: 'stdio', command, args, cwd: spec.cwd, env: spec.env },
              { defaultTimeoutMs: requestTimeoutMs, label: spec.command, capabilities: opts?.capabilities, startupMs: allowance },
            );
            first ??= mp.peer;
            return mp.peer;
          }),
      };
    }
    case 'http':
      return {
        transport: 'http',
        label: spec.url,
        hasSecondIdentity: spec.secondaryHeaders !== undefined,
        credentials: Object.keys(spec.headers ?? {}).some((h) => h.toLowerCase() === 'authorization'),
        otherRevisions: { [SPEC_REVISION]: connectorFor(spec, requestTimeoutMs, 0) },
        async open(opts) {
          const headers = opts?.identity === 'secondary' && spec.secondaryHeaders ? spec.secondaryHeaders : spec.headers;
          const mp = await connectModern({ kind: 'http', url: spec.url, headers }, { defaultTimeoutMs: requestTimeoutMs, capabilities: opts?.capabilities });
          return mp.peer;
        },
      };
    case 'transport':
      return {
        transport: 'in-process',
        label: describeTarget(spec),
        hasSecondIdentity: false,
        // The same target in 2025-11-25 (initialize on a transport of its own), for the cross-version checks.
        otherRevisions: { [SPEC_REVISION]: connectorFor(spec, requestTimeoutMs, 0) },
        async open(opts) {
          const mp = await connectModern(
            { kind: 'transport', transport: await spec.connect(), label: describeTarget(spec) },
            { defaultTimeoutMs: requestTimeoutMs, capabilities: opts?.capabilities },
          );
          return mp.peer;
        },
      };
    default:
      throw new Error(
        `${describeTarget(spec)}: revision ${REVISION} is spoken by a command (stdio), a URL (Streamable HTTP) or a transport target, not by the in-process reference receiver`,
      );
  }
}

/** tools/list, every page (bounded), with this revision's `_meta`. */
export const listModernTools = (s: ModernScope): Promise<any[]> => listTools(s);

/** What the probe is to do about roles the profile leaves out: discover them, or take a discovery done before. */
export interface ModernProbeOptions {
  discover?: DiscoverySettings;
  discovered?: ModernDiscoveryResult;
  /** Called with discovery's plan before it calls any tool (the CLI prints it). */
  onDiscoveryPlan?: (plan: DiscoveryPlan, budgetMs: number) => void;
  /** Probe whether the target speaks 2025-11-25 too (TargetInfo.legacy); absent: not probed. */
  legacyProbe?: boolean;
}

/**
 * Whether the target speaks 2025-11-25 too (the cross-version checks apply to a dual-era server only): an
 * initialize on a connection of its own, closed at once, while the probe goes on; bounded by that connection's
 * bounds (the request bound; over stdio the start-up allowance the shared connection's start-up sets:
 * startupAllowance). `unanswered` when initialize got no answer within them (not known: time alone);
 * undefined when the connection failed otherwise than by an answer to initialize.
 */
async function probeLegacy(connector: TargetConnector, shared: Peer): Promise<TargetInfo['legacy']> {
  const initialize = connector.otherRevisions?.[SPEC_REVISION];
  if (!initialize) return undefined;
  return initialize.open({ capabilities: {} }).then(
    async (p) => {
      await p.close();
      return { speaks: true, detail: 'initialize succeeded' };
    },
    (e: unknown) => {
      const why = e instanceof Error ? e.message : String(e);
      if (e instanceof WireTimeoutError) {
        const up = shared.firstHeardMs;
        const pace = up === undefined ? '' : ` (the run's own connection was answered ${up} ms after it opened)`;
        return { speaks: 'unanswered', detail: `initialize on a connection of its own: ${why}${pace}` };
      }
      // Refused: an error answer to initialize (over Streamable HTTP the transport's error carries the endpoint's answer).
      return /^initialize failed|Error POSTing to endpoint/.test(why) ? { speaks: false, detail: why } : undefined;
    },
  );
}

/**
 * server/discover + tools/list on the shared connection; the roles the profile leaves out discovered (when
 * asked: suites/2026-07-28/runner/discovery.ts) or taken from a discovery done before; the profile resolved
 * against what the target lists (it wins for the roles it names). The discover answer is recorded as it came
 * (an error too: judging it is a check's business); only a target that does not answer at all throws.
 */
export async function probeModern(
  shared: Peer,
  connector: TargetConnector,
  profile: Profile | undefined,
  how: ModernProbeOptions = {},
): Promise<{ info: TargetInfo; discovery?: ModernDiscoveryResult }> {
  const legacy = how.legacyProbe ? probeLegacy(connector, shared) : undefined;
  const s = ModernPeer.of(shared)!.all();
  const d = await s.discover();
  const tools = await listModernTools(s);
  const byName = new Map(tools.map((t) => [t?.name, t]));
  const serverCapabilities = d.result?.capabilities ?? {};
  const extension = isObj(serverCapabilities.extensions?.[TASKS_EXTENSION]);
  let discovery = how.discovered;
  const leftOut = MODERN_PROFILE_ROLES.filter((r) => !profileSettles(profile, r) && (!how.discover?.roles || how.discover.roles.includes(r)));
  if (!discovery && how.discover && how.discover.mode !== 'off' && leftOut.length > 0) {
    const plan = planModernDiscovery(tools, how.discover, leftOut);
    how.onDiscoveryPlan?.(plan, how.discover.budgetMs ?? DEFAULT_DISCOVERY.budgetMs);
    discovery = await discoverModern(shared, plan, extension, how.discover);
  }
  const resolved: Profile = { tools: {} };
  const missingRoles: Partial<Record<ProfileRole, string>> = {};
  const unlisted: Partial<Record<ProfileRole, string>> = {};
  for (const role of MODERN_PROFILE_ROLES) {
    const given = profile?.tools[role];
    const found = given ? undefined : discovery?.roles[role];
    if (given && byName.has(given.name)) resolved.tools[role] = { name: given.name, arguments: given.arguments ?? {} };
    else if (given) {
      missingRoles[role] = `profile names tool "${given.name}" for role ${role}, but the target does not list it`;
      unlisted[role] = given.name;
    } else if (profile?.absent?.[role]) missingRoles[role] = absentNote(role, profile.absent[role]);
    else if (found && byName.has(found.name)) resolved.tools[role] = { name: found.name, arguments: found.arguments };
    else if (discovery?.missing[role]) missingRoles[role] = discovery.missing[role];
    else if (discovery && !discovery.plan.roles.includes(role)) missingRoles[role] = `discovery did not look for role ${role} (no selected check needs it)`;
    else
      missingRoles[role] =
        `no tool for role ${role}: name one in --profile (roles of ${REVISION}: ${MODERN_PROFILE_ROLES.join(', ')})${discovery ? '' : ', or let discovery find one (--discover safe)'}`;
  }
  const info: TargetInfo = {
    label: connector.label,
    transport: connector.transport,
    revision: REVISION,
    initializeResult: {},
    discoverResult: d.result,
    serverCapabilities,
    cancelsTasks: true,
    tools,
    profile: resolved,
    missingRoles,
    ...(Object.keys(unlisted).length ? { unlistedProfileTools: unlisted } : {}),
  };
  const speaks = await legacy;
  if (speaks) info.legacy = speaks;
  return { info, ...(discovery ? { discovery } : {}) };
}

/** Opens a 2026-07-28 session: no handshake; server/discover + tools/list, the roles from the profile and discovery (on the stateless wire). */
export async function open2026Session(config: RunConfig, options: RunOptions, hooks: SessionHooks): Promise<OpenedSession> {
  const connector = modernConnector(config.target, options.requestTimeoutMs);
  const shared = await connector.open();
  try {
    const { info, discovery } = await probeModern(shared, connector, config.profile, {
      ...(config.discover ? { discover: { requestTimeoutMs: options.requestTimeoutMs, ...config.discover } } : {}),
      ...(isModernDiscovery(config.discovered) ? { discovered: config.discovered } : {}),
      onDiscoveryPlan: hooks.onDiscoveryPlan,
      legacyProbe: true,
    });
    const close = async () => {
      await shared.close();
      await connector.otherRevisions?.[SPEC_REVISION]?.close?.();
    };
    return { connector, shared, info, ...(discovery ? { discovery } : {}), close };
  } catch (e) {
    // A process that exited before server/discover or tools/list was answered: what it wrote to stderr says why.
    if (shared.closed && e instanceof Error) e.message += shared.stderrNote();
    await shared.close();
    throw e;
  }
}

/** How 2026-07-28 sessions open (suites/runner/session.ts openSessionIn). */
export const SESSIONS_2026: SessionOpener = { id: REVISION, open: open2026Session };
