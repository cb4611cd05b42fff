// Requestor checks (2026-07-28): protocol versions and discovery (basic-versioning.md "Protocol Version
// Negotiation", server-discover.md "When to Call", basic-transports-stdio.md "Backward Compatibility").
import { ErrorCode, Meta, Method } from '../../../../schema/2026-07-28/protocol.ts';
import { CAUSE_CUT_OFF } from '../../../requestor/checks/common.ts';
import { actWindowMs } from '../../../requestor/analysis.ts';
import { at, endedTooSoon, short, type Analysis, type Exchange } from '../analysis.ts';
import { defineExtensionRequestorCheck, ALL, LEGACY, type ExtensionRequestorCheckDef, type JudgeContext } from '../engine.ts';

const SECTION = 'Requestor (2026-07-28): Versions and discovery';
/** The legacy handshake (2025-11-25 and earlier): not a request of this revision. */
const INITIALIZE = 'initialize';

const versionOf = (x: Exchange): unknown => x.params?._meta?.[Meta.ProtocolVersion];

export const checks: ExtensionRequestorCheckDef[] = [
  defineExtensionRequestorCheck({
    id: '2026-requestor.version-retry',
    title: 'After -32022 (UnsupportedProtocolVersionError) the request is sent again in a version from data.supported',
    section: SECTION,
    requirements: ['2026-version-client-retry-supported'],
    level: 'SHOULD',
    killedBy: ['no-version-retry'],
    scenarios: ['version-retry'],
    judge(run: Analysis, ctx: JudgeContext) {
      // The answer to initialize (a legacy probe) is the server telling its era, not a request to retry (basic-transports-stdio.md).
      const refused = run.requests.filter(
        (x) => x.method !== INITIALIZE && x.error?.code === ErrorCode.UnsupportedProtocolVersion && Array.isArray((x.error.data as any)?.supported),
      );
      if (refused.length === 0) ctx.skip('no request of the client was answered -32022 with data.supported');
      const bad: string[] = [];
      const ok: string[] = [];
      const cut: string[] = [];
      for (const x of refused) {
        const supported: unknown[] = (x.error!.data as any).supported;
        // -32022 names the client's own version of this revision (2026-07-28): a compatible version exists, so the text asks for the retry.
        const retry = run.requests.find((r) => r.method === x.method && r.request.seq > (x.response?.seq ?? Infinity));
        // Killed at the scenario's bound right after the answer: only time stopped it.
        const late = retry ? undefined : endedTooSoon(run, x.answeredMs ?? x.sentMs, actWindowMs(undefined), 'before it could retry');
        if (late) cut.push(`${x.method} (id ${short(x.id)}) answered -32022 at ${at(x.answeredMs)}: ${late}`);
        else if (!retry)
          bad.push(
            `${x.method} (id ${short(x.id)}) answered -32022 at ${at(x.answeredMs)} with supported ${short(supported)}; the client never sent ${x.method} again`,
          );
        else if (!supported.includes(versionOf(retry)))
          bad.push(
            `${x.method} sent again at ${at(retry.sentMs)} in version ${short(versionOf(retry))}, which data.supported ${short(supported)} does not list`,
          );
        else ok.push(`${x.method} sent again at ${at(retry.sentMs)} in ${String(versionOf(retry))}`);
      }
      ctx.expect(bad.length === 0, `${bad.join('; ')}; the client should select a mutually supported version from data.supported and retry`);
      if (ok.length === 0) ctx.skip(cut.join('; '), { timedOut: true, cause: CAUSE_CUT_OFF });
      for (const c of cut) ctx.note(`not judged: ${c}`);
      return ok.join('; ');
    },
  }),

  defineExtensionRequestorCheck({
    id: '2026-requestor.discover-first-stdio',
    title: 'On stdio a client that also speaks the initialize handshake sends server/discover first',
    section: SECTION,
    requirements: ['2026-discover-dual-client-first'],
    level: 'SHOULD',
    killedBy: ['initialize-first'],
    // Before either kind of server: the probe is how a dual-era client tells them apart.
    scenarios: [...ALL, ...LEGACY],
    judge(run: Analysis, ctx: JudgeContext) {
      // Over Streamable HTTP a dual-era client MAY tell the era from its first modern request (basic-transports-streamable-http.md "Backward Compatibility").
      if (run.transport !== 'stdio') ctx.skip(`the line is about stdio (this run: ${run.transport})`);
      const inOrder = [...run.requests].sort((a, b) => a.request.seq - b.request.seq);
      const sessions = [...new Set(inOrder.map((x) => x.request.session))];
      if (sessions.length === 0) ctx.skip('the client sent no request');
      const bad: string[] = [];
      const probed: string[] = [];
      for (const [i, s] of sessions.entries()) {
        const mine = inOrder.filter((x) => x.request.session === s);
        const first = mine[0]!;
        const init = mine.find((x) => x.method === INITIALIZE);
        if (first.method === Method.ServerDiscover) probed.push(s);
        // A later connection to the same server command may open by the era the client found before: it MAY
        // persist it across restarts (basic-versioning.md; RULINGS.md#dual-era-client-remembers-era). The run's
        // first connection is to a command line new to the client (the harness names the run in it).
        else if (init && i > 0)
          ctx.note(`not judged: ${s}, a later connection to the same server command, opened with ${first.method} (the client may remember the era)`);
        // Sending initialize shows the client speaks the legacy handshake: a dual-era client, whose probe comes first.
        else if (init)
          bad.push(
            first === init
              ? `${s}: the first request was initialize (the legacy handshake) at ${at(first.sentMs)}, not server/discover`
              : `${s}: the first request was ${first.method} at ${at(first.sentMs)}, not server/discover, and the client sent initialize at ${at(init.sentMs)}`,
          );
      }
      ctx.expect(bad.length === 0, `${bad.join('; ')}; a client that supports legacy servers too should probe with server/discover before any other request`);
      if (probed.length === 0)
        ctx.skip(
          'the client sent neither server/discover first nor initialize: it is not shown to speak the legacy handshake (the line is for dual-era clients)',
        );
      return `server/discover was the first request on ${probed.length} stdio connection(s)`;
    },
  }),
];
