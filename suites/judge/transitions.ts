// Transition judging on every poll: every status the target showed for a task, wherever it showed it (a
// tasks/get, a CreateTaskResult, a tasks/cancel answer, a status notification, a listen stream), judged once
// against the revision's transition table (handed in as a value: schema/state-machine.ts). The revision's
// checks gather the sightings (which messages carry a status is the revision's own shape); this judges them.
//
// Order is only what the wire proves: a sighting answered before another's request went out precedes it. Two
// sightings whose order is not proven (overlapping requests, a notification: produced any time before it
// arrived) are illegal only when neither status can follow the other (two different terminal statuses).
import type { TaskStateMachine } from '../../schema/state-machine.ts';

/** One status the target showed for a task. */
export interface Sighting {
  /** The task it is about, as the revision's reader keys it (the taskId, with the connection where ids are per connection). */
  task: string;
  /** The status shown (a value the table does not know is left to the schema checks). */
  status: string;
  /** What showed it, for the message: e.g. "tasks/get on shared connection". */
  where: string;
  /** When the request it answers went out (epoch ms); absent: produced at any time before `at` (a notification). */
  sentAt?: number;
  /** When it arrived (epoch ms). */
  at: number;
  /** The revision's ttl let anything happen to the task by the time it arrived: never the later of an illegal pair. */
  afterExpiry?: boolean;
}

/** Two sightings of one task that no run of the table explains. */
export interface IllegalSighting {
  task: string;
  earlier: Sighting;
  later: Sighting;
  /** True when the wire proves the order (the later one's request went out after the earlier one arrived). */
  ordered: boolean;
  /** One line: what was seen, in order. */
  message: string;
}

/** Every status reachable from `from` along the table (`from` included). */
export function reachableFrom<S extends string>(machine: TaskStateMachine<S>, from: S): ReadonlySet<S> {
  const out = new Set<S>([from]);
  const queue: S[] = [from];
  while (queue.length) {
    const s = queue.shift()!;
    for (const n of machine.transitions[s]) {
      if (!out.has(n)) {
        out.add(n);
        queue.push(n);
      }
    }
  }
  return out;
}

/** `a` arrived before `b`'s request went out. */
const precedes = (a: Sighting, b: Sighting) => b.sentAt !== undefined && a.at < b.sentAt;

/**
 * The illegal pairs among a run's sightings, at most one per task (its first, in arrival order): a status
 * shown after another it cannot follow (a terminal status re-reported as another one, a non-terminal one
 * after a terminal one), or two that cannot follow each other in either order.
 */
export function judgeSightings<S extends string>(machine: TaskStateMachine<S>, sightings: readonly Sighting[]): IllegalSighting[] {
  const byTask = new Map<string, Sighting[]>();
  for (const s of sightings) {
    if (!machine.isStatus(s.status)) continue;
    const list = byTask.get(s.task) ?? [];
    list.push(s);
    byTask.set(s.task, list);
  }
  const reach = new Map<S, ReadonlySet<S>>();
  const can = (from: S, to: S) => {
    if (!reach.has(from)) reach.set(from, reachableFrom(machine, from));
    return reach.get(from)!.has(to);
  };
  const out: IllegalSighting[] = [];
  for (const [task, list] of byTask) {
    const seen = [...list].sort((a, b) => a.at - b.at);
    let found: IllegalSighting | undefined;
    for (let j = 1; j < seen.length && !found; j++) {
      const b = seen[j]!;
      for (let i = 0; i < j && !found; i++) {
        const a = seen[i]!;
        const from = a.status as S;
        const to = b.status as S;
        if (from === to) continue;
        if (a.afterExpiry || b.afterExpiry) continue; // RULINGS.md#ext-ttl-before-expiry: whichever came later, it came past the ttl
        if (precedes(a, b)) {
          if (!can(from, to)) found = illegal(task, a, b, true);
        } else if (precedes(b, a)) {
          if (!can(to, from)) found = illegal(task, b, a, true);
        } else if (!can(from, to) && !can(to, from)) found = illegal(task, a, b, false);
      }
    }
    if (found) out.push(found);
  }
  return out;
}

function illegal(task: string, earlier: Sighting, later: Sighting, ordered: boolean): IllegalSighting {
  const message = ordered
    ? `${earlier.where} showed "${earlier.status}"; ${later.where}, sent after that answer arrived, showed "${later.status}": "${earlier.status}" cannot become "${later.status}"`
    : `${earlier.where} showed "${earlier.status}" and ${later.where} showed "${later.status}": neither status can follow the other`;
  return { task, earlier, later, ordered, message };
}
