// Every process a run spawns (stdio targets of either revision), so that an interrupted run can end them all
// (SIGINT, SIGTERM: scripts/server.ts, scripts/client.ts) instead of leaving them to notice their closed stdin. A
// child spawned as the leader of a process group of its own (`group`) is ended with its group. Processes spawned
// where this module's registry does not reach (a vitest worker thread) are found as this process's descendants.
import { execFileSync, type ChildProcess } from 'node:child_process';

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

/** Ends every process still running and what each started: SIGTERM (its group for a group leader), SIGKILL after `graceMs`. Resolves once all have exited. */
export async function endChildren(graceMs = 2_000): Promise<void> {
  const all = [...live];
  if (!all.length) return;
  // What the children started (a shell's command, npx's node) first, so that none is left orphaned.
  for (const pid of all.flatMap(([c]) => (c.pid === undefined ? [] : descendants(c.pid))))
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      /* gone */
    }
  const exited = all.map(([child]) => new Promise<void>((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', () => r()))));
  for (const [child, { group }] of all) signal(child, group, 'SIGTERM');
  const timer = setTimeout(() => {
    for (const [child, { group }] of all) signal(child, group, 'SIGKILL');
  }, graceMs);
  await Promise.all(exited);
  clearTimeout(timer);
}

/**
 * The pids of `root`'s descendants, deepest last (`ps`; empty where it cannot be run). The esbuild service a
 * TypeScript loader (tsx) keeps is not the run's: left out, so that the run can still load the report writers.
 */
export function descendants(root = process.pid): number[] {
  let table: string;
  try {
    table = execFileSync('ps', ['-A', '-o', 'pid=', '-o', 'ppid=', '-o', 'args='], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  for (const line of table.split('\n')) {
    const m = /^\s*(\d+)\s+(\d+)\s*(.*)$/.exec(line);
    if (!m) continue;
    const [pid, ppid, args] = [Number(m[1]), Number(m[2]), m[3] ?? ''];
    if (/[\\/]esbuild(\.exe)?\s+--service/.test(args)) continue;
    children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const out: number[] = [];
  const walk = (pid: number) => {
    for (const c of children.get(pid) ?? [])
      if (c !== process.pid) {
        out.push(c);
        walk(c);
      }
  };
  walk(root);
  return out;
}

/** Whether a process of that pid is still there (signal 0). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Ends every descendant of this process (SIGTERM, SIGKILL to those left after `graceMs`), the tracked children first. */
export async function endDescendants(graceMs = 2_000): Promise<void> {
  const ps = descendants().filter((pid) => pid !== process.pid);
  for (const pid of ps)
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      /* gone */
    }
  await endChildren(graceMs);
  const end = Date.now() + graceMs;
  while (ps.some(alive) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  for (const pid of ps.filter(alive))
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
}
