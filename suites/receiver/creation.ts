// Checks for tasks.md "Creating Tasks", "Result Retrieval" item 1 and "Task ID Requirements" (plus the
// id-entropy MUST of "Security Considerations"); requirement ids from schema/requirements.json.
import { defineCheck, type CheckContext, type CheckDef } from '../engine/check.ts';
import { getTask } from '../arrange/poll.ts';
import {
  callRole,
  cancelQuietly,
  CREATION_JUDGED_BY,
  createTask,
  creationError,
  creationErrorCause,
  judgeFirstStatus,
  rolesOf,
  sendTaskRequest,
  TTL_MS,
} from '../arrange/arrange.ts';
import { targetTranscripts, type Source } from '../arrange/tasks.ts';
import { isObj, short } from '../engine/text.ts';
import { validate } from '../../schema/validate.ts';
import { WireTimeoutError, type Message, type Scope } from '../wire/peer.ts';
import { isTerminal, MODEL_IMMEDIATE_RESPONSE_META, RELATED_TASK_META } from '../../schema/protocol.ts';
import { type ProfileRole } from '../engine/profile.ts';
import { estimateIdBits, MIN_ID_BITS, predictability, UUID_CLASS_BITS } from '../judge/ids.ts';

const SECTION = 'Creating Tasks';

/** Creates `n` tasks of a role (sequentially, or all at once), keeping the ids of the CreateTaskResults. */
async function createMany(ctx: CheckContext, role: ProfileRole, n: number, concurrent: boolean, peer?: Scope): Promise<{ ids: unknown[]; errors: string[] }> {
  const one = async () => {
    const r = await sendTaskRequest(ctx, role, { peer });
    return r.error ? { error: `${r.error.code} ${r.error.message}` } : { id: r.result?.task?.taskId };
  };
  const out = concurrent ? await Promise.all(Array.from({ length: n }, one)) : [];
  if (!concurrent) for (let i = 0; i < n; i++) out.push(await one());
  return {
    ids: out.filter((o) => 'id' in o).map((o) => (o as { id: unknown }).id),
    errors: out.filter((o) => 'error' in o).map((o) => (o as { error: string }).error),
  };
}

/** A request that the receiver could answer with a CreateTaskResult were it task-augmented: tools/call, or a client target's task request. */
function isPlainCall(ctx: CheckContext, m: Message): boolean {
  if (m.method === 'tools/call') return true;
  const custom = ctx.info.taskRequest?.('completes');
  return custom !== undefined && m.method === custom.method;
}

