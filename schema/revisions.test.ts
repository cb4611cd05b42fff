// The registry names each revision once and agrees with what the revision's own modules state.
import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION as V2025 } from './protocol.ts';
import { PROTOCOL_VERSION as V2026, TASKS_EXTENSION } from './2026-07-28/protocol.ts';
import { ID_PREFIX } from './catalog.ts';
import { REVISIONS, REVISION_INFO, catalogFor, isRevision, revision } from './revisions.ts';
import { VENDORED } from './spec.ts';

describe('revision registry', () => {
  it('lists both revisions, oldest first, each with its own protocol version', () => {
    expect(REVISIONS).toEqual(['2025-11-25', '2026-07-28']);
    expect(REVISION_INFO['2025-11-25'].protocolVersion).toBe(V2025);
    expect(REVISION_INFO['2026-07-28'].protocolVersion).toBe(V2026);
    expect(REVISION_INFO['2026-07-28'].tasks).toEqual({ kind: 'extension', id: TASKS_EXTENSION });
    expect(isRevision('2026-07-28')).toBe(true);
    expect(isRevision('2026-06-30')).toBe(false);
  });

  it.each(REVISIONS)('%s: catalog, rulings, validator and texts are its own', (rev) => {
    const r = revision(rev);
    expect(r.catalog.length).toBeGreaterThan(0);
    expect(r.catalog.every((e) => e.revision === rev && e.id.startsWith(ID_PREFIX[rev]))).toBe(true);
    expect(r.idPrefix).toBe(ID_PREFIX[rev]);
    expect(catalogFor(rev)).toEqual(r.catalog);
    expect(r.rulings.length).toBeGreaterThan(0);
    expect(r.rulings.every((x) => x.ids.every((id) => r.catalog.some((e) => e.id === id)))).toBe(true);
    expect(r.validator().definitionNames()).toContain('Task');
    for (const f of r.specFolders) expect(VENDORED[f].length).toBeGreaterThan(0);
  });

  it('ids are unique across revisions', () => {
    const ids = REVISIONS.flatMap((rev) => catalogFor(rev).map((e) => e.id));
    expect(new Set(ids).size).toBe(ids.length);
  });
});
