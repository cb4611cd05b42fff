// The GitHub Action (action.yml) is the CLI: its inputs are generated from the `server` command's option table
// (scripts/sync-action.ts from SERVER_FLAG_HELP), every flag is an input or said why not, the inputs become the
// same CLI options, and the run step, executed by bash as the runner does, grades a URL target it starts itself
// and writes the job summary and the outputs. action.yml is parsed as YAML (a file GitHub cannot parse fails here).
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseDocument } from 'yaml';
import { parseServerArgs, SERVER_OPTIONS } from './server.ts';
import { ACTION_ONLY_INPUTS, actionArgs, actionInputs, ActionInputError, inputOf, NOT_INPUTS } from './action.ts';
import { SERVER_FLAG_HELP } from './help.ts';
import { syncedAction } from './sync-action.ts';

const ROOT = resolve(import.meta.dirname, '..');
const YAML = readFileSync(join(ROOT, 'action.yml'), 'utf8');
const DOC = parseDocument(YAML, { prettyErrors: true });
if (DOC.errors.length) throw new Error(`action.yml is not valid YAML: ${DOC.errors.map((e) => e.message).join('; ')}`);

interface Step {
  name?: string;
  id?: string;
  uses?: string;
  if?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
  run?: string;
  'working-directory'?: string;
}
interface Action {
  name: string;
  description: string;
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, unknown>;
  runs: { using: string; steps: Step[] };
}
const ACTION = DOC.toJS() as Action;
const RUN_STEP = ACTION.runs.steps.find((s) => s.id === 'run')!;

/** The inputs as GitHub hands them to `toJSON(inputs)`: every input, its default where not given. */
function withDefaults(given: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(ACTION.inputs).map(([k, v]) => [k, given[k] ?? v.default ?? '']));
}

/** Runs the Action's run step with bash as the runner does; the CLI is this checkout's sources (a dist/scripts/cli.js shim through tsx). */
function runStep(inputs: Record<string, string>, timeoutMs = 60_000): Promise<{ output: Record<string, string>; summary: string; out: string; log: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'mtc-action-'));
  const actionPath = join(dir, 'action');
  mkdirSync(join(actionPath, 'dist/scripts'), { recursive: true });
  writeFileSync(join(actionPath, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(
    join(actionPath, 'dist/scripts/cli.js'),
    `import { main } from ${JSON.stringify(join(ROOT, 'scripts/cli.ts'))};\nprocess.exit(await main(process.argv.slice(2)));\n`,
  );
  const out = join(dir, 'temp/mcp-tasks-conformance');
  const env: Record<string, string> = {
    PATH: process.env.PATH!,
    HOME: process.env.HOME ?? dir,
    NODE_OPTIONS: '--import tsx',
    GITHUB_ACTION_PATH: actionPath,
    GITHUB_OUTPUT: join(dir, 'output'),
    GITHUB_STEP_SUMMARY: join(dir, 'summary'),
  };
  writeFileSync(env.GITHUB_OUTPUT!, '');
  writeFileSync(env.GITHUB_STEP_SUMMARY!, '');
  for (const [k, v] of Object.entries(RUN_STEP.env ?? {})) {
    if (v === '${{ toJSON(inputs) }}') env[k] = JSON.stringify(withDefaults(inputs));
    else if (v === '${{ runner.temp }}/mcp-tasks-conformance') env[k] = out;
    else throw new Error(`unexpected env value ${v}`);
  }
  return new Promise((done, fail) => {
    execFile('bash', ['-e', '-c', RUN_STEP.run!], { env, cwd: ROOT, timeout: timeoutMs }, (err, stdout, stderr) => {
      if (err) return fail(new Error(`the run step failed (it always exits 0): ${err.message}\n${stderr}`));
      const output = Object.fromEntries(
        readFileSync(env.GITHUB_OUTPUT!, 'utf8')
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      );
      done({ output, summary: readFileSync(env.GITHUB_STEP_SUMMARY!, 'utf8'), out, log: stdout + stderr });
    });
  });
}

const freePort = () =>
  new Promise<number>((r) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => r(port));
    });
  });

