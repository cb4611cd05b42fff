// Proof that the suite works: every named fault of the reference receiver makes the checks of the
// requirement it breaks fail (MUST) or warn (SHOULD), and no unrelated MUST check fails; and every
// MUST check is killed by at least one fault. The table is the fault registry itself (faults.ts): each
// fault runs with the receiver options it names (`args`), in process — or over Streamable HTTP (an
// in-process HTTP listener) for faults that show only there (`transport: 'http'`).
import { describe, expect, it } from 'vitest';
import { allChecks } from '../index.ts';
import { openTargetSession, runChecks } from '../harness/session.ts';
import { loadProfile, type TargetSpec } from '../harness/target.ts';
import type { CheckDef, CheckResult } from '../engine.ts';
import { FAULTS, type FaultInfo } from '../../mocks/receiver/faults.ts';
import { createReferenceReceiverFromArgs } from '../../scripts/mock.ts';
import { primaryId, hasRequirement } from '../../schema/catalog.ts';

const profile = loadProfile('fixtures/reference.profile.json');

/**
 * Checks a fault may fail besides those citing its requirement, each with the reason it must. Keep this
 * short: collateral damage is a sign that a fault breaks more than one requirement.
 *  - `checks`: check ids that legitimately fail too (the fault breaks their requirement by its nature).
 *  - `message`: failures of any check whose message shows only the fault's own requirement, observed as
 *    the check's precondition (e.g. "did not return a CreateTaskResult" in a check that needs a task).
 *    These do not count as kills in the kill matrix.
 */
interface Collateral {
  checks?: string[];
  message?: RegExp;
  why: string;
}
const SCHEMA = 'schema.messages-valid';
const COLLATERAL: Record<string, Collateral[]> = {
  'missing-created-at': [{ checks: [SCHEMA, 'creation.create-task-result'], why: 'a Task without createdAt is not schema-valid, so neither is the CreateTaskResult carrying it' }],
  'bad-timestamp': [{ checks: [SCHEMA, 'creation.create-task-result'], why: 'a non-ISO 8601 lastUpdatedAt is a schema violation of every message carrying the Task, the CreateTaskResult included' }],
  'ttl-missing': [{ checks: [SCHEMA], why: 'GetTaskResult requires ttl' }],
  'cancelled-resurrects': [{ checks: ['lifecycle.terminal-sticky-cancelled'], why: 'cancelled → completed leaves a terminal status: cancel-sticky is the cancel case of lifecycle-terminal-sticky' }],
  'completed-resumes': [{ checks: ['lifecycle.paths-completes', 'lifecycle.paths-input'], why: 'completed → working leaves a terminal status: the same observation is outside the allowed graph (lifecycle-valid-paths)' }],
  'illegal-transition': [{ checks: ['lifecycle.terminal-sticky-failed'], why: 'failed → working is illegal because failed is terminal: the same observation breaks lifecycle-terminal-sticky' }],
  'result-returns-task': [
    { checks: ['result.exact-success', 'result.exact-fails'], why: 'anything but the final result also differs from what the plain call returns (result-exact)' },
    { checks: [SCHEMA], why: 'a Task object is not a valid CallToolResult' },
  ],
  'cancelled-result-hangs': [{ checks: ['related-task.result-cancelled'], why: 'it judges the _meta of the tasks/result answer for a cancelled task, which never comes' }],
  'cancel-keeps-running': [{ checks: ['progress.stop-after-terminal'], why: 'progress after the cancel is progress after a terminal status (cancelled) — progress-stop-after-terminal by nature; the check itself watches a completing task, so it rarely sees it' }],
  'caps-not-objects': [{ checks: [SCHEMA], why: 'the schema types every tasks capability as an object: the InitializeResult is invalid' }],
  'undeclared-creates-task': [{ checks: ['capabilities.declared-if-supported'], why: 'creating tasks without declaring tasks.requests.tools.call also breaks "declare the capability if supported" (caps-declare)' }],
  'ignores-task': [
    { message: /did not return a CreateTaskResult|no CreateTaskResult when/, why: 'checks that need a task report its missing CreateTaskResult under their own requirement (mustCreate / helpers.createTask fail instead of skipping)' },
    { checks: ['creation.id-string'], why: 'a plain CallToolResult has no task id, string or not' },
    { message: /no response to tools\/call/, why: 'the needsInput tool, run plainly, waits for its elicitation, which checks that hold input requests until their task exists do not answer: the tools/call never returns' },
    { checks: ['creation.id-unique'], why: 'check-side false positive: it counts the missing ids of plain answers as one id repeated ("undefined ×10")' },
  ],
  'numeric-task-id': [
    { message: /did not return a CreateTaskResult with task\.taskId/, why: 'checks that need a task reject a CreateTaskResult whose taskId is not a string (their precondition), under their own requirement' },
    { checks: [SCHEMA, 'creation.create-task-result'], why: 'the schema types taskId as a string (the schema check maps it to id-string): the CreateTaskResult is not valid' },
  ],
  'unknown-status': [
    { message: /returned status "running", (which is none of|not a task status)/, why: 'every check that polls rejects a status outside the five while polling (its precondition), under its own requirement' },
    { checks: [SCHEMA], why: 'the schema enumerates the five statuses' },
  ],
};

