// The library API as an SDK maintainer uses it: the SDK's McpServer with experimental/tasks
// (fixtures/sdk-tasks-server.ts, an implementation under test) graded in process, through
// runConformance (the report object) and through describeConformance (one vitest test per check,
// fixtures/sdk-gate.conformance.ts). The verdicts asserted are the SDK's findings docs/SERVERS.md explains
// for the same server over stdio ("Findings on third-party targets").
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Reporter, TestCase } from 'vitest/node';
import { receiverChecks2025, runConformance, targetSpec, type Report } from '../index.ts';
import { createSdkTasksServer } from '../fixtures/sdk-tasks-server.ts';
import { serverRequestorChecks } from './requestor/server-requestor.ts';
import { exitCode } from './report/model.ts';
import { commandLineOf } from './api.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SDK_PROFILE = 'fixtures/sdk-tasks-server.profile.json';

async function sdkServerTransport() {
  const [client, server] = InMemoryTransport.createLinkedPair();
  await createSdkTasksServer().connect(server);
  return client;
}

describe('targetSpec: a target given as a command, a URL or a function', () => {
  it('tells URLs from command lines and keeps every option', () => {
    expect(targetSpec('http://127.0.0.1:3000/mcp')).toEqual({ kind: 'http', url: 'http://127.0.0.1:3000/mcp' });
    expect(targetSpec(new URL('https://example.test/mcp'))).toEqual({ kind: 'http', url: 'https://example.test/mcp' });
    expect(targetSpec('node server.js --stdio')).toEqual({ kind: 'stdio', command: 'node server.js --stdio' });
    expect(targetSpec({ command: 'srv', cwd: '/tmp', env: { A: '1' } })).toEqual({ kind: 'stdio', command: 'srv', cwd: '/tmp', env: { A: '1' } });
    expect(targetSpec({ url: 'http://h/mcp', headers: { Authorization: 'Bearer A' }, secondaryHeaders: { Authorization: 'Bearer B' } })).toEqual({
      kind: 'http',
      url: 'http://h/mcp',
      headers: { Authorization: 'Bearer A' },
      secondaryHeaders: { Authorization: 'Bearer B' },
    });
    const fn = sdkServerTransport;
    expect(targetSpec(fn, 'my server')).toEqual({ kind: 'transport', connect: fn, label: 'my server' });
  });
  it('rejects selectors and expected failures that name no check', async () => {
    await expect(runConformance(sdkServerTransport, { only: ['no.such.check'] })).rejects.toThrow(/no check matches no\.such\.check/);
    await expect(runConformance(sdkServerTransport, { expectedFailures: ['nope'] })).rejects.toThrow(/unknown check ids nope/);
  });
  it('writes the files the CLI writes and gates coverage, under the names of the flags (json, junit, markdown, writeProfile, requireCoverage)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'conformance-api-'));
    const file = (n: string) => join(dir, n);
    const report = await runConformance(sdkServerTransport, {
      // Two checks and those that run last: most applicable MUSTs are not exercised.
      profile: { tools: { completes: { name: 'complete', arguments: {} } } },
      discover: 'off',
      only: ['cancel.completed-rejected', 'lifecycle.paths-fails'],
      json: file('r.json'),
      junit: file('r.xml'),
      markdown: file('r.md'),
      writeProfile: file('p.json'),
      // A selection with writeProfile writes the roles of the selected checks only: asked for.
      allowPartialProfile: true,
      requireCoverage: true,
    });
    expect(JSON.parse(readFileSync(file('r.json'), 'utf8')).checks.map((c: { id: string }) => c.id)).toEqual(report.checks.map((c) => c.id));
    expect(readFileSync(file('r.xml'), 'utf8')).toContain('cancel.completed-rejected');
    expect(readFileSync(file('r.md'), 'utf8')).toContain('cancel.completed-rejected');
    expect(Object.keys(JSON.parse(readFileSync(file('p.json'), 'utf8')).revisions['2025-11-25'].tools)).toContain('completes');
    // requireCoverage: an applicable MUST not exercised fails the run (the CLI's exit code 1); without it the run passes.
    expect(report.checks.find((c) => c.id === 'cancel.completed-rejected')?.status).toBe('pass');
    expect(report.requireCoverage).toBe(true);
    expect(report.coverage!.must.unexercised.length).toBeGreaterThan(0);
    expect(exitCode(report, false)).toBe(1);
    expect(report.summary.exitCode).toBe(1);
    expect(exitCode({ ...report, requireCoverage: undefined }, false)).toBe(0);
  });
  it('runs the property-based tests with properties, runs, seed and propertiesTimeoutMs (the CLI flags)', { timeout: 120_000 }, async () => {
    await expect(runConformance(sdkServerTransport, { runs: 2 })).rejects.toThrow(/--runs needs --properties/);
    const report = await runConformance(sdkServerTransport, {
      profile: SDK_PROFILE,
      only: ['cancel.completed-rejected'],
      properties: true,
      runs: 1,
      seed: 42,
      propertiesTimeoutMs: 20_000,
    });
    const properties = report.checks.filter((c) => c.id.startsWith('properties.'));
    expect(properties.map((c) => c.id)).toContain('properties.state-machine');
    expect(report.checks.map((c) => c.id)).toContain('cancel.completed-rejected');
  });

  it('a fail carries "reproduce with" and its replay, as in the CLI report; an in-process run has no command line to give', { timeout: 60_000 }, async () => {
    const command = `${process.execPath} --import tsx scripts/mock.ts --stdio --fault cancel-terminal-ok`;
    const report = await runConformance(command, {
      profile: 'fixtures/reference.profile.json',
      discover: 'off',
      only: ['cancel.completed-rejected'],
      requestTimeoutMs: 15_000,
    });
    const c = report.checks.find((x) => x.id === 'cancel.completed-rejected')!;
    expect(c.status).toBe('fail');
    expect(c.reproduce).toBe(
      `npx mcp-tasks-conformance server --stdio '${command}' --profile fixtures/reference.profile.json --discover off --request-timeout 15000 --revision 2025-11-25 --only cancel.completed-rejected`,
    );
    expect(c.replay?.steps.length).toBeGreaterThan(0);
    expect(commandLineOf(sdkServerTransport, {})).toBeUndefined();
    expect(commandLineOf('srv', { profile: { tools: {} } })).toBeUndefined();
    expect(commandLineOf({ command: 'srv', env: { A: '1' } }, {})).toBeUndefined();
    expect(commandLineOf({ url: 'http://h/mcp', headers: { A: '1' } }, { strict: true, maxTasks: 3 })).toEqual([
      { name: 'url', value: 'http://h/mcp' },
      { name: 'header', value: 'A: 1' },
      { name: 'max-tasks', value: '3' },
      { name: 'strict' },
    ]);
  });
  it('a target that cannot be reached is an error, not a report', async () => {
    await expect(runConformance(`${process.execPath} -e "process.exit(3)"`, { requestTimeoutMs: 2_000 })).rejects.toThrow(/cannot connect to stdio: /);
  });
});

