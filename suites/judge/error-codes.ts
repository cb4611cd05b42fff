// Reading an error answer, once for both revisions: what counts as a refusal, a limit (throttling or
// capacity), a deletion, a foreign-context rejection, or a JSON-RPC-level answer outside Tasks. Pure
// functions; each revision hands in its own code table (ErrorCodeTable) as a value.

/** An error answer as the wire carries it (JSON-RPC `error`). */
export interface ErrorLike {
  code: number;
  message?: string;
  data?: unknown;
}

/** The codes of one revision the readings need (built from that revision's protocol tables). */
export interface ErrorCodeTable {
  /** JSON-RPC 2.0's own codes (-32700, -32600 … -32603). */
  jsonRpc: readonly number[];
  /** Invalid JSON, an invalid Request, an unknown method: answers at the JSON-RPC level, before any Tasks rule. */
  jsonRpcLevel: readonly number[];
  /** "No such task": deleted, expired, never existed, or another context's (2025-11-25 and 2026-07-28: -32602). */
  notFound: number;
  /** Internal error (-32603): the receiver's own failure, never a refusal of what was asked. */
  internal: number;
  /** Codes the revision's text defines beyond JSON-RPC's, with their meaning (e.g. 2026-07-28: -32020 … -32022). */
  defined?: readonly number[];
}

/** JSON-RPC 2.0 §5.1, the same in every revision. */
export const JSON_RPC = { parseError: -32700, invalidRequest: -32600, methodNotFound: -32601, invalidParams: -32602, internalError: -32603 } as const;

/** The table of a revision that adds nothing to JSON-RPC's codes (`defined` extends it). */
export function jsonRpcTable(defined: readonly number[] = []): ErrorCodeTable {
  return {
    jsonRpc: Object.values(JSON_RPC),
    jsonRpcLevel: [JSON_RPC.parseError, JSON_RPC.invalidRequest, JSON_RPC.methodNotFound],
    notFound: JSON_RPC.invalidParams,
    internal: JSON_RPC.internalError,
    defined,
  };
}

/** Words of a message or data that say "at a limit, later" (rate limits and capacity alike). */
const LIMIT_WORDS =
  /rate[ _-]?limit|\brate\b|throttl|too many|too frequent|too fast|too soon|slow down|limit|maximum|exceed|quota|capacity|busy|overload|try again|retry|back ?off|\b429\b/i;
/** Keys of `error.data` that carry a retry hint (seconds, or ms when the key says so). */
const RETRY_KEYS_S = ['retryAfter', 'retry_after', 'retryAfterSeconds', 'retry-after'];
const RETRY_KEYS_MS = ['retryAfterMs', 'retry_after_ms', 'retryAfterMillis'];

/** What the transport saw with an error, when it saw it (HTTP status and Retry-After). */
export interface TransportHint {
  httpStatus?: number;
  retryAfter?: string | null;
}

/** A limit read from an error: back-pressure to wait out, never a verdict; `retryAfterMs` when the target said when. */
export interface LimitReading {
  /** The words or field that showed it. */
  shown: string;
  retryAfterMs?: number;
}

/**
 * Does this error say the receiver is at a limit (a rate limit, throttling, too many tasks, capacity)? Read in
 * any shape: words of the message or data, a retry hint in `data`, code 429, or HTTP 429 beside it. No line of
 * either revision names a code for it (RULINGS.md#ext-rate-limit-error-open; 2025-11-25 tasks.md:881 names none).
 */
