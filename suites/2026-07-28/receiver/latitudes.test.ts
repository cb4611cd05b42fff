// The no-false-verdict matrix of revision 2026-07-28, the mirror of its kill matrix (faults.test.ts next to
// this file): the reference extension server taking a freedom the texts leave (a latitude,
// mocks/2026-07-28/faults.ts LATITUDES) gets no fail and no warn from any check of the revision. The cells
// are those of the 2025-11-25 matrix (mocks/latitude-matrix.ts): every latitude alone (so that one cannot hide
// another) and all of them together (the extension's registry states no exclusions); each cell is its own
// server in this process over Streamable HTTP, with the options its latitudes need (`args`); one more cell runs
// them together over stdio (the server spawned, its stdio framing and the driver's). The dual-era target's own
// latitudes (mocks/dual-era/faults.ts: how it picks the era of a message) run against every check too: each
// that shows over Streamable HTTP alone there, and all of them together over stdio.
import { describe, expect, it } from 'vitest';
import { LATITUDES, STDIO_LATITUDE_CELL, type SwitchInfo } from '../../../mocks/2026-07-28/faults.ts';
import { latitudeCells, type LatitudeInfo } from '../../../mocks/latitude-matrix.ts';
import { DUAL_ERA_LATITUDES } from '../../../mocks/dual-era/faults.ts';
import { modernChecks, runAgainstDualEra, runAgainstReference } from './test-helpers.ts';
import { spoken } from '../../test-helpers.ts';

const CHECKS = modernChecks();
const ALL: readonly SwitchInfo[] = LATITUDES;
const AS_INFO: LatitudeInfo[] = ALL.map((l) => ({
  name: l.name,
  allows: l.allows ?? l.requirement,
  description: l.description,
  ...(l.args ? { args: l.args } : {}),
}));
// Every cell is spoken to over Streamable HTTP already: the matrix's separate HTTP cell adds nothing here. Its
// mirror is the stdio cell (STDIO_LATITUDE_CELL, mocks/2026-07-28/faults.ts): the server spawned over stdio.
const CELLS = latitudeCells(AS_INFO).filter((c) => c.transport !== 'http');
const STDIO_CELL = STDIO_LATITUDE_CELL;
const argsOf = (names: readonly string[]) => names.flatMap((n) => ['--latitude', n, ...(ALL.find((l) => l.name === n)?.args ?? [])]);

describe('no check of 2026-07-28 fails or warns a server using a latitude', () => {
  it.concurrent.each(CELLS.map((c) => [c.label, c] as const))('%s', { timeout: 150_000 }, async (name, cell) => {
    const results = await runAgainstReference(argsOf(cell.latitudes), CHECKS);
    expect(results.length).toBe(CHECKS.length);
    expect(
      spoken(results),
      `with ${cell.latitudes.join(', ')} these checks gave a verdict a correct server cannot deserve: the check overreaches (fix it, or write the ruling it follows)`,
    ).toEqual([]);
  });

  it('over stdio, the latitudes that show there together', { timeout: 150_000 }, async () => {
    expect(STDIO_CELL.length).toBeGreaterThan(1);
    const results = await runAgainstReference(argsOf(STDIO_CELL), CHECKS, {}, 'stdio');
    expect(results.length).toBe(CHECKS.length);
    expect(spoken(results), `with ${STDIO_CELL.join(', ')} over stdio`).toEqual([]);
    // Not vacuous: only the HTTP rules, the second identity and the cross-version rules (a dual-era target's) are
    // left unexercised over stdio; and, on a loaded machine, a cancel that cancel-later and high-latency delay past
    // the slow tool's end (the check says the work finished first: a race, not a hidden behaviour).
    const skipped = results.filter(
      (r) =>
        r.status === 'skip' &&
        !/over Streamable HTTP|Streamable HTTP only|one authorization context|does not speak 2025-11-25|ended completed after tasks\/cancel/.test(r.message),
    );
    expect(skipped.map((r) => `${r.id}: ${r.message}`)).toEqual([]);
  });
});

describe('no check of 2026-07-28 fails or warns the dual-era target using a latitude of its own', () => {
  const overHttp = DUAL_ERA_LATITUDES.filter((l) => !('transport' in l) || l.transport !== 'stdio').map((l) => l.name);

  it.concurrent.each(overHttp.map((n) => [n] as const))('%s, over Streamable HTTP', { timeout: 150_000 }, async (name) => {
    const results = await runAgainstDualEra({ latitudes: [name] }, CHECKS);
    expect(results.length).toBe(CHECKS.length);
    expect(spoken(results), `with the dual-era latitude ${name}`).toEqual([]);
  });

  it('all of them, over stdio', { timeout: 150_000 }, async () => {
    const names = DUAL_ERA_LATITUDES.map((l) => l.name);
    const results = await runAgainstDualEra({ latitudes: names }, CHECKS, {}, 'stdio');
    expect(results.length).toBe(CHECKS.length);
    expect(spoken(results), `with ${names.join(', ')} over stdio`).toEqual([]);
    // Not vacuous: the requests they concern reached their checks, which say why they do not judge them.
    const byId = new Map(results.map((r) => [r.id, r]));
    expect(byId.get('2026-meta.missing-32602')?.message).toMatch(/not judged: the target speaks 2025-11-25 too/);
    expect(byId.get('2026-compat.legacy-get-cancel-permitted')?.message).toMatch(/RULINGS\.md#dual-era-one-era-per-process/);
  });
});
