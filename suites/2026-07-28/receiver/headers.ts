// Checks of 2026-07-28 basic-transports-streamable-http.md "Request Metadata" on the server's side: the
// MCP-Protocol-Version header matches the body (else 400 with -32020); an unsupported version is 400 with
// -32022; header names compare case-insensitively; an Mcp-Name in the Base64 sentinel encoding is decoded before
// it is compared with the body. (The Mcp-Name / Mcp-Method mismatches of task requests: routing.ts.)
import type { CheckContext, CheckDef, TargetInfo } from '../../engine/check.ts';
import { ErrorCode, Header, HTTP_BAD_REQUEST, Method, PROTOCOL_VERSION, earlierNumbering } from '../../../schema/2026-07-28/protocol.ts';
import { CLIENT_CAPABILITIES, type ModernRequestOptions, type ModernResponse, type ModernScope } from '../wire/peer.ts';
import type { HeaderOverrides } from '../wire/http.ts';
import { brief, modernCheck, wire } from '../engine/check.ts';
import { freshClient, UNSUPPORTED_VERSION } from '../arrange/fresh-client.ts';
import { answerOrRefusal } from '../arrange/tasks.ts';

const SECTION = 'Streamable HTTP: Request Metadata';
const show = (r: ModernResponse) => brief(r.error ?? r.result);
const httpOnly = (info: TargetInfo) =>
  info.transport === 'http' ? undefined : 'request headers exist over Streamable HTTP only; the target is not spoken to over HTTP';

/** tools/call of the completes tool from a non-declaring client (a plain, quick answer), with these headers. */
function callCompletes(ctx: CheckContext, s: ModernScope, headers?: HeaderOverrides, name?: string): Promise<ModernResponse> {
  const tool = ctx.tool('completes');
  const options: ModernRequestOptions = { capabilities: CLIENT_CAPABILITIES.nonDeclaring, ...(headers ? { headers } : {}) };
  return s.request(Method.ToolsCall, { name: name ?? tool.name, arguments: tool.arguments ?? {} }, options);
}

/** The baseline: the same call with the standard headers as the suite writes them was served. */
async function baseline(ctx: CheckContext, s: ModernScope): Promise<ModernResponse> {
  const r = await callCompletes(ctx, s);
  if (r.error) ctx.skip(`tools/call of the completes tool with the standard headers answered ${show(r)}`);
  return r;
}

