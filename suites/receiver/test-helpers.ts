// What the kill matrix (faults.test.ts) and the no-false-verdict matrix (latitudes.test.ts) share: every check
// run against the reference receiver with some command-line options, in process, or over Streamable HTTP (an
// in-process HTTP listener) for the switches whose effect shows only there.
import { receiverChecks2025 } from '../index.ts';
import { openTargetSession, runChecks, type RunConfig } from '../runner/session.ts';
import { loadProfile, type TargetSpec } from '../runner/target.ts';
import type { CheckResult } from '../engine/check.ts';
import { createReferenceReceiverFromArgs } from '../../mocks/receiver/args.ts';

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
