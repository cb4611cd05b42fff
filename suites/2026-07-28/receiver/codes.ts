// Error codes (core basic-index.md "Error Codes"): no code of the legacy sub-range, none of the reserved
// sub-range the specification does not define, the defined ones only with their meaning, none of the retired
// ones. These lines hold for every error a server sends, so each check reads every error of the run (the
// shared connection and the checks' own connections, after the other checks: runsLast) besides a few of its
// own (an unknown method, an unknown tool, the plain call of the failing tool): error responses, and the
// error of each failed task once (a task's error is a JSON-RPC error the server emits too).
//
// One code, one verdict: `codeMisuse` puts each code under at most one of these lines (or, for the
// protocol errors of tasks/* in a case the page lists, the extension's "standard JSON-RPC errors" line, errors.ts),
// the strongest that applies: retired, then reserved but undefined, then (listed cases only) not a standard code, then legacy
// (RULINGS.md#ext-error-code-one-verdict).
import type { CheckContext, CheckDef } from '../../engine/check.ts';
import { isLimitError } from '../../arrange/arrange.ts';
import { short } from '../../engine/text.ts';
import type { JsonRpcError, Message } from '../../wire/peer.ts';
import {
  EARLIER_NUMBERING,
  ErrorCode,
  Field,
  Header,
  JSONRPC_STANDARD_CODES,
  LEGACY_CODE_RANGE,
  MCP_DEFINED_CODES,
  Meta,
  Method,
  RESERVED_CODE_RANGE,
  RETIRED_CODES,
  TASK_METHODS,
  TASKS_EXTENSION,
} from '../../../schema/2026-07-28/protocol.ts';
import { modernCheck, wire } from '../engine/check.ts';
import { NON_DECLARING } from '../arrange/tasks.ts';
import { declaredCapabilities, errorOf, failedTaskErrors, runAnswers, runIncoming, type Answered } from '../arrange/observed.ts';
import { mcpNameSource, mirroredParameters, parameterHeaders, standardHeaders } from '../wire/http.ts';

/** Methods whose requests carry Mcp-Name (the standard header table; tasks.md "Streamable HTTP: Routing Headers"). */
const NAMED_METHODS: readonly string[] = [Method.ToolsCall, 'prompts/get', 'resources/read', ...TASK_METHODS];

const SECTION = 'Error codes';
const HTTP_TOO_MANY_REQUESTS = 429;

export type CodeRule = 'retired' | 'undefined-reserved' | 'non-standard' | 'legacy';

/** The one line a code breaks, if any. `protocolError`: an error response in a listed protocol-error case of tasks/* (SeenError.listedCase). */
export function codeMisuse(code: unknown, protocolError: boolean): CodeRule | undefined {
  if (typeof code !== 'number' || !Number.isInteger(code)) return protocolError ? 'non-standard' : undefined;
  if (RETIRED_CODES[code] !== undefined) return 'retired';
  if (code >= RESERVED_CODE_RANGE.min && code <= RESERVED_CODE_RANGE.max && !MCP_DEFINED_CODES.includes(code)) return 'undefined-reserved';
  if (protocolError && !JSONRPC_STANDARD_CODES.includes(code) && !MCP_DEFINED_CODES.includes(code)) return 'non-standard';
  if (code >= LEGACY_CODE_RANGE.min && code <= LEGACY_CODE_RANGE.max) return 'legacy';
  return undefined;
}

/** One error the target sent: an error response (with its request) or a failed task's error. */
export interface SeenError {
  /** What it answered, for the evidence: "tasks/get (shared connection)", "task <id>". */
  where: string;
  error: JsonRpcError;
  answered?: Answered;
  /** An error response to tasks/get, tasks/update or tasks/cancel (a protocol error of the extension). */
  protocol: boolean;
  /**
   * A case tasks.md "Protocol Errors" lists (tasks.md:791-793) that the request plainly falls in: a declaring
   * client's tasks/get, tasks/update or tasks/cancel naming a taskId the server never issued in the run (invalid or
   * nonexistent), not refused as a limit. Only these are held to "standard JSON-RPC errors"; the missing-capability
   * case has its own lines (-32021), and an internal failure cannot be told from the outside.
   */
  listedCase: boolean;
  /**
   * Possibly a refusal of a poll sooner than the task's pollIntervalMs, or a limit (RULINGS.md#ext-rate-limit-error-open:
   * rate limiting has no defined error): left aside by the "standard JSON-RPC errors" line.
   */
  limit: boolean;
}

