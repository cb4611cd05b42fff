// The run-wide bound on live tasks (--max-tasks): a slot per task a check creates, freed when the task is
// seen ended or the check that created it ends. The engine takes and frees slots through TaskSlots.
// A freed slot is handed to the waiter of the highest priority (the check that waits longest on timers,
// CheckDef.waitsMs; first come first served among equals), never to a check that asks later: a check on
// the run's critical path does not queue behind every short check that started with it.
//
// The bound is learned down from the target's refusals (resource-concurrency-limit): a creation refused at a
// capacity limit while the run holds n other live tasks on that connection (a requestor) says the target holds
// at most n per requestor; refused while this connection holds none, at most the run's live tasks in all. The
// refused check gives its slot back and waits for one under the lowered bound instead of retrying on a timer.
import type { LearnedLimits, TaskSlots } from '../engine/check.ts';

interface Waiter {
  priority: number;
  on: object;
  grant(): void;
}

/** The connection key of a caller that names none. */
const ANY = {};

/**
 * Whether a limit error's text reads as throttling (a rate: wait and retry) rather than capacity (too many live
 * tasks: wait for one to end). Only capacity is learned as a bound.
 */
export function readsAsThrottling(text: string): boolean {
  return /rate[ _-]?limit|\brate\b|throttl|too frequent|too fast|too soon|slow down|per (second|minute)|\b429\b|retry after/i.test(text);
}

export function taskSlots(maxTasks: number, known: LearnedLimits = {}): TaskSlots {
  let limit = Math.min(maxTasks, known.run ?? Infinity);
  let perConnection = known.perConnection ?? Infinity;
  const learned: LearnedLimits = { ...known };
  let used = 0;
  const usedOn = new Map<object, number>();
  const waiting: Waiter[] = [];
  const holders = new Set<{ stillLive: () => Promise<boolean>; free: () => void }>();
  let lastReclaim = 0;
  let reclaiming = false;
  const reclaim = async () => {
    if (reclaiming) return;
    reclaiming = true;
    lastReclaim = Date.now();
    try {
      await Promise.all([...holders].map(async (h) => ((await h.stillLive().catch(() => true)) ? undefined : h.free())));
    } finally {
      reclaiming = false;
    }
  };
  const fits = (on: object) => used < limit && (usedOn.get(on) ?? 0) < perConnection;
  const take = (on: object) => {
    used++;
    usedOn.set(on, (usedOn.get(on) ?? 0) + 1);
  };
  // Free slots go to the waiters in queue order, each under both bounds (a waiter on a connection at its own bound waits on).
  const dispatch = () => {
    for (let i = 0; i < waiting.length;) {
      const w = waiting[i]!;
      if (!fits(w.on)) {
        i++;
        continue;
      }
      waiting.splice(i, 1);
      take(w.on);
      w.grant();
    }
  };
  const slots: TaskSlots = {
    get maxTasks() {
      return Math.min(limit, perConnection);
    },
    learned: () => (learned.run !== undefined || learned.perConnection !== undefined ? { ...learned } : undefined),
    async acquire(deadline, priority = 0, on = ANY) {
      // Every waiter that fits was handed a slot at the last release (dispatch): those left wait on a bound of their own.
      if (fits(on)) {
        take(on);
        return true;
      }
      // In the queue until a release hands it a slot or the deadline passes; every 500 ms the holders are
      // asked whether their tasks still run (a task seen ended frees its slot, to the queue's first).
      return new Promise<boolean>((resolve) => {
        let timer: NodeJS.Timeout | undefined;
        const w: Waiter = {
          priority,
          on,
          grant: () => {
            clearTimeout(timer);
            resolve(true);
          },
        };
        const at = waiting.findIndex((x) => x.priority < priority);
        waiting.splice(at < 0 ? waiting.length : at, 0, w);
        const tick = () => {
          if (!waiting.includes(w)) return;
          const left = deadline - Date.now();
          if (left <= 0) {
            waiting.splice(waiting.indexOf(w), 1);
            resolve(false);
            return;
          }
          if (Date.now() - lastReclaim > 500) void reclaim();
          timer = setTimeout(tick, Math.min(left, 500));
        };
        tick();
      });
    },
    hold(stillLive, free) {
      const h = { stillLive, free };
      holders.add(h);
      return () => holders.delete(h);
    },
    release(on = ANY) {
      used = Math.max(0, used - 1);
      const n = (usedOn.get(on) ?? 1) - 1;
      if (n > 0) usedOn.set(on, n);
      else usedOn.delete(on);
      dispatch();
    },
    refused(on = ANY, what = '') {
      if (readsAsThrottling(what)) return false;
      // The refused request's own slot is still held by the caller: the others are what the target holds of ours.
      const mine = (usedOn.get(on) ?? 1) - 1;
      const all = used - 1;
      if (mine > 0 && mine < perConnection) {
        perConnection = learned.perConnection = mine;
        learned.what = what;
        return true;
      }
      if (mine === 0 && all > 0 && all < limit) {
        limit = learned.run = all;
        learned.what = what;
        return true;
      }
      // Refused with none of ours live (the target counts what it keeps, or others' tasks): a limit to wait out in time.
      return mine > 0;
    },
  };
  return slots;
}
