// The command line as a user runs it: arguments, reports, baseline, exit codes.
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseServerArgs, SERVER_OPTIONS, UsageError } from './server.ts';
import { CONFORMANCE_OPTION_NAMES, runConfig, targetSpec } from '../suites/api.ts';
import { DESCRIBE_OPTION_NAMES } from '../suites/vitest.ts';
import { buildReport, exitCode, loadBaseline } from '../suites/report/model.ts';
import { formatConsole } from '../suites/report/console.ts';
import type { CheckResult } from '../suites/engine/check.ts';
import { loadProfile } from '../suites/runner/target.ts';
import { receiverChecks2025 } from '../suites/index.ts';
import { selected } from '../suites/engine/select.ts';
import { PROFILE_ROLES, profileFor } from '../suites/engine/profile.ts';
import { junitSchemaErrors } from '../fixtures/junit/validate.ts';

const tmp = mkdtempSync(join(tmpdir(), 'mtc-cli-'));

function result(id: string, status: CheckResult['status'], level: CheckResult['level'] = 'MUST'): CheckResult {
  return { id, title: id, section: 'S', requirements: ['r'], level, status, message: status, durationMs: 1, transcript: [] };
}

/** Runs the CLI from its sources (tsx → cli.ts); bounded. */
function cli(args: string[], timeoutMs = 120_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'scripts/cli.ts', ...args], { timeout: timeoutMs, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr });
    });
  });
}

