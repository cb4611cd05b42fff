// Checks for "Error Handling > Protocol Errors" (tasks.md 766-779). Requirement ids from
// schema/requirements.json. Invalid cursors in tasks/list (errors-invalid-cursor-32602) are judged
// by list.ts; terminal cancels (cancel-terminal-32602) by cancel.ts. Here: invalid taskIds, the use of
// -32603, informative messages, the MAY -32600, and hostile input.
import { randomUUID } from 'node:crypto';
import { defineCheck, type CheckContext, type CheckDef } from '../engine/check.ts';
import { WireClosedError, WireTimeoutError, type Message, type Response, type Scope } from '../wire/peer.ts';
import { callRole, isLimitError } from '../arrange/arrange.ts';
import { CODES } from '../arrange/poll.ts';
import { isStandardCode } from '../judge/error-codes.ts';
import { short } from '../engine/text.ts';
import { DEFAULT_RUN_OPTIONS } from '../engine/options.ts';

const SECTION = 'Error Handling';
/** The request bound at the default --timeout, scaled by ctx.bound to the run's. */
const DEFAULT_REQUEST_BOUND_MS = DEFAULT_RUN_OPTIONS.requestTimeoutMs;

/** The three methods that take a taskId (errors-invalid-taskid-32602). */
type TaskIdMethod = 'tasks/get' | 'tasks/result' | 'tasks/cancel';

/** Invalid or nonexistent taskIds: an unknown string, wrong types, and the param missing. */
function invalidTaskIdProbes(): { label: string; params: Record<string, unknown> }[] {
  return [
    { label: 'unknown taskId string', params: { taskId: `conformance-unknown-${randomUUID()}` } },
    { label: 'taskId 123 (number)', params: { taskId: 123 } },
    { label: 'taskId {} (object)', params: { taskId: {} } },
    { label: 'taskId null', params: { taskId: null } },
    { label: 'taskId missing', params: {} },
  ];
}

function methodAvailable(ctx: CheckContext, method: TaskIdMethod): boolean {
  // tasks/cancel exists only with capabilities.tasks.cancel; tasks/get and tasks/result with any tasks capability.
  return method === 'tasks/cancel' ? Boolean(ctx.info.serverCapabilities?.tasks?.cancel) : true;
}

interface ProbeOutcome {
  method: string;
  label: string;
  response: Response;
}

async function sendProbes(ctx: CheckContext, methods: TaskIdMethod[], peer: Scope = ctx.peer): Promise<ProbeOutcome[]> {
  const out: ProbeOutcome[] = [];
  for (const method of methods) {
    for (const p of invalidTaskIdProbes()) out.push({ method, label: p.label, response: await peer.request(method, p.params) });
  }
  return out;
}

/**
 * The observed behaviour behind wrong answers to invalid taskIds, shared by every check that sends them
 * (root-cause groups): e.g. "ill-typed taskId answered -32603".
 */
function invalidTaskIdCause(bad: { label: string; response: Response }[]): string | undefined {
  if (!bad.length) return undefined;
  const kinds = [...new Set(bad.map((o) => (o.label.startsWith('unknown') ? 'unknown' : 'ill-typed')))].sort();
  const answers = [...new Set(bad.map((o) => (o.response.error ? String(o.response.error.code) : 'a result')))].sort();
  return `${kinds.join(' and ')} taskId answered ${answers.join(' / ')}`;
}

function describeAnswer(r: Response): string {
  return r.error ? `error ${r.error.code} ${short(r.error.message, 120)}` : `result ${short(r.result, 120)}`;
}

