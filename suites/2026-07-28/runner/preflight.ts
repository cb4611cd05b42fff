// The pre-flight of --revision auto for 2026-07-28 (suites/runner/revision.ts chooseRevisions): server/discover
// on a connection of its own; a DiscoverResult or a recognized 2026-07-28 error means a server of a per-request
// revision, anything else (another error, no answer within the request bound, over HTTP a 4xx without such an
// error body) not — never keyed to one error code (basic-versioning.md "Backward Compatibility").
import { ErrorCode, Field, REVISION, TASKS_EXTENSION } from '../../../schema/2026-07-28/protocol.ts';
import { isObj } from '../../engine/text.ts';
import type { Peer } from '../../wire/peer.ts';
import { splitCommand } from '../../wire/connect.ts';
import { describeTarget, type TargetSpec } from '../../runner/target.ts';
import type { PreflightOutcome } from '../../runner/revision.ts';
import { connectModern, HttpNoAnswerError } from '../wire/peer.ts';

/** What a DiscoverResult lacks when it declares no Tasks (the revision is then not graded beside one that has them). */
const WITHOUT_TASKS = `server/discover declares no ${TASKS_EXTENSION} extension`;

const DISCOVER_ERRORS: readonly number[] = [ErrorCode.UnsupportedProtocolVersion, ErrorCode.MissingRequiredClientCapability, ErrorCode.HeaderMismatch];

/**
 * server/discover on a connection of its own (closed after), bounded by the request timeout. A spawned process
 * gets its start-up allowance (STARTUP_MS) for its first answer; `upBy`, the legacy probe's settling, shows it
 * has started: from then on server/discover gets the request timeout. `opened` is told the connection (its
 * start-up paces the legacy probe's: startupAllowance).
 */
export async function preflightDiscover(
  target: TargetSpec,
  requestTimeoutMs: number,
  upBy?: Promise<unknown>,
  opened?: (peer: Peer) => void,
): Promise<PreflightOutcome> {
  if (target.kind === 'reference') return { stateless: false, detail: 'not asked (the in-process reference receiver)' };
  let peer;
  try {
    peer =
      target.kind === 'http'
        ? await connectModern({ kind: 'http', url: target.url, headers: target.headers }, { defaultTimeoutMs: requestTimeoutMs })
        : target.kind === 'transport'
          ? await connectModern({ kind: 'transport', transport: await target.connect(), label: describeTarget(target) }, { defaultTimeoutMs: requestTimeoutMs })
          : await connectModern({ kind: 'stdio', ...splitCommand(target.command), cwd: target.cwd, env: target.env }, { defaultTimeoutMs: requestTimeoutMs });
  } catch (e) {
    return { stateless: false, detail: `could not be sent (${e instanceof Error ? e.message : String(e)})` };
  }
  opened?.(peer.peer);
  try {
    const discover = peer.all().discover({ timeoutMs: requestTimeoutMs });
    let timer: NodeJS.Timeout | undefined;
    let done = false;
    const started = upBy?.then(
      () =>
        new Promise<never>((_, reject) => {
          if (done) return;
          timer = setTimeout(
            () => reject(new Error(`no response to server/discover within ${requestTimeoutMs} ms of the legacy probe's answer`)),
            requestTimeoutMs,
          );
        }),
    );
    const r = await (started ? Promise.race([discover, started]) : discover).finally(() => {
      done = true;
      clearTimeout(timer);
    });
    const versions = r.result?.[Field.supportedVersions];
    if (Array.isArray(versions))
      return {
        stateless: true,
        speaks: versions.includes(REVISION),
        tasks: isObj(r.result?.capabilities?.extensions?.[TASKS_EXTENSION]),
        withoutTasks: WITHOUT_TASKS,
        detail: `answered a DiscoverResult (supportedVersions ${JSON.stringify(versions)})`,
      };
    if (r.error && DISCOVER_ERRORS.includes(r.error.code)) {
      const supported = (r.error.data as Record<string, unknown> | undefined)?.[Field.supported];
      return {
        stateless: true,
        speaks: false,
        tasks: false,
        withoutTasks: WITHOUT_TASKS,
        detail: `answered the modern error ${r.error.code} (supported ${JSON.stringify(supported)})`,
      };
    }
    return { stateless: false, detail: r.error ? `answered error ${r.error.code} ${JSON.stringify(r.error.message)}` : 'answered no DiscoverResult' };
  } catch (e) {
    // An error answer without the request's id (an SDK's "Bad Request: Server not initialized", HTTP 400, id null) is an answer.
    const idless = peer.peer.messages((m) => !('method' in m) && isObj(m.error) && (m.id === null || m.id === undefined))[0];
    const status = e instanceof HttpNoAnswerError && e.exchange.status !== undefined ? `HTTP ${e.exchange.status}, ` : '';
    if (idless)
      return { stateless: false, detail: `answered error ${idless.error.code} ${JSON.stringify(idless.error.message)} (${status}without the request's id)` };
    const what = e instanceof HttpNoAnswerError ? e.message : e instanceof Error ? e.message : String(e);
    return { stateless: false, detail: `got no answer (${what})` };
  } finally {
    await peer.close();
  }
}
