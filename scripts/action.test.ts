// The GitHub Action (action.yml): its structure, parsed as YAML (a file GitHub cannot parse fails here), and
// that its inputs become real CLI options: the step that runs the CLI is executed by bash with a stand-in
// `npx` that records its arguments, which the CLI's own parser then reads.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseDocument } from 'yaml';
import { parseServerArgs } from './server.ts';

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
const INPUTS = Object.keys(ACTION.inputs);
const RUN_STEP = ACTION.runs.steps.find((s) => s.id === 'run')!;

const stepEnv = (): Record<string, string> => RUN_STEP.env ?? {};
const stepScript = (): string => RUN_STEP.run ?? '';

/** Runs the CLI step with the given inputs; `npx` is a stand-in that records its arguments and exits with `code`. */
function runStep(inputs: Record<string, string>, code = 0, writeMarkdown = true) {
  const dir = mkdtempSync(join(tmpdir(), 'mtc-action-'));
  const bin = join(dir, 'bin');
  execFileSync('mkdir', ['-p', bin]);
  const fake = join(bin, 'npx');
  writeFileSync(
    fake,
    `#!${process.execPath}\nconst fs = require('node:fs');\nconst a = process.argv.slice(2);\nfs.writeFileSync(${JSON.stringify(join(dir, 'args.json'))}, JSON.stringify(a));\nconst md = a.indexOf('--markdown');\nif (md >= 0 && ${writeMarkdown}) fs.writeFileSync(a[md + 1], '## fake report\\n');\nprocess.exit(${code});\n`,
  );
  chmodSync(fake, 0o755);
  const env: Record<string, string> = {
    PATH: `${bin}:${process.env.PATH}`,
    GITHUB_ACTION_PATH: ROOT,
    GITHUB_OUTPUT: join(dir, 'output'),
    GITHUB_STEP_SUMMARY: join(dir, 'summary'),
  };
  writeFileSync(env.GITHUB_OUTPUT!, '');
  writeFileSync(env.GITHUB_STEP_SUMMARY!, '');
  for (const [k, v] of Object.entries(stepEnv())) {
    const m = /^\$\{\{ (inputs\.([\w-]+)|runner\.temp\/?(.*)) \}\}(.*)$/.exec(v);
    if (!m) throw new Error(`unexpected env value ${v}`);
    if (m[2]) {
      env[k] = inputs[m[2]] ?? ACTION.inputs[m[2]]?.default ?? '';
    } else env[k] = join(dir, 'temp') + m[4];
  }
  execFileSync('bash', ['-e', '-c', stepScript()], { env, cwd: ROOT });
  const output = Object.fromEntries(
    readFileSync(env.GITHUB_OUTPUT!, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split('=') as [string, string]),
  );
  let args: string[] = [];
  try {
    args = JSON.parse(readFileSync(join(dir, 'args.json'), 'utf8'));
  } catch {
    // npx not reached
  }
  return { args, output, summary: readFileSync(env.GITHUB_STEP_SUMMARY!, 'utf8'), dir };
}

