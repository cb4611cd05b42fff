// Every process a run spawns (stdio targets of either revision), so that an interrupted run can end them all
// (SIGINT, SIGTERM: scripts/server.ts) instead of leaving them to notice their closed stdin. A child spawned as
// the leader of a process group of its own (`group`) is ended with its group: what it started goes too.
import type { ChildProcess } from 'node:child_process';

const live = new Map<ChildProcess, { group: boolean }>();

/** Keeps `child` until it exits. `group`: it leads a process group of its own (spawned detached). */
export function trackChild(child: ChildProcess | undefined, group = false): void {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  live.set(child, { group });
  child.once('exit', () => live.delete(child));
}

/** How many spawned processes are still running. */
export function liveChildren(): number {
  return live.size;
}

function signal(child: ChildProcess, group: boolean, sig: NodeJS.Signals): void {
  try {
    if (group && child.pid !== undefined) process.kill(-child.pid, sig);
    else child.kill(sig);
  } catch {
    /* already gone */
  }
}

/** Ends every process still running: SIGTERM (its group for a group leader), SIGKILL after `graceMs`. Resolves once all have exited. */
export async function endChildren(graceMs = 2_000): Promise<void> {
  const all = [...live];
  if (!all.length) return;
  const exited = all.map(([child]) => new Promise<void>((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', () => r()))));
  for (const [child, { group }] of all) signal(child, group, 'SIGTERM');
  const timer = setTimeout(() => {
    for (const [child, { group }] of all) signal(child, group, 'SIGKILL');
  }, graceMs);
  await Promise.all(exited);
  clearTimeout(timer);
}