describe('runConformance: the SDK task server in process', () => {
  let report: Report;
  beforeAll(async () => {
    // The sample server logs every task whose result it cannot store (connections closed by the checks).
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    report = await runConformance(sdkServerTransport, { profile: SDK_PROFILE, label: 'sdk-tasks-server (in process)' });
  }, 120_000);
  afterAll(() => {
    vi.restoreAllMocks();
  });
  const status = (id: string) => report.checks.find((c) => c.id === id)?.status;

  it('reports every check once, in catalog order (receiver, then the target as requestor), with counts that add up', () => {
    expect(report.checks.map((c) => c.id)).toEqual([...receiverChecks2025, ...serverRequestorChecks].map((c) => c.id));
    expect(report.target).toBe('sdk-tasks-server (in process)');
    const s = report.summary;
    expect(s.pass + s.fail + s.warn + s.info + s.skip).toBe(s.total);
    expect(report.errors).toEqual([]);
  });
  it('finds the SDK violations of MUSTs (fail)', () => {
    // tool-required-must-32601: a CallToolResult with isError instead of a -32601 error.
    expect(status('capabilities.required-without-task')).toBe('fail');
    // errors-invalid-taskid-32602: a taskId of the wrong type is answered -32603.
    expect(status('errors.get-invalid-taskid')).toBe('fail');
    // related-task-taskid-source-of-truth: _meta naming another task redirects the response.
    expect(status('related-task.param-wins-get')).toBe('fail');
    const failed = report.checks.find((c) => c.id === 'capabilities.required-without-task')!;
    expect(failed.requirements).toContain('tool-required-must-32601');
    expect(failed.transcript.some((e) => e.dir === 'out')).toBe(true);
  });
  it('finds the SDK violations of SHOULDs (warn)', () => {
    expect(status('get.failed-status-message')).toBe('warn');
    expect(status('ttl.max-enforced')).toBe('warn');
    expect(status('capabilities.forbidden-with-task')).toBe('warn');
  });
  it('passes what the SDK does right, and does not exercise what an in-process target cannot offer', () => {
    for (const id of [
      'capabilities.tasks-shape',
      'creation.create-task-result',
      'lifecycle.paths-completes',
      'lifecycle.input-resume',
      'cancel.completed-rejected',
      'schema.messages-valid',
    ])
      expect(status(id), id).toBe('pass');
    // Transport checks need stdio or Streamable HTTP; the isolation checks a second identity.
    const transportChecks = report.checks.filter((c) => c.section === receiverChecks2025.find((a) => a.id.startsWith('transport.'))!.section);
    expect(transportChecks.length).toBeGreaterThan(0);
    for (const c of transportChecks) expect(c.status, c.id).toBe('skip');
    expect(report.checks.find((c) => c.id === 'security.foreign-context-rejected')?.message).toMatch(/not exercised/);
  });
});