const citing = (c: CheckDef, req: string) => c.requirements.some((r) => primaryId(r) === primaryId(req));
const failing = (r: CheckResult) => r.status === 'fail' || r.status === 'warn';
const killedBy = new Map<string, string[]>();
const timings: string[] = [];

async function runWith(fault: FaultInfo): Promise<CheckResult[]> {
  const args = ['--fault', fault.name, ...(fault.args ?? [])];
  let target: TargetSpec = { kind: 'reference', args };
  let stop = async () => {};
  if (fault.transport === 'http') {
    const receiver = createReferenceReceiverFromArgs(args);
    const h = await receiver.listenHttp(0);
    target = { kind: 'http', url: h.url };
    stop = async () => {
      await h.close();
      await receiver.close();
    };
  }
  const session = await openTargetSession({ target, profile, options: { checkTimeoutMs: 20_000, requestTimeoutMs: 5_000 } });
  try {
    return await runChecks(allChecks, session, 16);
  } finally {
    await session.close();
    await stop();
  }
}

describe('every fault is caught by the checks of its requirement, and only by them', () => {
  it('every fault names a catalog requirement; collateral entries name known checks and faults', () => {
    const unknown = FAULTS.filter((f) => !hasRequirement(f.requirement)).map((f) => `${f.name} → ${f.requirement}`);
    expect(unknown).toEqual([]);
    const ids = new Set(allChecks.map((c) => c.id));
    const names = new Set<string>(FAULTS.map((f) => f.name));
    const bad = Object.entries(COLLATERAL).flatMap(([f, cs]) => [...(names.has(f) ? [] : [`fault ${f}`]), ...cs.flatMap((c) => (c.checks ?? []).filter((id) => !ids.has(id)).map((id) => `check ${id}`))]);
    expect(bad).toEqual([]);
  });

  it.concurrent.each(FAULTS.map((f) => [f.name, f as FaultInfo] as const))('%s', { timeout: 120_000 }, async (name, fault) => {
    const started = Date.now();
    const results = await runWith(fault);
    timings.push(`${name} ${Date.now() - started} ms`);
    const targeted = results.filter((r) => citing(allChecks.find((c) => c.id === r.id)!, fault.requirement));
    expect(targeted.map((r) => r.id), `no check cites ${fault.requirement}`).not.toEqual([]);
    const caught = targeted.filter(failing);
    expect(caught.map((r) => r.id), `fault ${name} went unnoticed:\n${targeted.map((r) => `${r.id}: ${r.status} ${r.message}`).join('\n')}`).not.toEqual([]);
    const collateral = COLLATERAL[name] ?? [];
    const allowed = new Set([...targeted.map((r) => r.id), ...collateral.flatMap((c) => c.checks ?? [])]);
    for (const r of results.filter((x) => failing(x) && allowed.has(x.id))) killedBy.set(r.id, [...(killedBy.get(r.id) ?? []), name]);
    const precondition = (r: CheckResult) => collateral.some((c) => c.message?.test(r.message));
    const unrelated = results.filter((r) => r.status === 'fail' && !allowed.has(r.id) && !precondition(r));
    expect(unrelated.map((r) => `${r.id}: ${r.message}`), `fault ${name} also failed unrelated MUST checks`).toEqual([]);
  });
});

// Runs after the fault runs above (describe blocks run in order).
describe('kill matrix', () => {
  it('every MUST check was failed by at least one fault', () => {
    console.log(`fault runs (ms): ${timings.join(', ')}`);
    const unkilled = allChecks.filter((c) => c.level === 'MUST' && !killedBy.has(c.id));
    expect(unkilled.map((c) => `${c.id} [${c.requirements.join(', ')}]`)).toEqual([]);
  });
});
