// Requestor checks (2026-07-28): what every request carries — the per-request `_meta` (basic-index.md) and,
// over Streamable HTTP, the standard headers (basic-transports-streamable-http.md; tasks.md "Routing Headers").
import { BASE64_SENTINEL, Header, Meta } from '../../../../schema/2026-07-28/protocol.ts';
import { at, short, type Analysis, type Exchange } from '../analysis.ts';
import { defineExtensionRequestorCheck, ALL, type ExtensionRequestorCheckDef, type JudgeContext } from '../engine.ts';
import { isObj } from '../../../../schema/json.ts';

const SECTION = 'Requestor (2026-07-28): Requests and headers';
const TASK_METHODS = ['tasks/get', 'tasks/update', 'tasks/cancel'];

/** A value that can stand in a header as it is (basic-transports-streamable-http.md "Value Encoding"). */
const PLAIN_ASCII = /^[\x21-\x7e]([\x20-\x7e\t]*[\x21-\x7e])?$/;

/** A header value decoded (Base64 sentinel), or undefined when absent. */
function header(x: { headers?: Record<string, string> }, name: string): string | undefined {
  const v = x.headers?.[name.toLowerCase()];
  if (v === undefined) return undefined;
  const m = BASE64_SENTINEL.exec(v);
  return m ? Buffer.from(m[1]!, 'base64').toString('utf8') : v;
}

function httpOnly(run: Analysis, ctx: JudgeContext): void {
  if (run.transport !== 'http') ctx.skip(`the headers belong to Streamable HTTP (this run: ${run.transport})`);
}

function describe(x: Exchange): string {
  return `${x.method} (id ${short(x.id)}) at ${at(x.sentMs)}`;
}

