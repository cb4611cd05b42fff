// Checks for "Security Considerations" (tasks.md 867-891, plus erratum 7b5513e1). Requirement ids from
// schema/requirements.json. Unguessable task ids (security-crypto-ids) are judged by creation.ts.
//
// When does which requirement apply? The second requestor is a second connection:
//  - stdio: a second session is a second process with its own task store, so isolation is trivially
//    true and says nothing → the isolation checks are not exercised.
//  - a second identity configured (HTTP secondary headers, e.g. another bearer token; the in-process
//    reference receiver gives its secondary sessions their own bearer context): two authorization
//    contexts exist, so the receiver MUST bind tasks to them (security-bind-context) and MUST reject
//    the other context's get/result/cancel (security-reject-foreign-context) and keep it out of
//    tasks/list (security-list-own-context). Any access → fail.
//  - only sessions (HTTP without a second identity, or in process): a session is not an authorization
//    context, so not binding is allowed. Binding counts as available when the receiver rejects the other
//    session's tasks/get of the task (it keeps the sessions apart); then tasks/result and tasks/cancel MUST
//    be rejected too (partial binding fails). One rejection of another kind (a tasks/result refused for a
//    reason of its own while tasks/get reads the task) is no binding. A target that
//    lets the second session read the task does not bind: the isolation MUSTs are not exercised, the
//    crypto-random ids MUST governs (creation.ts), and declaring tasks.list warns under
//    security-list-without-identity (the erratum's "cannot identify requestors", observed as the
//    second session listing the first one's task).
import { defineCheck, type CheckContext, type CheckDef, type TargetInfo } from '../engine/check.ts';
import type { Response, Scope } from '../wire/peer.ts';
import { isTaskStatus, isTerminal } from '../../schema/protocol.ts';
import { listAll } from '../arrange/tasks.ts';
import { createTask, reachTerminal } from '../arrange/arrange.ts';
import { getTask } from '../arrange/poll.ts';
import { short } from '../engine/text.ts';

const SECTION = 'Security Considerations';

type Mode = 'identity' | 'session';

const STDIO_REASON =
  'over stdio each session is its own process with its own task store: isolation between two stdio sessions is trivially true and says nothing about context binding';

/** Isolation needs more than one session sharing a task store: not over stdio. */
const notOverStdio = (info: TargetInfo) => (info.transport === 'stdio' ? STDIO_REASON : undefined);

function isolationMode(ctx: CheckContext): Mode {
  return ctx.connector.hasSecondIdentity ? 'identity' : 'session';
}

function openOther(ctx: CheckContext, mode: Mode): Promise<Scope> {
  return ctx.openSession(mode === 'identity' ? { identity: 'secondary' } : undefined);
}

const other = (mode: Mode) => (mode === 'identity' ? 'a second authorization context (secondary identity)' : 'a second session of the same identity');

const NO_BINDING = (mode: Mode, what: string) =>
  `target does not bind tasks to sessions (${what} from ${other(mode)}) and no second authorization context is configured, so context-binding is unavailable: task ids must then be unguessable (creation checks, security-crypto-ids) and tasks.list should not be declared (security.list-without-identity)`;

function answer(r: Response): string {
  return r.error ? `error ${r.error.code} ${short(r.error.message, 100)}` : `result ${short(r.result, 100)}`;
}

