// Which revision(s) a run grades a target in (--revision; RunOptions.revision). `auto` follows the dual-era
// client of basic-versioning.md "Backward Compatibility": probe with server/discover (our modern version in
// `_meta`); a DiscoverResult or a recognized modern error means a modern server, anything else (another
// error, no answer within the request bound, over HTTP a 4xx without a modern error body) a legacy one —
// never keyed to one error code. A modern server is also asked `initialize` on a connection of its own: a
// dual-era server is graded in both revisions, but not in one it speaks without Tasks while the other has them
// (initialize without `tasks`, a DiscoverResult without the extension). A transport target is probed the same
// way; the in-process reference receiver speaks 2025-11-25.
import { ErrorCode, Field, REVISION as MODERN, TASKS_EXTENSION } from '../../schema/2026-07-28/protocol.ts';
import { isObj } from '../engine/text.ts';
import { SPEC_REVISION, type Revision } from '../../schema/spec.ts';
import type { RunOptions } from '../engine/options.ts';
import { connectModern, HttpNoAnswerError } from '../2026-07-28/wire/peer.ts';
import { startupAllowance, type Peer } from '../wire/peer.ts';
import { splitCommand } from '../wire/connect.ts';
import { connectorFor, describeTarget, initializeResultOf, type TargetSpec } from './target.ts';

export interface RevisionDecision {
  /** The revisions to grade the target in, oldest first (one session each). */
  revisions: Revision[];
  /** One line per step: what was asked, what came back, what follows (the CLI prints them). */
  why: string[];
  /** Revisions the target speaks but not with Tasks (`auto` only, when another revision has them): reported, not graded. */
  notGraded?: { revision: Revision; why: string }[];
}

/** What the legacy probe reports: the capabilities initialize answered with (their `tasks` says whether Tasks are supported). */
export interface LegacyProbe {
  capabilities?: Record<string, unknown>;
}

const MODERN_ERRORS: readonly number[] = [ErrorCode.UnsupportedProtocolVersion, ErrorCode.MissingRequiredClientCapability, ErrorCode.HeaderMismatch];

/** `tasks`: the DiscoverResult's capabilities declare the Tasks extension. */
type DiscoverOutcome = { modern: true; speaks: boolean; tasks: boolean; detail: string } | { modern: false; detail: string };

/**
 * server/discover on a connection of its own (closed after), bounded by the request timeout. A spawned process
 * gets its start-up allowance (STARTUP_MS) for its first answer; `upBy`, the legacy probe's settling, shows it
 * has started: from then on server/discover gets the request timeout. `opened` is told the connection (its
 * start-up paces the legacy probe's: startupAllowance).
 */
export async function probeDiscover(
  target: TargetSpec,
  requestTimeoutMs: number,
  upBy?: Promise<unknown>,
  opened?: (peer: Peer) => void,
): Promise<DiscoverOutcome> {
  if (target.kind === 'reference') return { modern: false, detail: 'not asked (the in-process reference receiver)' };
  let peer;
  try {
    peer =
      target.kind === 'http'
        ? await connectModern({ kind: 'http', url: target.url, headers: target.headers }, { defaultTimeoutMs: requestTimeoutMs })
        : target.kind === 'transport'
          ? await connectModern({ kind: 'transport', transport: await target.connect(), label: describeTarget(target) }, { defaultTimeoutMs: requestTimeoutMs })
          : await connectModern({ kind: 'stdio', ...splitCommand(target.command), cwd: target.cwd, env: target.env }, { defaultTimeoutMs: requestTimeoutMs });
  } catch (e) {
    return { modern: false, detail: `could not be sent (${e instanceof Error ? e.message : String(e)})` };
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
        modern: true,
        speaks: versions.includes(MODERN),
        tasks: isObj(r.result?.capabilities?.extensions?.[TASKS_EXTENSION]),
        detail: `answered a DiscoverResult (supportedVersions ${JSON.stringify(versions)})`,
      };
    if (r.error && MODERN_ERRORS.includes(r.error.code)) {
      const supported = (r.error.data as Record<string, unknown> | undefined)?.[Field.supported];
      return { modern: true, speaks: false, tasks: false, detail: `answered the modern error ${r.error.code} (supported ${JSON.stringify(supported)})` };
    }
    return { modern: false, detail: r.error ? `answered error ${r.error.code} ${JSON.stringify(r.error.message)}` : 'answered no DiscoverResult' };
  } catch (e) {
    // An error answer without the request's id (an SDK's "Bad Request: Server not initialized", HTTP 400, id null) is an answer.
    const idless = peer.peer.messages((m) => !('method' in m) && isObj(m.error) && (m.id === null || m.id === undefined))[0];
    const status = e instanceof HttpNoAnswerError && e.exchange.status !== undefined ? `HTTP ${e.exchange.status}, ` : '';
    if (idless)
      return { modern: false, detail: `answered error ${idless.error.code} ${JSON.stringify(idless.error.message)} (${status}without the request's id)` };
    const what = e instanceof HttpNoAnswerError ? e.message : e instanceof Error ? e.message : String(e);
    return { modern: false, detail: `got no answer (${what})` };
  } finally {
    await peer.close();
  }
}