export const checks: ExtensionRequestorCheckDef[] = [
  defineExtensionRequestorCheck({
    id: '2026-requestor.request-meta',
    title: 'Every request carries _meta io.modelcontextprotocol/protocolVersion and clientCapabilities',
    section: SECTION,
    requirements: ['2026-meta-required-fields'],
    level: 'MUST',
    killedBy: ['no-request-meta'],
    scenarios: ALL,
    judge(run: Analysis, ctx: JudgeContext) {
      // initialize is the legacy handshake (a dual-era client's probe), a request of no modern revision: its fields are its own.
      const modern = run.requests.filter((x) => x.method !== 'initialize');
      if (modern.length === 0) ctx.skip('the client sent no request');
      const bad = modern.filter((x) => {
        const meta = isObj(x.params) ? x.params._meta : undefined;
        return !isObj(meta) || typeof meta[Meta.ProtocolVersion] !== 'string' || !isObj(meta[Meta.ClientCapabilities]);
      });
      ctx.expect(
        bad.length === 0,
        `${bad.length} of ${modern.length} request(s) lack ${Meta.ProtocolVersion} (a string) or ${Meta.ClientCapabilities} (an object) in params._meta: ${bad.slice(0, 5).map(describe).join('; ')}`,
      );
      return `all ${modern.length} request(s) carry both per-request fields`;
    },
  }),

  defineExtensionRequestorCheck({
    id: '2026-requestor.standard-headers',
    title: 'Over Streamable HTTP every request carries MCP-Protocol-Version (= _meta version) and Mcp-Method; tools/call Mcp-Name = params.name',
    section: SECTION,
    requirements: ['2026-header-standard-required', '2026-header-metadata-on-every-request', '2026-header-protocol-version', '2026-header-version-match'],
    level: 'MUST',
    killedBy: ['no-method-header'],
    scenarios: ALL,
    judge(run: Analysis, ctx: JudgeContext) {
      httpOnly(run, ctx);
      // JSON-RPC requests: the header table's "Required For" names requests; a notification's POST is left unjudged, and so is
      // initialize (the legacy handshake a dual-era client may try, basic-transports-streamable-http.md "Backward Compatibility").
      const posts = run.requests.filter((x) => x.method !== 'initialize');
      if (posts.length === 0) ctx.skip('the client sent no request');
      const bad: string[] = [];
      for (const x of posts) {
        const what = `${x.method}${x.id !== undefined ? ` (id ${short(x.id)})` : ''} at ${at(x.sentMs)}`;
        const pv = header(x, Header.ProtocolVersion);
        const metaPv = isObj(x.params?._meta) ? x.params._meta[Meta.ProtocolVersion] : undefined;
        if (pv === undefined) bad.push(`${what}: no ${Header.ProtocolVersion}`);
        else if (typeof metaPv === 'string' && pv !== metaPv) bad.push(`${what}: ${Header.ProtocolVersion} "${pv}" ≠ _meta "${metaPv}"`);
        const m = header(x, Header.Method);
        if (m !== x.method) bad.push(`${what}: ${Header.Method} ${m === undefined ? 'missing' : `"${m}"`}`);
        if (x.method === 'tools/call' && header(x, Header.Name) !== x.params?.name)
          bad.push(
            `${what}: ${Header.Name} ${header(x, Header.Name) === undefined ? 'missing' : `"${header(x, Header.Name)}"`}, params.name "${String(x.params?.name)}"`,
          );
      }
      ctx.expect(bad.length === 0, `${bad.length} header fault(s): ${bad.slice(0, 6).join('; ')}${bad.length > 6 ? ' …' : ''}`);
      return `${posts.length} request(s), each with the standard headers`;
    },
  }),

  defineExtensionRequestorCheck({
    id: '2026-requestor.mcp-name-base64',
    title: 'An Mcp-Name value that is not plain ASCII is sent in the Base64 sentinel form',
    section: SECTION,
    requirements: ['2026-header-mcp-name-base64'],
    level: 'MUST',
    killedBy: ['raw-names'],
    scenarios: ['non-ascii-tool-name'],
    judge(run: Analysis, ctx: JudgeContext) {
      httpOnly(run, ctx);
      const source = (x: Exchange) => (x.method === 'tools/call' ? x.params?.name : TASK_METHODS.includes(x.method) ? x.params?.taskId : undefined);
      const mine = run.requests.filter((x) => typeof source(x) === 'string' && !PLAIN_ASCII.test(source(x)));
      if (mine.length === 0) ctx.skip('the client sent no request whose Mcp-Name value is outside plain ASCII');
      const bad = mine.filter((x) => {
        const raw = x.headers?.[Header.Name.toLowerCase()];
        return raw === undefined || !BASE64_SENTINEL.test(raw) || header(x, Header.Name) !== source(x);
      });
      ctx.expect(
        bad.length === 0,
        `${bad.length} of ${mine.length} request(s): ${bad
          .slice(0, 5)
          .map((x) => `${describe(x)}: Mcp-Name ${JSON.stringify(x.headers?.[Header.Name.toLowerCase()] ?? null)} for ${JSON.stringify(source(x))}`)
          .join('; ')}`,
      );
      return `${mine.length} request(s) with a non-ASCII Mcp-Name value, each in the Base64 sentinel form`;
    },
  }),

  defineExtensionRequestorCheck({
    id: '2026-requestor.mcp-name-task-id',
    title: 'Over Streamable HTTP tasks/get, tasks/update and tasks/cancel carry Mcp-Name = params.taskId',
    section: SECTION,
    requirements: ['2026-http-mcp-name-task-id'],
    level: 'MUST',
    killedBy: ['no-mcp-name'],
    scenarios: ALL,
    judge(run: Analysis, ctx: JudgeContext) {
      httpOnly(run, ctx);
      const mine = run.requests.filter((x) => TASK_METHODS.includes(x.method));
      if (mine.length === 0) ctx.skip('the client sent no tasks/get, tasks/update or tasks/cancel');
      // RULINGS.md#ext-mcp-name-task-id: the header carries params.taskId (Base64 sentinel when not plain ASCII).
      const bad = mine.filter((x) => header(x, Header.Name) !== x.params?.taskId);
      ctx.expect(
        bad.length === 0,
        `${bad.length} of ${mine.length} task request(s) without Mcp-Name = taskId: ${bad
          .slice(0, 5)
          .map(
            (x) =>
              `${describe(x)}: ${header(x, Header.Name) === undefined ? 'no Mcp-Name' : `Mcp-Name "${header(x, Header.Name)}"`}, taskId ${short(x.params?.taskId)}`,
          )
          .join('; ')}`,
      );
      return `${mine.length} task request(s), each with Mcp-Name = taskId`;
    },
  }),
];
