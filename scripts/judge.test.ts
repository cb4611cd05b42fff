// `mock --judge`: the reference peer grades a client it did not start, live. The reference clients (both
// revisions) talk to it with one fault switched on: the fault's requirement is reported (a check it kills fails or
// warns, and nothing outside its killedBy does), printed live when the evidence is a message; with no fault or
// under a latitude nothing fails or warns. Over stdio the judge is the server command the client spawns (as a
// desktop host would), and writes its report when the client closes its end.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runReferenceClient } from '../mocks/client/reference-client.ts';
import { runExtensionClient } from '../mocks/2026-07-28/client/reference-client.ts';
import { requestorChecks } from '../suites/requestor/checks.ts';
import { extensionRequestorChecks } from '../suites/2026-07-28/requestor/checks.ts';
import type { CheckResult } from '../suites/engine/check.ts';
import { PRINTED_LIVE, startJudge, type JudgeRevision } from './judge.ts';

interface Case {
  revision: JudgeRevision;
  /** The judge's scenario (undefined: the ordinary peer, the checks that judge every scenario). */
  scenario?: string;
  /** What the reference client is told to do (its scenario). */
  plays: string;
  faults?: string[];
  latitudes?: string[];
  /** The check the fault must turn fail/warn. */
  reports?: string;
}

const killedBy = (revision: JudgeRevision, fault: string): string[] =>
  (revision === '2025-11-25' ? requestorChecks : extensionRequestorChecks).filter((c) => (c.killedBy as readonly string[]).includes(fault)).map((c) => c.id);
const loud = (rs: readonly CheckResult[]) => rs.filter((r) => r.status === 'fail' || r.status === 'warn');
const show = (rs: readonly CheckResult[]) => rs.map((r) => `${r.id} ${r.status}: ${r.message.slice(0, 300)}`).join('\n');

async function judged(c: Case): Promise<{ live: CheckResult[]; final: CheckResult[] }> {
  const live: CheckResult[] = [];
  const j = await startJudge({ revision: c.revision, transport: 'http', ...(c.scenario ? { scenario: c.scenario } : {}), onVerdict: (r) => live.push(r) });
  const run = c.revision === '2025-11-25' ? runReferenceClient : runExtensionClient;
  const signal = AbortSignal.timeout(60_000);
  await run({ scenario: c.plays, serverArg: j.url!, faults: c.faults ?? [], latitudes: c.latitudes ?? [], signal });
  // the live verdicts of the last burst settle, then the client (ended, in process) is judged as done
  await new Promise((r) => setTimeout(r, 400));
  const final = j.report(true, [], true).checks;
  await j.close();
  return { live, final };
}

const FAULTY: Case[] = [
  { revision: '2025-11-25', plays: 'tool-negotiation', faults: ['augment-forbidden'], reports: 'requestor.tool-forbidden' },
  { revision: '2025-11-25', plays: 'tool-negotiation', faults: ['no-augment-required'], reports: 'requestor.tool-required' },
  { revision: '2025-11-25', plays: 'tool-negotiation', faults: ['related-task-in-requests'], reports: 'requestor.no-related-task-in-task-requests' },
  { revision: '2025-11-25', scenario: 'poll-interval', plays: 'poll-interval', faults: ['fast-poll'], reports: 'requestor.poll-interval' },
  {
    revision: '2025-11-25',
    scenario: 'input-required',
    plays: 'input-required',
    faults: ['elicitation-no-related-task'],
    reports: 'requestor.input-response-related-task',
  },
  { revision: '2025-11-25', scenario: 'cancel', plays: 'cancel', faults: ['cancel-notification'], reports: 'requestor.cancel-with-tasks-cancel' },
  { revision: '2026-07-28', plays: 'tasks', faults: ['no-request-meta'], reports: '2026-requestor.request-meta' },
  { revision: '2026-07-28', plays: 'tasks', faults: ['no-mcp-name'], reports: '2026-requestor.mcp-name-task-id' },
  { revision: '2026-07-28', plays: 'tasks', faults: ['fast-poll'], reports: '2026-requestor.poll-interval' },
  { revision: '2026-07-28', scenario: 'input', plays: 'input', faults: ['stray-keys'], reports: '2026-requestor.update-keys-outstanding' },
  { revision: '2026-07-28', scenario: 'input', plays: 'input', faults: ['stop-after-update'], reports: '2026-requestor.observe-after-update' },
  { revision: '2026-07-28', scenario: 'cancel', plays: 'cancel', faults: ['cancel-notification'], reports: '2026-requestor.cancel-with-tasks-cancel' },
];

const SILENT: Case[] = [
  { revision: '2025-11-25', plays: 'tool-negotiation' },
  { revision: '2025-11-25', scenario: 'input-required', plays: 'input-required' },
  { revision: '2025-11-25', plays: 'tool-negotiation', latitudes: ['slow-polling'] },
  { revision: '2025-11-25', scenario: 'input-required', plays: 'input-required', latitudes: ['poll-on-events'] },
  { revision: '2026-07-28', plays: 'tasks' },
  { revision: '2026-07-28', scenario: 'input', plays: 'input' },
  { revision: '2026-07-28', plays: 'tasks', latitudes: ['poll-slower'] },
  { revision: '2026-07-28', scenario: 'input', plays: 'input', latitudes: ['partial-answers'] },
];