/** One check per method: every invalid/nonexistent taskId → -32602. */
function invalidTaskIdCheck(method: TaskIdMethod): CheckDef {
  const short_ = method.slice('tasks/'.length);
  return defineCheck({
    id: `errors.${short_}-invalid-taskid`,
    title: `${method} with an unknown or ill-typed taskId → -32602`,
    section: SECTION,
    requirements: ['errors-invalid-taskid-32602'],
    level: 'MUST',
    killedBy: ['unknown-task-32603'],
    clientReceiver: true,
    ...(method === 'tasks/cancel' ? { needsCapabilities: ['tasks.cancel'] } : { needsCapabilities: ['tasks'] }),
    async run(ctx: CheckContext) {
      const outcomes = await sendProbes(ctx, [method]);
      const bad = outcomes.filter((o) => o.response.error?.code !== -32602);
      ctx.expect(
        bad.length === 0,
        `expected -32602 (Invalid params) from ${method} for: ${bad.map((o) => `${o.label} → ${describeAnswer(o.response)}`).join('; ')}`,
        { cause: invalidTaskIdCause(bad) },
      );
      return `${outcomes.length} invalid taskIds → -32602`;
    },
  });
}

/** Error messages that say nothing beyond the code's generic name. */
const GENERIC_MESSAGES = new Set(
  [
    'invalid params',
    'invalid parameters',
    'invalid param',
    'internal error',
    'invalid request',
    'method not found',
    'parse error',
    'error',
    'bad request',
    'unknown error',
    'server error',
    'not found',
    'invalid',
    'failed',
  ].map((s) => s.replace(/[^a-z]/g, '')),
);

/** Heuristic of errors-informative-message: non-empty and more than the generic code name. */
export function isInformativeMessage(message: unknown): boolean {
  if (typeof message !== 'string') return false;
  const letters = message.toLowerCase().replace(/[^a-z]/g, '');
  if (letters.length === 0) return false;
  return !GENERIC_MESSAGES.has(letters);
}

/**
 * A request whose malformed shape the transport itself may refuse: over Streamable HTTP the server
 * answers such a POST with an HTTP error carrying a JSON-RPC error (id null), which the SDK client
 * surfaces as a send failure. That refusal counts as the error answer (its code read from the body).
 */
async function hostileRequest(s: Scope, method: string, params: unknown, timeoutMs?: number): Promise<Response> {
  try {
    return await s.request(method, params, timeoutMs !== undefined ? { timeoutMs } : {});
  } catch (e) {
    if (e instanceof WireTimeoutError || e instanceof WireClosedError) throw e;
    const text = e instanceof Error ? e.message : String(e);
    const code = /"code"\s*:\s*(-?\d+)/.exec(text);
    return { id: null, error: { code: code ? Number(code[1]) : Number.NaN, message: `refused by the transport: ${text}` }, message: {}, elapsedMs: 0 };
  }
}

/** Error answers that carry no usable id (JSON-RPC answers to messages whose id could not be read). */
const isIdlessError = (m: Message) => !('method' in m) && 'error' in m && (m.id === null || !('id' in m));

/**
 * A request of an invalid shape (params not an object): the target may answer it by id, or (having
 * rejected the whole message) with an id-less error, or not at all. Resolves with the answer, or
 * undefined when none came within `waitMs`.
 */
async function shapeProbe(s: Scope, method: string, params: unknown, waitMs: number): Promise<Response | undefined> {
  const req = hostileRequest(s, method, params);
  req.catch(() => undefined); // may time out after the check moved on
  const idless = s.waitFor(isIdlessError, waitMs, 'id-less error answer').then(
    (m): Response => ({ id: null, error: m.error, message: m, elapsedMs: 0 }),
    () => undefined,
  );
  return Promise.race([req.catch(() => undefined), idless]);
}