export const checks: CheckDef[] = [
  modernCheck({
    id: '2026-http.protocol-version-mismatch',
    title: 'a request whose MCP-Protocol-Version header differs from its _meta protocolVersion is answered HTTP 400 with -32020',
    section: SECTION,
    requirements: ['2026-header-version-mismatch-reject'],
    level: 'MUST',
    killedBy: ['protocol-version-header-unchecked', 'header-mismatch-http-200'],
    notApplicable: httpOnly,
    async run(ctx: CheckContext) {
      const s = wire(ctx);
      const supported: unknown[] = Array.isArray(ctx.info.discoverResult?.supportedVersions) ? ctx.info.discoverResult.supportedVersions : [];
      // Another version the server supports, so that only the mismatch is wrong; else the legacy revision's.
      const other = (supported.find((v) => typeof v === 'string' && v !== PROTOCOL_VERSION) as string | undefined) ?? '2025-11-25';
      const r = await answerOrRefusal(s.request(Method.ToolsList, {}, { headers: { [Header.ProtocolVersion]: other } }));
      // A bare HTTP 4xx: an intermediary's rejection, which need carry no JSON-RPC error (basic-transports-streamable-http.md
      // "Server Validation" note); 400 and -32020 are judged where a JSON-RPC error is given.
      if (r.httpRefusal !== undefined) {
        ctx.note(`refused with a bare HTTP ${r.httpRefusal} (an intermediary's form: no JSON-RPC error required of it)`);
        return `${Header.ProtocolVersion}: ${other} → HTTP ${r.httpRefusal} without a JSON-RPC body`;
      }
      ctx.expect(r.error, `tools/list with ${Header.ProtocolVersion}: ${other} and _meta protocolVersion ${PROTOCOL_VERSION} was served: ${show(r)}`);
      if (r.error.code === ErrorCode.UnsupportedProtocolVersion && !supported.includes(other)) {
        // The header named a version the server does not implement: which of the two rules answers first the texts leave open.
        ctx.note(`answered -32022 for the unsupported ${other} of the header`);
      } else
        ctx.expect(
          r.error.code === ErrorCode.HeaderMismatch,
          `tools/list with ${Header.ProtocolVersion}: ${other} and _meta protocolVersion ${PROTOCOL_VERSION}: expected -32020 (HeaderMismatch), got ${show(r)}${earlierNumbering(r.error.code, ErrorCode.HeaderMismatch)}`,
        );
      ctx.expect(r.httpStatus === HTTP_BAD_REQUEST, `the ${r.error.code} of the mismatched ${Header.ProtocolVersion} came with HTTP ${r.httpStatus}, not 400`);
      return `${Header.ProtocolVersion}: ${other} → HTTP ${r.httpStatus} ${r.error.code}`;
    },
  }),
  modernCheck({
    id: '2026-http.unsupported-version-400',
    title: 'over Streamable HTTP the -32022 of an unsupported protocol version comes with 400 Bad Request',
    section: SECTION,
    requirements: ['2026-header-unsupported-version-400'],
    level: 'MUST',
    killedBy: ['unsupported-version-http-200'],
    notApplicable: httpOnly,
    async run(ctx: CheckContext) {
      // The header mirrors the body: both name the unsupported version.
      const r = await (await freshClient(ctx, 'version')).toolsList(UNSUPPORTED_VERSION);
      if (r.error?.code !== ErrorCode.UnsupportedProtocolVersion)
        ctx.skip(`tools/list naming protocol version ${UNSUPPORTED_VERSION} was not answered -32022 (${show(r)})`, {
          judgedBy: '2026-version.unsupported-32022',
        });
      ctx.expect(r.httpStatus === HTTP_BAD_REQUEST, `the -32022 came with HTTP ${r.httpStatus}, not 400`);
    },
  }),
  modernCheck({
    id: '2026-http.header-names-case-insensitive',
    title: 'the standard headers are recognised whatever the case of their names',
    section: SECTION,
    requirements: ['2026-header-names-case-insensitive'],
    level: 'MUST',
    killedBy: ['header-names-case-sensitive'],
    needs: ['completes'],
    notApplicable: httpOnly,
    async run(ctx: CheckContext) {
      const s = wire(ctx);
      await baseline(ctx, s);
      const tool = ctx.tool('completes');
      const values: [string, string][] = [
        [Header.ProtocolVersion, PROTOCOL_VERSION],
        [Header.Method, Method.ToolsCall],
        [Header.Name, tool.name],
      ];
      const spellings: [string, (n: string) => string][] = [
        ['lower case', (n) => n.toLowerCase()],
        ['upper case', (n) => n.toUpperCase()],
      ];
      for (const [label, spell] of spellings) {
        const headers = Object.fromEntries(values.map(([n, v]) => [spell(n), v]));
        const r = await callCompletes(ctx, s, headers);
        ctx.expect(
          !r.error,
          `tools/call with the standard header names in ${label} (${Object.keys(headers).join(', ')}) answered ${show(r)}; with the usual spelling it was served`,
        );
      }
      return 'served with the header names in lower and in upper case';
    },
  }),
  modernCheck({
    id: '2026-http.mcp-name-base64',
    title: 'an Mcp-Name in the Base64 sentinel encoding is decoded before it is compared with the body',
    section: SECTION,
    requirements: ['2026-header-decode-base64'],
    level: 'MUST',
    killedBy: ['mcp-name-not-decoded'],
    needs: ['completes'],
    notApplicable: httpOnly,
    async run(ctx: CheckContext) {
      const s = wire(ctx);
      await baseline(ctx, s);
      const encode = (v: string) => `=?base64?${Buffer.from(v, 'utf8').toString('base64')}?=`;
      // The tool's own name, encoded (a client may encode any value; the server decodes what it gets).
      const tool = ctx.tool('completes');
      const r = await callCompletes(ctx, s, { [Header.Name]: encode(tool.name) });
      ctx.expect(
        !r.error,
        `tools/call with ${Header.Name}: ${encode(tool.name)} (the Base64 of "${tool.name}") answered ${show(r)}; with the plain name it was served`,
      );
      // A name that must be encoded (not ASCII): whatever the server says of the unknown tool, it is no header mismatch.
      const odd = `${tool.name}-\u00e9t\u00e9`;
      const u = await callCompletes(ctx, s, { [Header.Name]: encode(odd) }, odd);
      ctx.expect(
        u.error?.code !== ErrorCode.HeaderMismatch,
        `tools/call of "${odd}" with ${Header.Name}: ${encode(odd)} (its Base64) was refused as a header mismatch: ${show(u)}`,
      );
      return `encoded names accepted (an unknown non-ASCII name: ${u.error ? `error ${u.error.code}` : 'served'})`;
    },
  }),
];
