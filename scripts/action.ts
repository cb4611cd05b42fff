// The GitHub Action (action.yml) is the CLI: `mcp-tasks-conformance action` (its run step) reads the Action's
// inputs (MTC_INPUTS: the workflow's `toJSON(inputs)`), turns each into the `server` flag of the same name
// (SERVER_FLAG_HELP gives its description too, so action.yml's inputs are generated from the same table as
// --help: scripts/sync-action.ts; scripts/action.test.ts keeps them in step), optionally starts the URL target
// and waits for it, runs `server` with the report files in MTC_OUT, writes the Markdown report to the job
// summary and the outputs, and ends what it started. The step always exits 0; the exit code is an output the
// Action's last step fails with, after the reports are uploaded.
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVER_FLAG_HELP } from './help.ts';

/** An input of action.yml. */
export interface ActionInput {
  description: string;
  required?: boolean;
  default?: string;
}

/** Inputs of the Action's own (not flags of `server`). */
export const ACTION_ONLY_INPUTS: Record<string, ActionInput> = {
  target: {
    description:
      'The server under test. An http(s):// URL is a Streamable HTTP endpoint (--url); anything else is a command spawned and spoken to over stdio (--stdio), run in the workspace.',
    required: true,
  },
  start: {
    description:
      'A command that starts a URL target (run in the background in the workspace, in a process group of its own, ended after the run); the run waits until the URL answers.',
    default: '',
  },
  'start-timeout': { description: 'How long to wait for the started target to answer (ms).', default: '60000' },
  'artifact-name': { description: 'Name of the uploaded artifact holding report.json, junit.xml and report.md.', default: 'mcp-tasks-conformance' },
};

/** Flags of `server` that are no input, and why (each is set by the Action, or prints instead of running). */
export const NOT_INPUTS: Record<string, string> = {
  stdio: 'the target input',
  url: 'the target input',
  json: 'the Action writes report.json',
  junit: 'the Action writes junit.xml',
  markdown: 'the Action writes report.md (the job summary)',
  'no-color': 'the Action always runs without colour',
  list: 'prints what would run; runs nothing',
  help: 'prints the help',
  timeout: 'the older name of --request-timeout',
};

/** Repeatable flags whose input holds one value per line, under a plural name where the flag's is singular. */
const PER_LINE: Record<string, string> = { header: 'headers', 'secondary-header': 'secondary-headers', only: 'only', exclude: 'exclude' };

/** Flags that take no value: their input is "true" or "false". */
export const BOOLEAN_FLAGS = new Set(['require-coverage', 'allow-unmatched', 'allow-partial-profile', 'strict', 'properties']);

/** The input of a flag. */
export const inputOf = (flag: string): string => PER_LINE[flag] ?? flag;

/** action.yml's inputs: the Action's own, then every `server` flag but NOT_INPUTS, described as --help describes it. */
export function actionInputs(): Record<string, ActionInput> {
  const out: Record<string, ActionInput> = { target: ACTION_ONLY_INPUTS.target! };
  for (const f of SERVER_FLAG_HELP) {
    if (f.flag in NOT_INPUTS) continue;
    const text = f.lines.join(' ').replace(/\s+/g, ' ');
    const how = BOOLEAN_FLAGS.has(f.flag) ? ' "true" or "false".' : PER_LINE[f.flag] ? ' One per line.' : '';
    out[inputOf(f.flag)] = { description: `${text[0]!.toUpperCase()}${text.slice(1)} (--${f.flag}).${how}`, default: BOOLEAN_FLAGS.has(f.flag) ? 'false' : '' };
  }
  for (const [name, input] of Object.entries(ACTION_ONLY_INPUTS)) if (name !== 'target') out[name] = input;
  return out;
}

/** A value the Action cannot use (the step's exit code output is then 2). */
export class ActionInputError extends Error {}

