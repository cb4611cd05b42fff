// Coverage of a run: how many MUST and SHOULD requirements (schema/requirements.json) the run exercised
// out of those that apply to the target, and which profile roles were missing. A requirement applies when
// one of the run's checks citing it applies: the check does not rule itself out (CheckDef.notApplicable, e.g.
// another transport) and the target declares the capabilities it needs. It is exercised when such a check ended other than "not exercised" (skip).
import { hasRequirement, requirement } from '../schema/catalog.ts';
import { hasPath, type CheckDef, type CheckResult, type TargetInfo } from './engine/check.ts';
import type { ProfileRole } from './engine/profile.ts';

export interface LevelCoverage {
  applicable: number;
  exercised: number;
  /** Applicable requirement ids no check exercised. */
  unexercised: string[];
}

export interface RunCoverage {
  must: LevelCoverage;
  should: LevelCoverage;
  /** Roles the run had no tool for and needed, why, and how many checks were not exercised for it. */
  missingRoles: { role: ProfileRole; reason: string; checks: number }[];
}

/** Whether a check's requirements apply to this target at all (its notApplicable, declared capabilities). */
export function applies(def: CheckDef, target: TargetInfo): boolean {
  if (def.notApplicable?.(target as TargetInfo)) return false;
  return (def.needsCapabilities ?? []).every((c) => hasPath(target.serverCapabilities, c));
}

export function computeCoverage(results: readonly CheckResult[], defs: readonly CheckDef[], target: TargetInfo): RunCoverage {
  const byId = new Map(defs.map((d) => [d.id, d]));
  const applicable = { MUST: new Set<string>(), SHOULD: new Set<string>() };
  const exercised = new Set<string>();
  for (const r of results) {
    const def = byId.get(r.id);
    if (!def || !applies(def, target)) continue;
    for (const id of def.requirements) {
      const level = levelOf(id);
      if (!level) continue;
      applicable[level].add(id);
      if (r.status !== 'skip') exercised.add(id);
    }
  }
  const level = (set: Set<string>): LevelCoverage => ({
    applicable: set.size,
    exercised: [...set].filter((id) => exercised.has(id)).length,
    unexercised: [...set].filter((id) => !exercised.has(id)).sort(),
  });
  const missingRoles = Object.entries(target.missingRoles)
    .map(([role, reason]) => ({
      role: role as ProfileRole,
      reason: reason ?? '',
      checks: results.filter((r) => r.status === 'skip' && byId.get(r.id)?.needs?.includes(role as ProfileRole)).length,
    }))
    .filter((m) => m.checks > 0); // a role no check of the run needed is not missing
  return { must: level(applicable.MUST), should: level(applicable.SHOULD), missingRoles };
}

/** The coverage of a run in several revisions (one session each): counts added, ids (unique across revisions) and missing roles joined. */
export function mergeCoverage(list: readonly RunCoverage[]): RunCoverage {
  if (list.length === 1) return list[0]!;
  const level = (k: 'must' | 'should'): LevelCoverage => ({
    applicable: list.reduce((n, c) => n + c[k].applicable, 0),
    exercised: list.reduce((n, c) => n + c[k].exercised, 0),
    unexercised: list.flatMap((c) => c[k].unexercised).sort(),
  });
  return { must: level('must'), should: level('should'), missingRoles: list.flatMap((c) => c.missingRoles) };
}

function levelOf(id: string): 'MUST' | 'SHOULD' | undefined {
  if (!hasRequirement(id)) return undefined;
  const l = requirement(id).level;
  return l.startsWith('MUST') ? 'MUST' : l.startsWith('SHOULD') ? 'SHOULD' : undefined;
}

/** Console lines: the coverage headline, then the missing roles. */
export function formatCoverage(c: RunCoverage): string[] {
  const lines = [`coverage: ${c.must.exercised}/${c.must.applicable} MUST and ${c.should.exercised}/${c.should.applicable} SHOULD requirements exercised`];
  if (c.missingRoles.length) {
    lines.push(`roles missing (${c.missingRoles.map((m) => m.role).join(', ')}):`);
    for (const m of c.missingRoles) lines.push(`  ${m.role} (${m.checks} check${m.checks === 1 ? '' : 's'} not exercised): ${m.reason}`);
  }
  if (c.must.unexercised.length) lines.push(`MUST requirements not exercised: ${c.must.unexercised.join(', ')}`);
  return lines;
}