export const checks: CheckDef[] = [
  // MUST reject get/result/cancel of another context's task. The page names no code; -32602 ("not
  // found") is expected (RULINGS.md#foreign-context-code): another code is noted, any success fails. The cancel probe
  // uses a non-terminal task (`slow` when available) and re-reads it as its owner, so a foreign cancel
  // that took effect despite an error answer also fails.
  defineCheck({
    id: 'security.foreign-context-rejected',
    title: "tasks/get, tasks/result and tasks/cancel of another context's task are rejected",
    section: SECTION,
    requirements: ['security-reject-foreign-context', 'security-bind-context'],
    level: 'MUST',
    killedBy: ['no-isolation'],
    clientReceiver:
      'every connection is a client process of its own, so isolation between two of them is trivially true and says nothing about context binding',
    needs: ['completes'],
    needsCapabilities: ['tasks'],
    notApplicable: notOverStdio,
    opensConnections: 1,
    async run(ctx: CheckContext) {
      const mode = isolationMode(ctx);
      const s2 = await openOther(ctx, mode);
      const a = await createTask(ctx, 'completes');
      // Terminal first, so that a (wrongly) accepted foreign tasks/result answers instead of blocking.
      await reachTerminal(ctx, a.taskId, { initial: a.task });
      const probes: { method: string; taskId: string; r: Response; accepted: boolean }[] = [];
      for (const method of ['tasks/get', 'tasks/result']) {
        const r = await s2.request(method, { taskId: a.taskId });
        probes.push({ method, taskId: a.taskId, r, accepted: !r.error });
      }
      if (ctx.info.serverCapabilities?.tasks?.cancel) {
        const role = ctx.info.profile.tools.slow ? 'slow' : 'completes';
        const b = await createTask(ctx, role);
        const r = await s2.request('tasks/cancel', { taskId: b.taskId });
        const after = await getTask(ctx, b.taskId);
        const nowCancelled = after.result?.status === 'cancelled';
        const accepted = !r.error || (nowCancelled && b.task.status !== 'cancelled');
        if (r.error && !nowCancelled && isTaskStatus(after.result?.status) && isTerminal(after.result.status)) {
          ctx.note(`the cancel probe's task was already ${after.result.status}, so the foreign tasks/cancel rejection is not conclusive`);
        }
        probes.push({ method: 'tasks/cancel', taskId: b.taskId, r, accepted });
        if (after.result && isTaskStatus(after.result.status) && !isTerminal(after.result.status)) await ctx.peer.request('tasks/cancel', { taskId: b.taskId });
      } else {
        ctx.note('tasks/cancel not probed: capability tasks.cancel not declared');
      }
      const accepted = probes.filter((p) => p.accepted);
      const rejected = probes.filter((p) => !p.accepted);
      // Binding is available with two identities. Sessions of one identity are no authorization context
      // (security-bind-context binds only "when an authorization context is provided"): a receiver may keep them
      // apart wholly, partly (tasks/get but not tasks/result) or not at all.
      if (mode === 'session' && accepted.length && rejected.length)
        ctx.skip(
          `${other(mode)}: ${rejected.map((p) => `${p.method} → ${answer(p.r)}`).join(', ')}, while ${accepted.map((p) => p.method).join(', ')} succeeded: the receiver scopes part of tasks/* to sessions; with no authorization context between two sessions of one identity that is its choice (security-bind-context applies when one is provided)`,
        );
      if (mode === 'session' && probes[0]!.accepted)
        ctx.skip(
          NO_BINDING(
            mode,
            `${accepted.map((p) => p.method).join(', ')} of the first session's task succeeded${rejected.length ? `, ${rejected.map((p) => p.method).join(', ')} did not` : ''}`,
          ),
        );
      ctx.expect(
        accepted.length === 0,
        `${other(mode)} accessed tasks it does not own: ${accepted.map((p) => `${p.method} ${p.taskId} → ${answer(p.r)}${p.method === 'tasks/cancel' ? ' (the task ended cancelled)' : ''}`).join('; ')}${rejected.length ? `; while ${rejected.map((p) => p.method).join(', ')} rejected` : ''}`,
      );
      const codes = rejected.map((p) => `${p.method} → ${p.r.error?.code}`);
      const odd = rejected.filter((p) => p.r.error && p.r.error.code !== -32602);
      if (odd.length)
        ctx.note(
          `rejected with codes other than the expected -32602 (RULINGS.md#foreign-context-code): ${odd.map((p) => `${p.method} ${p.r.error!.code}`).join(', ')}`,
        );
      return `${other(mode)}: ${codes.join(', ')}`;
    },
  }),

  // MUST list only the requestor's own tasks. With sessions only, a listed foreign task fails only if
  // tasks/get rejects it (binding available, list leaks); otherwise not exercised (no binding).
  defineCheck({
    id: 'security.list-own-context',
    title: "tasks/list of another context does not include this context's task",
    section: SECTION,
    requirements: ['security-list-own-context', 'security-bind-context'],
    level: 'MUST',
    killedBy: ['no-isolation'],
    clientReceiver:
      'every connection is a client process of its own, so isolation between two of them is trivially true and says nothing about context binding',
    needs: ['completes'],
    needsCapabilities: ['tasks.list'],
    notApplicable: notOverStdio,
    opensConnections: 1,
    async run(ctx: CheckContext) {
      const mode = isolationMode(ctx);
      const s2 = await openOther(ctx, mode);
      const a = await createTask(ctx, 'completes');
      const { tasks } = await listAll(ctx, s2);
      const leaked = tasks.some((t) => t?.taskId === a.taskId);
      if (!leaked) return `tasks/list from ${other(mode)} (${tasks.length} tasks) excludes task ${a.taskId}`;
      if (mode === 'session') {
        const g = await getTask(ctx, a.taskId, s2);
        if (!g.error) ctx.skip(NO_BINDING(mode, `task ${a.taskId} was listed and read`));
        // Sessions of one identity are no authorization context (security-bind-context): scoping tasks/get to
        // the session but not tasks/list is the receiver's choice there.
        ctx.skip(
          `tasks/list from ${other(mode)} includes task ${a.taskId} of the first session while tasks/get there rejects it (${answer(g)}): partial scoping between two sessions of one identity, which no authorization context separates (security-bind-context applies when one is provided)`,
        );
      }
      ctx.violation(`tasks/list from ${other(mode)} includes task ${a.taskId} created by the primary context`);
    },
  }),

  // Erratum 7b5513e1, SHOULD NOT: a receiver that cannot identify requestors should not declare
  // tasks.list. Observed (not inferred from the transport): another session/identity lists this one's
  // task. Over stdio there is one requestor per process and nothing to expose, so not exercised there
  // (RULINGS.md#erratum-list-without-identity). Killed (warn) by fault no-isolation.
  defineCheck({
    id: 'security.list-without-identity',
    title: "A receiver whose tasks/list shows other requestors' tasks should not declare tasks.list",
    section: SECTION,
    requirements: ['security-list-without-identity'],
    level: 'SHOULD',
    killedBy: [],
    clientReceiver: 'about servers without an authorization context (erratum 7b5513e1); a client receiver has exactly one requestor, its server',
    needs: ['completes'],
    needsCapabilities: ['tasks.list'],
    notApplicable: notOverStdio,
    opensConnections: 1,
    async run(ctx: CheckContext) {
      const mode = isolationMode(ctx);
      // Requests that carry credentials let the receiver identify the requestor; a second session with the same
      // credentials is the same requestor, entitled to list its own tasks.
      if (mode === 'session' && ctx.connector.credentials)
        ctx.skip(
          'the run carries credentials (an Authorization header) and no second identity: the receiver can identify the requestor, and a second session with the same credentials is the same requestor (give a second identity to test what another one sees)',
        );
      const s2 = await openOther(ctx, mode);
      const a = await createTask(ctx, 'completes');
      const { tasks } = await listAll(ctx, s2);
      ctx.expect(
        !tasks.some((t) => t?.taskId === a.taskId),
        `tasks/list from ${other(mode)} includes task ${a.taskId} created by another requestor: the target does not tell requestors apart, yet declares tasks.list (erratum 7b5513e1: such receivers SHOULD NOT declare it)`,
      );
      return `tasks/list from ${other(mode)} shows only its own tasks (${tasks.length})`;
    },
  }),

  // Rate limiting and per-requestor concurrency limits (security-rate-limit, resource-concurrency-limit)
  // have no defined signal (catalog: not observable). This bounded probe only reports what happens
  // when one requestor creates FLOOD_TASKS quick tasks: accepted, or refused with a JSON-RPC error.
  // Info only (violations are reported as info too: a hang or a refusal without a message).
  defineCheck({
    id: 'security.task-flood-reported',
    title: `Creating ${200} quick tasks on one session: accepted or refused with a clear JSON-RPC error (reported)`,
    section: SECTION,
    requirements: ['resource-concurrency-limit'],
    level: 'MAY',
    weakerLevel: 'a concurrency limit has no defined signal (catalog: not observable); the probe reports what happens',
    killedBy: [],
    clientReceiver: 'sends task-augmented tools/call directly',
    needs: ['completes'],
    needsCapabilities: ['tasks.requests.tools.call'],
    timeoutMs: 60_000,
    loadsTarget: true, // a flood: runs last, on its own connection
    opensConnections: 1,
    async run(ctx: CheckContext) {
      const FLOOD_TASKS = 200;
      const BATCH = 20;
      const s = await ctx.openSession();
      const tool = ctx.tool('completes');
      let accepted = 0;
      const refused = new Map<number, { n: number; message: string }>();
      const odd: string[] = [];
      for (let i = 0; i < FLOOD_TASKS; i += BATCH) {
        const batch = await Promise.all(
          Array.from({ length: Math.min(BATCH, FLOOD_TASKS - i) }, () =>
            s.request('tools/call', { name: tool.name, arguments: tool.arguments ?? {}, task: { ttl: 60_000 } }).catch((e: unknown) => e as Error),
          ),
        );
        for (const r of batch) {
          if (r instanceof Error) ctx.violation(`after ${i} task creations the target stopped answering: ${r.message} (accepted ${accepted} so far)`);
          if (r.error) {
            const k = refused.get(r.error.code) ?? { n: 0, message: String(r.error.message) };
            k.n++;
            refused.set(r.error.code, k);
            if (typeof r.error.message !== 'string' || r.error.message.trim() === '') odd.push(`refusal ${r.error.code} without a message`);
          } else if (typeof r.result?.task?.taskId === 'string') accepted++;
          else odd.push(`neither a CreateTaskResult nor an error: ${short(r.result, 100)}`);
        }
      }
      const ping = await s.request('ping', {}).catch((e: unknown) => e as Error);
      if (ping instanceof Error) ctx.violation(`after ${FLOOD_TASKS} task creations the session no longer answers ping: ${ping.message}`);
      ctx.expect(odd.length === 0, `unclear answers while flooding: ${[...new Set(odd)].slice(0, 3).join('; ')}`);
      const refusals = [...refused].map(([code, { n, message }]) => `${n} refused with ${code} ${short(message, 100)}`);
      return `${FLOOD_TASKS} task-augmented calls in batches of ${BATCH}: ${accepted} accepted${refusals.length ? `, ${refusals.join(', ')}` : ', none refused (no limit seen at this volume)'}`;
    },
  }),
];
