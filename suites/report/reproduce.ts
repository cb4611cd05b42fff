// "Reproduce with": the command line that reruns one flagged check against the same target, with the
// options of the run (target flags, profile, timeouts, …) and the check's own revision, `--only <check id>`.
import { realpathSync } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';
import type { Report } from './model.ts';

/** How the package is run where it is installed in the project: its bin through npx (the library and vitest helper). */
export const NPX_INVOCATION: readonly string[] = ['npx', 'mcp-tasks-conformance'];

/**
 * The words that start the CLI the way this process was started, so that a printed command runs as printed in
 * the same directory: `npx mcp-tasks-conformance` for the bin of a project's node_modules, the bare name for a
 * global install, `npx tsx <path>` for the sources of a clone, `node <path>` for its build.
 */
export function invocationOf(script: string | undefined, cwd: string = process.cwd()): readonly string[] {
  if (!script) return NPX_INVOCATION;
  let path = script;
  try {
    path = realpathSync(script);
  } catch {
    /* keep the path as given */
  }
  const rel = relative(cwd, path);
  const inside = rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
  if (path.includes(`${sep}node_modules${sep}`)) return inside ? NPX_INVOCATION : ['mcp-tasks-conformance'];
  const shown = inside ? rel : path;
  return /\.[cm]?ts$/.test(path) ? ['npx', 'tsx', shown] : ['node', shown];
}

/** A word as a POSIX shell reads it back unchanged: bare when it is safe, else single-quoted. */
export function shellQuote(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** An option of the run as the user gave it (`value` undefined: a boolean flag). */
export interface PassedOption {
  name: string;
  value?: string;
}

/** The command line of a rerun of one check: the run's options but `--revision`, `--only`, `--exclude`, then the check's revision and id. */
export function reproduceCommand(
  passed: readonly PassedOption[],
  check: { id: string; revision?: string },
  revision: string,
  invocation: readonly string[] = NPX_INVOCATION,
): string {
  const words = [...invocation, 'server'];
  for (const o of passed) words.push(`--${o.name}`, ...(o.value !== undefined ? [o.value] : []));
  words.push('--revision', check.revision ?? revision, '--only', check.id);
  return words.map(shellQuote).join(' ');
}

/** Sets `reproduce` on every fail and warn of the report whose check `rerunnable` says `--only` can select. */
export function addReproductions(
  report: Report,
  passed: readonly PassedOption[],
  revision: string,
  rerunnable: (id: string) => boolean,
  invocation: readonly string[] = NPX_INVOCATION,
): void {
  for (const c of report.checks)
    if ((c.status === 'fail' || c.status === 'warn') && rerunnable(c.id)) c.reproduce = reproduceCommand(passed, c, revision, invocation);
}
