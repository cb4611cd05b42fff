// `mcp-tasks-conformance mock --judge [--revision R] (--stdio | --http <port>) [--scenario <name>] [report options]`:
// the reference peer of revision R grades whoever talks to it — a desktop host, an agent framework given the URL,
// any client we did not start. The requestor checks of the `client` command judge the live transcript
// (suites/requestor/live.ts); a fail or warn whose evidence is a message the client sent is printed on stderr as
// soon as it shows, and the usual reports are written on exit (SIGINT, SIGTERM, the end of stdin) and on request
// (SIGUSR2).
//   Without --scenario the peer serves its ordinary tools and judges with the checks that judge every task
// scenario of the revision, whatever the scenario asks of the client; with --scenario it serves that scenario's
// peer (as `client --serve`) and judges with that scenario's checks, the client doing what the scenario asks.
import type { IncomingHttpHeaders } from 'node:http';
import { parseArgs } from 'node:util';
import type { Readable, Writable } from 'node:stream';
import type { CheckResult } from '../suites/engine/check.ts';
import { LiveJudge, type LiveEvent } from '../suites/requestor/live.ts';
import { gradeCheck, type GradedRun } from '../suites/requestor/engine.ts';
import { buildReport, exitCode, loadBaseline, type Report } from '../suites/report/model.ts';
import { formatConsole } from '../suites/report/console.ts';
import { writeReports } from '../suites/report/write.ts';
import { REPORT_OPTIONS } from './report-options.ts';

/** The revisions `--judge` serves (dual-era: judge each revision's client against its own peer). */
export const JUDGE_REVISIONS = ['2025-11-25', '2026-07-28'] as const;
export type JudgeRevision = (typeof JUDGE_REVISIONS)[number];

/** The scenario name of a transcript judged without a scenario (the checks judging every task scenario). */
export const LIVE = 'live';

export const JUDGE_USAGE = `usage: mcp-tasks-conformance mock --judge [--revision 2025-11-25|2026-07-28] (--stdio | --http <port> [--host <host>])
                                   [--scenario <name>] [--json <file>] [--junit <file>] [--markdown <file>] [--baseline <file>] [--strict]
  The reference peer grades the client that talks to it: a fail or warn whose evidence is a message the client
  sent is printed on stderr as soon as it shows; what the client did not do is judged at the end. The report is
  printed and written on exit (Ctrl-C, SIGTERM, end of stdin) and on request (kill -USR2 <pid>). Stop it once
  your client is done: a client still acting then is not judged on what it did not do yet.
  --scenario <name>  serve one scenario's peer (client --list-scenarios) and judge with its checks; default: the
                     ordinary peer, judged by the checks that hold whatever a scenario asks`;

class JudgeUsageError extends Error {}

export interface JudgeOptions {
  revision: JudgeRevision;
  scenario?: string;
  transport: 'stdio' | 'http';
  port?: number;
  host?: string;
  /** stdio: the client's streams (default process.stdin / process.stdout). */
  streams?: { input: Readable; output: Writable };
  onVerdict?(result: CheckResult): void;
}

export interface RunningJudge {
  /** The HTTP endpoint (http). */
  url?: string;
  /** What the scenario asks of the client (with --scenario). */
  ask?: string;
  checks: number;
  judge: LiveJudge<GradedRun>;
  /** Resolves when a stdio client closed its end. */
  ended: Promise<void>;
  /** The report of the transcript so far (`final`: the judge stops; `clientEnded`: the client closed its connection). */
  report(final: boolean, baseline?: string[], clientEnded?: boolean): Report;
  close(): Promise<void>;
}

interface Graded {
  id: string;
  scenarios: readonly string[];
  judge(run: never, ctx: never): string | void;
}

/** The checks a transcript is judged by: a scenario's, or (LIVE) those that judge every task scenario. */
function applicable<C extends Graded>(checks: readonly C[], scenario: string | undefined, everyTaskScenario: readonly string[]): C[] {
  if (scenario !== undefined) return checks.filter((c) => c.scenarios.includes(scenario));
  return checks.filter((c) => everyTaskScenario.every((s) => c.scenarios.includes(s))).map((c) => ({ ...c, scenarios: [LIVE] }));
}