/** The `server` arguments of the inputs (report files in `out`). */
export function actionArgs(inputs: Record<string, string | undefined>, out: string): string[] {
  const target = (inputs.target ?? '').trim();
  if (!target) throw new ActionInputError('input target is required');
  const args = ['server', ...(/^https?:\/\//i.test(target) ? ['--url', target] : ['--stdio', target])];
  for (const f of SERVER_FLAG_HELP) {
    if (f.flag in NOT_INPUTS) continue;
    const name = inputOf(f.flag);
    const value = inputs[name] ?? '';
    if (BOOLEAN_FLAGS.has(f.flag)) {
      if (value !== '' && value !== 'true' && value !== 'false') throw new ActionInputError(`input ${name} must be true or false, got "${value}"`);
      if (value === 'true') args.push(`--${f.flag}`);
    } else if (PER_LINE[f.flag]) {
      for (const line of value.split(/\r?\n/)) if (line.trim()) args.push(`--${f.flag}`, line.trim());
    } else if (value.trim()) args.push(`--${f.flag}`, value.trim());
  }
  args.push('--json', join(out, 'report.json'), '--junit', join(out, 'junit.xml'), '--markdown', join(out, 'report.md'), '--no-color');
  return args;
}

/** Waits until `url` answers any HTTP response (a 4xx too: it is up), the started process exits, or `timeoutMs` passes. */
async function waitForUrl(url: string, started: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited: string | undefined;
  started.once('exit', (code, signal) => (exited = `exited (${signal ?? `code ${code}`})`));
  for (;;) {
    if (exited) throw new ActionInputError(`the start command ${exited} before ${url} answered`);
    try {
      await fetch(url, { method: 'GET', signal: AbortSignal.timeout(2_000) });
      return;
    } catch {
      if (Date.now() > deadline) throw new ActionInputError(`${url} did not answer within ${timeoutMs} ms of the start command`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/** Ends a process group the Action started (SIGTERM, then SIGKILL after a grace period). */
async function endGroup(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise<void>((r) => child.once('exit', () => r()));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }, 5_000);
  await gone;
  clearTimeout(timer);
}

/** `mcp-tasks-conformance action`: the Action's run step (see the top of this file). Returns 0: the verdict is the exit-code output. */
export async function runAction(env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const out = env.MTC_OUT ?? join(process.cwd(), 'mcp-tasks-conformance');
  const output = (k: string, v: string) => (env.GITHUB_OUTPUT ? appendFileSync(env.GITHUB_OUTPUT, `${k}=${v}\n`) : process.stdout.write(`${k}=${v}\n`));
  const summary = (text: string) => (env.GITHUB_STEP_SUMMARY ? appendFileSync(env.GITHUB_STEP_SUMMARY, text) : undefined);
  mkdirSync(out, { recursive: true });
  output('report-dir', out);
  let code = 2;
  let started: ChildProcess | undefined;
  try {
    const major = Number(process.versions.node.split('.')[0]);
    if (major < 20)
      throw new ActionInputError(
        `Node ${process.versions.node} runs this job; mcp-tasks-conformance needs Node 20 or later (actions/setup-node before this Action)`,
      );
    const inputs = JSON.parse(env.MTC_INPUTS ?? '{}') as Record<string, string>;
    const args = actionArgs(inputs, out);
    if (inputs.start?.trim()) {
      const url = inputs.target!.trim();
      if (!/^https?:\/\//i.test(url)) throw new ActionInputError('input start needs a URL target (the command it starts serves that URL)');
      const ms = Number(inputs['start-timeout'] || ACTION_ONLY_INPUTS['start-timeout']!.default);
      if (!Number.isInteger(ms) || ms <= 0) throw new ActionInputError(`input start-timeout takes a positive whole number, got "${inputs['start-timeout']}"`);
      started = spawn('bash', ['-c', inputs.start], { detached: true, stdio: ['ignore', 'inherit', 'inherit'] });
      await waitForUrl(url, started, ms);
    }
    const { runServerCommand } = await import('./server.ts');
    code = await runServerCommand(args.slice(1));
  } catch (e) {
    process.stderr.write(`::error::${e instanceof Error ? e.message : String(e)}\n`);
    code = 2;
  } finally {
    if (started) await endGroup(started);
  }
  output('exit-code', String(code));
  const md = join(out, 'report.md');
  if (existsSync(md)) summary(readFileSync(md, 'utf8'));
  else
    summary(
      `## MCP Tasks conformance: no report\n\nThe run ended with exit code ${code} before grading (usage error or unreachable target); see the step log.\n`,
    );
  return 0;
}
