// Checks of the extension's tasks.md "Task Update Requests": inputRequests keys unique over the task's life,
// the empty acknowledgement of tasks/update, stray responses ignored (keys never issued, keys already
// answered), partial answers keep the task input_required; requirement ids from schema/2026-07-28/requirements.json.
import { randomUUID } from 'node:crypto';
import type { CheckContext, CheckDef } from '../../engine/check.ts';
import { isObj, short } from '../../engine/text.ts';
import { seqText } from '../../arrange/poll.ts';
import { timeLeft } from '../../arrange/budget.ts';
import { Field, isTerminal, Method, REVISION, tasksExtensionCapabilities, type TaskStatus } from '../../../schema/2026-07-28/protocol.ts';
import { validatorFor } from '../../../schema/validate.ts';
import { extensionNotAdvertised, modernCheck } from '../engine/check.ts';
import {
  answeredWithTask,
  answersFor,
  callRole,
  createInputRequired,
  getTask,
  inputKeys,
  reach,
  reachTerminal,
  skipPastTtl,
  updateTask,
  watch,
  withInputsOutstanding,
  type Created,
} from '../arrange/tasks.ts';

import { judgeAck, judgeAckResultType } from '../arrange/ack.ts';

const SECTION = 'Task Update Requests';
const schema = { validate: (name: string, value: unknown) => validatorFor(REVISION).validate(name, value) }; // built on first use, not on import
/** The request objects seen under each key over a task's life (method and params, as JSON). */
class KeyLedger {
  readonly requests = new Map<string, string>();
  /** Keys a response was delivered for (tasks/update acknowledged). */
  readonly answered = new Set<string>();
  /** Keys that were listed, then not listed on a later poll. */
  readonly vanished = new Set<string>();
  private listed = new Set<string>();
  /** Records one tasks/get; returns the violation it shows, if any. */
  see(task: Record<string, any>): string | undefined {
    const reqs = isObj(task[Field.inputRequests]) ? (task[Field.inputRequests] as Record<string, unknown>) : {};
    const now = new Set(Object.keys(reqs));
    for (const k of this.listed) if (!now.has(k)) this.vanished.add(k);
    for (const [k, r] of Object.entries(reqs)) {
      const json = JSON.stringify({ method: (r as any)?.method, params: (r as any)?.params });
      const before = this.requests.get(k);
      if (before !== undefined && before !== json) return `key ${JSON.stringify(k)} named ${before} before and now ${json}: one key, two requests`;
      if (this.vanished.has(k) && this.answered.has(k))
        return `key ${JSON.stringify(k)} was answered and gone from inputRequests, then listed again (${json}): a key reused after its response`;
      this.requests.set(k, json);
    }
    this.listed = now;
    return undefined;
  }
}

/** Watches a task (bounded) until `done`, feeding every tasks/get to the ledger; a key violation ends the check. */
async function watchKeys(ctx: CheckContext, c: Created, ledger: KeyLedger, done: (t: Record<string, any>) => boolean, statuses: TaskStatus[], what: string) {
  const w = await watch(
    ctx,
    c.taskId,
    (t) => {
      const bad = ledger.see(t);
      if (bad) ctx.violation(`task ${c.taskId}: ${bad}`);
      return done(t) || isTerminal(t[Field.status]);
    },
    { scope: c.scope, into: statuses, boundMs: timeLeft(ctx, { marginMs: 4_000, floorMs: 2_000 }), label: `waiting for ${what}` },
  );
  if (w.timedOut || !w.last || !done(w.last)) ctx.skip(`task ${c.taskId} did not reach ${what} (seen ${seqText(statuses)})`);
  return w.last!;
}

/** Answers `keys` of the task's current inputRequests (`text` in string fields); skips on an error (judged by the ack check). */
async function answer(ctx: CheckContext, c: Created, task: Record<string, any>, keys: readonly string[], text: string) {
  const all = answersFor(task[Field.inputRequests], text);
  const r = await updateTask(c.scope, c.taskId, Object.fromEntries(keys.filter((k) => k in all).map((k) => [k, all[k]])));
  if (r.error)
    ctx.skip(`tasks/update answering ${keys.join(', ')} answered error ${r.error.code} ${r.error.message}`, { judgedBy: '2026-input.update-ack-empty' });
  return r;
}