/**
 * The checks whose violation is a message the client sent (nothing it does later undoes it): printed as soon as it
 * shows. Every other check (the client stopped polling, did not answer input, did not retry, did not go on) is
 * judged once the client is done; a check not listed here is held until the end too.
 */
export const PRINTED_LIVE: Readonly<Record<JudgeRevision, ReadonlySet<string>>> = {
  '2025-11-25': new Set([
    'requestor.augment-only-declared',
    'requestor.no-tasks-capability',
    'requestor.tool-no-capability',
    'requestor.tool-forbidden',
    'requestor.tool-required',
    'requestor.poll-interval',
    'requestor.input-response-related-task',
    'requestor.no-related-task-in-task-requests',
    'requestor.no-related-task-in-list',
    'requestor.cursor-opaque',
    'requestor.cancel-with-tasks-cancel',
    'receiving.create-task-result',
    'receiving.begins-working',
    'receiving.id-string',
    'receiving.task-fields',
    'receiving.valid-paths',
    'receiving.result-related-task',
    'receiving.undeclared-processed-normally',
    'receiving.caps-declared',
  ]),
  '2026-07-28': new Set([
    '2026-requestor.discover-first-stdio',
    '2026-requestor.poll-interval',
    '2026-requestor.answer-once',
    '2026-requestor.update-keys-outstanding',
    '2026-requestor.cancel-with-tasks-cancel',
    '2026-requestor.cancel-only-issued',
    '2026-requestor.request-meta',
    '2026-requestor.standard-headers',
    '2026-requestor.mcp-name-base64',
    '2026-requestor.mcp-name-task-id',
  ]),
};

/** A revision's reference peer set up for judging: its checks, how it reads and grades a transcript, its endpoint. */
interface JudgedPeer {
  checks: readonly Graded[];
  /** Checks whose fail or warn is printed while the client runs (LiveJudgeOptions.printedLive); the rest at the end. */
  printedLive: ReadonlySet<string>;
  ask?: string;
  analyse(run: GradedRun): GradedRun;
  grade(check: Graded, runs: GradedRun[]): CheckResult;
  url?: string;
  /** Resolves when a stdio client closed its end. */
  ended?: Promise<void>;
  close(): Promise<void>;
}

type PeerFactory = (o: JudgeOptions, record: (e: LiveEvent) => void) => Promise<JudgedPeer>;