export const checks: CheckDef[] = [
  invalidTaskIdCheck('tasks/get'),
  invalidTaskIdCheck('tasks/result'),
  invalidTaskIdCheck('tasks/cancel'),

  // -32603 is for internal errors only (errors-internal-32603): an invalid taskId is the requestor's
  // mistake, and its code is -32602 (errors-invalid-taskid-32602). Flags -32603 (and non-integer
  // codes) answered to the invalid-params cases of every taskId method.
  defineCheck({
    id: 'errors.invalid-params-not-32603',
    title: 'Invalid taskIds are not answered with -32603 (Internal error)',
    section: SECTION,
    requirements: ['errors-internal-32603', 'errors-invalid-taskid-32602'],
    level: 'MUST',
    killedBy: ['unknown-task-32603'],
    clientReceiver: true,
    needsCapabilities: ['tasks'],
    async run(ctx: CheckContext) {
      const methods = (['tasks/get', 'tasks/result', 'tasks/cancel'] as const).filter((m) => methodAvailable(ctx, m));
      const outcomes = await sendProbes(ctx, [...methods]);
      const internal = outcomes.filter((o) => o.response.error?.code === -32603);
      const odd = outcomes.filter((o) => o.response.error && !Number.isInteger(o.response.error.code));
      const problems: string[] = [];
      if (internal.length)
        problems.push(
          `-32603 (Internal error) answered to invalid params, which are not internal errors (expected -32602): ${internal.map((o) => `${o.method} ${o.label}`).join('; ')}`,
        );
      if (odd.length)
        problems.push(`error codes that are not JSON-RPC integers: ${odd.map((o) => `${o.method} ${o.label} → ${short(o.response.error!.code)}`).join('; ')}`);
      ctx.expect(problems.length === 0, problems.join('; '), { cause: invalidTaskIdCause([...internal, ...odd]) });
      const codes = [...new Set(outcomes.map((o) => (o.response.error ? String(o.response.error.code) : 'result')))];
      return `${outcomes.length} invalid-taskid probes; codes seen: ${codes.join(', ')}`;
    },
  }),

  // SHOULD: informative messages. Heuristic (catalog note): error.message is non-empty and not just the
  // generic code name ("Invalid params").
  defineCheck({
    id: 'errors.informative-message',
    title: 'Protocol errors for unknown taskIds carry an informative message',
    section: SECTION,
    requirements: ['errors-informative-message'],
    level: 'SHOULD',
    killedBy: ['generic-error-messages'],
    clientReceiver: true,
    needsCapabilities: ['tasks'],
    async run(ctx: CheckContext) {
      const methods = (['tasks/get', 'tasks/result', 'tasks/cancel'] as const).filter((m) => methodAvailable(ctx, m));
      const unknown = `conformance-unknown-${randomUUID()}`;
      const seen: string[] = [];
      const bad: string[] = [];
      const probes = [
        ...methods.map((m) => ({ method: m as string, params: { taskId: unknown } as Record<string, unknown>, label: 'unknown taskId' })),
        { method: 'tasks/get', params: { taskId: 123 }, label: 'taskId 123' },
      ];
      const absent: string[] = [];
      for (const p of probes) {
        const r = await ctx.peer.request(p.method, p.params);
        if (!r.error) continue; // a success is judged by the -32602 checks
        // -32601: the method is not there at all, and "Method not found" says exactly that; not an unknown-taskId error (judged by the -32602 checks).
        if (r.error.code === -32601) {
          absent.push(`${p.method} → -32601 ${short(r.error.message, 80)}`);
          continue;
        }
        seen.push(`${p.method} (${p.label}): ${short(r.error.message, 100)}`);
        if (!isInformativeMessage(r.error.message)) bad.push(`${p.method} (${p.label}) → ${r.error.code} message ${short(r.error.message)}`);
      }
      if (absent.length) ctx.note(`not judged, the method is not there: ${absent.join('; ')}`);
      if (seen.length === 0)
        ctx.skip(
          absent.length
            ? `every error answered was -32601 (the method is not there: ${absent.join('; ')}), no unknown-taskId message to judge`
            : 'no error was returned for an unknown taskId (judged by the -32602 checks)',
        );
      ctx.expect(bad.length === 0, `error messages that do not describe the cause (empty or only the generic code name): ${bad.join('; ')}`);
      return seen.join('; ');
    },
  }),

  // MAY -32600 for a non-task request when the receiver requires task augmentation: info only. For
  // tools/call of a `required` tool the suite's ruling (RULINGS.md#required-tool-32601) makes -32601 the MUST; that is
  // judged by the capabilities checks, not here. This reports which code the target uses.
  defineCheck({
    id: 'errors.task-required-code',
    title: 'Which error a non-task call of a task-required tool gets (-32600 is the MAY of Protocol Errors)',
    section: SECTION,
    requirements: ['errors-task-required-may-32600'],
    level: 'MAY',
    clientReceiver: 'tool-level negotiation (execution.taskSupport) is about tools; sampling/createMessage and elicitation/create have none',
    killedBy: [],
    needs: ['requiresTask'],
    needsCapabilities: ['tasks.requests.tools.call'],
    async run(ctx: CheckContext) {
      const r = await callRole(ctx, 'requiresTask');
      const name = ctx.tool('requiresTask').name;
      if (!r.error)
        return `non-task call of "${name}" (taskSupport ${short(ctx.taskSupport(name))}) answered a result, not a JSON-RPC error: ${short(r.result, 120)}`;
      if (r.error.code === -32600)
        return `non-task call of "${name}" → -32600 ${short(r.error.message)} (the MAY of Protocol Errors; for a "required" tool RULINGS.md#required-tool-32601 expects -32601)`;
      return `non-task call of "${name}" → ${r.error.code} ${short(r.error.message)}`;
    },
  }),

  // Hostile input: ill-typed params, malformed JSON and an unknown method each get a JSON-RPC error
  // and the connection keeps working (a ping is answered). Runs on its own session so that a crash
  // cannot disturb other checks. The wrong-typed taskIds must get -32602 (errors-invalid-taskid-32602),
  // a numeric cursor -32602 when tasks.list is declared (errors-invalid-cursor-32602): those come first,
  // so that a target slow to answer the rest cannot cost their verdict. The JSON-RPC codes for parse
  // errors (-32700) and unknown methods (-32601) are noted, not judged: they are JSON-RPC 2.0 rules, not
  // rules of the Tasks page. Every answer is noted as it comes (the evidence when time runs out), and the
  // exchanges that judge nothing of the Tasks page wait no longer than the check's budget allows.
  defineCheck({
    id: 'errors.malformed-input-survives',
    title: 'Malformed JSON, ill-typed params and unknown methods get JSON-RPC errors; the connection survives',
    section: SECTION,
    requirements: ['errors-invalid-taskid-32602', 'errors-invalid-cursor-32602'],
    level: 'MUST',
    killedBy: ['unknown-task-32603', 'bad-cursor-ignored'],
    clientReceiver: 'sends raw malformed bytes from the client side of a connection',
    needsCapabilities: ['tasks'],
    opensConnections: 1,
    async run(ctx: CheckContext) {
      const s = await ctx.openSession();
      const problems: string[] = [];
      // How long to wait for an answer that JSON-RPC 2.0 expects but the Tasks page does not require.
      const shortWait = Math.min(1_500, ctx.options.requestTimeoutMs);
      // A wait of the outside-Tasks part: the request bound scaled to the run, within what is left of the budget.
      const outsideWait = (ms = ctx.bound(DEFAULT_REQUEST_BOUND_MS)) => Math.max(1, Math.min(ms, ctx.deadline - Date.now() - ctx.bound(2_000)));

      // 1. tasks/get with ill-typed taskIds (errors-invalid-taskid-32602).
      const illTyped: { label: string; response: Response }[] = [];
      for (const [label, params] of [
        ['taskId 123', { taskId: 123 }],
        ['taskId []', { taskId: [] }],
        ['taskId {}', { taskId: {} }],
        ['taskId null', { taskId: null }],
        ['taskId true', { taskId: true }],
      ] as const) {
        const r = await hostileRequest(s, 'tasks/get', params);
        ctx.note(`tasks/get ${label} → ${r.error ? r.error.code : 'result'}`);
        if (r.error?.code !== -32602) {
          problems.push(`tasks/get with ${label}: expected -32602, got ${describeAnswer(r)}`);
          illTyped.push({ label, response: r });
        }
      }

      // 2. tasks/list with a cursor of the wrong type (errors-invalid-cursor-32602).
      const list = await hostileRequest(s, 'tasks/list', { cursor: 42 });
      ctx.note(`tasks/list cursor 42 → ${list.error ? list.error.code : 'result'}`);
      // Judged only when tasks.list is declared (its catalog note): an undeclared operation is not the requestor's to use.
      if (ctx.info.serverCapabilities?.tasks?.list) {
        if (list.error?.code !== -32602) problems.push(`tasks/list with cursor 42: expected -32602, got ${describeAnswer(list)}`);
      } else if (!list.error) {
        ctx.note(`tasks/list (capability not declared) with cursor 42 answered ${describeAnswer(list)} (not judged: tasks.list is not declared)`);
      }

      // 3. Params that are not an object (a JSON-RPC 2.0 matter, not a Tasks rule: outside Tasks).
      for (const [label, params] of [
        ['params [] (array)', ['conformance']],
        ['params "x" (string)', 'x'],
      ] as const) {
        const r = await shapeProbe(s, 'tasks/get', params, shortWait);
        ctx.note(`tasks/get ${label} → ${!r ? 'no answer' : r.error ? r.error.code : 'result'}`);
        if (!r)
          ctx.outside(
            'jsonrpc-error-for-invalid-params',
            `tasks/get with ${label}: no answer within ${shortWait} ms (JSON-RPC 2.0 expects an Invalid Request / Invalid params error)`,
          );
        else if (!r.error) ctx.outside('jsonrpc-error-for-invalid-params', `tasks/get with ${label}: expected a JSON-RPC error, got ${describeAnswer(r)}`);
        else if (r.error.code !== -32602 && r.error.code !== -32600)
          ctx.outside('jsonrpc-error-for-invalid-params', `tasks/get with ${label} answered ${r.error.code} (expected -32602 or -32600)`);
      }

      // 4. An unknown method.
      const unknown = await hostileRequest(s, 'tasks/frobnicate', { taskId: 'x' }, outsideWait()).catch((e: unknown) =>
        e instanceof WireTimeoutError ? e : Promise.reject(e),
      );
      if (unknown instanceof WireTimeoutError) {
        ctx.note(`tasks/frobnicate → no answer (${unknown.message})`);
        ctx.outside('jsonrpc-method-not-found-32601', `unknown method tasks/frobnicate: ${unknown.message} (JSON-RPC 2.0 expects -32601)`);
      } else {
        ctx.note(`tasks/frobnicate → ${unknown.error ? unknown.error.code : 'result'}`);
        if (!unknown.error)
          ctx.outside('jsonrpc-method-not-found-32601', `unknown method tasks/frobnicate: expected a JSON-RPC error, got ${describeAnswer(unknown)}`);
        else if (unknown.error.code !== -32601)
          ctx.outside('jsonrpc-method-not-found-32601', `unknown method answered ${unknown.error.code} (JSON-RPC 2.0 code is -32601)`);
      }

      // 5. Bytes that are not JSON, and JSON that is not JSON-RPC (only where the transport can send raw bytes).
      // Each exchange is bounded (an HTTP POST the target never answers ends with the bound): no answer is noted and the check goes on.
      if (s.peer.canSendBytes) {
        for (const [label, bytes, want] of [
          ['malformed JSON', '{"jsonrpc": "2.0", "id": "conformance-bad-json", "method": "tasks/get", "params": {', -32700],
          ['JSON that is not JSON-RPC', '{"conformance": true}', -32600],
        ] as const) {
          const answer = s
            .waitFor(
              (m: Message) => 'error' in m && !('method' in m) && (m.id === null || m.id === undefined || m.id === 'conformance-bad-json'),
              shortWait,
              `error answer to ${label}`,
            )
            .catch(() => undefined);
          const sent = await s.sendBytes(bytes, outsideWait()).then(
            () => undefined,
            (e: unknown) => (e instanceof WireTimeoutError ? e : Promise.reject(e)),
          );
          const m = await answer;
          const rule = want === -32700 ? 'jsonrpc-parse-error-32700' : 'jsonrpc-invalid-request-32600';
          if (!m) {
            ctx.note(`${label} → no answer${sent ? ` (${sent.message})` : ''}`);
            ctx.outside(rule, `${label}: no JSON-RPC error answer within ${shortWait} ms (JSON-RPC 2.0 expects ${want})${sent ? `; ${sent.message}` : ''}`);
          } else {
            ctx.note(`${label} → ${m.error?.code}`);
            if (m.error?.code !== want) ctx.outside(rule, `${label} answered ${m.error?.code} ${short(m.error?.message)} (JSON-RPC 2.0 code is ${want})`);
          }
        }
      } else {
        ctx.note(`malformed bytes not sent: the ${ctx.info.transport} transport cannot carry raw bytes`);
      }

      // 6. The connection still works (a JSON-RPC/transport matter: outside Tasks).
      const ping = await s.request('ping', {}, { timeoutMs: outsideWait() }).catch((e: unknown) => e as Error);
      if (ping instanceof Error) ctx.outside('connection-survives-malformed-input', `the target stopped answering after hostile input: ping → ${ping.message}`);
      else if (ping.error)
        ctx.outside('connection-survives-malformed-input', `ping after hostile input answered error ${ping.error.code} ${short(ping.error.message)}`);
      // Grouped with the ill-typed taskId checks whenever that is among what it saw (the same root cause).
      ctx.expect(problems.length === 0, problems.join('; '), { cause: invalidTaskIdCause(illTyped) });
      return ping instanceof Error || ping.error ? '' : 'ping answered';
    },
  }),
  // "Receivers MUST return standard JSON-RPC errors for the following protocol error cases: … Internal
  // errors: -32603". A black box cannot force an internal error; this check provokes one where a store may fail
  // inside (a taskId of 64 KiB to tasks/get, tasks/result, tasks/cancel) and judges the errors of its own requests
  // only: other checks' errors are theirs to judge (a foreign-context rejection: RULINGS.md#foreign-context-code;
  // JSON-RPC-level answers to malformed input: outside Tasks; a tasks/result error returned exactly: result-exact).
  // A limit (throttling in any shape, suites/judge/error-codes.ts) is back-pressure, left aside.
  defineCheck({
    id: 'errors.standard-codes',
    title: "The protocol errors of this check's own tasks/* requests have standard JSON-RPC codes (an internal error is -32603)",
    section: SECTION,
    requirements: ['errors-internal-32603'],
    level: 'MUST',
    killedBy: ['internal-error-custom-code'],
    needsCapabilities: ['tasks'],
    async run(ctx: CheckContext) {
      const huge = 'x'.repeat(64 * 1024);
      const bad: string[] = [];
      const seen: string[] = [];
      for (const method of (['tasks/get', 'tasks/result', 'tasks/cancel'] as const).filter((m) => methodAvailable(ctx, m))) {
        const r = await ctx.peer.request(method, { taskId: huge }).catch(() => undefined);
        if (!r?.error) continue;
        seen.push(`${method} → ${r.error.code}`);
        if (isLimitError(r.error) || isStandardCode(r.error.code, CODES)) continue;
        bad.push(`${method} → ${short(r.error.code)} ${short(r.error.message, 80)}`);
      }
      ctx.expect(
        bad.length === 0,
        `tasks/* answered protocol errors outside the standard JSON-RPC codes, which none of the listed protocol error cases explains (an internal error is -32603): ${bad.join('; ')}`,
      );
      if (!seen.length) ctx.skip('no tasks/* request of this check was answered with an error: no protocol error to judge');
      return `protocol errors of this check's tasks/* requests (a 64 KiB taskId), all with standard codes: ${seen.join('; ')}`;
    },
  }),
];