export function readLimit(e: ErrorLike | undefined, hint: TransportHint = {}): LimitReading | undefined {
  if (!e && hint.httpStatus !== 429) return undefined;
  const retry = retryHintMs(e?.data) ?? retryAfterMs(hint.retryAfter);
  const tail = retry !== undefined ? { retryAfterMs: retry } : {};
  if (hint.httpStatus === 429) return { shown: 'HTTP 429', ...tail };
  if (!e) return undefined;
  if (e.code === 429) return { shown: 'code 429', ...tail };
  let dataText = '';
  try {
    dataText = typeof e.data === 'string' ? e.data : e.data === undefined ? '' : JSON.stringify(e.data).slice(0, 300);
  } catch {
    /* unserializable data: words of the message only */
  }
  const m = LIMIT_WORDS.exec(`${e.message ?? ''} ${dataText}`);
  if (m) return { shown: `"${m[0]}"`, ...tail };
  if (retry !== undefined) return { shown: 'a retry hint in error.data', ...tail };
  return undefined;
}

/** readLimit as a yes/no. */
export function isLimitError(e: ErrorLike | undefined, hint: TransportHint = {}): boolean {
  return readLimit(e, hint) !== undefined;
}

/** A retry hint in `error.data` (ms), when it carries one. */
export function retryHintMs(data: unknown): number | undefined {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return undefined;
  const d = data as Record<string, unknown>;
  for (const k of RETRY_KEYS_MS) if (typeof d[k] === 'number' && (d[k] as number) >= 0) return Math.round(d[k] as number);
  for (const k of RETRY_KEYS_S) {
    const v = retryAfterMs(d[k] as string | number | undefined);
    if (v !== undefined) return v;
  }
  return undefined;
}

/** HTTP Retry-After (RFC 9110 §10.2.3): delay-seconds or an HTTP-date, as ms from `now`; undefined when unreadable. */
export function retryAfterMs(v: string | number | null | undefined, now = Date.now()): number | undefined {
  if (v === null || v === undefined || v === '') return undefined;
  if (typeof v === 'number') return Number.isFinite(v) && v >= 0 ? Math.round(v * 1000) : undefined;
  const t = v.trim();
  if (/^\d+(\.\d+)?$/.test(t)) return Math.round(Number(t) * 1000);
  const at = Date.parse(t);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * Is this tasks/get (or tasks/result, tasks/cancel) error the one that says the task is gone? Only the
 * revision's "not found" code (RULINGS.md#delete-vs-sticky); any other error, a limit included, is not a deletion.
 */
export function isDeletion(e: ErrorLike | undefined, t: ErrorCodeTable): boolean {
  return !!e && e.code === t.notFound && !isLimitError(e);
}

/**
 * What an error answer to a task-augmented request says about task creation:
 * `limit` — back-pressure (readLimit); `refused` — a JSON-RPC code that says the request itself was not taken
 * (-32700, -32600, -32601, -32602); `internal` — -32603, the receiver's own failure (the page's code for internal
 * errors, never a refusal to create); `outcome` — an application's or the revision's own code, the request's own outcome.
 */
export function creationErrorKind(e: ErrorLike, t: ErrorCodeTable): 'refused' | 'limit' | 'internal' | 'outcome' {
  if (isLimitError(e)) return 'limit';
  if (e.code === t.internal) return 'internal';
  return t.jsonRpc.includes(e.code) ? 'refused' : 'outcome';
}

/**
 * A request about another authorization context's task: any error rejects it (security-reject-foreign-context);
 * the revision's "not found" code is the one expected (RULINGS.md#foreign-context-code), another code is only noted.
 */
export function foreignRejection(e: ErrorLike | undefined, t: ErrorCodeTable): 'accepted' | 'expected-code' | 'other-code' {
  if (!e) return 'accepted';
  return e.code === t.notFound ? 'expected-code' : 'other-code';
}

/** An answer at the JSON-RPC level (parse error, invalid request, unknown method): judged outside Tasks (schema/outside-tasks.ts). */
export function isJsonRpcLevel(e: ErrorLike | undefined, t: ErrorCodeTable): boolean {
  return !!e && t.jsonRpcLevel.includes(e.code);
}

/** A code of JSON-RPC 2.0 or one the revision defines. */
export function isStandardCode(code: number, t: ErrorCodeTable): boolean {
  return t.jsonRpc.includes(code) || (t.defined ?? []).includes(code);
}