const name = (c: Case) =>
  `${c.revision}${c.scenario ? ` --scenario ${c.scenario}` : ''}: ${[...(c.faults ?? []), ...(c.latitudes ?? [])].join(', ') || 'correct client'}`;

// One client at a time: client and peer share this process's event loop, and the timing checks measure on it.
describe('mock --judge reports each fault of the reference clients', () => {
  it.each(FAULTY)('$revision $faults', { timeout: 90_000 }, async (c) => {
    const { live, final } = await judged(c);
    const allowed = killedBy(c.revision, c.faults![0]!);
    expect(
      loud(final).map((r) => r.id),
      `${name(c)}\n${show(loud(final))}`,
    ).toContain(c.reports);
    expect(
      loud(final)
        .map((r) => r.id)
        .filter((id) => !allowed.includes(id)),
      `${name(c)}: only checks naming the fault speak\n${show(loud(final))}`,
    ).toEqual([]);
    // a verdict whose evidence is a message the client sent is printed while the client runs; the others at the end only
    if (PRINTED_LIVE[c.revision].has(c.reports!)) expect(live.map((r) => r.id)).toContain(c.reports);
    else expect(live.map((r) => r.id)).not.toContain(c.reports);
  });
});

describe('the checks printed live', () => {
  it('are checks of their revision', () => {
    const ids = { '2025-11-25': requestorChecks.map((c) => c.id), '2026-07-28': extensionRequestorChecks.map((c) => c.id) };
    for (const rev of ['2025-11-25', '2026-07-28'] as const) expect([...PRINTED_LIVE[rev]].filter((id) => !ids[rev].includes(id))).toEqual([]);
  });
});

describe('mock --judge stays silent for a correct client and under its latitudes', () => {
  it.each(SILENT)('$revision $latitudes $scenario', { timeout: 90_000 }, async (c) => {
    const { live, final } = await judged(c);
    expect(show(loud(final)), name(c)).toBe('');
    expect(show(live), name(c)).toBe('');
    expect(
      final.some((r) => r.status === 'pass'),
      `${name(c)}: something was judged`,
    ).toBe(true);
  });
});

/** The judge writes its report after the client's stdin closed: the file once it is there (bounded). */
async function reportOf(json: string): Promise<{ checks: CheckResult[] }> {
  for (let i = 0; ; i++) {
    try {
      return JSON.parse(readFileSync(json, 'utf8')) as { checks: CheckResult[] };
    } catch (e) {
      if (i >= 300) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

describe('mock --judge over stdio, as the server command a client spawns', () => {
  it('2026-07-28: the report is written when the client closes its end', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mtc-judge-'));
    const json = join(dir, 'report.json');
    const server = `${process.execPath} --import tsx scripts/cli.ts mock --judge --revision 2026-07-28 --stdio --json ${json}`;
    const code = await runExtensionClient({
      scenario: 'tasks',
      serverArg: server,
      faults: ['no-request-meta'],
      latitudes: [],
      signal: AbortSignal.timeout(90_000),
    });
    expect(code).not.toBeNull();
    expect(loud((await reportOf(json)).checks).map((r) => r.id)).toEqual(['2026-requestor.request-meta']);
  });

  it('2025-11-25: the same', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mtc-judge-'));
    const json = join(dir, 'report.json');
    const server = `${process.execPath} --import tsx scripts/cli.ts mock --judge --stdio --json ${json}`;
    const code = await runReferenceClient({
      scenario: 'tool-negotiation',
      serverArg: server,
      faults: ['augment-forbidden'],
      latitudes: [],
      signal: AbortSignal.timeout(90_000),
    });
    expect(code).not.toBeNull();
    expect(loud((await reportOf(json)).checks).map((r) => r.id)).toEqual(['requestor.tool-forbidden']);
  });

  it('over HTTP: the report on request (SIGUSR2), and again on SIGINT (exit 1: a check failed)', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mtc-judge-'));
    const json = join(dir, 'report.json');
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/cli.ts', 'mock', '--judge', '--http', '0', '--json', json], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    onTestFinished(() => void (child.exitCode === null && child.kill()));
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (d) => {
        stderr += d;
        const m = /listening on (\S+)/.exec(stderr);
        if (m) resolve(m[1]!);
      });
      child.once('exit', (code) => reject(new Error(`judge exited ${code}: ${stderr}`)));
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await runReferenceClient({
      scenario: 'tool-negotiation',
      serverArg: url,
      faults: ['augment-forbidden'],
      latitudes: [],
      signal: AbortSignal.timeout(60_000),
    });
    child.kill('SIGUSR2');
    expect(loud((await reportOf(json)).checks).map((r) => r.id)).toEqual(['requestor.tool-forbidden']);
    child.kill('SIGINT');
    expect(await exited).toBe(1);
    expect(stderr).toMatch(/FAIL requestor\.tool-forbidden/);
  });

  it('usage errors: exit 2', () => {
    const run = (args: string[]) => {
      try {
        execFileSync(process.execPath, ['--import', 'tsx', 'scripts/cli.ts', 'mock', '--judge', ...args], { stdio: 'pipe' });
        return 0;
      } catch (e) {
        return (e as { status: number }).status;
      }
    };
    expect(run(['--http', '0', '--fault', 'fast-poll'])).toBe(2);
    expect(run(['--revision', '2026-07-28', '--http', '0', '--scenario', 'legacy-server'])).toBe(2);
    expect(run(['--http', '0', '--scenario', 'nope'])).toBe(2);
  });
});