describe('argument parsing', () => {
  it('needs exactly one target', () => {
    expect(() => parseServerArgs([])).toThrow(UsageError);
    expect(() => parseServerArgs(['--stdio', 'x', '--url', 'http://a'])).toThrow(/exactly one target/);
  });
  it('rejects bad values with a clear message', () => {
    expect(() => parseServerArgs(['--url', 'ftp://x'])).toThrow(/not an http/);
    expect(() => parseServerArgs(['--stdio', 'x', '--timeout', 'soon'])).toThrow(/--timeout takes a positive whole number/);
    expect(() => parseServerArgs(['--url', 'http://a', '--header', 'nocolon'])).toThrow(/Name: value/);
    expect(() => parseServerArgs(['--stdio', 'x', '--only', 'no.such.check'])).toThrow(/no check matches/);
    expect(() => parseServerArgs(['--stdio', 'x', '--header', 'A: b'])).toThrow(/--url targets only/);
  });
  it('keeps every option a rerun of one check needs, as given (reproduce with), and leaves out selection, revision and report files', () => {
    const parsed = parseServerArgs([
      '--url=http://127.0.0.1:1/mcp',
      '--header',
      'Authorization: Bearer x',
      '--revision',
      'auto',
      '--only',
      'cancel',
      '--json',
      'r.json',
      '--request-timeout',
      '900',
      '--strict',
      '--no-color',
    ]);
    if (parsed.help) throw new Error('help');
    expect(parsed.passed).toEqual([
      { name: 'url', value: 'http://127.0.0.1:1/mcp' },
      { name: 'header', value: 'Authorization: Bearer x' },
      { name: 'request-timeout', value: '900' },
      { name: 'strict' },
      { name: 'no-color' },
    ]);
    // A run that writes a profile is reproduced with it (every role settled: no discovery), in place of the one given.
    const written = parseServerArgs(['--stdio', 'srv', '--profile', 'fixtures/reference.profile.json', '--discover', 'all', '--write-profile', 'new.json']);
    if (written.help) throw new Error('help');
    expect(written.passed).toEqual([
      { name: 'stdio', value: 'srv' },
      { name: 'profile', value: 'new.json' },
    ]);
  });
  it('builds the run options as the library does: the same names and defaults (--max-tasks is maxTasks)', () => {
    const flags = (argv: string[]) => {
      const a = parseServerArgs(['--stdio', 'x', ...argv]);
      if (a.help) throw new Error('unexpected help');
      return a.config.options;
    };
    expect(flags([])).toEqual(runConfig('x').options);
    expect(flags(['--request-timeout', '20000', '--max-tasks', '3', '--concurrency', '2'])).toEqual(
      runConfig('x', { requestTimeoutMs: 20_000, maxTasks: 3, concurrency: 2 }).options,
    );
    expect(flags(['--request-timeout', '20000']).checkTimeoutMs).toBe(60_000);
    expect(flags(['--timeout', '20000'])).toEqual(flags(['--request-timeout', '20000']));
    expect(() => flags(['--timeout', '1', '--request-timeout', '2'])).toThrow(/not both/);
    expect(() => runConfig('x', { maxTasks: 0 })).toThrow(/maxTasks takes a positive whole number/);

    // Every flag of the command is an option of the library and of the vitest helper, under one name: the
    // flag's camelCase (with Ms for a bound in milliseconds). The target's flags are the target argument's
    // fields; the others are the command's own, each with why.
    const targetFields: Record<string, string> = { stdio: 'command', url: 'url', header: 'headers', 'secondary-header': 'secondaryHeaders' };
    const commandOnly: Record<string, string> = {
      help: 'prints the usage',
      list: 'prints what would run instead of running it',
      'no-color': 'plain console output: the library and the helper print no console report',
      timeout: 'the older name of --request-timeout',
      'replay-dir': 'files of the command: the library report carries each replay (check.replay)',
    };
    const camel = (flag: string) => flag.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
    const optionOf = (flag: string, names: readonly string[]) => [camel(flag), `${camel(flag)}Ms`].find((n) => names.includes(n));
    const flagList = Object.keys(SERVER_OPTIONS);
    expect(flagList).toContain('require-coverage');
    for (const flag of flagList.filter((f) => !(f in targetFields) && !(f in commandOnly))) {
      expect(optionOf(flag, CONFORMANCE_OPTION_NAMES), `--${flag} in runConformance's options`).toBeDefined();
      expect(optionOf(flag, DESCRIBE_OPTION_NAMES), `--${flag} in describeConformance's options`).toBe(optionOf(flag, CONFORMANCE_OPTION_NAMES));
    }
    for (const [flag, field] of Object.entries(targetFields)) {
      expect(flagList).toContain(flag);
      expect(targetSpec(field === 'command' ? { command: 'x' } : { url: 'http://h', headers: { a: '1' }, secondaryHeaders: { b: '2' } })).toHaveProperty(field);
    }
    for (const flag of Object.keys(commandOnly)) expect(flagList).toContain(flag);
  });
  it('--exclude mirrors --only (ids, prefixes, requirement ids, sections) and wins over it; --max-tasks bounds live tasks', () => {
    const a = parseServerArgs(['--stdio', 'x', '--only', 'cancel', '--exclude', 'cancel.stops-work,errors-invalid-taskid-32602', '--max-tasks', '5']);
    if (a.help) throw new Error('unexpected help');
    expect(a.config.exclude).toEqual(['cancel.stops-work', 'errors-invalid-taskid-32602']);
    expect(a.config.options.maxTasks).toBe(5);
    const kept = receiverChecks2025.filter((c) => selected(c, a.config.only, a.config.exclude)).map((c) => c.id);
    expect(kept).toContain('cancel.stays-cancelled');
    expect(kept).not.toContain('cancel.stops-work');
    expect(receiverChecks2025.filter((c) => selected(c, undefined, ['errors-invalid-taskid-32602'])).map((c) => c.id)).not.toContain(
      'errors.get-invalid-taskid',
    );
    expect(() => parseServerArgs(['--stdio', 'x', '--exclude', 'no.such.check'])).toThrow(/--exclude: no check matches/);
  });
  it('keeps every header, identity and selector it is given', () => {
    const a = parseServerArgs([
      '--url',
      'http://h/mcp',
      '--header',
      'Authorization: Bearer A',
      '--header',
      'X-T: 1',
      '--secondary-header',
      'Authorization: Bearer B',
    ]);
    if (a.help) throw new Error('unexpected help');
    expect(a.config.target).toEqual({
      kind: 'http',
      url: 'http://h/mcp',
      headers: { Authorization: 'Bearer A', 'X-T': '1' },
      secondaryHeaders: { Authorization: 'Bearer B' },
    });
  });
});

