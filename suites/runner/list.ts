// `server --list`: what a run would do against this target with these options, without doing it. It
// connects (initialize, tools/list: nothing task-augmented, no tool called), resolves the profile, plans
// discovery without calling anything, and says for every selected check whether it runs, why it would not
// be exercised (the same reasons, in the same order, as the engine's: suites/engine/run-check.ts), or what
// it waits on (a role discovery would look for, a requestor run).
import type { Revision } from '../../schema/spec.ts';
import { hasPath, type CheckDef, type TargetInfo } from '../engine/check.ts';
import { checkRevisions, selected, toRun } from '../engine/select.ts';
import { profileSettles, REQUESTOR_ROLES, type ProfileRole } from '../engine/profile.ts';
import type { RevisionAdapter } from './adapter.ts';
import { SERVER_RUNS } from '../requestor/checks.ts';
import type { RequestorCheckDef } from '../requestor/engine.ts';
import { serverRequestorChecks } from '../requestor/server-requestor.ts';
import { DEFAULT_DISCOVERY, formatPlan, type DiscoveryPlan, type DiscoverySettings } from './discovery.ts';
import type { Profile } from '../engine/profile.ts';

/** runs: nothing in the way; skip: would not be exercised (why); depends: on what discovery or the target's traffic brings (what). */
export type ListVerdict = 'runs' | 'skip' | 'depends';

export interface ListedCheck {
  id: string;
  section: string;
  level: string;
  requirements: readonly string[];
  needs: readonly string[];
  verdict: ListVerdict;
  why: string;
}

export interface RunListing {
  revision: string;
  /** What initialize answered (2025-11-25). */
  protocolVersion?: string;
  /** What server/discover answered (2026-07-28). */
  supportedVersions?: unknown;
  serverInfo: unknown;
  capabilities: string[];
  roles: { role: string; tool?: string; from: string }[];
  plan?: DiscoveryPlan;
  checks: ListedCheck[];
}

/** The dotted paths of the capabilities an object declares (tasks.requests.tools.call, …), leaves only. */
function capabilityPaths(o: unknown, prefix = ''): string[] {
  if (!o || typeof o !== 'object' || Array.isArray(o)) return prefix ? [prefix] : [];
  const entries = Object.entries(o as Record<string, unknown>);
  if (!entries.length) return prefix ? [prefix] : [];
  return entries.flatMap(([k, v]) => capabilityPaths(v, prefix ? `${prefix}.${k}` : k));
}

/** Why a receiver check would not be exercised, in the engine's order; or what it waits on. */
function receiverVerdict(def: CheckDef, info: TargetInfo, plan: DiscoveryPlan | undefined, revision: Revision): Pick<ListedCheck, 'verdict' | 'why'> {
  if (!checkRevisions(def).includes(revision)) return { verdict: 'skip', why: `judges revision ${checkRevisions(def).join(', ')} only` };
  const notApplicable = def.notApplicable?.(info);
  if (notApplicable) return { verdict: 'skip', why: notApplicable };
  const missing = (def.needs ?? []).filter((r) => !info.profile.tools[r]);
  const waits: string[] = [];
  for (const role of missing) {
    if (plan?.roles.includes(role) && plan.calls.length) waits.push(`role ${role}, if discovery finds it`);
    else
      return {
        verdict: 'skip',
        why: plan?.roles.includes(role) && plan.noCalls ? `role ${role}: ${plan.noCalls}` : (info.missingRoles[role] ?? `no tool for role ${role}`),
      };
  }
  for (const cap of def.needsCapabilities ?? [])
    if (!hasPath(info.serverCapabilities, cap)) return { verdict: 'skip', why: `target does not declare capability ${cap}` };
  if (waits.length) return { verdict: 'depends', why: waits.join('; ') };
  const roles = (def.needs ?? []).map((r) => `${r}: ${info.profile.tools[r]!.name}`);
  return { verdict: 'runs', why: roles.length ? `with ${roles.join(', ')}` : '' };
}

/** The server-as-requestor runs a check judges, and which of them would happen. */
function requestorVerdict(def: RequestorCheckDef, profile: Profile, discovered: readonly ProfileRole[]): Pick<ListedCheck, 'verdict' | 'why'> {
  const has = (role: ProfileRole) => Boolean(profile.tools[role]) || discovered.includes(role);
  const runs: Record<string, string | undefined> = {
    [SERVER_RUNS.sampling]: has('requestsSampling') ? undefined : 'the profile names no tool for role requestsSampling',
    [SERVER_RUNS.elicitation]: has('requestsElicitation') ? undefined : 'the profile names no tool for role requestsElicitation',
    [SERVER_RUNS.undeclared]:
      has('requestsSampling') || has('requestsElicitation') ? undefined : 'the profile names no requestsSampling/requestsElicitation tool',
    [SERVER_RUNS.receiverChecks]: undefined,
  };
  const mine = def.scenarios.filter((s) => s in runs);
  const happening = mine.filter((s) => !runs[s]);
  if (!happening.length) return { verdict: 'skip', why: mine.map((s) => `[${s}] ${runs[s]}`).join('; ') };
  if (happening.length === 1 && happening[0] === SERVER_RUNS.receiverChecks)
    return { verdict: 'depends', why: 'judged only on what the target sends during the receiver checks (passive)' };
  const waits = REQUESTOR_ROLES.filter((r) => !profile.tools[r] && discovered.includes(r));
  if (waits.length) return { verdict: 'depends', why: `runs ${happening.join(', ')}, if discovery finds ${waits.join(', ')}` };
  return { verdict: 'runs', why: `runs ${happening.join(', ')}` };
}