/** initialize on a connection of its own (closed after): does the target speak 2025-11-25 too, with which capabilities? `startupMs`: its process's start-up allowance. */
async function probeInitialize(target: TargetSpec, requestTimeoutMs: number, startupMs: () => number): Promise<LegacyProbe> {
  // Closing the connector discards the connections it started ahead (left open, they kept a library caller's process alive).
  const connector = connectorFor(target, requestTimeoutMs, 1, startupMs);
  try {
    const peer = await connector.open();
    const capabilities = initializeResultOf(peer).capabilities;
    await peer.close();
    return { capabilities };
  } finally {
    await connector.close?.();
  }
}

/**
 * The revisions to grade `target` in under `options.revision`. Never throws: a target that cannot be reached
 * is the session's connection error. With `auto`, server/discover and the legacy probe run side by side (the
 * outcome is the probe-then-fall-back of the texts, in the time of one): `legacy` opens what the caller keeps
 * when it succeeds (the CLI: its 2025-11-25 pre-flight session), by default a bare initialize. Once server/discover
 * has settled, the legacy probe gets the request timeout (the mirror of probeDiscover's `upBy`): an initialize
 * unanswered by then is no 2025-11-25, said so (time, never a verdict).
 */
export async function chooseRevisions(
  target: TargetSpec,
  options: Pick<RunOptions, 'revision' | 'requestTimeoutMs'>,
  legacy?: () => Promise<LegacyProbe>,
): Promise<RevisionDecision> {
  if (options.revision !== 'auto') return { revisions: [options.revision], why: [`revision ${options.revision}: as asked (--revision)`] };
  if (target.kind === 'reference') return { revisions: [SPEC_REVISION], why: [`revision ${SPEC_REVISION}: the in-process reference receiver speaks it`] };
  let discovering: Peer | undefined;
  const startupMs = startupAllowance(() => discovering, options.requestTimeoutMs);
  const open = legacy ?? (() => probeInitialize(target, options.requestTimeoutMs, startupMs));
  const initialized = open().then(
    (probe) => ({ ok: true as const, tasks: isObj(probe.capabilities?.tasks), detail: 'initialize succeeded' }),
    (e: unknown) => {
      const why = e instanceof Error ? e.message : String(e);
      return { ok: false as const, detail: why.startsWith('initialize failed') ? why : `initialize failed (${why})` };
    },
  );
  const d = await probeDiscover(target, options.requestTimeoutMs, initialized, (p) => (discovering = p));
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<{ ok: false; detail: string }>(
    (resolve) =>
      (timer = setTimeout(
        () => resolve({ ok: false, detail: `initialize got no answer within ${options.requestTimeoutMs} ms after server/discover settled` }),
        options.requestTimeoutMs,
      )),
  );
  const init = await Promise.race([initialized, late]).finally(() => clearTimeout(timer));
  if (!d.modern) return { revisions: [SPEC_REVISION], why: [`server/discover ${d.detail}: a legacy server, revision ${SPEC_REVISION} (initialize)`] };
  const why = [`server/discover ${d.detail}: a modern server${d.speaks ? `, revision ${MODERN}` : ` that does not speak ${MODERN}`}`];
  why.push(`${init.detail}: ${init.ok ? `it speaks ${SPEC_REVISION} too (dual-era)` : `no ${SPEC_REVISION}`}`);
  const spoken: { revision: Revision; tasks: boolean; without: string }[] = [];
  if (init.ok) spoken.push({ revision: SPEC_REVISION, tasks: init.tasks, without: 'initialize declares no tasks capability' });
  if (d.speaks) spoken.push({ revision: MODERN, tasks: d.tasks, without: `server/discover declares no ${TASKS_EXTENSION} extension` });
  // Neither: graded in the modern revision, whose checks say what the server does not do.
  if (!spoken.length) return { revisions: [MODERN], why };
  // A revision spoken without Tasks while another has them is reported, not graded; with Tasks in none, every
  // revision spoken is graded (its checks say the declaration is missing).
  const withTasks = spoken.some((s) => s.tasks);
  const notGraded = withTasks
    ? spoken.filter((s) => !s.tasks).map((s) => ({ revision: s.revision, why: `${s.without}: no Tasks in ${s.revision}, not graded` }))
    : [];
  for (const n of notGraded) why.push(n.why);
  return { revisions: spoken.filter((s) => !withTasks || s.tasks).map((s) => s.revision), why, ...(notGraded.length ? { notGraded } : {}) };
}