describe('baseline and exit codes', () => {
  it('reads JSON and YAML lists', () => {
    const j = join(tmp, 'b.json');
    writeFileSync(j, JSON.stringify({ expectedFailures: ['a.b'] }));
    expect(loadBaseline(j)).toEqual(['a.b']);
    const y = join(tmp, 'b.yaml');
    writeFileSync(y, '# known\nexpectedFailures:\n  - a.b\n  - "c.d"\n');
    expect(loadBaseline(y)).toEqual(['a.b', 'c.d']);
    writeFileSync(y, 'a.b\n');
    expect(() => loadBaseline(y)).toThrow(/expected "- <check id>"/);
  });
  it('fails on a failure, passes when the baseline expects it, fails on a stale entry', () => {
    const started = new Date();
    const rs = [result('a', 'fail'), result('b', 'pass'), result('c', 'warn', 'SHOULD')];
    expect(exitCode(buildReport(rs, 't', started), false)).toBe(1);
    expect(exitCode(buildReport(rs, 't', started, ['a']), false)).toBe(0);
    expect(exitCode(buildReport(rs, 't', started, ['a']), true)).toBe(1); // --strict: the warning fails
    const stale = buildReport(rs, 't', started, ['a', 'b']);
    expect(stale.summary.staleBaseline).toEqual(['b']);
    expect(exitCode(stale, false)).toBe(1);
    expect(formatConsole(stale)).toMatch(/stale baseline entries.*b/);
  });
});