describe('action.yml', () => {
  it('is a composite action that leaves the job its Node, runs the CLI, uploads the reports and fails with the CLI exit code', () => {
    expect(ACTION.runs.using).toBe('composite');
    const steps = ACTION.runs.steps;
    expect(steps.filter((s) => s.uses?.startsWith('actions/setup-node@'))).toEqual([]);
    expect(ACTION.description).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    expect(String(steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))?.with?.path)).toMatch(/report\.json[\s\S]*junit\.xml[\s\S]*report\.md/);
    expect(steps.find((s) => s['working-directory'] === '${{ github.action_path }}')?.run).toMatch(/^npm ci/);
    expect(RUN_STEP.run).toBe('node "$GITHUB_ACTION_PATH/dist/scripts/cli.js" action');
    const verdict = steps.find((s) => s.name === 'Verdict');
    expect(verdict?.if).toBe('always()');
    expect(verdict?.run).toContain('exit "${MTC_CODE:-2}"');
    // No input is spliced into a script: inputs reach the shell through env only.
    expect(steps.flatMap((s) => (s.run ? [s.run] : [])).join('\n')).not.toContain('${{');
  });

  it('its inputs are generated from the CLI option table: every server flag is an input or says why not', () => {
    expect(syncedAction(YAML), 'action.yml differs from the option table: npx tsx scripts/sync-action.ts').toBe(YAML);
    expect(ACTION.inputs).toEqual(
      JSON.parse(JSON.stringify(Object.fromEntries(Object.entries(actionInputs()).map(([k, v]) => [k, { required: false, ...v }])))),
    );
    const flags = Object.keys(SERVER_OPTIONS);
    expect(SERVER_FLAG_HELP.map((f) => f.flag).sort()).toEqual(flags.filter((f) => f !== 'help' && f !== 'timeout').sort());
    for (const flag of flags) expect(flag in NOT_INPUTS || inputOf(flag) in ACTION.inputs, `--${flag}`).toBe(true);
    for (const flag of Object.keys(NOT_INPUTS)) expect(flags, flag).toContain(flag);
    for (const name of Object.keys(ACTION_ONLY_INPUTS)) expect(ACTION.inputs, name).toHaveProperty(name);
    for (const name of ['revision', 'require-coverage', 'exclude', 'discover', 'request-timeout', 'allow-unmatched'])
      expect(ACTION.inputs).toHaveProperty(name);
  });

  it('inputs become the matching CLI options', () => {
    const baseline = join(mkdtempSync(join(tmpdir(), 'mtc-base-')), 'baseline.json');
    writeFileSync(baseline, JSON.stringify(['cancel.completed-rejected']));
    const args = actionArgs(
      withDefaults({
        target: 'http://127.0.0.1:3000/mcp',
        profile: 'fixtures/reference.profile.json',
        baseline,
        strict: 'true',
        headers: 'Authorization: Bearer T1\n\n  X-Trace: a b  \n',
        'secondary-headers': 'Authorization: Bearer T2',
        only: 'cancel,ttl',
        exclude: 'cancel.stops-work',
        revision: '2025-11-25',
        'require-coverage': 'true',
        'request-timeout': '20000',
        discover: 'off',
      }),
      '/out',
    );
    expect(args[0]).toBe('server');
    const parsed = parseServerArgs(args.slice(1));
    if (parsed.help) throw new Error('unexpected help');
    expect(parsed.config.target).toEqual({
      kind: 'http',
      url: 'http://127.0.0.1:3000/mcp',
      headers: { Authorization: 'Bearer T1', 'X-Trace': 'a b' },
      secondaryHeaders: { Authorization: 'Bearer T2' },
    });
    expect(parsed.baseline).toEqual(['cancel.completed-rejected']);
    expect(parsed.strict).toBe(true);
    expect(parsed.requireCoverage).toBe(true);
    expect(parsed.config.only).toEqual(['cancel', 'ttl']);
    expect(parsed.config.exclude).toEqual(['cancel.stops-work']);
    expect(parsed.config.options.revision).toBe('2025-11-25');
    expect(parsed.config.options.requestTimeoutMs).toBe(20000);
    expect(parsed.config.discover?.mode).toBe('off');
    expect([parsed.json, parsed.junit, parsed.markdown]).toEqual(['/out/report.json', '/out/junit.xml', '/out/report.md']);
    const stdio = parseServerArgs(actionArgs(withDefaults({ target: 'node dist/server.js --flag "x y"' }), '/out').slice(1));
    if (stdio.help) throw new Error('unexpected help');
    expect(stdio.config.target).toEqual({ kind: 'stdio', command: 'node dist/server.js --flag "x y"' });
    expect(() => actionArgs(withDefaults({ target: 'x', strict: 'yes' }), '/out')).toThrow(ActionInputError);
  });

  it('a strict value other than true/false is an error (exit code 2, a note in the job summary), not silently false', { timeout: 60_000 }, async () => {
    const r = await runStep({ target: 'x', strict: 'yes' });
    expect(r.output['exit-code']).toBe('2');
    expect(r.log).toMatch(/::error::input strict must be true or false/);
    expect(r.summary).toMatch(/no report[\s\S]*exit code 2/);
  });

  it('starts a URL target, waits for it, grades it, writes the Markdown report to the job summary and ends what it started', { timeout: 240_000 }, async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/mcp`;
    const r = await runStep(
      {
        target: url,
        start: `exec node scripts/mock.ts --http ${port}`,
        profile: 'fixtures/reference.profile.json',
        discover: 'off',
        only: 'cancel.completed-rejected',
        'request-timeout': '20000',
      },
      200_000,
    );
    expect(r.output['exit-code'], r.log.slice(-3000)).toBe('0');
    expect(r.output['report-dir']).toBe(r.out);
    expect(r.summary).toContain('cancel.completed-rejected');
    expect(JSON.parse(readFileSync(join(r.out, 'report.json'), 'utf8')).summary.exitCode).toBe(0);
    // The started target is gone: its port no longer answers.
    await expect(fetch(url, { signal: AbortSignal.timeout(2_000) })).rejects.toThrow();
  });
});
