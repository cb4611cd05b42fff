// A capped target keeps its verdicts: the reference receiver with latitude task-cap-internal-error (3 live tasks per
// requestor, a creation beyond it answered -32603 "Maximum concurrent tasks exceeded", as mcp-framework does) gets
// every check's verdict the uncapped reference gets, and the run says which limit it learned
// (runner/task-slots.ts). Over Streamable HTTP every check; over stdio (a process per connection) the checks on
// the shared connection, where the run's tasks meet the cap.
import { describe, expect, it } from 'vitest';
import { receiverChecks2025 } from '../index.ts';
import { runChecks } from './session.ts';
import { loadProfile, type TargetSpec } from './target.ts';
import { createReferenceReceiverFromArgs } from '../../mocks/receiver/args.ts';
import { buildReport } from '../report/model.ts';
import { formatConsole } from '../report/console.ts';
import type { CheckDef } from '../engine/check.ts';
import { openTargetSession } from '../revisions.ts';

const profile = loadProfile('fixtures/reference.profile.json');
const CAP = ['--latitude', 'task-cap-internal-error'];

async function run(args: string[], http: boolean, checks: CheckDef[]) {
  let target: TargetSpec;
  let stop = async () => {};
  if (http) {
    const receiver = createReferenceReceiverFromArgs(['--status-notifications', ...args]);
    const h = await receiver.listenHttp(0);
    target = { kind: 'http', url: h.url };
    stop = async () => {
      await h.close();
      await receiver.close();
    };
  } else target = { kind: 'stdio', command: `${process.execPath} --import tsx scripts/mock.ts --stdio --status-notifications ${args.join(' ')}` };
  const session = await openTargetSession({ target, profile });
  try {
    const results = await runChecks(checks, session, 16);
    return { results, learned: session.run.slots?.learned?.() };
  } finally {
    await session.close();
    await stop();
  }
}

/**
 * Every verdict of the uncapped run is the capped run's too. A check the uncapped run left not exercised (time on a
 * loaded machine) may have a verdict in the capped run: that is no verdict lost.
 */
function sameVerdicts(capped: Awaited<ReturnType<typeof run>>, uncapped: Awaited<ReturnType<typeof run>>) {
  const before = new Map(uncapped.results.map((r) => [r.id, r]));
  const changed = capped.results
    .filter((r) => before.get(r.id)!.status !== 'skip' && r.status !== before.get(r.id)!.status)
    .map((r) => `${r.id}: ${before.get(r.id)!.status} → ${r.status} (${r.message.slice(0, 300)})`);
  expect(changed, 'a capped target lost verdicts').toEqual([]);
  expect(capped.learned).toEqual({ perConnection: 3, what: '-32603 Maximum concurrent tasks exceeded' });
  const report = buildReport(capped.results, 'capped', new Date());
  expect(report.limitLearned?.perConnection).toBe(3);
  expect(formatConsole(report)).toMatch(/the run learned it holds at most 3 live task\(s\) per connection/);
}

describe('a target capped at 3 live tasks per requestor keeps every verdict of the uncapped one', () => {
  it('over Streamable HTTP: every check', { timeout: 300_000 }, async () => {
    const [uncapped, capped] = await Promise.all([run([], true, receiverChecks2025), run(CAP, true, receiverChecks2025)]);
    sameVerdicts(capped, uncapped);
  });

  it('over stdio: the checks on the shared connection', { timeout: 300_000 }, async () => {
    const shared = receiverChecks2025.filter((c) => !c.opensConnections && !c.loadsTarget);
    const [uncapped, capped] = await Promise.all([run([], false, shared), run(CAP, false, shared)]);
    sameVerdicts(capped, uncapped);
  });
});
