// The facts on every check (suites/engine/check.ts) hold: ids are unique across roles, each check's level is the
// strongest level of the requirements it cites (schema/catalog.ts) unless `weakerLevel` says why it only
// reports, and `killedBy` names only known faults (the kill matrices run them: suites/receiver/faults.test.ts,
// suites/requestor-faults.test.ts).
import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { receiverChecks2025, checkRevisions, checksFor, receiverChecks } from './index.ts';
import { requestorChecks } from './requestor/checks.ts';
import { propertyCatalog } from './properties/run.ts';
import { modernPropertyCatalog } from './2026-07-28/properties/report.ts';
import { hasRequirement, requirements, requirementsFor, revisionsOf, strongestLevel } from '../schema/catalog.ts';
import { SPEC_REVISION } from '../schema/spec.ts';
import { isFaultName } from '../mocks/receiver/faults.ts';
import { isFaultName as isModernFaultName } from '../mocks/2026-07-28/faults.ts';
import { isDualEraFaultName } from '../mocks/dual-era/faults.ts';

/** A fault of 2026-07-28: the reference extension server's, or the dual-era target's (the cross-version rules). */
const isExtensionFaultName = (n: string) => isModernFaultName(n) || isDualEraFaultName(n);
import { CLIENT_FAULT_NAMES } from '../mocks/client/faults.ts';

const every = [...receiverChecks, ...requestorChecks];

describe('facts on the checks', () => {
  it('ids are unique across receiver checks, requestor checks and property runs', () => {
    const ids = [...every.map((c) => c.id), ...propertyCatalog().map((p) => p.id), ...modernPropertyCatalog().map((p) => p.id)];
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('every check cites known requirement ids', () => {
    expect(every.flatMap((c) => c.requirements.filter((r) => !hasRequirement(r)).map((r) => `${c.id} cites unknown ${r}`))).toEqual([]);
    expect(every.filter((c) => c.requirements.length === 0).map((c) => c.id)).toEqual([]);
  });

  it("a check's level is the strongest level of its requirements, unless weakerLevel says why it only reports", () => {
    const rank = { MAY: 0, SHOULD: 1, MUST: 2 } as const;
    const wrong = every.flatMap((c) => {
      const want = strongestLevel(c.requirements);
      if (c.weakerLevel) return rank[c.level] < rank[want] ? [] : [`${c.id}: weakerLevel is set but its level ${c.level} is not weaker than ${want}`];
      return c.level === want ? [] : [`${c.id}: level ${c.level}, but its requirements say ${want} (fix the level, or state weakerLevel)`];
    });
    expect(wrong).toEqual([]);
  });

  it('killedBy names known faults, without repeats', () => {
    const bad = [
      // Each revision's checks name the faults of its reference server.
      ...receiverChecks.flatMap((c) => {
        const known = checkRevisions(c).includes('2026-07-28') ? isExtensionFaultName : isFaultName;
        return c.killedBy.filter((f, i) => !known(f) || c.killedBy.indexOf(f) !== i).map((f) => `${c.id}: ${f}`);
      }),
      ...requestorChecks.flatMap((c) =>
        c.killedBy.filter((f, i) => !CLIENT_FAULT_NAMES.includes(f) || c.killedBy.indexOf(f) !== i).map((f) => `${c.id}: ${f}`),
      ),
    ];
    expect(bad).toEqual([]);
  });

  it('a MAY check names no fault (it reports, it cannot fail)', () => {
    expect(every.filter((c) => c.level === 'MAY' && c.killedBy.length > 0).map((c) => c.id)).toEqual([]);
  });

  it('checks and catalog entries name only vendored spec revisions; the judged revision has them all today', () => {
    const vendored = new Set(
      readdirSync('schema/spec', { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name),
    );
    const unknown = [
      ...every.flatMap((c) => checkRevisions(c).map((r) => `${c.id}: ${r}`)),
      ...requirements.flatMap((r) => revisionsOf(r).map((v) => `${r.id}: ${v}`)),
    ].filter((x) => !vendored.has(x.split(': ')[1]!));
    expect(unknown).toEqual([]);
    expect(checksFor(SPEC_REVISION)).toEqual(receiverChecks2025);
    // Every check judges one revision's wire (the two are not wire-compatible), and its ids say which.
    expect(receiverChecks.filter((c) => checkRevisions(c).length !== 1).map((c) => c.id)).toEqual([]);
    expect(receiverChecks.filter((c) => checkRevisions(c)[0] === '2026-07-28' && !c.id.startsWith('2026-')).map((c) => c.id)).toEqual([]);
    expect(checksFor('2026-07-28').length + receiverChecks2025.length).toBe(receiverChecks.length);
    expect(requirementsFor(SPEC_REVISION).length).toBe(requirements.length);
  });
});
