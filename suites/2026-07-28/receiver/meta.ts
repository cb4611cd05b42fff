// Checks of the core per-request fields and statelessness (2026-07-28 basic-index.md "_meta" > "Per-request
// protocol fields", "Statelessness"): a request without a required field is -32602 (HTTP 400); a server relies on
// no capability the request did not declare, and on no earlier request for context; state that spans requests
// (a task) is named by an identifier the request carries.
import type { CheckContext, CheckDef, TargetInfo } from '../../engine/check.ts';
import { isObj } from '../../engine/text.ts';
import { ErrorCode, Field, HTTP_BAD_REQUEST, Meta, Method, PROTOCOL_VERSION } from '../../../schema/2026-07-28/protocol.ts';
import { SPEC_REVISION } from '../../../schema/spec.ts';
import { HttpNoAnswerError, type ModernRequestOptions, type ModernResponse, type ModernScope } from '../wire/peer.ts';
import { brief, extensionNotAdvertised, modernCheck, wire } from '../engine/check.ts';
import { answerOrRefusal, createTask } from '../arrange/tasks.ts';

import { freshClient, UNSUPPORTED_VERSION } from '../arrange/fresh-client.ts';

const show = (r: ModernResponse) => brief(r.error ?? r.result);

/** `notApplicable` of an HTTP status rule (the reason the SDK v2 goldens recognise). */
export const httpStatusRule = (info: TargetInfo): string | undefined =>
  info.transport === 'http' ? undefined : 'an HTTP status rule (the target is not spoken to over Streamable HTTP)';

/** tools/list with every per-request field: the baseline the malformed ones are told apart from. */
async function baseline(ctx: CheckContext, s: ModernScope): Promise<void> {
  const r = await s.request(Method.ToolsList, {});
  if (r.error) ctx.skip(`tools/list with every per-request field answered ${show(r)}`);
}

/**
 * The requests missing a required per-request field. `mirrored`: the field is also mirrored into a header (HTTP),
 * and the request carries no modern protocol version: era-ambiguous to a dual-era server
 * (RULINGS.md#dual-era-ambiguous-request).
 */
const MISSING: { what: string; options: ModernRequestOptions; mirrored: boolean }[] = [
  { what: `without _meta["${Meta.ClientCapabilities}"]`, options: { meta: { [Meta.ClientCapabilities]: undefined } }, mirrored: false },
  { what: `without _meta["${Meta.ProtocolVersion}"]`, options: { meta: { [Meta.ProtocolVersion]: undefined } }, mirrored: true },
  { what: 'without _meta', options: { raw: true }, mirrored: true },
];

/**
 * Why a request without the modern protocol version is not judged on this target: it speaks 2025-11-25 too (a
 * dual-era server may take the request for one of 2025-11-25), or the pre-flight could not tell; undefined on a
 * target whose initialize the pre-flight saw refused (a server of modern versions only).
 */
function eraAmbiguous(info: TargetInfo): string | undefined {
  if (info.legacy?.speaks === false) return undefined;
  const why = info.legacy
    ? `the target speaks ${SPEC_REVISION} too (${info.legacy.detail})`
    : `the pre-flight could not tell whether the target speaks ${SPEC_REVISION} too`;
  return `${why}: a dual-era server selects the era from the modern _meta or initialize, and this request has neither (RULINGS.md#dual-era-ambiguous-request)`;
}