describe("describeConformance: one vitest test per check in the user's own run", () => {
  interface Outcome {
    state: string;
    note?: string;
    errors: string[];
    annotations: { type: string; message: string }[];
    check?: string;
    path: string;
  }
  const outcomes = new Map<string, Outcome>();
  const out = mkdtempSync(join(tmpdir(), 'conformance-vitest-'));
  beforeAll(async () => {
    process.env.CONFORMANCE_OUT = out;
    const collect: Reporter = {
      onTestCaseResult(t: TestCase) {
        const r = t.result();
        let path = t.name;
        for (let p = t.parent; p.type === 'suite'; p = p.parent) path = `${p.name} > ${path}`;
        outcomes.set(t.name, {
          state: r.state,
          note: r.state === 'skipped' ? r.note : undefined,
          errors: (r.errors ?? []).map((e) => e.message),
          annotations: t.annotations().map((a) => ({ type: a.type, message: a.message })),
          check: t.meta().check?.status,
          path,
        });
      },
    };
    const { startVitest } = await import('vitest/node');
    const vitest = await startVitest(
      'test',
      [],
      {
        root: ROOT,
        config: false,
        watch: false,
        include: ['fixtures/sdk-gate.conformance.ts'],
        reporters: [collect],
        pool: 'threads',
        passWithNoTests: false,
      } as never,
      { logLevel: 'error' },
    );
    await vitest.close();
    delete process.env.CONFORMANCE_OUT;
  }, 180_000);

  it('registers a describe per spec section and a test per selected check', () => {
    // auto: a describe per revision; the in-process SDK 1.x server speaks 2025-11-25 only, so 2026-07-28's tests skip.
    expect(outcomes.get('capabilities.tasks-shape')?.path).toMatch(
      /^MCP Tasks conformance: in-process transport > \(2025-11-25\) > [^>]+ > capabilities\.tasks-shape$/,
    );
    const expected = receiverChecks2025
      .filter((c) => c.id.startsWith('capabilities.') || ['creation.create-task-result', 'errors.get-invalid-taskid'].includes(c.id) || c.runsLast)
      .map((c) => c.id);
    const graded = [...outcomes].filter(([, o]) => !o.path.includes('(2026-07-28)')).map(([id]) => id);
    expect(graded.sort()).toEqual([...expected, 'applicable MUST requirements exercised'].sort());
    const other = [...outcomes.values()].filter((o) => o.path.includes('(2026-07-28)'));
    for (const o of other) expect(o.note).toMatch(/not exercised: the target is not graded in 2026-07-28/);
  });
  it('writes the files the CLI writes and gates coverage, under the names of the flags (json, junit, markdown, writeProfile, requireCoverage)', () => {
    const report = JSON.parse(readFileSync(join(out, 'r.json'), 'utf8'));
    expect(report.checks.map((c: { id: string }) => c.id).sort()).toEqual(
      [...outcomes.entries()]
        .filter(([, o]) => o.check)
        .map(([id]) => id)
        .sort(),
    );
    expect(report.requireCoverage).toBe(true);
    expect(readFileSync(join(out, 'r.xml'), 'utf8')).toContain('creation.create-task-result');
    expect(readFileSync(join(out, 'r.md'), 'utf8')).toContain('creation.create-task-result');
    expect(Object.keys(JSON.parse(readFileSync(join(out, 'p.json'), 'utf8')).revisions['2025-11-25'].tools)).toContain('completes');
    // Every role is in the profile: each applicable MUST of the selected checks is exercised, so the gate passes.
    expect(report.coverage.must.unexercised).toEqual([]);
    expect(report.coverage.must.applicable).toBeGreaterThan(0);
    expect(outcomes.get('applicable MUST requirements exercised')?.state).toBe('passed');
  });
  it('a failed check fails its test with the requirement ids', () => {
    const o = outcomes.get('capabilities.required-without-task')!;
    expect(o.state).toBe('failed');
    expect(o.check).toBe('fail');
    expect(o.errors.join('\n')).toMatch(/\[MUST: tool-required-must-32601\]/);
  });
  it('a check not exercised is skipped with the reason', () => {
    const o = outcomes.get('capabilities.undeclared-processed-normally')!;
    expect(o.state).toBe('skipped');
    expect(o.check).toBe('skip');
    expect(o.note).toMatch(/^not exercised: /);
  });
  it('a warning passes with a visible warning annotation', () => {
    const o = outcomes.get('capabilities.forbidden-with-task')!;
    expect(o.check).toBe('warn');
    expect(o.state).toBe('passed');
    expect(o.annotations).toEqual([expect.objectContaining({ type: 'warning', message: expect.stringMatching(/^\[SHOULD: tool-forbidden-should-32601\]/) })]);
  });
  it('an expected failure passes while it fails, annotated', () => {
    const o = outcomes.get('errors.get-invalid-taskid')!;
    expect(o.check).toBe('fail');
    expect(o.state).toBe('passed');
    expect(o.annotations[0]).toMatchObject({ type: 'notice', message: expect.stringMatching(/^expected failure: /) });
  });
  it('passing checks pass', () => {
    expect(outcomes.get('creation.create-task-result')).toMatchObject({ state: 'passed', check: 'pass' });
  });
});
