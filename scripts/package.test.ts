// The package as a user gets it: `npm pack` (which builds dist/ through `prepare`), the tarball installed
// into an empty project (dependencies from npm's cache or the registry), then: the bin grades the bundled
// reference receiver over stdio on plain Node, tsx is not installed, the package root imports as a
// library and runs a check, and the tarball holds no tests, CI files or test-only fixtures.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiverChecks2025 } from '../suites/index.ts';
import { serverRequestorChecks } from '../suites/requestor/server-requestor.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const NPX = process.platform === 'win32' ? 'npx.cmd' : 'npx';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], cwd: string, timeoutMs: number): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? (((err as { code?: unknown }).code as number | null) ?? null) : 0, stdout, stderr }),
    );
  });
}

const tmp = mkdtempSync(join(tmpdir(), 'mtc-package-'));
const project = join(tmp, 'project');
let files: string[] = [];

beforeAll(async () => {
  const packed = await run(NPM, ['pack', '--json', '--pack-destination', tmp], ROOT, 180_000);
  expect(packed.code, packed.stderr).toBe(0);
  const [info] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
  files = info!.files.map((f) => f.path);
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'empty-project', version: '1.0.0', private: true, type: 'module' }));
  const installed = await run(NPM, ['install', join(tmp, info!.filename), '--no-audit', '--no-fund', '--prefer-offline'], project, 240_000);
  expect(installed.code, installed.stderr).toBe(0);
}, 450_000);

afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

