// "Reproduce with": the command line that reruns one flagged check against the same target, with the
// options of the run (target flags, profile, timeouts, …) and the check's own revision, `--only <check id>`.
import type { Report } from './model.ts';

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
export function reproduceCommand(passed: readonly PassedOption[], check: { id: string; revision?: string }, revision: string): string {
  const words = ['mcp-tasks-conformance', 'server'];
  for (const o of passed) words.push(`--${o.name}`, ...(o.value !== undefined ? [o.value] : []));
  words.push('--revision', check.revision ?? revision, '--only', check.id);
  return words.map(shellQuote).join(' ');
}

/** Sets `reproduce` on every fail and warn of the report whose check `rerunnable` says `--only` can select. */
export function addReproductions(report: Report, passed: readonly PassedOption[], revision: string, rerunnable: (id: string) => boolean): void {
  for (const c of report.checks) if ((c.status === 'fail' || c.status === 'warn') && rerunnable(c.id)) c.reproduce = reproduceCommand(passed, c, revision);
}
