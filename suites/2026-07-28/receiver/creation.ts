// Checks of the extension's tasks.md "Polymorphic Results" (resultType "task"), "Task Creation" (durable before the answer, MRTR before the task) and the id-entropy
// MUST of "Security Considerations"; requirement ids from schema/2026-07-28/requirements.json.
import type { CheckContext, CheckDef } from '../../engine/check.ts';
import { isObj, short } from '../../engine/text.ts';
import { validatorFor } from '../../../schema/validate.ts';
import { ErrorCode, Field, ResultType, REVISION } from '../../../schema/2026-07-28/protocol.ts';
import { estimateIdBits, MIN_ID_BITS, predictability, UUID_CLASS_BITS } from '../../judge/ids.ts';
import { extensionNotAdvertised, modernCheck } from '../engine/check.ts';
import { answersFor, callRole, callThroughMrtr, createTask, getTask, JUDGED_BY, answeredWithTask } from '../arrange/tasks.ts';

const SECTION = 'Task Creation';
const schema = { validate: (name: string, value: unknown) => validatorFor(REVISION).validate(name, value) }; // built on first use, not on import

export const checks: CheckDef[] = [
  modernCheck({
    id: '2026-creation.result-type-task',
    title: 'a task handle answering tools/call carries resultType "task"',
    section: SECTION,
    requirements: ['2026-result-type-task'],
    level: 'MUST',
    killedBy: ['create-result-type-complete'],
    needs: ['slow'],
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      const c = await createTask(ctx, 'slow');
      const rt = c.task[Field.resultType];
      ctx.expect(rt === ResultType.Task, `the CreateTaskResult of task ${c.taskId} carries resultType ${short(rt)}, not "task" (${short(c.task)})`);
      return `task ${c.taskId}: resultType "task"`;
    },
  }),
  modernCheck({
    id: '2026-creation.create-task-result',
    title: 'a result with resultType "task" is a CreateTaskResult: a flat Task (taskId, status, createdAt, lastUpdatedAt, ttlMs, pollIntervalMs)',
    section: SECTION,
    requirements: ['2026-result-type-task-only-create'],
    level: 'MUST',
    killedBy: ['create-result-nested', 'legacy-field-names'],
    needs: ['slow'],
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      // Judged on the answer as it comes (the arranger would stop at a handle without a taskId).
      const seen: string[] = [];
      for (let attempt = 0; attempt < 3; attempt++) {
        const answers = await callThroughMrtr(ctx, 'slow');
        const r = answers[answers.length - 1]!;
        if (r.error) ctx.skip(`tools/call of "${ctx.tool('slow').name}" answered error ${r.error.code} ${r.error.message}`);
        const res = r.result;
        if (isObj(res) && typeof res[Field.taskId] === 'string') ctx.hold({ taskId: res[Field.taskId], peer: ctx.peer, slot: false, cancelAtEnd: true });
        if (res?.[Field.resultType] !== ResultType.Task) {
          seen.push(short(res?.[Field.resultType]));
          continue;
        }
        const v = schema.validate('CreateTaskResult', res);
        ctx.expect(
          v.valid,
          `a tools/call answer with resultType "task" is not a CreateTaskResult (a flat Task): ${v.valid ? '' : v.errors.slice(0, 4).join('; ')} (got ${short(res, 400)})`,
        );
        return `CreateTaskResult ${short(res, 160)}`;
      }
      ctx.skip(`no answer with resultType "task" in 3 calls (resultType ${seen.join(', ')}; the server decides per request, 2026-caps-server-may-create)`);
    },
  }),
  modernCheck({
    id: '2026-creation.durable',
    title: 'tasks/get resolves the taskId as soon as the CreateTaskResult is out',
    section: SECTION,
    requirements: ['2026-create-durable-before-answer', '2026-create-wait-consistency'],
    level: 'MUST',
    killedBy: ['create-before-durable'],
    needs: ['slow'],
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      const c = await createTask(ctx, 'slow');
      // The first tasks/get goes out the moment the answer is read.
      const g = await getTask(c.scope, c.taskId);
      if (g.error)
        ctx.expect(
          g.error.code !== ErrorCode.InvalidParams,
          `tasks/get sent right after the CreateTaskResult of task ${c.taskId} answered ${g.error.code} ${g.error.message}: the task was not durably created before the answer`,
        );
      if (g.error) ctx.skip(`tasks/get right after the CreateTaskResult answered ${g.error.code} ${g.error.message}`, { judgedBy: JUDGED_BY.get });
      ctx.expect(
        g.result?.[Field.taskId] === c.taskId,
        `tasks/get right after the CreateTaskResult of task ${c.taskId} answered another task (${short(g.result?.[Field.taskId])})`,
      );
      return `task ${c.taskId} resolved at once (status ${short(g.result?.[Field.status])})`;
    },
  }),
  modernCheck({
    id: '2026-creation.mrtr-before-task',
    title: 'a tool that needs input before its task exists asks it through MRTR on the tools/call, then answers with the task',
    section: SECTION,
    requirements: ['2026-create-mrtr-before-task'],
    level: 'SHOULD',
    killedBy: ['mrtr-after-task'],
    needs: ['needsInputBeforeTask'],
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      const name = ctx.tool('needsInputBeforeTask').name;
      const first = await callRole(ctx, 'needsInputBeforeTask');
      if (first.error) ctx.skip(`tools/call of "${name}" answered error ${first.error.code} ${first.error.message}`);
      if (answeredWithTask(first.result)) {
        const id = first.result?.[Field.taskId];
        if (typeof id === 'string') ctx.hold({ taskId: id, peer: ctx.peer, slot: false, cancelAtEnd: true });
        ctx.violation(
          `tools/call of "${name}" (role needsInputBeforeTask: it needs input before its task exists) was answered with a CreateTaskResult before any MRTR exchange; its input is left to the task (${short(first.result)})`,
        );
      }
      if (first.result?.[Field.resultType] !== ResultType.InputRequired)
        ctx.skip(
          `tools/call of "${name}" answered without asking for input (resultType ${short(first.result?.[Field.resultType])}): the role does not behave as the profile says`,
        );
      const rest = await callThroughMrtr(ctx, 'needsInputBeforeTask', {
        extra: {
          inputResponses: answersFor(first.result?.inputRequests),
          ...(typeof first.result?.requestState === 'string' ? { requestState: first.result.requestState } : {}),
        },
      });
      const last = rest[rest.length - 1]!;
      const id = last.result?.[Field.taskId];
      if (typeof id === 'string') ctx.hold({ taskId: id, peer: ctx.peer, slot: false, cancelAtEnd: true });
      return `MRTR first (${rest.length} more round(s)), then ${answeredWithTask(last.result) ? `task ${String(id)}` : `resultType ${short(last.result?.[Field.resultType] ?? last.error?.code)}`}`;
    },
  }),
  modernCheck({
    id: '2026-creation.id-entropy',
    title: 'task ids look cryptographically random (not enumerable or guessable)',
    section: SECTION,
    requirements: ['2026-security-ids-entropy'],
    level: 'MUST',
    killedBy: ['sequential-task-ids'],
    needs: ['completes'],
    notApplicable: extensionNotAdvertised,
    async run(ctx: CheckContext) {
      const ids: string[] = [];
      let other = 0;
      for (let i = 0; i < 8 && ids.length < 6; i++) {
        const answers = await callThroughMrtr(ctx, 'completes');
        const r = answers[answers.length - 1]!;
        const id = r.result?.[Field.taskId];
        if (answeredWithTask(r.result) && typeof id === 'string') ids.push(id);
        else other++;
      }
      if (ids.length < 4) ctx.skip(`only ${ids.length} task ids could be collected (${other} answers without a task)`);
      const est = estimateIdBits(ids);
      const pred = predictability(ids);
      const sample = ids
        .slice(0, 3)
        .map((s) => JSON.stringify(s))
        .join(', ');
      if (est.bits >= MIN_ID_BITS && !pred) {
        if (est.bits < UUID_CLASS_BITS) ctx.note(`estimate below the UUIDv4 class (${UUID_CLASS_BITS} bits)`);
        return `~${est.bits} bits estimated (${est.varying} varying characters over an alphabet of ${est.alphabet}); e.g. ${sample}`;
      }
      ctx.violation(
        `task ids are guessable: ${pred ?? `only ~${est.bits} bits estimated (${est.varying} varying characters over an alphabet of ${est.alphabet}; < ${MIN_ID_BITS})`}; ids: ${ids.map((s) => JSON.stringify(s)).join(', ')}`,
      );
    },
  }),
];