export const checks: CheckDef[] = [
  modernCheck({
    id: '2026-meta.missing-32602',
    title: 'a request missing a required per-request _meta field (protocolVersion, clientCapabilities) is rejected with -32602',
    section: 'Per-request protocol fields',
    requirements: ['2026-meta-missing-32602'],
    level: 'MUST',
    killedBy: ['missing-meta-served'],
    async run(ctx: CheckContext) {
      const s = wire(ctx);
      await baseline(ctx, s);
      const seen: string[] = [];
      for (const m of MISSING) {
        // Without the protocol version: judged on a server of modern versions only (RULINGS.md#dual-era-ambiguous-request).
        const notJudged = (answer: string) => {
          const why = m.mirrored ? eraAmbiguous(ctx.info) : undefined;
          if (why) {
            ctx.note(`tools/list ${m.what} answered ${answer}, not judged: ${why}`);
            seen.push(`${m.what}: not judged`);
          }
          return why !== undefined;
        };
        let r: ModernResponse;
        try {
          r = await s.request(Method.ToolsList, {}, m.options);
        } catch (e) {
          // An HTTP answer without a JSON-RPC response (e.g. a 2025-11-25 400 outside a session).
          if (e instanceof HttpNoAnswerError && notJudged(`HTTP ${e.exchange.status} ${brief(e.exchange.unreadBody ?? e.message)}`)) continue;
          throw e;
        }
        if (r.error?.code !== ErrorCode.InvalidParams && notJudged(show(r))) continue;
        ctx.expect(r.error, `tools/list ${m.what} was served: ${show(r)}`);
        // Over HTTP the MCP-Protocol-Version header still names the version the body leaves out: a server may
        // answer that as a header mismatch (-32020, basic-transports-streamable-http.md "Server Validation") first.
        const mismatch = m.mirrored && s.transportKind === 'http' && r.error.code === ErrorCode.HeaderMismatch;
        if (mismatch) ctx.note(`tools/list ${m.what}: -32020 (the ${PROTOCOL_VERSION} header had no body value to match)`);
        else ctx.expect(r.error.code === ErrorCode.InvalidParams, `tools/list ${m.what}: expected -32602 (Invalid params), got ${show(r)}`);
        seen.push(`${m.what}: ${r.error.code}`);
      }
      return seen.join('; ');
    },
  }),
  modernCheck({
    id: '2026-meta.missing-http-400',
    title: 'over Streamable HTTP the -32602 of a request missing a required _meta field comes with 400 Bad Request',
    section: 'Per-request protocol fields',
    requirements: ['2026-meta-missing-http-400'],
    level: 'MUST',
    killedBy: ['meta-missing-http-200'],
    notApplicable: httpStatusRule,
    async run(ctx: CheckContext) {
      const s = wire(ctx);
      const r = await s.request(Method.ToolsList, {}, MISSING[0]!.options);
      if (r.error?.code !== ErrorCode.InvalidParams)
        ctx.skip(`tools/list ${MISSING[0]!.what} was not answered -32602 (${show(r)})`, { judgedBy: '2026-meta.missing-32602' });
      ctx.expect(r.httpStatus === HTTP_BAD_REQUEST, `the -32602 of tools/list ${MISSING[0]!.what} came with HTTP ${r.httpStatus}, not 400`);
    },
  }),
  modernCheck({
    id: '2026-meta.no-undeclared-capability',
    title: 'a tools/call that needs input, from a request declaring no capability, is not answered with inputRequests',
    section: 'Per-request protocol fields',
    requirements: ['2026-meta-no-undeclared-capability'],
    level: 'MUST',
    killedBy: ['mrtr-undeclared-elicitation'],
    needs: ['needsInput'],
    async run(ctx: CheckContext) {
      const s = wire(ctx);
      const roles = (['needsInput', 'needsInputBeforeTask'] as const).filter((r) => ctx.info.profile.tools[r]);
      const seen: string[] = [];
      for (const role of roles) {
        const tool = ctx.tool(role);
        // No capability at all: no elicitation, no sampling, no roots (and no extension).
        const r = await s.request(Method.ToolsCall, { name: tool.name, arguments: tool.arguments ?? {} }, { capabilities: {} });
        const asked = isObj(r.result?.[Field.inputRequests]) ? Object.entries(r.result[Field.inputRequests] as Record<string, unknown>) : [];
        ctx.expect(
          asked.length === 0,
          `tools/call of the ${role} tool ${tool.name} from a request declaring no capability asked for input the client cannot give: ${asked
            .map(([k, q]) => `${k}: ${brief((q as { method?: unknown })?.method)}`)
            .join(', ')}`,
        );
        seen.push(`${role}: ${r.error ? `error ${r.error.code}` : `resultType ${JSON.stringify(r.result?.[Field.resultType])}`}`);
      }
      return seen.join('; ');
    },
  }),
  modernCheck({
    id: '2026-stateless.no-prior-context',
    title: 'the protocol version of a request is its own: after a request naming a supported version, one naming an unsupported version still gets -32022',
    section: 'Statelessness',
    requirements: ['2026-stateless-no-prior-context'],
    level: 'MUST',
    killedBy: ['version-from-prior-request'],
    async run(ctx: CheckContext) {
      const { toolsList } = await freshClient(ctx, 'stateless');
      const unsupported = () => toolsList(UNSUPPORTED_VERSION);
      const first = await unsupported();
      if (first.error?.code !== ErrorCode.UnsupportedProtocolVersion)
        ctx.skip(`tools/list naming protocol version ${UNSUPPORTED_VERSION} was not answered -32022 (${show(first)})`, {
          judgedBy: '2026-version.unsupported-32022',
        });
      const supported = await toolsList();
      if (supported.error) ctx.skip(`tools/list naming ${PROTOCOL_VERSION} answered ${show(supported)}`);
      const again = await unsupported();
      ctx.expect(
        again.error?.code === ErrorCode.UnsupportedProtocolVersion,
        `tools/list naming ${UNSUPPORTED_VERSION} was answered -32022, then, after a tools/list naming ${PROTOCOL_VERSION} by the same client on the same connection, ${show(again)}: the earlier request decided the version`,
      );
      return `-32022 before and after a request naming ${PROTOCOL_VERSION}`;
    },
  }),
  modernCheck({
    id: '2026-stateless.explicit-task-id',
    title: 'a tasks/get that names no taskId is not answered with a task (a task is named by the request, not the connection)',
    section: 'Statelessness',
    requirements: ['2026-stateless-explicit-identifier'],
    level: 'MUST',
    killedBy: ['task-without-id-resolved'],
    needs: ['slow'],
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      const c = await createTask(ctx, 'slow');
      const r = await answerOrRefusal(c.scope.request(Method.TasksGet, {}));
      if (r.httpRefusal !== undefined) return `refused with a bare HTTP ${r.httpRefusal}`;
      // A task resolved from the connection: a result naming a task. Any other answer to the malformed request
      // (an error, a result that names no task) is judged by other lines (-32602, the schema), not this one.
      const named = isObj(r.result) ? r.result[Field.taskId] : undefined;
      if (typeof named === 'string')
        ctx.violation(
          `tasks/get without params.taskId, after task ${c.taskId} was created on the connection, was answered with task ${named}: ${brief(r.result, 200)}`,
        );
      if (r.result !== undefined) ctx.note(`answered with a result that names no task: ${brief(r.result, 200)}`);
      return `answered ${show(r)}`;
    },
  }),
];