describe('the packed package, installed into an empty project', () => {
  it('ships compiled code and its run-time files, no tests, CI files or test-only fixtures', () => {
    expect(files).toContain('dist/scripts/cli.js');
    expect(files).toContain('dist/index.js');
    expect(files).toContain('dist/index.d.ts');
    expect(files).toContain('dist/schema/requirements.json');
    expect(files).toContain('dist/suites/wire/stdio-bridge.mjs');
    expect(files.filter((f) => /\.test\.|^\.ci\/|\.ts$/.test(f) && !f.endsWith('.d.ts'))).toEqual([]);
    expect(files.filter((f) => f.includes('fixtures/')).sort()).toEqual([
      'dist/fixtures/reference-2026-07-28.profile.json',
      'dist/fixtures/reference.profile.json',
    ]);
  });

  it('`npx mcp-tasks-conformance server --stdio "npx mcp-tasks-conformance mock --stdio"` exits 0', async () => {
    // --timeout: every stdio session spawns npx and then the mock (~2 s each on a loaded 2-core machine, several at once).
    const args = ['server', '--stdio', 'npx --no-install mcp-tasks-conformance mock --stdio', '--timeout', '30000', '--json', 'report.json', '--no-color'];
    const r = await run(NPX, ['--no-install', 'mcp-tasks-conformance', ...args], project, 280_000);
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    const report = JSON.parse(readFileSync(join(project, 'report.json'), 'utf8'));
    expect(report.checks.map((c: { id: string }) => c.id).sort()).toEqual([...receiverChecks2025, ...serverRequestorChecks].map((c) => c.id).sort());
    expect(report.summary.fail).toBe(0);
    expect(report.errors).toEqual([]);
  }, 300_000);

  it('`mock` starts without loading vitest or the checks', async () => {
    // A module resolve hook that names every vitest module and check module the process loads.
    writeFileSync(
      join(tmp, 'hook.mjs'),
      "export async function resolve(s, c, next) { const r = await next(s, c); if (/[\\/](vitest|@vitest)[\\/]|[\\/]suites[\\/](index|receiver[\\/])/.test(r.url)) process.stderr.write('LOADED ' + r.url + '\\n'); return r; }\n",
    );
    writeFileSync(
      join(tmp, 'register.mjs'),
      `import { register } from 'node:module'; register(${JSON.stringify(pathToFileURL(join(tmp, 'hook.mjs')).href)});\n`,
    );
    const cli = 'node_modules/mcp-tasks-conformance/dist/scripts/cli.js';
    const r = await run(process.execPath, ['--import', join(tmp, 'register.mjs'), cli, 'mock', '--list-faults'], project, 60_000);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('LOADED');
    // The hook does see them where they are loaded (the library's entry; `server` and `checks` are a bundle).
    const library = await run(
      process.execPath,
      ['--import', join(tmp, 'register.mjs'), '--input-type=module', '-e', "await import('mcp-tasks-conformance')"],
      project,
      60_000,
    );
    expect(library.stderr).toContain('LOADED');
    // dist/scripts/mock.js is a bundle (scripts/build.mjs): what it holds is named by esbuild's comment before each module.
    // What it loads at start is mock.js and the chunks it imports statically; a chunk behind import() (mock --judge
    // grades with the checks) loads only when asked for.
    const scripts = join(project, 'node_modules/mcp-tasks-conformance/dist/scripts');
    const atStart = new Set<string>();
    const visit = (f: string) => {
      if (atStart.has(f)) return;
      atStart.add(f);
      for (const m of readFileSync(join(scripts, f), 'utf8').matchAll(/(?:^|\n)import\s*(?:[^'"]*?\sfrom\s*)?["']\.\/([^"']+)["']/g)) visit(m[1]!);
    };
    visit('mock.js');
    expect(readdirSync(scripts).filter((f) => /^mock.*\.js$/.test(f)).length).toBeGreaterThan(atStart.size);
    const bundled = [...atStart].flatMap((f) => [...readFileSync(join(scripts, f), 'utf8').matchAll(/^\/\/ (\S+\.[cm]?js)$/gm)].map((m) => m[1]!));
    expect(bundled).toContain('dist/mocks/receiver/index.js');
    expect(bundled.filter((f) => /(^|\/)(vitest|@vitest)\/|dist\/suites\/(index|receiver\/)/.test(f))).toEqual([]);
  }, 150_000);

  it('does not install tsx', async () => {
    const r = await run(NPM, ['ls', 'tsx', '--all', '--json'], project, 60_000);
    expect(JSON.parse(r.stdout).dependencies ?? {}).toEqual({});
  }, 90_000);

  it('imports as a library and grades a target with the shipped reference profile', async () => {
    const script = `
      import { runConformance } from 'mcp-tasks-conformance';
      const cli = 'node_modules/mcp-tasks-conformance/dist/scripts/cli.js';
      const report = await runConformance(${JSON.stringify(process.execPath)} + ' ' + cli + ' mock --stdio', {
        profile: 'node_modules/mcp-tasks-conformance/dist/fixtures/reference.profile.json',
        only: ['lifecycle.paths-completes'],
      });
      console.log(JSON.stringify(report.checks.map((c) => [c.id, c.status])));`;
    const r = await run(process.execPath, ['--input-type=module', '-e', script], project, 120_000);
    expect(r.code, r.stderr).toBe(0);
    // The selected check, the checks that always run last (they read its evidence), the requestor checks (not exercised).
    const verdicts = new Map<string, string>(JSON.parse(r.stdout.trim().split('\n').pop()!));
    expect(verdicts.get('lifecycle.paths-completes')).toBe('pass');
    expect(verdicts.get('schema.messages-valid')).toBe('pass');
    expect([...verdicts].filter(([, status]) => status === 'fail')).toEqual([]);
  }, 150_000);

  it('declares vitest a peer dependency (npm warns or refuses on another major) and installs it beside the package', () => {
    const pkg = JSON.parse(readFileSync(join(project, 'node_modules/mcp-tasks-conformance/package.json'), 'utf8'));
    expect(pkg.peerDependencies).toEqual({ vitest: '>=4.1.0 <5' });
    expect(pkg.dependencies.vitest).toBeUndefined();
    expect(JSON.parse(readFileSync(join(project, 'node_modules/vitest/package.json'), 'utf8')).version).toMatch(/^4\./);
  });

  it('the documented library gate passes a baselined failure: process.exitCode = report.summary.exitCode', async () => {
    const script = `
      import { runConformance } from 'mcp-tasks-conformance';
      const cli = 'node_modules/mcp-tasks-conformance/dist/scripts/cli.js';
      const report = await runConformance(${JSON.stringify(process.execPath)} + ' ' + cli + ' mock --stdio --fault cancel-terminal-ok', {
        profile: 'node_modules/mcp-tasks-conformance/dist/fixtures/reference.profile.json',
        only: ['cancel.completed-rejected'],
        expectedFailures: ['cancel.completed-rejected'],
      });
      console.log(JSON.stringify(report.summary));
      process.exitCode = report.summary.exitCode;`;
    const r = await run(process.execPath, ['--input-type=module', '-e', script], project, 120_000);
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout.trim().split('\n').pop()!);
    expect(summary).toMatchObject({ fail: 1, expectedFailures: 1, failing: 0, exitCode: 0 });
  }, 150_000);

  it('a failure\'s "reproduce with" line runs as printed where the run was started (npx), and fails the same way', async () => {
    const mock = `${process.execPath} node_modules/mcp-tasks-conformance/dist/scripts/cli.js mock --stdio --fault cancel-terminal-ok`;
    const profile = 'node_modules/mcp-tasks-conformance/dist/fixtures/reference.profile.json';
    const first = await run(
      NPX,
      ['--no-install', 'mcp-tasks-conformance', 'server', '--stdio', mock, '--profile', profile, '--only', 'cancel.completed-rejected', '--no-color'],
      project,
      120_000,
    );
    expect(first.code, first.stderr).toBe(1);
    const line = /reproduce with: (npx mcp-tasks-conformance server .*)$/m.exec(first.stdout)?.[1];
    expect(line, first.stdout).toBeDefined();
    expect(line).toContain('--only cancel.completed-rejected');
    const again = await run('sh', ['-c', line!], project, 120_000);
    expect(again.code, again.stderr).toBe(1);
    expect(again.stdout).toMatch(/FAIL\s+cancel\.completed-rejected/);
  }, 280_000);
});
