// Every requestor check can fail: each faulty mode of the reference client (mocks/client/faults.ts)
// runs every scenario over Streamable HTTP and must turn exactly the checks that name it in `killedBy`
// to fail (MUST) / warn (SHOULD); every other check stays pass/info/skip.
import { describe, expect, it } from 'vitest';
import { CLIENT_FAULTS } from '../mocks/client/faults.ts';
import { coverage, requirement, severity } from '../schema/catalog.ts';
import { receiverChecks2025 } from './index.ts';
import { requestorChecks } from './requestor/checks.ts';
import { gradeClient } from './requestor/run.ts';
import { referenceClient } from './requestor/test-helpers.ts';
import { buildReport } from './report/model.ts';

/** check id → the status it gets under the fault (from the checks' killedBy). */
const kills = (fault: string): Record<string, string> =>
  Object.fromEntries(requestorChecks.filter((c) => (c.killedBy as readonly string[]).includes(fault)).map((c) => [c.id, severity(c.level)]));

describe('the kill facts', () => {
  it('every requestor MUST/SHOULD check is killed by some fault, and every fault kills some check', () => {
    expect(
      requestorChecks
        .filter((c) => c.level !== 'MAY' && c.killedBy.length === 0)
        .map((c) => `${c.id}: add the reference-client fault that breaks it to killedBy`),
    ).toEqual([]);
    expect(CLIENT_FAULTS.filter((f) => Object.keys(kills(f.name)).length === 0).map((f) => `${f.name}: no check names it in killedBy`)).toEqual([]);
  });
});

describe('requirement coverage', () => {
  it('every observable requestor MUST/SHOULD of the catalog is cited by a requestor check (ids exist)', () => {
    const cov = coverage([...receiverChecks2025, ...requestorChecks]);
    expect(coverage(requestorChecks).unknownIds).toEqual([]);
    expect(cov.uncovered.filter((id) => requirement(id).role === 'requestor')).toEqual([]);
  });
});

describe.concurrent('each faulty mode of the reference client fails exactly its checks', () => {
  for (const fault of CLIENT_FAULTS) {
    it(fault.name, async () => {
      const { results } = await gradeClient(referenceClient([fault.name]), { transport: 'http', scenarios: [], concurrency: 10 });
      const bad = Object.fromEntries(results.filter((r) => r.status === 'fail' || r.status === 'warn').map((r) => [r.id, r.status]));
      const want = kills(fault.name);
      const why = results.filter((r) => (r.id in bad || r.id in want) && bad[r.id] !== want[r.id]).map((r) => `${r.id}: ${r.status} — ${r.message}`);
      expect(bad, `${why.join('\n')}\n(the checks a fault kills name it in killedBy)`).toEqual(want);
    });
  }
});

describe('root causes of a client', () => {
  it(
    'one refusal of the task (receiver-rejects-task): the fail and the receiving checks it left not exercised are one group',
    { timeout: 120_000 },
    async () => {
      const { results } = await gradeClient(referenceClient(['receiver-rejects-task']), { transport: 'http', scenarios: ['tool-negotiation'], concurrency: 1 });
      const group = buildReport(results, 'receiver-rejects-task', new Date()).rootCauses.find((g) => /task creation answered error -32601/.test(g.cause));
      expect(group?.checks.sort()).toEqual(
        [
          'receiving.create-task-result',
          'receiving.begins-working',
          'receiving.id-string',
          'receiving.task-fields',
          'receiving.valid-paths',
          'receiving.result-related-task',
        ].sort(),
      );
    },
  );
});
