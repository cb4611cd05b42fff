// The run-wide bound on live tasks (--max-tasks): a slot per task a check creates, freed when the task is
// seen ended or the check that created it ends. The engine takes and frees slots through TaskSlots.
// A freed slot is handed to the waiter of the highest priority (the check that waits longest on timers,
// CheckDef.waitsMs; first come first served among equals), never to a check that asks later: a check on
// the run's critical path does not queue behind every short check that started with it.
import type { TaskSlots } from '../engine/check.ts';

interface Waiter {
  priority: number;
  grant(): void;
}

export function taskSlots(maxTasks: number): TaskSlots {
  let used = 0;
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
  const slots: TaskSlots = {
    maxTasks,
    async acquire(deadline, priority = 0) {
      if (used < maxTasks) {
        used++;
        return true;
      }
      // In the queue until release() hands it a slot or the deadline passes; every 500 ms the holders are
      // asked whether their tasks still run (a task seen ended frees its slot, to the queue's first).
      return new Promise<boolean>((resolve) => {
        let timer: NodeJS.Timeout | undefined;
        const w: Waiter = {
          priority,
          grant: () => {
            clearTimeout(timer);
            resolve(true);
          },
        };
        const at = waiting.findIndex((x) => x.priority < priority);
        waiting.splice(at < 0 ? waiting.length : at, 0, w);
        const tick = () => {
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
    release() {
      // The slot goes to the first waiter as it is (used stays); with none waiting it is free.
      const w = waiting.shift();
      if (w) w.grant();
      else used = Math.max(0, used - 1);
    },
  };
  return slots;
}