/** The judging peer of each revision (a new revision is one more entry). */
const PEERS: Readonly<Record<JudgeRevision, PeerFactory>> = {
  '2025-11-25': async (o, record) => {
    const { requestorChecks } = await import('../suites/requestor/checks.ts');
    const { TASK_SCENARIOS } = await import('../suites/requestor/checks/common.ts');
    const { analyse } = await import('../suites/requestor/analysis.ts');
    const { createReferenceReceiver } = await import('../mocks/receiver/index.ts');
    const { receiverOptionsFor, scenario, SCENARIO_NAMES } = await import('../mocks/receiver/scenarios.ts');
    if (o.scenario !== undefined && !SCENARIO_NAMES.includes(o.scenario))
      throw new JudgeUsageError(`--scenario: unknown ${o.scenario} (scenarios of ${o.revision}: ${SCENARIO_NAMES.join(', ')})`);
    const s = o.scenario !== undefined ? scenario(o.scenario) : undefined;
    const tap = (e: { session: string; dir: 'in' | 'out' | 'event'; message?: unknown; note?: string; time: number }) => record(e);
    const receiver = createReferenceReceiver(s ? receiverOptionsFor(s, tap) : { scenario: { tap, probeClientReceiver: true } });
    const peer = {
      checks: applicable(requestorChecks, o.scenario, TASK_SCENARIOS),
      printedLive: PRINTED_LIVE['2025-11-25'],
      ...(s ? { ask: s.ask } : {}),
      analyse: (run: GradedRun) => analyse(run as never) as unknown as GradedRun,
      grade: (c: Graded, runs: GradedRun[]) => gradeCheck(c as never, runs as never),
    };
    if (o.transport === 'http') {
      const l = await receiver.listenHttp(o.port ?? 0, o.host ?? '127.0.0.1');
      return { ...peer, url: l.url, close: async () => (await l.close(), await receiver.close()) };
    }
    const session = await receiver.serveStdio();
    const ended = new Promise<void>((resolve) => {
      process.stdin.once('end', () => resolve());
      session.transport.onclose = ((prev) => () => {
        prev?.();
        resolve();
      })(session.transport.onclose);
    });
    return { ...peer, ended, close: () => receiver.close() };
  },
  '2026-07-28': async (o, record) => {
    const { extensionRequestorChecks } = await import('../suites/2026-07-28/requestor/checks.ts');
    const { ALL } = await import('../suites/2026-07-28/requestor/engine.ts');
    const { analyse } = await import('../suites/2026-07-28/requestor/analysis.ts');
    const { flatHeaders } = await import('../suites/2026-07-28/requestor/harness.ts');
    const { ExtensionServer } = await import('../mocks/2026-07-28/server.ts');
    const { ScenarioServer, clientScenario, CLIENT_SCENARIO_NAMES } = await import('../mocks/2026-07-28/scenarios.ts');
    const { listenHttp } = await import('../mocks/2026-07-28/http.ts');
    const { serveStream } = await import('../mocks/2026-07-28/stdio.ts');
    if (o.scenario !== undefined && !CLIENT_SCENARIO_NAMES.includes(o.scenario))
      throw new JudgeUsageError(`--scenario: unknown ${o.scenario} (scenarios of ${o.revision}: ${CLIENT_SCENARIO_NAMES.join(', ')})`);
    const s = o.scenario !== undefined ? clientScenario(o.scenario) : undefined;
    if (s?.legacy) throw new JudgeUsageError(`--scenario ${s.name}: its peer is a 2025-11-25 server: judge it with mock --judge --revision 2025-11-25`);
    const session = o.transport;
    const onWire = (e: { dir: 'in' | 'out'; message: unknown; headers?: IncomingHttpHeaders; time: number }) =>
      record({
        dir: e.dir,
        session,
        time: e.time,
        ...(typeof e.message === 'string' ? { raw: e.message } : { message: e.message }),
        ...(e.headers ? { headers: flatHeaders(e.headers) } : {}),
      });
    const server = s ? new ScenarioServer(s, { onWire }) : new ExtensionServer({ onWire });
    const peer = {
      checks: applicable(extensionRequestorChecks, o.scenario, ALL),
      printedLive: PRINTED_LIVE['2026-07-28'],
      ...(s ? { ask: s.ask } : {}),
      analyse: (run: GradedRun) => analyse(run as never) as unknown as GradedRun,
      grade: (c: Graded, runs: GradedRun[]) => ({ ...gradeCheck(c as never, runs as never), revision: o.revision }),
    };
    if (o.transport === 'http') {
      const l = await listenHttp(server, o.port ?? 0, o.host ?? '127.0.0.1');
      return { ...peer, url: l.url, close: async () => (server.close(), await l.close()) };
    }
    const io = o.streams ?? { input: process.stdin, output: process.stdout };
    const c = serveStream(server, io.input, io.output);
    return { ...peer, ended: c.closed.then(() => undefined), close: async () => (server.close(), c.close()) };
  },
};

export async function startJudge(o: JudgeOptions): Promise<RunningJudge> {
  let judge: LiveJudge<GradedRun> | undefined;
  const early: LiveEvent[] = [];
  const peer = await PEERS[o.revision](o, (e) => (judge ? judge.record(e) : early.push(e)));
  judge = new LiveJudge<GradedRun>({
    scenario: o.scenario ?? LIVE,
    transport: o.transport,
    checks: peer.checks,
    analyse: (run) => peer.analyse(run),
    grade: (i, runs) => peer.grade(peer.checks[i]!, runs),
    printedLive: (id) => peer.printedLive.has(id),
    ...(o.onVerdict ? { onVerdict: o.onVerdict } : {}),
  });
  for (const e of early) judge.record(e);
  const j = judge;
  const target = `client judged live by the reference peer of ${o.revision} (${o.transport}${peer.url ? ` ${peer.url}` : ''}${o.scenario ? `, scenario ${o.scenario}` : ''})`;
  return {
    ...(peer.url ? { url: peer.url } : {}),
    ...(peer.ask ? { ask: peer.ask } : {}),
    checks: peer.checks.length,
    judge: j,
    ended: peer.ended ?? new Promise(() => {}),
    report(final, baseline = [], clientEnded = false) {
      const results = final ? j.finish(clientEnded) : j.grade('final', clientEnded);
      const errors = j.reached ? [] : ['no client message arrived'];
      return buildReport(results, target, new Date(j.startedAt), baseline, errors, o.revision);
    },
    close: () => peer.close(),
  };
}