export const checks: CheckDef[] = [
  // RULINGS.md#plain-request-plain-answer: a CreateTaskResult answers only a task-augmented request. A
  // request without `task` gets its own result (or an error, support-declared-may-require), never a task
  // the requestor did not ask for. The completes tool is called plainly; every plain tools/call of the run
  // is read too.
  defineCheck({
    id: 'creation.plain-call-not-task',
    title: 'a tools/call without `task` is not answered with a CreateTaskResult',
    section: SECTION,
    requirements: ['create-returns-createtaskresult'],
    level: 'MUST',
    killedBy: ['plain-call-creates-task'],
    clientReceiver: true,
    needs: ['completes'],
    runsLast: true,
    async run(ctx: CheckContext) {
      const probe = await callRole(ctx, 'completes');
      if (isObj(probe.result?.task) && typeof probe.result.task.taskId === 'string') await cancelQuietly(ctx, probe.result.task.taskId);
      await ctx.othersDone();
      const plainAnsweredWithTask: string[] = [];
      let judged = 0;
      for (const src of targetTranscripts(ctx)) {
        const plain = new Map<string, Message>();
        for (const e of src.entries) {
          const m = e.message as Message | undefined;
          if (e.dir === 'out' && m && typeof m === 'object' && 'id' in m && 'method' in m && m.params?.task === undefined && isPlainCall(ctx, m))
            plain.set(JSON.stringify(m.id), m);
        }
        for (const e of src.entries) {
          const m = e.message as Message | undefined;
          if (e.dir !== 'in' || !m || typeof m !== 'object' || 'method' in m) continue;
          const req = plain.get(JSON.stringify(m.id));
          if (!req) continue;
          judged++;
          if (isObj(m.result?.task))
            plainAnsweredWithTask.push(
              `${src.label}: ${req.method}${req.params?.name ? ` of "${req.params.name}"` : ''} → CreateTaskResult (task ${short(m.result.task.taskId)})`,
            );
        }
      }
      ctx.expect(
        plainAnsweredWithTask.length === 0,
        `requests without \`task\` were answered with a CreateTaskResult, a task the requestor never asked for (RULINGS.md#plain-request-plain-answer): ${plainAnsweredWithTask.slice(0, 3).join('; ')}`,
      );
      return `${judged} requests without \`task\` in the run, none answered with a CreateTaskResult`;
    },
  }),
  defineCheck({
    id: 'creation.create-task-result',
    title: 'a task-augmented tools/call is answered with a valid CreateTaskResult (and no tool result)',
    section: SECTION,
    requirements: ['create-returns-createtaskresult'],
    level: 'MUST',
    clientReceiver: true,
    killedBy: ['missing-created-at', 'bad-timestamp', 'numeric-task-id', 'ignores-task'],
    needs: ['completes'],
    needsCapabilities: ['tasks.requests.tools.call'],
    async run(ctx: CheckContext) {
      const name = ctx.tool('completes').name;
      // A client receiver gets the request of its type (sampling/createMessage, elicitation/create), not tools/call.
      const method = ctx.info.taskRequest?.('completes', {}).method;
      const what = method ? `task-augmented ${method}` : `task-augmented tools/call of "${name}"`;
      const r = await sendTaskRequest(ctx, 'completes');
      if (r.error) {
        const kind = creationError(r.error);
        const cause = creationErrorCause(r.error);
        if (kind === 'refused') ctx.violation(`${what} answered error ${r.error.code} ${r.error.message}, not a CreateTaskResult`, { cause });
        ctx.skip(
          `${what} answered error ${r.error.code} ${r.error.message}: ${
            kind === 'limit'
              ? "a resource limit, retried until the check's budget ran out"
              : kind === 'internal'
                ? 'an internal error (-32603, errors-internal-32603): the receiver failed, it did not refuse the task; no CreateTaskResult to judge'
                : "the request's own outcome (not one of JSON-RPC's codes), no CreateTaskResult to judge"
          }`,
          { cause },
        );
      }
      const res = r.result;
      ctx.expect(isObj(res?.task), `${what} returned no result.task (got ${short(res)}): not a CreateTaskResult`);
      const v = validate('CreateTaskResult', res);
      ctx.expect(v.valid, `CreateTaskResult is not valid against the schema: ${v.valid ? '' : v.errors.join('; ')} (got ${short(res, 400)})`);
      if ('content' in res || 'structuredContent' in res)
        ctx.note(
          `CreateTaskResult also carries content/structuredContent (${short(res.content ?? res.structuredContent, 80)}); the page says the operation result comes only through tasks/result (descriptive, not judged)`,
        );
      const imm = res._meta?.[MODEL_IMMEDIATE_RESPONSE_META];
      ctx.note(
        imm === undefined
          ? `no _meta["${MODEL_IMMEDIATE_RESPONSE_META}"] (optional)`
          : typeof imm === 'string'
            ? `_meta["${MODEL_IMMEDIATE_RESPONSE_META}"] = ${short(imm, 80)}`
            : `_meta["${MODEL_IMMEDIATE_RESPONSE_META}"] is ${typeof imm}; the page says it "should be a string" (non-normative)`,
      );
      await cancelQuietly(ctx, res.task.taskId);
      return `CreateTaskResult ${short(res.task)} in ${r.elapsedMs} ms`;
    },
  }),
  defineCheck({
    id: 'creation.prompt',
    title: 'the CreateTaskResult of a slow tool comes back while its task is still running',
    section: SECTION,
    requirements: ['create-asap'],
    level: 'SHOULD',
    clientReceiver: true,
    killedBy: ['slow-create'],
    needs: ['slow'],
    needsCapabilities: ['tasks.requests.tools.call'],
    async run(ctx: CheckContext) {
      const r = await sendTaskRequest(ctx, 'slow');
      if (r.error)
        ctx.skip(`task-augmented tools/call of the slow tool answered error ${r.error.code} ${r.error.message}`, {
          judgedBy: CREATION_JUDGED_BY,
          cause: `task creation answered error ${r.error.code} ${r.error.message}`,
        });
      const t = r.result?.task;
      if (!isObj(t) || typeof t.taskId !== 'string')
        ctx.skip(`no CreateTaskResult (got ${short(r.result)})`, {
          judgedBy: CREATION_JUDGED_BY,
          cause: 'task creation returned no CreateTaskResult with a string taskId',
        });
      try {
        const g = await getTask(ctx, t.taskId);
        const st = g.result?.status;
        // A task seen terminal right after: the answer came after the work only if it took at least as long as
        // the work did (createdAt to the terminal lastUpdatedAt, on the target's clock); a slower network alone
        // makes the tasks/get arrive late (RULINGS.md#response-time). Proven only beyond both clocks' precision:
        // the work at least its span less the timestamps' tick, the wait at most elapsedMs + 1 (whole ms).
        if (!isTerminal(t.status) && typeof st === 'string' && isTerminal(st as any)) {
          const lu = String(g.result?.lastUpdatedAt ?? '');
          const tick = /\.\d{3}/.test(lu) ? 1 : /\.\d/.test(lu) ? 100 : 1_000;
          const work = Date.parse(lu) - tick - Date.parse(String(t.createdAt));
          if (Number.isFinite(work) && r.elapsedMs + 1 <= work)
            return `CreateTaskResult after ${r.elapsedMs} ms, while the task's work took at least ${work} ms by its own timestamps (it was ${st} by the tasks/get right after)`;
        }
        ctx.expect(
          !isTerminal(t.status) && !(typeof st === 'string' && isTerminal(st as any)),
          `the CreateTaskResult (after ${r.elapsedMs} ms) did not come while the slow task was running: CreateTaskResult status ${t.status}, tasks/get right after: ${st ?? `error ${g.error?.code}`}`,
        );
        return `CreateTaskResult after ${r.elapsedMs} ms; task ${st} on the tasks/get right after`;
      } finally {
        await cancelQuietly(ctx, t.taskId);
      }
    },
  }),
  defineCheck({
    id: 'creation.begin-working',
    title: 'a new task starts in status working (CreateTaskResult.task.status)',
    section: SECTION,
    requirements: ['lifecycle-begin-working'],
    level: 'MUST',
    clientReceiver: true,
    killedBy: ['starts-completed', 'created-input-required'],
    needsCapabilities: ['tasks.requests.tools.call'],
    async run(ctx: CheckContext) {
      // RULINGS.md#new-task-working: judged with a tool that cannot finish instantly (slow), else completes with a caveat.
      const role: ProfileRole | undefined = ctx.info.profile.tools.slow ? 'slow' : ctx.info.profile.tools.completes ? 'completes' : undefined;
      if (!role) ctx.skip('target has no tool for role slow or completes');
      const c = await createTask(ctx, role);
      try {
        const v = judgeFirstStatus(c.task.status, rolesOf(ctx.info.profile, ctx.tool(role).name));
        if (v.note) ctx.skip(`${v.note} — name a slow tool in the profile`);
        ctx.expect(!v.violation, `CreateTaskResult of the ${role} tool has status ${short(c.task.status)}, expected "working": ${v.violation}`);
        const g = await getTask(ctx, c.taskId);
        return `CreateTaskResult status working (${role} tool); first tasks/get: ${g.result?.status ?? `error ${g.error?.code}`}`;
      } finally {
        if (role === 'slow') await cancelQuietly(ctx, c.taskId);
      }
    },
  }),
  defineCheck({
    // Every CreateTaskResult of the run, judged under the one ruling (RULINGS.md#new-task-working,
    // judgeFirstStatus) that the property model applies too.
    id: 'creation.first-status-everywhere',
    title: 'every CreateTaskResult of the run shows a status a new task may have (working; terminal only for a tool that may end instantly)',
    section: SECTION,
    requirements: ['lifecycle-begin-working'],
    level: 'MUST',
    clientReceiver: true,
    killedBy: ['created-input-required', 'starts-completed'],
    runsLast: true,
    async run(ctx: CheckContext) {
      await ctx.othersDone();
      let judged = 0;
      const notes = new Map<string, number>();
      const problems: string[] = [];
      const seen = new Set<unknown>();
      const sources = targetTranscripts(ctx);
      for (const src of sources) {
        const requests = new Map<string, Message>();
        for (const e of src.entries) {
          const m = e.message as Message | undefined;
          if (e.dir === 'out' && m && typeof m === 'object' && 'method' in m && 'id' in m) requests.set(JSON.stringify(m.id), m);
        }
        for (const e of src.entries) {
          const m = e.message as Message | undefined;
          if (e.dir !== 'in' || !m || typeof m !== 'object' || seen.has(m) || 'method' in m || !isObj(m.result?.task)) continue;
          seen.add(m);
          const req = requests.get(JSON.stringify(m.id));
          if (!req || req.params?.task === undefined) continue;
          judged++;
          const roles = req.method === 'tools/call' ? rolesOf(ctx.info.profile, req.params?.name) : [];
          let v = judgeFirstStatus(m.result.task.status, roles);
          // A first input_required of a tool not known to ask: judged by what follows (RULINGS.md#new-task-working).
          if (v.violation && m.result.task.status === 'input_required') v = judgeInputRequiredByWhatFollows(sources, m.result.task.taskId, v.violation);
          const what = `${req.method}${req.method === 'tools/call' ? ` "${req.params?.name}"` : ''}`;
          if (v.violation) problems.push(`${src.label}: ${what} → task ${short(m.result.task.taskId)}: ${v.violation}`);
          else if (v.note) notes.set(`${what} ${m.result.task.status}`, (notes.get(`${what} ${m.result.task.status}`) ?? 0) + 1);
        }
      }
      if (!judged) ctx.skip('no CreateTaskResult was seen in this run');
      ctx.expect(
        problems.length === 0,
        `${problems.length} of ${judged} CreateTaskResults: ${problems.slice(0, 4).join('; ')}${problems.length > 4 ? '; …' : ''}`,
      );
      const ended = [...notes].map(([k, n]) => `${k} ×${n}`).join(', ');
      return `${judged} CreateTaskResults judged${ended ? `; already moved on (allowed where the task's own work may get there at once, RULINGS.md#new-task-working): ${ended}` : ''}`;
    },
  }),
  defineCheck({
    id: 'creation.id-string',
    title: 'the task id is a string',
    section: SECTION,
    requirements: ['id-string'],
    level: 'MUST',
    clientReceiver: true,
    killedBy: ['numeric-task-id', 'ignores-task'],
    needs: ['completes'],
    needsCapabilities: ['tasks.requests.tools.call'],
    async run(ctx: CheckContext) {
      const r = await sendTaskRequest(ctx, 'completes');
      if (r.error)
        ctx.skip(`task-augmented tools/call answered error ${r.error.code} ${r.error.message}`, {
          judgedBy: CREATION_JUDGED_BY,
          cause: `task creation answered error ${r.error.code} ${r.error.message}`,
        });
      const id = r.result?.task?.taskId;
      ctx.expect(typeof id === 'string', `CreateTaskResult task.taskId is ${id === undefined ? 'missing' : `${typeof id} ${short(id)}`}, expected a string`);
      ctx.expect(id.length > 0, 'CreateTaskResult task.taskId is the empty string');
      return `taskId ${JSON.stringify(id)}`;
    },
  }),
  defineCheck({
    id: 'creation.id-unique',
    title: 'task ids of sequential and concurrent creations, on this and on other sessions, are all distinct',
    section: SECTION,
    requirements: ['id-unique'],
    level: 'MUST',
    clientReceiver: true,
    killedBy: ['duplicate-ids', 'ids-per-session'],
    needs: ['completes'],
    needsCapabilities: ['tasks.requests.tools.call'],
    opensConnections: 2,
    async run(ctx: CheckContext) {
      const seq = await createMany(ctx, 'completes', 4, false);
      const par = await createMany(ctx, 'completes', 6, true);
      // "unique among all tasks controlled by the receiver": other sessions' tasks too. Over stdio another
      // session is another process (another receiver), so only this connection's tasks are compared there.
      const others =
        ctx.info.transport === 'stdio' ? [] : await Promise.all([0, 1].map(async () => createMany(ctx, 'completes', 3, false, await ctx.openSession())));
      // Answers without a task id (e.g. a plain CallToolResult) are not ids: id-string / create-returns-createtaskresult judge those.
      const ids = [...seq.ids, ...par.ids, ...others.flatMap((o) => o.ids)].filter((id) => id !== undefined && id !== null);
      const errors = [...seq.errors, ...par.errors, ...others.flatMap((o) => o.errors)];
      if (ids.length < 2) ctx.skip(`fewer than two tasks could be created (errors: ${errors.join('; ')})`);
      const seen = new Map<string, number>();
      for (const id of ids) seen.set(JSON.stringify(id), (seen.get(JSON.stringify(id)) ?? 0) + 1);
      const dup = [...seen].filter(([, n]) => n > 1).map(([id, n]) => `${id} ×${n}`);
      const how = `4 sequential, 6 concurrent${others.length ? ', 3 on each of two other sessions' : ''}`;
      ctx.expect(dup.length === 0, `task ids repeat across ${ids.length} creations (${how}): ${dup.join(', ')}`);
      if (errors.length) ctx.note(`${errors.length} creation(s) refused: ${errors[0]}`);
      return `${ids.length} distinct ids (${how})`;
    },
  }),
  defineCheck({
    id: 'creation.id-receiver-generated',
    title: 'the receiver generates the task id: an id offered by the requestor is not adopted',
    section: SECTION,
    requirements: ['id-receiver-generated'],
    level: 'MUST',
    clientReceiver: true,
    killedBy: ['adopts-requestor-id'],
    needs: ['completes'],
    needsCapabilities: ['tasks.requests.tools.call'],
    async run(ctx: CheckContext) {
      const nonce = Math.random().toString(36).slice(2, 10);
      const offered = { inTask: `requestor-chosen-${nonce}`, inMeta: `requestor-meta-${nonce}` };
      const tries = [
        { what: 'task.taskId', task: { ttl: TTL_MS, taskId: offered.inTask }, meta: undefined },
        { what: `_meta["${RELATED_TASK_META}"]`, task: { ttl: TTL_MS }, meta: { [RELATED_TASK_META]: { taskId: offered.inMeta } } },
      ];
      const seen: string[] = [];
      const refused: string[] = [];
      const wait = Math.min(5_000, ctx.options.requestTimeoutMs);
      for (const t of tries) {
        const r = await sendTaskRequest(ctx, 'completes', { task: t.task, meta: t.meta, timeoutMs: wait }).catch((e: unknown) =>
          e instanceof WireTimeoutError ? undefined : Promise.reject(e),
        );
        if (!r) {
          refused.push(`${t.what}: no answer within ${wait} ms`);
          continue;
        }
        if (r.error) {
          refused.push(`${t.what}: ${r.error.code} ${r.error.message}`);
          continue;
        }
        const id = r.result?.task?.taskId;
        if (id === undefined) ctx.violation(`no CreateTaskResult when the requestor offered an id in ${t.what} (got ${short(r.result)})`);
        ctx.expect(
          id !== offered.inTask && id !== offered.inMeta,
          `the receiver adopted the requestor's id ${JSON.stringify(id)} (offered in ${t.what}) instead of generating one`,
        );
        seen.push(`${t.what} → ${JSON.stringify(id)}`);
      }
      if (seen.length === 0) ctx.skip(`the target refused both requests carrying a requestor-chosen id (${refused.join('; ')})`);
      if (refused.length) ctx.note(`not usable: ${refused.join('; ')}`);
      return `offered ids not adopted (${seen.join('; ')})`;
    },
  }),
  defineCheck({
    id: 'creation.id-entropy',
    title: 'task ids look cryptographically random (no evident context binding)',
    section: SECTION,
    requirements: ['security-crypto-ids'],
    level: 'MUST',
    clientReceiver: true,
    killedBy: ['sequential-ids'],
    needs: ['completes'],
    needsCapabilities: ['tasks.requests.tools.call'],
    opensConnections: 1,
    async run(ctx: CheckContext) {
      const { ids, errors } = await createMany(ctx, 'completes', 8, false);
      const strs = ids.filter((x): x is string => typeof x === 'string');
      if (strs.length < 4) ctx.skip(`only ${strs.length} string task ids could be collected (errors: ${errors.join('; ') || 'none'})`);
      const est = estimateIdBits(strs);
      const pred = predictability(strs);
      const sample = strs
        .slice(0, 3)
        .map((s) => JSON.stringify(s))
        .join(', ');
      if (est.bits >= MIN_ID_BITS && !pred) {
        if (est.bits < UUID_CLASS_BITS) ctx.note(`estimate below the UUIDv4 class (${UUID_CLASS_BITS} bits) the catalog note mentions`);
        return `~${est.bits} bits estimated (${est.varying} varying characters over an alphabet of ${est.alphabet}); e.g. ${sample}`;
      }
      // The MUST applies when context-binding is unavailable. Our tasks were created over the primary
      // connection; only over HTTP with configured identities (bearer headers) does that connection carry
      // an authorization context, and a second identity that cannot reach the task is evidence of binding.
      // stdio and the in-process reference have no authorization on the primary connection: the MUST applies.
      const why = `${pred ?? `only ~${est.bits} bits estimated (${est.varying} varying characters over an alphabet of ${est.alphabet}; < ${MIN_ID_BITS})`}; ids: ${strs.map((s) => JSON.stringify(s)).join(', ')}`;
      // Requests that carry credentials (an Authorization header) provide an authorization context: binding is
      // available (security-bind-context) and security-crypto-ids ("if context-binding is unavailable") does not apply.
      if (ctx.info.transport === 'http' && ctx.connector.credentials && !ctx.connector.hasSecondIdentity)
        ctx.skip(
          `ids look guessable (${why}), but the run's requests carry credentials (an Authorization header): an authorization context is provided, so context-binding is available and security-crypto-ids does not apply (give a second identity to test the binding)`,
        );
      if (ctx.info.transport === 'http' && ctx.connector.hasSecondIdentity) {
        const other = await ctx.openSession({ identity: 'secondary' });
        const g = await getTask(ctx, strs[strs.length - 1], other);
        if (g.error)
          ctx.skip(
            `ids look guessable (${why}), but tasks are bound to the authorization context (a second identity got ${g.error.code} for our task), so security-crypto-ids does not apply`,
          );
      }
      ctx.violation(`task ids are guessable and no context binding is evident: ${why}`);
    },
  }),
  defineCheck({
    // MAY (receiver corollary of create-ttl-may): creation works with and without task.ttl. A target
    // refusing `task: {}` turns this into an info finding.
    id: 'creation.ttl-optional',
    title: 'tasks can be created with and without a requested ttl',
    section: SECTION,
    requirements: ['create-ttl-may'],
    level: 'MAY',
    clientReceiver: true,
    killedBy: [],
    needs: ['completes'],
    needsCapabilities: ['tasks.requests.tools.call'],
    async run(ctx: CheckContext) {
      const without = await sendTaskRequest(ctx, 'completes', { task: {} });
      const withTtl = await sendTaskRequest(ctx, 'completes', { task: { ttl: TTL_MS } });
      const d = (r: typeof without) =>
        r.error ? `error ${r.error.code} ${r.error.message}` : isObj(r.result?.task) ? `task ttl ${short(r.result.task.ttl)}` : `no task (${short(r.result)})`;
      ctx.expect(isObj(without.result?.task) && isObj(withTtl.result?.task), `task: {} → ${d(without)}; task: {ttl: ${TTL_MS}} → ${d(withTtl)}`);
      return `task: {} → ${d(without)}; task: {ttl: ${TTL_MS}} → ${d(withTtl)}`;
    },
  }),
];

const INPUT_METHODS: readonly string[] = ['elicitation/create', 'sampling/createMessage'];

/**
 * RULINGS.md#new-task-working for a first `input_required` of a tool the profile does not know to ask for input
 * (a profile names one role per tool): the status is the task's own work moving it on when the receiver asks
 * for input, so what follows decides. An input request for the task (related-task `_meta` naming it, or an
 * elicitation/sampling request arriving while a tasks/result for it is open) or the task staying
 * `input_required`: only noted. The task seen `working` again before any input request: it never needed input,
 * the violation stands. Nothing seen after it (ended, cancelled, never asked about): only noted.
 */
export function judgeInputRequiredByWhatFollows(sources: readonly Source[], taskId: unknown, violation: string): { violation?: string; note?: string } {
  const observed: { time: string; ms: number; status: unknown }[] = [];
  let asked: string | undefined;
  for (const src of sources) {
    const gets = new Set<string>();
    const results = new Set<string>();
    for (const e of src.entries) {
      const m = e.message as Message | undefined;
      if (!m || typeof m !== 'object') continue;
      const key = JSON.stringify(m.id);
      if (e.dir === 'out' && 'method' in m && m.params?.taskId === taskId) {
        if (m.method === 'tasks/get') gets.add(key);
        if (m.method === 'tasks/result') results.add(key);
        continue;
      }
      if (e.dir !== 'in') continue;
      if ('method' in m && 'id' in m && m.method !== 'ping') {
        const related = m.params?._meta?.[RELATED_TASK_META]?.taskId;
        if (related === taskId || (related === undefined && results.size > 0 && INPUT_METHODS.includes(String(m.method)))) asked ??= String(m.method);
      } else if (m.method === 'notifications/tasks/status' && m.params?.taskId === taskId) observed.push({ time: e.time, ms: e.ms, status: m.params?.status });
      else if (!('method' in m) && gets.delete(key) && m.result) observed.push({ time: e.time, ms: e.ms, status: m.result.status });
      else if (!('method' in m)) results.delete(key);
    }
  }
  if (asked) return { note: `a new task shows "input_required" in its CreateTaskResult and asked for input (${asked}; RULINGS.md#new-task-working)` };
  observed.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
  const next = observed.find((o) => o.status !== 'input_required');
  if (next?.status === 'working') return { violation: `${violation}; it was "working" again with no input request sent for it (it never needed input)` };
  return {
    note: `a new task shows "input_required" in its CreateTaskResult (${observed.length && !next ? 'and stayed so' : 'nothing after it says it did not ask'}; RULINGS.md#new-task-working)`,
  };
}
