// What the kill matrix (faults.test.ts) and the no-false-verdict matrix (latitudes.test.ts) share: every check
// run against the reference receiver with some command-line options, in process, or over Streamable HTTP (an
// in-process HTTP listener) for the switches whose effect shows only there.
import { expect } from 'vitest';
import { receiverChecks2025 } from '../index.ts';
import { runChecks, type RunConfig } from '../runner/session.ts';
import { loadProfile, type TargetSpec } from '../runner/target.ts';
import type { CheckResult } from '../engine/check.ts';
import { createReferenceReceiverFromArgs } from '../../mocks/receiver/args.ts';
import { openTargetSession } from '../revisions.ts';

const profile = loadProfile('fixtures/reference.profile.json');

/** Every check against the reference receiver started with `args` (mocks/receiver/args.ts), 16 at a time; over HTTP with `credentials`, the requests carry a bearer token. */
export async function runAllChecksOnReference(args: string[], overHttp: boolean, options?: RunConfig['options'], credentials = false): Promise<CheckResult[]> {
  let target: TargetSpec = { kind: 'reference', args };
  let stop = async () => {};
  if (overHttp) {
    const receiver = createReferenceReceiverFromArgs(args);
    const h = await receiver.listenHttp(0);
    target = { kind: 'http', url: h.url, ...(credentials ? { headers: { authorization: 'Bearer conformance-run-credentials' } } : {}) };
    stop = async () => {
      await h.close();
      await receiver.close();
    };
  }
  const session = await openTargetSession({ target, profile, ...(options ? { options } : {}) });
  try {
    return await runChecks(receiverChecks2025, session, 16);
  } finally {
    await session.close();
    await stop();
  }
}

// What each transport legitimately leaves unexercised (covered elsewhere: the capability case, HTTP), and the pass
// itself: conformance.test.ts (in process, Streamable HTTP) and conformance-stdio.test.ts (a process per connection).
export const UNDECLARED = 'capabilities.undeclared-processed-normally';
const HTTP_ONLY = ['transport.get-no-sse-upgrade', 'transport.disconnect-not-cancel'];
export const NOT_HTTP = (id: string) => HTTP_ONLY.includes(id);
// The reference keeps cancelled tasks (deleting them is a MAY): the answers for a deleted one are not observed.
export const KEEPS_CANCELLED = 'cancel.deleted-answers-32602';

/** Every check against the reference receiver: none fails or warns, only `maySkip` checks are not exercised. */
export async function passesEveryCheck(target: TargetSpec, maySkip: (id: string) => boolean): Promise<void> {
  const session = await openTargetSession({ target, profile });
  try {
    const results = await runChecks(receiverChecks2025, session, 16);
    expect(results.length).toBe(receiverChecks2025.length);
    const bad = results.filter((r) => r.status === 'fail' || r.status === 'warn');
    expect(bad.map((r) => `${r.id} ${r.status}: ${r.message}`)).toEqual([]);
    const skipped = results.filter((r) => r.status === 'skip' && !maySkip(r.id));
    expect(skipped.map((r) => `${r.id}: ${r.message}`)).toEqual([]);
    // No check opens more connections of its own than its opensConnections says (the processes a stdio run
    // starts ahead are sized by it).
    const opened = (id: string) => new Set(results.find((r) => r.id === id)!.transcript.flatMap((e) => (e.connection ? [e.connection] : []))).size;
    const over = receiverChecks2025.filter((c) => opened(c.id) > (c.opensConnections ?? 0));
    expect(over.map((c) => `${c.id}: opened ${opened(c.id)}, declares ${c.opensConnections ?? 0}`)).toEqual([]);
  } finally {
    await session.close();
  }
}
