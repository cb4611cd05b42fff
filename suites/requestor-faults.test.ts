// Every requestor check can fail: each faulty mode of the reference client (mocks/client/faults.ts)
// runs every scenario over Streamable HTTP and must turn exactly the checks it lists to fail/warn;
// every other check stays pass/info/skip.
import { describe, expect, it } from 'vitest';
import { CLIENT_FAULTS } from '../mocks/client/faults.ts';
import { coverage, requirement } from '../schema/catalog.ts';
import { allChecks } from './index.ts';
import { requestorChecks } from './requestor/checks.ts';
import { gradeClient } from './requestor/run.ts';
import { referenceClient } from './requestor/test-helpers.ts';

describe('the fault table', () => {
  it('names only known checks, and every requestor check is killed by some fault', () => {
    const ids = new Set(requestorChecks.map((c) => c.id));
    for (const f of CLIENT_FAULTS) for (const id of Object.keys(f.kills)) expect(ids, `${f.name} kills unknown check ${id}`).toContain(id);
    const killed = new Set(CLIENT_FAULTS.flatMap((f) => Object.keys(f.kills)));
    const mayOnly = requestorChecks.filter((c) => c.level === 'MAY').map((c) => c.id);
    expect(requestorChecks.map((c) => c.id).filter((id) => !killed.has(id) && !mayOnly.includes(id))).toEqual([]);
  });
});

describe('requirement coverage', () => {
  it('every observable requestor MUST/SHOULD of the catalog is cited by a requestor check (ids exist)', () => {
    const cov = coverage([...allChecks, ...requestorChecks]);
    expect(coverage(requestorChecks).unknownIds).toEqual([]);
    expect(cov.uncovered.filter((id) => requirement(id).role === 'requestor')).toEqual([]);
  });
});

describe.concurrent('each faulty mode of the reference client fails exactly its checks', () => {
  for (const fault of CLIENT_FAULTS) {
    it(fault.name, async () => {
      const { results } = await gradeClient(referenceClient([fault.name]), { transport: 'http', scenarios: [], concurrency: 10 });
      const bad = Object.fromEntries(results.filter((r) => r.status === 'fail' || r.status === 'warn').map((r) => [r.id, r.status]));
      const why = results.filter((r) => (r.id in bad || r.id in fault.kills) && bad[r.id] !== (fault.kills as Record<string, string>)[r.id]).map((r) => `${r.id}: ${r.status} — ${r.message}`);
      expect(bad, why.join('\n')).toEqual(fault.kills);
    });
  }
});