/** Every error of the run so far: error responses, then the error of each failed task once. */
export function runErrors(ctx: CheckContext): SeenError[] {
  const answers = runAnswers(ctx);
  // The last pollIntervalMs seen per task, and when each tasks/get of it went out, per connection.
  const interval = new Map<string, number>();
  for (const a of answers) {
    const r = a.response.result as Record<string, unknown> | undefined;
    if (r && typeof r[Field.taskId] === 'string' && typeof r[Field.pollIntervalMs] === 'number')
      interval.set(r[Field.taskId] as string, r[Field.pollIntervalMs] as number);
  }
  const gets = new Map<string, number[]>();
  for (const a of answers) {
    const id = a.request?.params?.[Field.taskId];
    if (a.request?.method === Method.TasksGet && typeof id === 'string' && a.sentAt !== undefined) {
      const k = `${a.source} ${id}`;
      gets.set(k, [...(gets.get(k) ?? []), a.sentAt]);
    }
  }
  const tooSoon = (a: Answered): boolean => {
    const id = a.request?.params?.[Field.taskId];
    if (a.request?.method !== Method.TasksGet || typeof id !== 'string' || a.sentAt === undefined) return false;
    const every = interval.get(id);
    const before = (gets.get(`${a.source} ${id}`) ?? []).filter((t) => t < a.sentAt!);
    return every !== undefined && before.length > 0 && a.sentAt - Math.max(...before) < every;
  };
  // Every taskId the server issued or showed in the run (a request naming another one names a nonexistent task).
  const issued = new Set<string>();
  for (const a of answers) {
    const r = a.response.result as Record<string, unknown> | undefined;
    if (r && typeof r[Field.taskId] === 'string') issued.add(r[Field.taskId] as string);
  }
  for (const i of runIncoming(ctx)) if (typeof i.message.params?.[Field.taskId] === 'string') issued.add(i.message.params[Field.taskId]);
  const out: SeenError[] = [];
  for (const a of answers) {
    const error = errorOf(a);
    if (!error) continue;
    const method = a.request?.method;
    const protocol = typeof method === 'string' && (TASK_METHODS as readonly string[]).includes(method);
    // A rate limit may come as any code, with HTTP 429 (RULINGS.md#ext-rate-limit-error-open).
    const limit = isLimitError(error) || tooSoon(a) || a.httpStatus === HTTP_TOO_MANY_REQUESTS;
    const taskId = a.request?.params?.[Field.taskId];
    const declaring = declaredCapabilities(a.request).extensions?.[TASKS_EXTENSION] !== undefined;
    const listedCase = protocol && !limit && declaring && !(typeof taskId === 'string' && issued.has(taskId));
    out.push({ where: `${method ?? 'an unknown request'} (${a.source})`, error, answered: a, protocol, listedCase, limit });
  }
  for (const f of failedTaskErrors(ctx))
    out.push({ where: `failed task ${f.taskId} (${f.source})`, error: f.error, protocol: false, listedCase: false, limit: false });
  return out;
}

/** A few errors of the check's own: an unknown method, an unknown tool, the failing tool called without a task. Answers are not judged here. */
async function provokeErrors(ctx: CheckContext): Promise<void> {
  const s = wire(ctx);
  const quiet = (p: Promise<unknown>) => p.catch(() => undefined);
  await quiet(s.request('conformance/unknown-method', {}));
  await quiet(s.request(Method.ToolsCall, { name: `conformance-unknown-tool-${Date.now()}`, arguments: {} }));
  const fails = ctx.info.profile.tools.failsWithError;
  if (fails) await quiet(s.request(Method.ToolsCall, { name: fails.name, arguments: fails.arguments ?? {} }, { capabilities: NON_DECLARING }));
}

const line = (e: SeenError) => {
  const now = typeof e.error.code === 'number' ? EARLIER_NUMBERING[e.error.code] : undefined;
  const earlier = now !== undefined ? ` (${now} before the August 2026 renumbering: RULINGS.md#ext-error-renumbering)` : '';
  return `${e.where} → ${short(e.error.code)} ${short(e.error.message, 80)}${earlier}`;
};