/** One verdict line: status, check, requirement ids, message. */
export function verdictLine(r: CheckResult): string {
  return `${r.status.toUpperCase()} ${r.id} [${r.requirements.join(', ')}] ${r.message}`;
}

export function parseJudgeArgs(revision: string | undefined, argv: string[]) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        judge: { type: 'boolean' },
        stdio: { type: 'boolean' },
        http: { type: 'string' },
        host: { type: 'string' },
        scenario: { type: 'string' },
        ...REPORT_OPTIONS,
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (e) {
    throw new JudgeUsageError(`${e instanceof Error ? e.message : String(e)} (with --judge the peer takes no faults, latitudes or settings of its own)`);
  }
  const rev = (revision ?? '2025-11-25') as JudgeRevision;
  if (!JUDGE_REVISIONS.includes(rev)) throw new JudgeUsageError(`--judge serves ${JUDGE_REVISIONS.join(' or ')}, not ${revision}`);
  if (values.help) return { help: true as const };
  if (!!values.stdio === (values.http !== undefined)) throw new JudgeUsageError('choose exactly one of --stdio or --http <port>');
  const port = values.http === undefined ? undefined : Number(values.http);
  if (port !== undefined && (!/^\d+$/.test(values.http!) || port > 65535)) throw new JudgeUsageError(`--http expects a port 0 … 65535, got "${values.http}"`);
  let baseline: string[] = [];
  try {
    baseline = values.baseline ? loadBaseline(values.baseline) : [];
  } catch (e) {
    throw new JudgeUsageError(`--baseline: ${e instanceof Error ? e.message : String(e)}`);
  }
  return {
    help: false as const,
    options: {
      revision: rev,
      transport: values.stdio ? 'stdio' : 'http',
      ...(port !== undefined ? { port } : {}),
      host: values.host,
      scenario: values.scenario,
    } as JudgeOptions,
    files: { json: values.json, junit: values.junit, markdown: values.markdown },
    baseline,
    strict: values.strict ?? false,
    color: !values['no-color'] && process.stderr.isTTY === true,
  };
}

/** `mock --judge …`: serves until stopped; void while serving, an exit code when done at once. */
export async function runJudge(revision: string | undefined, argv: string[]): Promise<number | void> {
  let args: ReturnType<typeof parseJudgeArgs>;
  let running: RunningJudge;
  try {
    args = parseJudgeArgs(revision, argv);
    if (args.help) {
      process.stderr.write(JUDGE_USAGE + '\n');
      return 0;
    }
    running = await startJudge({ ...args.options, onVerdict: (r) => process.stderr.write(`${verdictLine(r)}\n`) });
  } catch (e) {
    if (!(e instanceof JudgeUsageError)) throw e;
    process.stderr.write(`${e.message}\n${JUDGE_USAGE}\n`);
    return 2;
  }
  const { files, baseline, strict, color } = args;
  const write = async (final: boolean, clientEnded = false) => {
    const report = running.report(final, baseline, clientEnded);
    process.stderr.write(formatConsole(report, color) + '\n');
    await writeReports(report, files, { strict });
    return report;
  };
  let stopping = false;
  const stop = async (clientEnded = false) => {
    if (stopping) return;
    stopping = true;
    const report = await write(true, clientEnded);
    await running.close().catch(() => undefined);
    process.exit(exitCode(report, strict));
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  process.on('SIGUSR2', () => void write(false));
  void running.ended.then(() => stop(true));
  process.stderr.write(
    `judging the client of revision ${args.options.revision} with ${running.checks} requestor checks${args.options.scenario ? ` (scenario ${args.options.scenario}: ${running.ask})` : ''}\n` +
      (running.url ? `reference peer listening on ${running.url}\n` : 'reference peer on stdio\n'),
  );
}