describe('action.yml', () => {
  it('is a composite action on Node 20 that uploads JSON and JUnit, writes the job summary and fails with the CLI exit code', () => {
    expect(Object.keys(ACTION)).toEqual(expect.arrayContaining(['name', 'description', 'inputs', 'outputs', 'runs']));
    expect(ACTION.runs.using).toBe('composite');
    const steps = ACTION.runs.steps;
    expect(steps.find((s) => s.uses?.startsWith('actions/setup-node@'))?.with?.['node-version']).toBe(20);
    expect(String(steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))?.with?.path)).toMatch(/report\.json[\s\S]*junit\.xml/);
    expect(steps.find((s) => s['working-directory'] === '${{ github.action_path }}')?.run).toMatch(/^npm ci/);
    expect(stepScript()).toContain('npx --yes "$GITHUB_ACTION_PATH"');
    expect(stepScript()).toContain('>> "$GITHUB_STEP_SUMMARY"');
    const verdict = steps.find((s) => s.name === 'Verdict');
    expect(verdict?.if).toBe('always()');
    expect(verdict?.run).toContain('exit "${MTC_CODE:-2}"');
    // No input is spliced into a script: inputs reach the shell through env only.
    const scripts = steps.flatMap((s) => (s.run ? [s.run] : []));
    expect(scripts.length).toBeGreaterThan(2);
    expect(scripts.join('\n')).not.toContain('${{');
  });

  it('declares the inputs target, profile, baseline, strict, headers; every input is used', () => {
    expect(INPUTS).toEqual(expect.arrayContaining(['target', 'profile', 'baseline', 'strict', 'headers']));
    for (const name of INPUTS) expect(YAML, name).toContain(`\${{ inputs.${name} }}`);
    expect(ACTION.inputs.target?.required).toBe(true);
  });

  it('a URL target with headers, profile, baseline, strict, only and properties becomes the matching CLI options', () => {
    const baseline = join(mkdtempSync(join(tmpdir(), 'mtc-base-')), 'baseline.json');
    writeFileSync(baseline, JSON.stringify(['cancel.completed-rejected']));
    const r = runStep({
      target: 'http://127.0.0.1:3000/mcp',
      profile: 'fixtures/reference.profile.json',
      baseline,
      strict: 'true',
      headers: 'Authorization: Bearer T1\n\n  X-Trace: a b  \n',
      'secondary-headers': 'Authorization: Bearer T2',
      only: 'cancel,ttl',
      properties: 'true',
    });
    expect(r.args[0]).toBe('--yes');
    expect(r.args[1]).toBe(ROOT);
    expect(r.args[2]).toBe('server');
    const parsed = parseServerArgs(r.args.slice(3));
    if (parsed.help) throw new Error('unexpected help');
    expect(parsed.config.target).toEqual({
      kind: 'http',
      url: 'http://127.0.0.1:3000/mcp',
      headers: { Authorization: 'Bearer T1', 'X-Trace': 'a b' },
      secondaryHeaders: { Authorization: 'Bearer T2' },
    });
    expect(parsed.config.profile).toBeDefined();
    expect(parsed.baseline).toEqual(['cancel.completed-rejected']);
    expect(parsed.strict).toBe(true);
    expect(parsed.config.only).toEqual(['cancel', 'ttl']);
    expect(parsed.properties).toBeTruthy();
    expect(parsed.json).toMatch(/report\.json$/);
    expect(parsed.junit).toMatch(/junit\.xml$/);
    expect(parsed.markdown).toMatch(/report\.md$/);
    expect(r.output['exit-code']).toBe('0');
    expect(r.summary).toBe('## fake report\n');
  });

  it('a command target runs over stdio with the defaults; the exit code is passed on; no report → a note in the summary', () => {
    const r = runStep({ target: 'node dist/server.js --flag "x y"' }, 1);
    const parsed = parseServerArgs(r.args.slice(3));
    if (parsed.help) throw new Error('unexpected help');
    expect(parsed.config.target).toEqual({ kind: 'stdio', command: 'node dist/server.js --flag "x y"' });
    expect(parsed.strict).toBe(false);
    expect(parsed.properties).toBeFalsy();
    expect(parsed.baseline).toEqual([]);
    expect(r.output['exit-code']).toBe('1');
    const down = runStep({ target: 'http://127.0.0.1:9/mcp' }, 2, false);
    expect(down.output['exit-code']).toBe('2');
    expect(down.summary).toMatch(/no report[\s\S]*exit code 2/);
  });

  it('a strict value other than true/false is an error, not silently false', () => {
    const r = runStep({ target: 'x', strict: 'yes' });
    expect(r.args).toEqual([]);
    expect(r.output['exit-code']).toBe('2');
  });
});
