// Every status the target showed in the run so far, for the transition judge (suites/judge/transitions.ts):
// the CreateTaskResult's task, tasks/get, tasks/cancel, each tasks/list entry, notifications/tasks/status;
// the shared connection and each connection of an earlier check's own (targetTranscripts). Tasks are told
// apart by connection and id (a task may be bound to its session). A sighting that arrived past the task's
// createdAt + ttl (the earliest any sighting states, less a margin for transit) is marked: after it the
// receiver may delete the task (ttl-delete-after-expiry-may), and nothing it shows is judged.
import type { CheckContext } from '../engine/check.ts';
import { idKey, type Message } from '../wire/peer.ts';
import type { TaskStateMachine } from '../../schema/state-machine.ts';
import { judgeSightings, type Sighting } from '../judge/transitions.ts';
import { targetTranscripts } from './tasks.ts';

const STATUS_NOTIFICATION = 'notifications/tasks/status';

export function statusSightings(ctx: CheckContext, marginMs = 500): Sighting[] {
  const raw: { t: Record<string, any>; where: string; source: string; sentAt?: number; at: number }[] = [];
  const take = (t: unknown, where: string, source: string, at: number, sentAt?: number) => {
    if (t && typeof t === 'object' && !Array.isArray(t) && typeof (t as any).taskId === 'string' && typeof (t as any).status === 'string')
      raw.push({ t: t as Record<string, any>, where, source, at, ...(sentAt !== undefined ? { sentAt } : {}) });
  };
  const seen = new Set<unknown>();
  for (const src of targetTranscripts(ctx)) {
    const requests = new Map<string, { m: Message; at: number }>();
    for (const e of src.entries) {
      const m = e.message as Message | undefined;
      if (e.dir === 'out' && m && typeof m === 'object' && typeof m.method === 'string' && 'id' in m) requests.set(idKey(m.id), { m, at: Date.parse(e.time) });
    }
    for (const e of src.entries) {
      const m = e.message as Message | undefined;
      if (e.dir !== 'in' || !m || typeof m !== 'object' || Array.isArray(m) || seen.has(m)) continue;
      seen.add(m);
      const at = Date.parse(e.time);
      if (m.method === STATUS_NOTIFICATION) {
        take(m.params, `${STATUS_NOTIFICATION} (${src.label})`, src.label, at);
        continue;
      }
      if (typeof m.method === 'string' || !('id' in m) || !m.result || typeof m.result !== 'object') continue;
      const req = requests.get(idKey(m.id));
      if (!req) continue;
      const where = `${req.m.method} (${src.label})`;
      if (req.m.method === 'tasks/list') for (const t of Array.isArray(m.result.tasks) ? m.result.tasks : []) take(t, where, src.label, at, req.at);
      else if (req.m.method === 'tasks/get' || req.m.method === 'tasks/cancel') take(m.result, where, src.label, at, req.at);
      else take(m.result.task, where, src.label, at, req.at); // a CreateTaskResult
    }
  }
  const key = (r: (typeof raw)[number]) => `${r.source} ${r.t.taskId}`;
  const expiry = new Map<string, number>();
  for (const r of raw) {
    const created = Date.parse(r.t.createdAt);
    if (Number.isNaN(created) || typeof r.t.ttl !== 'number') continue;
    expiry.set(key(r), Math.min(expiry.get(key(r)) ?? Infinity, created + r.t.ttl - marginMs));
  }
  return raw.map((r) => ({
    task: key(r),
    status: r.t.status,
    where: r.where,
    at: r.at,
    ...(r.sentAt !== undefined ? { sentAt: r.sentAt } : {}),
    ...(r.at > (expiry.get(key(r)) ?? Infinity) ? { afterExpiry: true } : {}),
  }));
}

/**
 * The run of an every-status check (after the others): every sighting judged against the revision's
 * transition table; `diagram` names that table in the messages.
 */
export async function judgeEveryStatus<S extends string>(
  ctx: CheckContext,
  machine: TaskStateMachine<S>,
  sightings: Sighting[],
  diagram: string,
): Promise<string> {
  if (!sightings.length) ctx.skip('no status of any task was seen in the run');
  const bad = judgeSightings(machine, sightings);
  ctx.expect(
    bad.length === 0,
    `${bad.length} task(s) showed statuses no path of ${diagram} explains: ${bad
      .slice(0, 3)
      .map((b) => `task ${b.task}: ${b.message}`)
      .join('; ')}`,
  );
  return `${sightings.length} statuses of ${new Set(sightings.map((x) => x.task)).size} task(s), each history a path of ${diagram}`;
}