/** A check of one code rule over every error of the run. */
function codeCheck(def: {
  id: string;
  title: string;
  requirement: string;
  level: 'MUST' | 'SHOULD';
  killedBy: string[];
  rule: CodeRule;
  says: string;
}): CheckDef {
  return modernCheck({
    id: def.id,
    title: def.title,
    section: SECTION,
    requirements: [def.requirement],
    level: def.level,
    killedBy: def.killedBy,
    runsLast: true,
    async run(ctx: CheckContext) {
      await provokeErrors(ctx);
      await ctx.othersDone();
      const errors = runErrors(ctx);
      if (!errors.length) ctx.skip('the target sent no error in the run: no code to judge');
      const bad = errors.filter((e) => codeMisuse(e.error.code, e.listedCase) === def.rule);
      ctx.expect(bad.length === 0, `${bad.length} error(s) ${def.says}: ${bad.slice(0, 5).map(line).join('; ')}`);
      return `${errors.length} error(s) of the run judged, none ${def.says}`;
    },
  });
}

/** Is every capability `required` names declared in `declared` (objects by their keys; an empty `elicitation` means form)? */
function declaredAll(required: unknown, declared: unknown, path = ''): boolean {
  if (!required || typeof required !== 'object' || Array.isArray(required)) return true;
  if (!declared || typeof declared !== 'object' || Array.isArray(declared)) return false;
  const d = declared as Record<string, unknown>;
  return Object.entries(required).every(([k, v]) => {
    if (!(k in d)) return false;
    const inner = d[k];
    if (path === '' && k === 'elicitation' && inner && typeof inner === 'object' && Object.keys(inner).length === 0) return true;
    return declaredAll(v, inner, `${path}/${k}`);
  });
}

/** The inputSchema of each tool the run's tools/list answers list, by name (a later listing wins). */
export function listedInputSchemas(answers: readonly Answered[]): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const a of answers) {
    if (a.request?.method !== Method.ToolsList) continue;
    const tools: unknown = (a.response.result as Record<string, unknown> | undefined)?.tools;
    if (!Array.isArray(tools)) continue;
    for (const t of tools) if (t && typeof t.name === 'string') out.set(t.name, t.inputSchema);
  }
  return out;
}

/**
 * The headers a conforming client sends with `req`: the standard ones and, for a tools/call, the `Mcp-Param-{Name}`
 * headers of the tool's listed inputSchema (basic-transports-streamable-http.md "Custom Headers from Tool
 * Parameters"). Undefined when the tool's `x-mcp-header` annotations are invalid: a client MUST exclude such a
 * tool, so no request of it is one whose headers a server must accept.
 */
export function conformingHeaders(req: Message, schemas: ReadonlyMap<string, unknown>): Record<string, string> | undefined {
  const out = standardHeaders(req);
  if (req.method !== Method.ToolsCall || typeof req.params?.name !== 'string') return out;
  const m = mirroredParameters(schemas.get(req.params.name));
  return 'invalid' in m ? undefined : { ...out, ...parameterHeaders(m.params, req.params.arguments) };
}