/** What listRun reads of a revision's adapter. */
export type ListedRevision = Pick<RevisionAdapter, 'id' | 'roles' | 'checks' | 'gradesServerAsRequestor' | 'planDiscovery' | 'listed'>;

export interface ListOptions {
  profile?: Profile;
  discover?: DiscoverySettings;
  only?: string[];
  exclude?: string[];
  requestTimeoutMs: number;
}

/** What a run in `adapter`'s revision would do; `info` comes from a session of it opened with discovery off (no tool called). */
export function listRun(info: TargetInfo, o: ListOptions, adapter: ListedRevision): RunListing {
  const revision = adapter.id;
  // Each revision has roles and a discovery of its own; a server-as-requestor run where its adapter says so.
  const asRequestor = adapter.gradesServerAsRequestor;
  const leftOut = adapter.roles.filter((r) => !profileSettles(o.profile, r)).filter((r) => !o.discover?.roles || o.discover.roles.includes(r));
  const settings = o.discover ? { requestTimeoutMs: o.requestTimeoutMs, ...o.discover } : undefined;
  const plan = settings && settings.mode !== 'off' && leftOut.length ? adapter.planDiscovery(info, settings, leftOut) : undefined;
  // The requestor roles discovery would look for (it lists the tools on a connection of its own, so only at run time).
  const requestorLeftOut =
    o.discover && o.discover.mode !== 'off' && asRequestor
      ? REQUESTOR_ROLES.filter((r) => !profileSettles(o.profile, r) && (!o.discover?.roles || o.discover.roles.includes(r)))
      : [];
  const roles: RunListing['roles'] = Object.entries(info.profile.tools).map(([role, t]) => ({
    role,
    tool: `${t!.name} ${JSON.stringify(t!.arguments ?? {})}`,
    from: 'profile',
  }));
  for (const role of leftOut)
    if (!info.profile.tools[role]) roles.push({ role, from: plan?.roles.includes(role) ? 'discovery would look for it' : (info.missingRoles[role] ?? 'none') });
  // Roles the profile says have no tool: discovery does not look for them.
  for (const role of Object.keys(o.profile?.absent ?? {}) as ProfileRole[])
    if (!info.profile.tools[role] && info.missingRoles[role]) roles.push({ role, from: info.missingRoles[role]! });
  const checks: ListedCheck[] = [
    ...toRun(adapter.checks, o.only, o.exclude).map((c) => ({
      id: c.id,
      section: c.section,
      level: c.level,
      requirements: c.requirements,
      needs: c.needs ?? [],
      ...receiverVerdict(c, info, plan, revision),
    })),
    ...serverRequestorChecks
      .filter((c) => asRequestor && selected(c, o.only, o.exclude))
      .map((c) => ({
        id: c.id,
        section: `Server as requestor: ${c.section}`,
        level: c.level,
        requirements: c.requirements,
        needs: [],
        ...requestorVerdict(c, info.profile, requestorLeftOut),
      })),
  ];
  return {
    revision,
    ...adapter.listed(info),
    capabilities: capabilityPaths(info.serverCapabilities),
    roles,
    ...(plan ? { plan } : {}),
    checks,
  };
}

const MARK: Record<ListVerdict, string> = { runs: 'RUN ', skip: 'SKIP', depends: 'WAIT' };

export function formatListing(l: RunListing, budgetMs = DEFAULT_DISCOVERY.budgetMs): string[] {
  const count = (v: ListVerdict) => l.checks.filter((c) => c.verdict === v).length;
  const lines = [
    `revision ${l.revision} (${l.protocolVersion !== undefined ? `the target answered protocolVersion ${l.protocolVersion}` : `server/discover answered supportedVersions ${JSON.stringify(l.supportedVersions ?? '(none)')}`}); server ${JSON.stringify(l.serverInfo)}`,
    `capabilities: ${l.capabilities.join(', ') || '(none)'}`,
    'roles:',
    ...l.roles.map((r) => `  ${r.role}: ${r.tool ? `${r.tool} (${r.from})` : r.from}`),
  ];
  if (l.plan)
    lines.push(
      ...formatPlan(l.plan, budgetMs).map((x) => x.replace(/\bwill (not )?call\b/, (m) => m.replace('will', 'would'))),
      '  (--list calls none of them)',
    );
  let section = '';
  for (const c of l.checks) {
    if (c.section !== section) lines.push('', (section = c.section));
    lines.push(`  ${MARK[c.verdict]} ${c.id} [${c.level}: ${c.requirements.join(', ')}]${c.why ? ` — ${c.why}` : ''}`);
  }
  lines.push(
    '',
    `${l.checks.length} checks: ${count('runs')} would run (RUN), ${count('depends')} wait on discovery or on what the target sends (WAIT), ${count('skip')} would not be exercised (SKIP)`,
    `RUN can still end not exercised when arranging fails at run time (a task that does not reach the status it needs, a limit, a timeout); nothing was sent but ${l.protocolVersion !== undefined ? 'initialize, tools/list and the pre-flight pings' : 'server/discover and tools/list'}`,
  );
  return lines;
}