/** A needsTwoInputs task in input_required with two keys (fewer: not exercised, judged by 2026-get.input-requests-all). */
async function twoInputsRequired(ctx: CheckContext) {
  const c0 = await createInputRequired(ctx, 'needsTwoInputs');
  const c = { ...c0, last: await withInputsOutstanding(ctx, c0, 2) };
  const keys = inputKeys(c.last);
  if (keys.length < 2) ctx.skip(`task ${c.taskId} lists ${keys.length} inputRequests`, { judgedBy: '2026-get.input-requests-all' });
  const [k1, k2] = keys as [string, string];
  return { c, k1, k2 };
}

/** A needsInput task in input_required, every key answered by one tasks/update: its acknowledgement (an error: not exercised). */
async function answeredAll(ctx: CheckContext) {
  const c = await createInputRequired(ctx, 'needsInput');
  const r = await updateTask(c.scope, c.taskId, answersFor(c.last[Field.inputRequests]));
  if (r.error) ctx.skip(`tasks/update answering every outstanding key answered error ${r.error.code} ${r.error.message}`);
  return r;
}

export const checks: CheckDef[] = [
  modernCheck({
    id: '2026-input.keys-unique',
    title: 'inputRequests keys are unique over the task: the same key always names the same request and is not reused after its response',
    section: SECTION,
    requirements: ['2026-input-keys-unique', '2026-input-key-no-reuse-after-response', '2026-input-key-no-two-requests'],
    level: 'MUST',
    killedBy: ['input-key-reused'],
    needs: ['needsInputTwice'],
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      const c = await createInputRequired(ctx, 'needsInputTwice');
      const ledger = new KeyLedger();
      const statuses = [...c.statuses];
      const bad = ledger.see(c.last);
      if (bad) ctx.violation(`task ${c.taskId}: ${bad}`);
      const first = inputKeys(c.last);
      await answer(ctx, c, c.last, first, 'conformance-first');
      for (const k of first) ledger.answered.add(k);
      // The next round: a listed key that is no longer (only) one of the answered ones, or the end.
      const next = await watchKeys(
        ctx,
        c,
        ledger,
        (t) => t[Field.status] === 'input_required' && inputKeys(t).some((k) => !first.includes(k) || ledger.vanished.has(k)),
        statuses,
        'the second round of input',
      );
      if (isTerminal(next[Field.status])) ctx.skip(`task ${c.taskId} ended ${next[Field.status]} after the first answer (role needsInputTwice asks twice)`);
      const second = inputKeys(next);
      await answer(ctx, c, next, second, 'conformance-second');
      for (const k of second) ledger.answered.add(k);
      await watchKeys(ctx, c, ledger, (t) => isTerminal(t[Field.status]), statuses, 'a terminal status');
      return `keys ${first.join(', ')} then ${second.join(', ')}; ${seqText(statuses)}`;
    },
  }),
  modernCheck({
    id: '2026-input.request-types',
    title: 'every inputRequests value is an ElicitRequest, a CreateMessageRequest or a ListRootsRequest',
    section: SECTION,
    requirements: ['2026-mrtr-input-request-types'],
    level: 'MUST',
    killedBy: ['input-request-not-mrtr'],
    needs: ['needsInput'],
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      const c = await createInputRequired(ctx, 'needsInput');
      const entries = Object.entries(c.last[Field.inputRequests] as Record<string, unknown>);
      for (const [key, req] of entries) {
        const v = schema.validate('InputRequest', req);
        ctx.expect(
          v.valid,
          `inputRequests.${key} of task ${c.taskId} is not an InputRequest (elicitation/create, sampling/createMessage, roots/list): ${short(req, 200)}`,
        );
      }
      return `${entries.length} inputRequests: ${entries.map(([, r]) => (r as { method?: string }).method).join(', ')}`;
    },
  }),
  modernCheck({
    id: '2026-input.no-undeclared-elicitation',
    title: 'a task created by a request declaring no elicitation capability asks no elicitation/create in its inputRequests',
    section: SECTION,
    requirements: ['2026-mrtr-no-undeclared-input-requests'],
    level: 'MUST',
    killedBy: ['elicitation-undeclared'],
    needs: ['needsInput'],
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      // RULINGS.md#ext-input-requests-declared-capability: judged on the request that created the task (the one
      // its work asks on behalf of). A tasks/get declaring less may be shown what is outstanding or refused.
      const r = await callRole(ctx, 'needsInput', { capabilities: tasksExtensionCapabilities() });
      if (r.error) return `the tools/call declaring no elicitation was answered ${r.error.code} ${short(r.error.message, 80)}`;
      const elicitIn = (o: unknown) =>
        isObj(o) && isObj(o[Field.inputRequests])
          ? Object.entries(o[Field.inputRequests] as Record<string, any>)
              .filter(([, q]) => q?.method === Method.ElicitationCreate)
              .map(([k]) => k)
          : [];
      if (!answeredWithTask(r.result)) {
        const asked = elicitIn(r.result);
        ctx.expect(asked.length === 0, `tools/call declaring no elicitation capability was answered with elicitation/create under ${asked.join(', ')}`);
        return `answered without a task (resultType ${short(r.result?.[Field.resultType])})`;
      }
      const taskId = String(r.result[Field.taskId]);
      ctx.hold({ taskId, peer: ctx.peer, slot: false, cancelAtEnd: true });
      const w = await watch(ctx, taskId, (t) => t[Field.status] !== 'working', { label: 'waiting for input_required or the end', allowGone: true });
      const asked = [r.result, ...w.tasks].flatMap(elicitIn);
      ctx.expect(
        asked.length === 0,
        `task ${taskId}, created by a tools/call declaring no elicitation capability, asks elicitation/create under ${[...new Set(asked)].join(', ')} (${seqText(w.statuses)})`,
      );
      return `task ${taskId}: ${seqText(w.statuses)}, no elicitation/create asked`;
    },
  }),
  modernCheck({
    id: '2026-input.update-ack-empty',
    title: 'tasks/update is acknowledged with an empty result',
    section: SECTION,
    requirements: ['2026-update-ack-empty'],
    level: 'MUST',
    killedBy: ['update-ack-carries-task'],
    needs: ['needsInput'],
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      const r = await answeredAll(ctx);
      judgeAck(ctx, 'tasks/update', r.result);
      return `ack ${short(r.result, 120)}`;
    },
  }),
  modernCheck({
    id: '2026-input.update-result-type',
    title: 'the tasks/update acknowledgement carries resultType "complete"',
    section: SECTION,
    requirements: ['2026-update-result-type-complete'],
    level: 'MUST',
    killedBy: ['update-no-result-type'],
    needs: ['needsInput'],
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      const r = await answeredAll(ctx);
      return judgeAckResultType(ctx, 'tasks/update', r.result);
    },
  }),
  modernCheck({
    id: '2026-input.unknown-key-ignored',
    title: 'a tasks/update answering a key never issued, or replayed once the task is terminal, is acknowledged and changes nothing',
    section: SECTION,
    requirements: ['2026-update-ignore-unknown-keys'],
    level: 'SHOULD',
    killedBy: ['unknown-key-rejected', 'terminal-update-rejected'],
    needs: ['needsInput'],
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      const c = await createInputRequired(ctx, 'needsInput');
      const keys = inputKeys(c.last);
      const stray = `never-issued-${randomUUID()}`;
      const r = await updateTask(c.scope, c.taskId, { [stray]: { action: 'accept', content: { answer: 'stray' } } });
      ctx.expect(
        !r.error,
        `tasks/update answering a key never issued (${stray}) answered error ${r.error?.code} ${r.error?.message}: stray responses are ignored`,
      );
      const g = await reach(ctx, c.taskId, () => true, 'a tasks/get after the stray answer', { scope: c.scope });
      skipPastTtl(ctx, c.taskId, g.last);
      ctx.expect(
        g.last[Field.status] === 'input_required' && keys.every((k) => inputKeys(g.last).includes(k)),
        `after a stray answer the task shows ${g.last[Field.status]} with inputRequests ${inputKeys(g.last).join(', ') || 'none'} (was input_required with ${keys.join(', ')})`,
      );
      // The answers, then the same tasks/update replayed once the task is terminal: every key is answered by then, so it is ignored too.
      const answers = answersFor(c.last[Field.inputRequests]);
      const first = await updateTask(c.scope, c.taskId, answers);
      if (first.error)
        return `acknowledged; still input_required with ${keys.join(', ')} (the answers then got error ${first.error.code}: judged by 2026-input.update-ack-empty)`;
      const end = await reachTerminal(ctx, c.taskId, { scope: c.scope });
      const replay = await updateTask(c.scope, c.taskId, answers);
      if (replay.error) {
        skipPastTtl(ctx, c.taskId, end.last);
        const still = await getTask(c.scope, c.taskId);
        if (still.error) ctx.skip(`task ${c.taskId} is gone (${still.error.code}) before its ttl`, { judgedBy: '2026-get.retained-until-ttl' });
      }
      ctx.expect(
        !replay.error,
        `tasks/update replaying the answers to ${keys.join(', ')} once task ${c.taskId} was ${end.last[Field.status]} answered error ${replay.error?.code} ${replay.error?.message}: answered keys are ignored`,
      );
      return `acknowledged; still input_required with ${keys.join(', ')}; a replay after ${end.last[Field.status]} acknowledged too`;
    },
  }),
  modernCheck({
    id: '2026-input.answered-key-ignored',
    title: 'a second response to a key already answered is ignored (the first answer stands)',
    section: SECTION,
    requirements: ['2026-update-ignore-unknown-keys'],
    level: 'SHOULD',
    killedBy: ['answered-key-reapplied'],
    needs: ['needsTwoInputs'],
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      const { c, k1, k2 } = await twoInputsRequired(ctx);
      const token = randomUUID().slice(0, 8);
      await answer(ctx, c, c.last, [k1], `first-${token}`);
      // The server may take a partial set or not (2026-update-partial): go on only once k1 is answered.
      const taken = await watch(ctx, c.taskId, (t) => !inputKeys(t).includes(k1) || isTerminal(t[Field.status]), {
        scope: c.scope,
        boundMs: Math.min(3_000, timeLeft(ctx, { marginMs: 6_000 })),
      });
      if (taken.timedOut || isTerminal(taken.last?.[Field.status]))
        ctx.skip(`the server did not take the partial answer to ${k1} (its latitude, 2026-update-partial): seen ${seqText(taken.statuses)}`);
      // What is outstanding now: k2, or a request superseding it (tasks.md:379).
      const rest = taken.last ? inputKeys(taken.last).filter((k) => k !== k1) : [k2];
      const all = answersFor(taken.last?.[Field.inputRequests] ?? c.last[Field.inputRequests], `second-${token}`);
      const stray = answersFor(c.last[Field.inputRequests], `stray-${token}`);
      const r = await updateTask(c.scope, c.taskId, { [k1]: stray[k1], ...Object.fromEntries(rest.map((k) => [k, all[k]])) });
      if (r.error)
        ctx.skip(`tasks/update with the answered key ${k1} and the outstanding ${rest.join(', ')} answered error ${r.error.code} ${r.error.message}`);
      const w = await reachTerminal(ctx, c.taskId, { scope: c.scope });
      const text = JSON.stringify(w.last[Field.result] ?? w.last[Field.error] ?? '');
      ctx.expect(!text.includes(`stray-${token}`), `the second response to the answered key ${k1} was taken: the outcome shows it (${short(text, 200)})`);
      if (!text.includes(`first-${token}`)) ctx.note('the outcome does not echo the answers: whether the first answer stood is not observable');
      return `outcome ${short(text, 120)}`;
    },
  }),
  modernCheck({
    id: '2026-input.partial-remains',
    title: 'after a partial answer the task stays input_required until the remaining responses arrive',
    section: SECTION,
    requirements: ['2026-update-partial', '2026-get-input-requests-all-outstanding'],
    level: 'MUST',
    killedBy: ['partial-answer-resumes'],
    needs: ['needsTwoInputs'],
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      const { c, k1, k2 } = await twoInputsRequired(ctx);
      await answer(ctx, c, c.last, [k1], 'conformance-partial');
      // Watch for a while: the task may show input_required with both keys (partial set not taken) or with
      // k2 only; it must not move on while k2 is unanswered.
      const statuses: TaskStatus[] = [];
      const w = await watch(ctx, c.taskId, (t, n) => t[Field.status] !== 'input_required' || n >= 8, {
        scope: c.scope,
        into: statuses,
        boundMs: Math.min(3_000, timeLeft(ctx, { marginMs: 6_000 })),
      });
      const st = w.last?.[Field.status];
      ctx.expect(
        st === 'input_required' || st === 'cancelled' || st === 'failed',
        `after answering only ${k1} of ${k1}, ${k2} the task moved on to ${st} (${seqText(statuses)}) without the response to ${k2}`,
      );
      // The unanswered request stays listed, or a request that supersedes it does (a new key: tasks.md:379
      // contemplates superseded requests); what must not happen is input_required with nothing left to answer.
      const left = inputKeys(w.last).filter((k) => k !== k1);
      if (st === 'input_required')
        ctx.expect(
          left.length > 0,
          `after answering only ${k1}, inputRequests lists neither the unanswered ${k2} nor a request superseding it (got ${inputKeys(w.last).join(', ') || 'none'})`,
        );
      if (st === 'input_required' && !left.includes(k2)) ctx.note(`${k2} was superseded by ${left.join(', ')}`);
      return `still input_required with ${inputKeys(w.last).join(', ')} after ${statuses.length} polls`;
    },
  }),
];
