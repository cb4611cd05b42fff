// The no-false-verdict matrix, the mirror of the kill matrix (faults.test.ts): the reference receiver using
// a freedom the spec leaves (a latitude, mocks/receiver/latitudes.ts) gets no fail and no warn from any
// check. The cells (mocks/latitude-matrix.ts): each latitude alone in process (so that one cannot hide
// another), all the compatible ones together (their interplay), and the ones whose effect depends on the
// transport together over Streamable HTTP (an in-process HTTP listener). The cells run concurrently:
// about a minute in all, bounded by the all-compatible cell, whose slow tool runs minutes.
import { describe, expect, it } from 'vitest';
import { receiverChecks2025 } from '../index.ts';
import { runAllChecksOnReference } from './test-helpers.ts';
import type { CheckResult } from '../engine/check.ts';
import { LATITUDES, type LatitudeInfo } from '../../mocks/receiver/latitudes.ts';
import { latitudeCells, type LatitudeCell } from '../../mocks/latitude-matrix.ts';
import { hasRequirement } from '../../schema/catalog.ts';
import { rulings } from '../../schema/rulings.ts';
import { readFileSync } from 'node:fs';
import { spoken } from '../test-helpers.ts';

const ALL = LATITUDES as readonly LatitudeInfo[];

const CELLS = latitudeCells(ALL);

function runCell(cell: LatitudeCell): Promise<CheckResult[]> {
  return runAllChecksOnReference(
    ['--status-notifications', ...cell.latitudes.flatMap((l) => ['--latitude', l])],
    cell.transport === 'http',
    undefined,
    cell.credentials,
  );
}

describe('the latitude facts', () => {
  it('every latitude names what allows it (a requirement, a ruling or an optional schema field)', () => {
    const schema = JSON.parse(readFileSync(new URL('../../schema/tasks-2025-11-25.schema.json', import.meta.url), 'utf8'));
    const slugs = new Set(rulings.map((r) => r.slug));
    const optionalField = (path: string) => {
      const [def, ...keys] = path.split('.');
      let node = schema.$defs?.[def!];
      for (const [i, k] of keys.entries()) {
        if (!node?.properties?.[k]) return false;
        if (i === keys.length - 1 && (node.required ?? []).includes(k)) return false;
        node = node.properties[k];
      }
      return node !== undefined;
    };
    const bad = ALL.filter((l) => {
      if (l.allows.startsWith('RULINGS.md#')) return !slugs.has(l.allows.slice('RULINGS.md#'.length));
      if (l.allows.startsWith('schema:')) return !optionalField(l.allows.slice('schema:'.length));
      return !hasRequirement(l.allows);
    }).map((l) => `${l.name}: ${l.allows}`);
    expect(bad).toEqual([]);
    for (const l of ALL)
      for (const x of l.excludes ?? [])
        expect(
          ALL.some((o) => o.name === x),
          `${l.name} excludes unknown ${x}`,
        ).toBe(true);
  });
});

describe('no check fails or warns a receiver using a latitude', () => {
  it.concurrent.each(CELLS.map((c) => [`${c.label} (${c.transport})`, c] as const))('%s', { timeout: 180_000 }, async (_label, cell) => {
    const results = await runCell(cell);
    expect(results.length).toBe(receiverChecks2025.length);
    expect(
      spoken(results),
      `with ${cell.latitudes.join(', ')} these checks gave a verdict a correct receiver cannot deserve: the check overreaches (fix it, or write the ruling it follows)`,
    ).toEqual([]);
  });
});