describe('end to end (the bin, as a user runs it)', () => {
  it('exits 2 with a clear message for usage errors and unreachable targets', async () => {
    const usage = await cli(['server']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/exactly one target/);
    expect(usage.stderr).not.toMatch(/\n\s+at /); // no stack trace
    const down = await cli(['server', '--url', 'http://127.0.0.1:9/mcp', '--timeout', '2000']);
    expect(down.code).toBe(2);
    expect(down.stderr).toMatch(/cannot connect/);
    const nocmd = await cli(['server', '--stdio', 'definitely-not-a-command-xyz', '--timeout', '2000']);
    expect(nocmd.code).toBe(2);
    expect(nocmd.stderr).toMatch(/cannot connect/);
  });

  it('says why a target cannot be reached: the socket error under "fetch failed", the exit code and stderr of a process that exited', async () => {
    const down = await cli(['server', '--url', 'http://127.0.0.1:9/mcp', '--revision', '2025-11-25', '--timeout', '2000']);
    expect(down.code).toBe(2);
    expect(down.stderr).toMatch(/cannot connect to http: \S+: fetch failed: \w/);
    const exits = `${process.execPath} -e "console.error('config file missing'); process.exit(3)"`;
    for (const revision of ['2025-11-25', '2026-07-28']) {
      const r = await cli(['server', '--stdio', exits, '--revision', revision, '--timeout', '2000']);
      expect(r.code, revision).toBe(2);
      expect(r.stderr, revision).toMatch(/cannot connect to stdio: .*\(exit code 3\)\n  its stderr ends:\n    config file missing/);
    }
  });

  // Every receiver check, then the server-as-requestor runs (their own connections, overlapping the checks).
  it('grades the reference receiver: exit 0, JSON and JUnit (valid against the JUnit schema) written, every check passes', { timeout: 120_000 }, async () => {
    const json = join(tmp, 'ref.json');
    const junit = join(tmp, 'ref.xml');
    const r = await cli([
      'server',
      '--stdio',
      `${process.execPath} --import tsx scripts/mock.ts --stdio --status-notifications`,
      '--profile',
      'fixtures/reference.profile.json',
      '--json',
      json,
      '--junit',
      junit,
    ]);
    expect(r.stderr + r.stdout).toMatch(/checks: \d+ passed, 0 failed/);
    expect(r.code).toBe(0);
    const report = JSON.parse(readFileSync(json, 'utf8'));
    expect(report.specVersion).toBe('2025-11-25');
    expect(report.checks.length).toBeGreaterThan(0);
    for (const c of report.checks) {
      expect(c).toHaveProperty('requirements');
      expect(Array.isArray(c.transcript)).toBe(true);
    }
    expect(report.summary.fail).toBe(0);
    const xml = existsSync(junit) ? readFileSync(junit, 'utf8') : '';
    expect(xml.match(/<testcase /g)?.length).toBe(report.checks.length);
    expect(await junitSchemaErrors(xml)).toEqual([]);
  });

  it('exits 1 when the target breaks a MUST, and 0 when the baseline expects exactly that', async () => {
    const json = join(tmp, 'fault.json');
    const target = `${process.execPath} --import tsx scripts/mock.ts --stdio --fault cancel-terminal-ok`;
    const junit = join(tmp, 'fault.xml');
    const markdown = join(tmp, 'fault.md');
    const r = await cli([
      'server',
      '--stdio',
      target,
      '--profile',
      'fixtures/reference.profile.json',
      '--only',
      'cancel',
      '--json',
      json,
      '--junit',
      junit,
      '--markdown',
      markdown,
    ]);
    expect(r.code).toBe(1);
    const failed = JSON.parse(readFileSync(json, 'utf8'))
      .checks.filter((c: any) => c.status === 'fail')
      .map((c: any) => c.id);
    expect(failed.length).toBeGreaterThan(0);
    // The same verdicts in JUnit (valid against the schema) and Markdown, with the requirement text.
    const xml = readFileSync(junit, 'utf8');
    expect(await junitSchemaErrors(xml)).toEqual([]);
    expect(xml.match(/<failure type="fail"/g)?.length).toBe(failed.length);
    const md = readFileSync(markdown, 'utf8');
    expect(md).toMatch(/^## MCP Tasks conformance: ❌ failed/);
    for (const id of failed) expect(md).toContain(`### ❌ \`${id}\``);
    expect(md).toContain('Receivers MUST reject cancellation requests for tasks already in a terminal status');
    expect(md).toContain('```mermaid\nsequenceDiagram');
    const base = join(tmp, 'baseline.json');
    writeFileSync(base, JSON.stringify(failed));
    const again = await cli(['server', '--stdio', target, '--profile', 'fixtures/reference.profile.json', '--only', 'cancel', '--baseline', base]);
    expect(again.code).toBe(0);
  });
});

describe('first run without a profile (discovery, coverage)', () => {
  it('parses --discover, --discover-budget, --write-profile, --require-coverage', () => {
    const a = parseServerArgs(['--stdio', 'x', '--discover', 'all', '--discover-budget', '5000', '--write-profile', 'p.json', '--require-coverage']);
    expect(a.help).toBe(false);
    if (a.help) return;
    expect(a.config.discover).toEqual({ mode: 'all', budgetMs: 5000 });
    expect(a.writeProfile).toBe('p.json');
    expect(a.requireCoverage).toBe(true);
    const d = parseServerArgs(['--stdio', 'x']);
    if (!d.help) expect(d.config.discover?.mode).toBe('safe');
    // With --only, discovery looks only for the roles the selected checks need, and those of the runsLast checks
    // (they run with every selection: suites/engine/select.ts), such as 2026-negotiation.required-capabilities-data's taskOnly.
    const l = parseServerArgs(['--stdio', 'x', '--only', 'list']);
    if (!l.help) expect(l.config.discover?.roles).toEqual(['completes', 'taskOnly']);
    if (!d.help) expect(d.config.discover?.roles).toBeUndefined();
    expect(() => parseServerArgs(['--stdio', 'x', '--discover', 'maybe'])).toThrow(UsageError);
    expect(() => parseServerArgs(['--stdio', 'x', '--discover', 'off', '--discover-budget', '100'])).toThrow(UsageError);
  });

  it('discovers every role of the reference receiver, prints the plan first, exercises every MUST, keeps the profile', { timeout: 300_000 }, async () => {
    const json = join(tmp, 'zero.json');
    const kept = join(tmp, 'zero.profile.json');
    const r = await cli(
      [
        'server',
        '--stdio',
        `${process.execPath} --import tsx scripts/mock.ts --stdio --status-notifications`,
        '--require-coverage',
        '--write-profile',
        kept,
        '--json',
        json,
      ],
      240_000,
    );
    expect(r.stderr).toMatch(/will call slow \{\} as a task/);
    expect(r.stderr.indexOf('will call')).toBeLessThan(r.stderr.indexOf('discovered slow'));
    expect(r.stdout).toMatch(/coverage: (\d+)\/\1 MUST and (\d+)\/\2 SHOULD requirements exercised/);
    expect(r.code).toBe(0);
    const report = JSON.parse(readFileSync(json, 'utf8'));
    expect(report.coverage.missingRoles).toEqual([]);
    expect(report.coverage.must.unexercised).toEqual([]);
    const discovery = report.discovery['2025-11-25'];
    expect(discovery.roles.needsInput.name).toBe('ask');
    // Discovery finds the requestor roles too (runner/requestor-discovery.ts): the server-as-requestor checks run.
    expect(discovery.roles.requestsSampling.name).toBe('sample_via_client');
    expect(discovery.roles.requestsElicitation.name).toBe('elicit_via_client');
    expect(report.checks.find((c: any) => c.id === 'requestor.poll-interval').status).toBe('pass');
    expect(report.checks.filter((c: any) => c.status === 'skip' && /role/.test(c.message))).toEqual([]);
    // The written profile holds the roles of the revision graded, under its name (profileFor reads it back).
    const profile = profileFor(loadProfile(kept), '2025-11-25')!;
    const reference = loadProfile('fixtures/reference.profile.json');
    for (const role of PROFILE_ROLES) expect(profile.tools[role]?.name, role).toBe(reference.tools[role]?.name);
    expect(profile.tools.slow?.observed).toMatch(/still working/);
  });

  it('--require-coverage fails a run that leaves applicable MUST requirements unexercised', { timeout: 300_000 }, async () => {
    const target = `${process.execPath} --import tsx scripts/mock.ts --stdio`;
    const plain = await cli(['server', '--stdio', target, '--discover', 'off', '--only', 'cancel']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/roles missing \(completes, slow/);
    const gated = await cli(['server', '--stdio', target, '--discover', 'off', '--only', 'cancel', '--require-coverage']);
    expect(gated.code).toBe(1);
    expect(gated.stdout).toMatch(/--require-coverage: \d+ applicable MUST requirement\(s\) not exercised/);
  });
});

describe('runs that would not mean what they say are usage errors (exit 2)', () => {
  it(
    'a selector of the other revision, a partial --write-profile, a profile tool the target does not list; allowed when asked',
    { timeout: 180_000 },
    async () => {
      const other = await cli(['server', '--stdio', 'never-started', '--revision', '2025-11-25', '--only', '2026-negotiation']);
      expect(other.code).toBe(2);
      expect(other.stderr).toMatch(/no check of revision 2025-11-25 matches 2026-negotiation \(allow it with allowUnmatched, --allow-unmatched\)/);
      const partial = await cli(['server', '--stdio', 'never-started', '--write-profile', join(tmp, 'partial.json'), '--only', 'cancel']);
      expect(partial.code).toBe(2);
      expect(partial.stderr).toMatch(/--allow-partial-profile/);
      const typo = join(tmp, 'typo.profile.json');
      writeFileSync(typo, JSON.stringify({ tools: { completes: { name: 'ehco' } } }));
      const mock = `${process.execPath} --import tsx scripts/mock.ts --stdio`;
      const args = ['server', '--stdio', mock, '--revision', '2025-11-25', '--profile', typo, '--discover', 'off', '--only', 'cancel.completed-rejected'];
      const refused = await cli(args);
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toMatch(/the profile names tools the target does not list: role completes: tool "ehco" \(2025-11-25\)/);
      const allowed = await cli([...args, '--allow-unmatched']);
      expect(allowed.code, allowed.stderr).toBe(0);
      expect(allowed.stderr).toMatch(/note: the profile names tools the target does not list/);
    },
  );
});