/** Why the wire shows a defined code used for another meaning, or undefined when it does not (or cannot tell). */
function wrongMeaning(ctx: CheckContext, a: Answered, e: JsonRpcError, schemas: ReadonlyMap<string, unknown>): string | undefined {
  const req = a.request;
  if (!req) return undefined;
  const http = ctx.info.transport === 'http';
  const version = req.params?._meta?.[Meta.ProtocolVersion];
  const sent = a.headers ? Object.fromEntries(Object.entries(a.headers).map(([k, v]) => [k.toLowerCase(), v])) : undefined;
  // Spelled as the standard table spells them: a server that reads only some spellings is judged by
  // 2026-header-names-case-insensitive, not here. The Mcp-Param-* headers sent are exactly those the listing asks for.
  const headersMatch = () => {
    const expected = conformingHeaders(req, schemas);
    if (!a.headers || !expected) return false;
    const params = (h: Record<string, string>) => Object.keys(h).filter((k) => k.toLowerCase().startsWith(Header.ParamPrefix.toLowerCase()));
    return Object.entries(expected).every(([k, v]) => a.headers![k] === v) && params(a.headers).every((k) => k in expected);
  };
  switch (e.code) {
    case ErrorCode.HeaderMismatch:
      if (!http) return 'HeaderMismatch over stdio, where a request has no headers';
      // A body without the value Mcp-Name comes from (e.g. tasks/get without taskId) leaves the header missing: a mismatch.
      if (typeof version === 'string' && NAMED_METHODS.includes(req.method as string) && typeof mcpNameSource(req.method as string, req.params) !== 'string')
        return undefined;
      if (typeof version === 'string' && headersMatch())
        return "HeaderMismatch to a request whose standard headers and the Mcp-Param headers of the tool's listed inputSchema all matched its body";
      return undefined;
    case ErrorCode.MissingRequiredClientCapability: {
      const required = (e.data as any)?.requiredCapabilities;
      if (!required || typeof required !== 'object' || Object.keys(required).length === 0) return undefined;
      return declaredAll(required, declaredCapabilities(req))
        ? `MissingRequiredClientCapability naming ${short(required, 120)}, which the request declared (${short(declaredCapabilities(req), 160)})`
        : undefined;
    }
    case ErrorCode.UnsupportedProtocolVersion: {
      const requested = typeof version === 'string' ? version : req.method === 'initialize' ? req.params?.protocolVersion : undefined;
      const supported: unknown = ctx.info.discoverResult?.supportedVersions;
      if (typeof requested !== 'string' || !Array.isArray(supported) || !supported.includes(requested)) return undefined;
      if (http && !(sent && sent['mcp-protocol-version'] === requested)) return undefined;
      return `UnsupportedProtocolVersion to a request of version ${requested}, which server/discover lists as supported`;
    }
    default:
      return undefined;
  }
}

export const checks: CheckDef[] = [
  codeCheck({
    id: '2026-codes.no-legacy-range',
    title: 'no error of the run uses a code of the legacy sub-range (-32000 … -32019)',
    requirement: '2026-codes-legacy-range',
    level: 'SHOULD',
    killedBy: ['tool-error-legacy-code'],
    rule: 'legacy',
    says: 'with a code of the legacy sub-range -32000 … -32019',
  }),
  codeCheck({
    id: '2026-codes.no-undefined-reserved',
    title: 'no error of the run uses a code of the MCP sub-range (-32020 … -32099) the specification does not define',
    requirement: '2026-codes-no-undefined-reserved',
    level: 'MUST',
    killedBy: ['tool-error-reserved-code'],
    rule: 'undefined-reserved',
    says: `with a code of the reserved sub-range -32020 … -32099 that the specification does not define (defined: ${MCP_DEFINED_CODES.join(', ')})`,
  }),
  codeCheck({
    id: '2026-codes.no-retired',
    title: 'no error of the run uses a retired code (-32002, -32042)',
    requirement: '2026-codes-retired',
    level: 'MUST',
    killedBy: ['tool-error-retired-code'],
    rule: 'retired',
    says: `with a retired code (${Object.entries(RETIRED_CODES)
      .map(([c, m]) => `${c}: ${m}`)
      .join('; ')})`,
  }),
  modernCheck({
    id: '2026-codes.defined-meaning',
    title: 'the defined codes -32020, -32021, -32022 come only with their meaning (header mismatch, missing capability, unsupported version)',
    section: SECTION,
    requirements: ['2026-codes-defined-meaning'],
    level: 'MUST',
    killedBy: ['tool-error-defined-code', 'mcp-param-match-refused'],
    runsLast: true,
    async run(ctx: CheckContext) {
      await provokeErrors(ctx);
      // And a request of a version no server implements: its answer is the defined -32022 (2026-version-unsupported-32022).
      await wire(ctx)
        .request(Method.ToolsList, {}, { meta: { [Meta.ProtocolVersion]: '1999-01-01' } })
        .catch(() => undefined);
      await ctx.othersDone();
      const used = runErrors(ctx).filter((e) => e.answered && MCP_DEFINED_CODES.includes(e.error.code));
      if (!used.length) ctx.skip('no error of the run carried -32020, -32021 or -32022: no meaning to judge');
      const schemas = listedInputSchemas(runAnswers(ctx));
      const bad = used.flatMap((e) => {
        const why = wrongMeaning(ctx, e.answered!, e.error, schemas);
        return why ? [`${line(e)}: ${why}`] : [];
      });
      ctx.expect(bad.length === 0, `${bad.length} error(s) carry a defined code for another meaning: ${bad.slice(0, 5).join('; ')}`);
      return `${used.length} error(s) with a defined code, none contradicted by its request`;
    },
  }),
];
