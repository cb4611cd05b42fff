// The run-wide bound on live tasks (--max-tasks): a slot per task a check creates, freed when the task is
// seen ended or the check that created it ends. The engine takes and frees slots through TaskSlots.
import type { TaskSlots } from '../engine/check.ts';

export function taskSlots(maxTasks: number): TaskSlots {
  let used = 0;
  const waiting: (() => void)[] = [];
  const holders = new Set<{ stillLive: () => Promise<boolean>; free: () => void }>();
  let lastReclaim = 0;
  const reclaim = async () => {
    lastReclaim = Date.now();
    await Promise.all([...holders].map(async (h) => ((await h.stillLive().catch(() => true)) ? undefined : h.free())));
  };
  const slots: TaskSlots = {
    maxTasks,
    async acquire(deadline) {
      while (used >= maxTasks) {
        const left = deadline - Date.now();
        if (left <= 0) return false;
        if (Date.now() - lastReclaim > 500) await reclaim();
        if (used < maxTasks) break;
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, Math.min(left, 500));
          waiting.push(() => (clearTimeout(t), resolve()));
        });
      }
      used++;
      return true;
    },
    hold(stillLive, free) {
      const h = { stillLive, free };
      holders.add(h);
      return () => holders.delete(h);
    },
    release() {
      used = Math.max(0, used - 1);
      waiting.shift()?.();
    },
  };
  return slots;
}
