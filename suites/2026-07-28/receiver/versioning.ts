// Checks of 2026-07-28 basic-versioning.md on the server's side: a request naming a version the server does
// not implement gets UnsupportedProtocolVersionError (-32022) listing the supported ones ("Protocol Version
// Negotiation"); a modern-only server names its versions in any error to initialize ("Backward Compatibility
// with Initialization-Based Versions"); to a client without the extension the server reverts to core
// behaviour or rejects the request ("Extension Negotiation").
import type { CheckContext, CheckDef } from '../../engine/check.ts';
import { isObj } from '../../engine/text.ts';
import { ErrorCode, Field, Header, Method, ResultType, earlierNumbering } from '../../../schema/2026-07-28/protocol.ts';
import { SPEC_REVISION } from '../../../schema/spec.ts';
import { CLIENT_CAPABILITIES, CLIENT_INFO, HttpNoAnswerError, type ModernResponse } from '../wire/peer.ts';
import { brief, modernCheck, openWire, wire } from '../engine/check.ts';
import { answeredWithTask } from '../arrange/tasks.ts';
import { freshClient, UNSUPPORTED_VERSION } from '../arrange/fresh-client.ts';

const SECTION = 'Versioning';
const show = (r: ModernResponse) => brief(r.error ?? r.result);

/** A dual-era server answers initialize: the rule is for servers that support only modern versions. */
export const DUAL_ERA = 'the server answers initialize with a result (it is dual-era): the rule is for a server that supports only modern versions';

export const checks: CheckDef[] = [
  modernCheck({
    id: '2026-version.unsupported-32022',
    title: 'a request naming a protocol version the server does not implement gets -32022 listing the supported versions',
    section: SECTION,
    requirements: ['2026-version-unsupported-32022'],
    level: 'MUST',
    killedBy: ['unsupported-version-served'],
    async run(ctx: CheckContext) {
      // The first request of a connection and client of its own: what earlier requests do to the answer is 2026-stateless.no-prior-context's.
      const r = await (await freshClient(ctx, 'version')).toolsList(UNSUPPORTED_VERSION);
      ctx.expect(r.error, `tools/list naming protocol version ${UNSUPPORTED_VERSION} was served: ${show(r)}`);
      ctx.expect(
        r.error.code === ErrorCode.UnsupportedProtocolVersion,
        `tools/list naming protocol version ${UNSUPPORTED_VERSION}: expected -32022 (UnsupportedProtocolVersionError), got ${show(r)}${earlierNumbering(r.error.code, ErrorCode.UnsupportedProtocolVersion)}`,
      );
      const supported = (r.error.data as { supported?: unknown } | undefined)?.supported;
      ctx.expect(
        Array.isArray(supported) && supported.length > 0 && supported.every((v) => typeof v === 'string'),
        `the -32022 does not list the supported versions in data.supported: ${show(r)}`,
      );
      ctx.expect(!supported.includes(UNSUPPORTED_VERSION), `the -32022 lists the requested version ${UNSUPPORTED_VERSION} as supported: ${show(r)}`);
      // The schema's data.requested (not this line's rule): noted when it is not the version asked for.
      const requested = (r.error.data as { requested?: unknown }).requested;
      if (requested !== UNSUPPORTED_VERSION) ctx.note(`data.requested is ${brief(requested)}, not "${UNSUPPORTED_VERSION}"`);
      return `-32022, supported ${JSON.stringify(supported)}`;
    },
  }),
  modernCheck({
    id: '2026-version.initialize-names-versions',
    title: 'a modern-only server names the protocol versions it supports in its error to initialize',
    section: SECTION,
    requirements: ['2026-version-modern-initialize-error'],
    level: 'SHOULD',
    killedBy: ['initialize-error-no-versions'],
    async run(ctx: CheckContext) {
      const versions: unknown = ctx.info.discoverResult?.[Field.supportedVersions];
      if (!Array.isArray(versions) || !versions.length || !versions.every((v) => typeof v === 'string'))
        ctx.skip(`server/discover listed no supportedVersions to look for (${brief(versions)})`, { judgedBy: '2026-negotiation.discover-implemented' });
      // The pre-flight's initialize (the same request) got no answer within its bound: not waited for twice; silence is time (RULINGS.md#response-time).
      if (ctx.info.legacy?.speaks === 'unanswered') ctx.skip(`in the pre-flight, ${ctx.info.legacy.detail}`, { timedOut: true });
      // A connection of its own: a dual-era server that answers initialize is not left in a legacy session on the shared one.
      const s = await openWire(ctx);
      // What a legacy client sends: no per-request _meta and, over HTTP, none of the modern headers.
      const params = { protocolVersion: SPEC_REVISION, capabilities: {}, clientInfo: CLIENT_INFO };
      let text: string;
      try {
        const r = await s.request('initialize', params, {
          raw: true,
          ...(s.transportKind === 'http' ? { headers: { [Header.ProtocolVersion]: null, [Header.Method]: null } } : {}),
        });
        if (!r.error) ctx.skip(DUAL_ERA);
        text = r.error.data === undefined ? r.error.message : `${r.error.message} ${brief(r.error.data, 2_000)}`;
      } catch (e) {
        // An HTTP error without a JSON-RPC body is an error too; its text is what a legacy client can show.
        if (!(e instanceof HttpNoAnswerError)) throw e;
        text = `HTTP ${e.exchange.status} ${e.exchange.unreadBody ?? ''}`;
      }
      const missing = versions.filter((v: string) => !text.includes(v));
      ctx.expect(
        missing.length === 0,
        `the error to initialize does not name the supported version${missing.length > 1 ? 's' : ''} ${missing.join(', ')}: ${brief(text)}`,
      );
      return `names ${versions.join(', ')}`;
    },
  }),
  modernCheck({
    id: '2026-version.extension-fallback',
    title: 'to a client that does not declare the extension, tools/call is the core result or an error',
    section: SECTION,
    requirements: ['2026-ext-fallback-revert-or-reject'],
    level: 'MUST',
    killedBy: ['undeclared-bare-ack'],
    needs: ['completes'],
    async run(ctx: CheckContext) {
      const s = wire(ctx);
      const roles = (['completes', 'failsWithError', 'returnsIsError'] as const).filter((r) => ctx.info.profile.tools[r]);
      const seen: string[] = [];
      for (const role of roles) {
        const tool = ctx.tool(role);
        const r = await s.request(Method.ToolsCall, { name: tool.name, arguments: tool.arguments ?? {} }, { capabilities: CLIENT_CAPABILITIES.nonDeclaring });
        if (answeredWithTask(r.result))
          ctx.skip(`the ${role} tool answered a non-declaring client with a task`, { judgedBy: '2026-negotiation.no-task-for-non-declaring' });
        if (r.error) {
          seen.push(`${role}: error ${r.error.code}`);
          continue;
        }
        // The core answers of tools/call: a CallToolResult (content) or, through MRTR, an InputRequiredResult.
        const res = r.result as Record<string, unknown> | undefined;
        const core = res?.[Field.resultType] === ResultType.InputRequired ? isObj(res[Field.inputRequests]) : Array.isArray(res?.content);
        ctx.expect(core, `tools/call of the ${role} tool ${tool.name} from a non-declaring client answered neither the core result nor an error: ${show(r)}`);
        seen.push(`${role}: resultType ${JSON.stringify(res?.[Field.resultType])}`);
      }
      return seen.join('; ');
    },
  }),
];
