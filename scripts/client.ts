// `mcp-tasks-conformance client …` (wired in scripts/cli.ts): grade an MCP client as a task requestor.
// Same reports, statuses, exit codes and baseline as the `server` command (suites/report/); the
// grading runs through vitest's Node API (suites/requestor/client.suite.ts) like the server command.
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SCENARIOS, SCENARIO_NAMES, type Scenario } from '../mocks/receiver/scenarios.ts';
import { splitCommand } from '../suites/wire/connect.ts';
import { runSuite } from './run-suite.ts';
import { buildReport, gateReport, loadBaseline } from '../suites/report/model.ts';
import { CheckCollector } from '../suites/report/collector.ts';
import { RunProgress, progressWanted } from '../suites/report/progress.ts';
import { formatConsole } from '../suites/report/console.ts';
import { writeReports } from '../suites/report/write.ts';
import { REPORT_OPTIONS } from './report-options.ts';
import { requestorChecks } from '../suites/requestor/checks.ts';
import { clientRunLimitMs, SCENARIO_ENV } from '../suites/requestor/harness.ts';
import { DEFAULT_CLIENT_CONCURRENCY, planScenarios, TASK_RECEIVER, wantsTaskReceiver, type ClientRunConfig } from '../suites/requestor/run.ts';
import { receiverChecks2025 } from '../suites/index.ts';
import { REQUEST_TYPE_NAMES } from '../suites/requestor/client-receiver.ts';
import { SPEC_REVISION } from '../schema/spec.ts';
import { CLIENT_SCENARIOS as EXTENSION_SCENARIOS, CLIENT_SCENARIO_NAMES as EXTENSION_SCENARIO_NAMES } from '../mocks/2026-07-28/scenarios.ts';
import { extensionRequestorChecks } from '../suites/2026-07-28/requestor/checks.ts';
import { interruptedResult, Interrupted, onInterrupt, type Interrupt } from './interrupt.ts';
import { endDescendants } from '../suites/wire/children.ts';
import type { CheckResult, Level } from '../suites/engine/check.ts';
import type { Revision } from '../schema/spec.ts';
import { planScenarios as planExtensionScenarios, type ExtensionClientRunConfig } from '../suites/2026-07-28/requestor/run.ts';

/** The revisions a client can be graded in (`--revision`); a client is not probed, so there is no `auto`. */
export const CLIENT_REVISIONS = [SPEC_REVISION, '2026-07-28'] as const;
export type ClientRevision = (typeof CLIENT_REVISIONS)[number];

export const CLIENT_HELP = `mcp-tasks-conformance client — grade an MCP client as a task requestor (spec ${SPEC_REVISION})

Usage:
  mcp-tasks-conformance client --command "<client command>" [--scenario <name>]… [options]
  mcp-tasks-conformance client --revision 2026-07-28 --command "<client command>" [options]

The reference receiver is started for each scenario; the client is run as
  <client command> <server>      with ${SCENARIO_ENV}=<scenario> in its environment
where <server> is the receiver's Streamable HTTP URL (--transport http, the default), or, with
--transport stdio, the command line of the server for the client to spawn (one argument, e.g.
"/usr/bin/node /…/stdio-bridge.mjs 40123"; split it like a shell would). Every message is recorded;
a client that does not exit within the scenario's timeout is killed and graded on what was seen.

options:
  --command "<cmd>"          the client under test (required)
  --revision <rev>           ${SPEC_REVISION} (default: core Tasks, the reference receiver) or 2026-07-28 (the Tasks
                             extension io.modelcontextprotocol/tasks, the reference extension server; its own scenarios)
  --scenario <name>          run only these scenarios (repeatable or comma-separated; default: all);
                             "${TASK_RECEIVER}" = the receiver checks against the client (sampling/elicitation tasks)
  --transport http|stdio     how the client reaches the receiver (default http)
  --json <file>              write the JSON report
  --junit <file>             write JUnit XML (a testsuite per section, a testcase per check with its requirement ids)
  --markdown <file>          write a Markdown report (tables per section; failures with requirement text, a sequence diagram, the messages)
  --baseline <file>          expected failures (JSON list or YAML "- id" list); a listed check that passes is stale
  --strict                   warnings fail the run too
  --tool <name>              a tool your client calls (repeatable or comma-separated): every scenario lists it too,
                             with the behaviour and taskSupport of the scenario's own tool (unlisted names are
                             served that way as well, but are not listed)
  --timeout <ms>             bound for the client's run in each scenario, from its first message (default: the scenario's
                             own, 20–30 s; its start-up is allowed up to 60 s; a run still exchanging messages at the
                             bound goes on while one comes at least every quarter bound, up to 3 bounds)
  --concurrency <n>          scenarios run at once (default ${DEFAULT_CLIENT_CONCURRENCY})
  --list-scenarios           print the scenarios and exit
  --serve <scenario> [--port N]
                             serve the reference receiver set up for one scenario on http://127.0.0.1:N/mcp
                             and print every message (by hand: point your client at it; no grading)
  --no-color                 plain console output

Scenarios and what is graded: docs/CLIENTS.md.
Exit codes: 0 no check failed; 1 a check failed (or with --strict a warning, or the baseline is stale); 2 usage error or the client cannot be started.
`;

class ClientUsageError extends Error {}

export function parseClientArgs(argv: string[]) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        command: { type: 'string' },
        scenario: { type: 'string', multiple: true },
        tool: { type: 'string', multiple: true },
        transport: { type: 'string' },
        revision: { type: 'string' },
        ...REPORT_OPTIONS,
        timeout: { type: 'string' },
        concurrency: { type: 'string' },
        'list-scenarios': { type: 'boolean', default: false },
        serve: { type: 'string' },
        port: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (e) {
    throw new ClientUsageError(e instanceof Error ? e.message : String(e));
  }
  if (values.help) return { help: true as const };
  const revision = (values.revision ?? SPEC_REVISION) as ClientRevision;
  if (!CLIENT_REVISIONS.includes(revision))
    throw new ClientUsageError(
      `--revision takes ${CLIENT_REVISIONS.join(' or ')}, got "${values.revision}"${values.revision === 'auto' ? ' (a client is graded in the revision you name: it is not probed)' : ''}`,
    );
  const extension = revision === '2026-07-28';
  if (values['list-scenarios']) return { listScenarios: true as const, revision };
  const scenarioNames = extension ? EXTENSION_SCENARIO_NAMES : SCENARIO_NAMES;
  const serve = values.serve;
  if (serve !== undefined) {
    if (!scenarioNames.includes(serve)) throw new ClientUsageError(`--serve: unknown scenario ${serve} (scenarios: ${scenarioNames.join(', ')})`);
    const port = values.port === undefined ? 0 : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ClientUsageError(`--port takes 0 … 65535, got "${values.port}"`);
    return { serve, port, revision };
  }
  const command = values.command?.trim();
  if (!command) throw new ClientUsageError('give the client under test: --command "<client command>"');
  try {
    splitCommand(command);
  } catch (e) {
    throw new ClientUsageError(`--command: ${e instanceof Error ? e.message : String(e)}`);
  }
  const transport = values.transport ?? 'http';
  if (transport !== 'http' && transport !== 'stdio') throw new ClientUsageError(`--transport takes http or stdio, got "${transport}"`);
  const scenarios = (values.scenario ?? [])
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  const known = extension ? EXTENSION_SCENARIO_NAMES : [...SCENARIO_NAMES, TASK_RECEIVER];
  const unknown = scenarios.filter((s) => !known.includes(s));
  if (unknown.length) throw new ClientUsageError(`--scenario: unknown ${unknown.join(', ')} (scenarios of ${revision}: ${known.join(', ')})`);
  if (extension && values.tool?.length)
    throw new ClientUsageError('--tool is for revision 2025-11-25 (its scenarios list your tools); the 2026-07-28 scenarios serve their own tools only');
  const plan = extension ? planExtensionScenarios(transport, scenarios) : planScenarios(transport, scenarios);
  if (plan.run.length === 0 && (extension || !wantsTaskReceiver(scenarios)))
    throw new ClientUsageError(
      `no scenario to run: ${Object.entries(plan.notRun)
        .filter(([n]) => scenarios.includes(n))
        .map(([n, why]) => `${n}: ${why}`)
        .join('; ')}`,
    );
  const num = (name: string, v: string | undefined): number | undefined => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n <= 0) throw new ClientUsageError(`--${name} takes a positive whole number, got "${v}"`);
    return n;
  };
  let baseline: string[] = [];
  try {
    baseline = values.baseline ? loadBaseline(values.baseline) : [];
  } catch (e) {
    throw new ClientUsageError(`--baseline: ${e instanceof Error ? e.message : String(e)}`);
  }
  const knownIds = new Set(extension ? extensionRequestorChecks.map((c) => c.id) : allCheckIds());
  const unknownBaseline = baseline.filter((id) => !knownIds.has(id));
  if (unknownBaseline.length) throw new ClientUsageError(`--baseline lists unknown check ids: ${unknownBaseline.join(', ')}`);
  const timeoutMs = num('timeout', values.timeout);
  const clientTools = (values.tool ?? [])
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  const config: ClientRunConfig = {
    command,
    transport,
    scenarios,
    ...(clientTools.length ? { clientTools } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    concurrency: num('concurrency', values.concurrency) ?? DEFAULT_CLIENT_CONCURRENCY,
  };
  return {
    help: false as const,
    revision,
    config,
    json: values.json,
    junit: values.junit,
    markdown: values.markdown,
    baseline,
    strict: values.strict!,
    color: !values['no-color'] && process.stdout.isTTY === true,
    // A status line on a terminal; in CI, with --json or --no-color only the final report (suites/report/progress.ts).
    progress: progressWanted({ isTTY: process.stderr.isTTY === true, env: process.env, json: values.json !== undefined, noColor: values['no-color']! }),
  };
}

/** Every check id the client command reports: requestor checks, then receiver checks per request type. */
export function allCheckIds(): string[] {
  return [...requestorChecks.map((c) => c.id), ...REQUEST_TYPE_NAMES.flatMap((t) => receiverChecks2025.map((c) => `${c.id}@${t}`))];
}

/** Whether the executable of a command line can be found (pre-flight: a client that cannot start is exit 2). */
export function findExecutable(command: string, cwd = process.cwd()): string | undefined {
  const exe = splitCommand(command).command;
  const runnable = (p: string) => {
    try {
      accessSync(p, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (exe.includes('/') || exe.includes('\\')) {
    const p = isAbsolute(exe) ? exe : resolve(cwd, exe);
    return existsSync(p) && runnable(p) ? p : undefined;
  }
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, exe);
    if (existsSync(p) && runnable(p)) return p;
  }
  return undefined;
}

/** `client --serve <scenario>`: the scenario's reference receiver on HTTP, printing each message to stderr. Serves until killed. */
async function serveScenario(name: string, port: number): Promise<number> {
  const { scenario } = await import('../mocks/receiver/scenarios.ts');
  return serveReceiver(scenario(name), port);
}

async function serveReceiver(s: Scenario, port: number): Promise<number> {
  const { createReferenceReceiver } = await import('../mocks/receiver/index.ts');
  const { receiverOptionsFor } = await import('../mocks/receiver/scenarios.ts');
  const t0 = Date.now();
  const receiver = createReferenceReceiver(
    receiverOptionsFor(s, (e) => {
      const what = e.message !== undefined ? JSON.stringify(e.message) : (e.note ?? '');
      process.stderr.write(`+${String(e.time - t0).padStart(6)} ms ${e.session.slice(0, 8)} ${e.dir === 'in' ? '→' : e.dir === 'out' ? '←' : '·'} ${what}\n`);
    }),
  );
  const { url } = await receiver.listenHttp(port, '127.0.0.1');
  process.stderr.write(`scenario ${s.name}: ${s.title}\n${s.ask}\nreference receiver listening on ${url}  (→ client to receiver, ← receiver to client)\n`);
  process.once('SIGINT', () => void receiver.close().finally(() => process.exit(0)));
  process.once('SIGTERM', () => void receiver.close().finally(() => process.exit(0)));
  return -1; // keeps serving
}

export async function runClientCommand(argv: string[]): Promise<number> {
  let args: ReturnType<typeof parseClientArgs>;
  try {
    args = parseClientArgs(argv);
  } catch (e) {
    if (!(e instanceof ClientUsageError)) throw e;
    process.stderr.write(`mcp-tasks-conformance client: ${e.message}\n(see mcp-tasks-conformance client --help)\n`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(CLIENT_HELP);
    return 0;
  }
  if ('serve' in args && typeof args.serve === 'string')
    return args.revision === '2026-07-28' ? serveExtensionScenario(args.serve, Number(args.port ?? 0)) : serveScenario(args.serve, Number(args.port ?? 0));
  if ('listScenarios' in args && args.revision === '2026-07-28') {
    for (const s of EXTENSION_SCENARIOS) process.stdout.write(`${s.name}\t${s.transports ? s.transports.join('/') : 'http/stdio'}\t${s.title}\n`);
    return 0;
  }
  if ('listScenarios' in args) {
    for (const s of SCENARIOS) process.stdout.write(`${s.name}\t${s.transports ? s.transports.join('/') : 'http/stdio'}\t${s.title}\n`);
    process.stdout.write(
      `${TASK_RECEIVER}\thttp/stdio\tThe client as task receiver: the receiver checks, with task-augmented sampling/createMessage and elicitation/create\n`,
    );
    return 0;
  }
  const { config } = args;
  if (!findExecutable(config.command)) {
    process.stderr.write(
      `mcp-tasks-conformance client: cannot start the client: "${splitCommand(config.command).command}" is not an executable file or on PATH\n`,
    );
    return 2;
  }
  if (args.revision === '2026-07-28') return gradeExtensionClient(args);
  const started = new Date();
  const target = `client: ${config.command} (${config.transport})`;
  const plan = planScenarios(config.transport, config.scenarios);
  const scenarioList = [...plan.run, ...(wantsTaskReceiver(config.scenarios) ? [TASK_RECEIVER] : [])];
  process.stderr.write(`${target}\nscenarios: ${scenarioList.join(', ')}\n`);

  // No line per check: on a terminal a status line shows the run (suites/report/progress.ts), elsewhere only the final report.
  const status = args.progress ? new RunProgress(process.stderr) : undefined;
  status?.startTicking();
  status?.setPhase(`running ${scenarioList.length} scenario(s), then grading`);
  const collector = new CheckCollector(() => {}, status);
  const reporters: unknown[] = [collector];
  const longest = Math.max(20_000, ...plan.run.map((n) => config.timeoutMs ?? SCENARIOS.find((s) => s.name === n)!.timeoutMs));
  const interrupt = onInterrupt();
  await runInterruptible(interrupt, {
    entry: 'suites/requestor/client.suite',
    reporters,
    provide: { clientConformance: config },
    options: {
      // Every scenario runs in beforeAll: allow them all (each at most clientRunLimitMs of its bound), plus margin.
      hookTimeout: Math.ceil(plan.run.length / Math.max(1, config.concurrency)) * (clientRunLimitMs(longest) + 5_000) + 30_000,
      // The first receiver check of a request type waits for all of that type's checks (client-receiver.ts).
      testTimeout: 600_000,
    },
  });
  status?.stop();
  const order = new Map(allCheckIds().map((id, i) => [id, i]));
  const results = [...collector.results, ...unfinished(collector, interrupt)].sort((a, b) => (order.get(a.id) ?? 1e9) - (order.get(b.id) ?? 1e9));
  const report = buildReport(results, target, started, args.baseline, collector.errors);
  if (interrupt.signal) report.interrupted = { signal: interrupt.signal };
  interrupt.dispose();
  const code = gateReport(report, args.strict);
  process.stdout.write(formatConsole(report, args.color) + '\n');
  await writeReports(report, { json: args.json, junit: args.junit, markdown: args.markdown }, { strict: args.strict, exitCode: code });
  return code;
}

/** `client --serve <scenario> --revision 2026-07-28`: the scenario's reference extension server on HTTP, printing each message. */
async function serveExtensionScenario(name: string, port: number): Promise<number> {
  const { ScenarioServer, clientScenario } = await import('../mocks/2026-07-28/scenarios.ts');
  const { listenHttp } = await import('../mocks/2026-07-28/http.ts');
  const s = clientScenario(name);
  if (s.legacy) {
    // Its server is a legacy one: the 2025-11-25 reference receiver the harness runs for it.
    const { legacyScenario } = await import('../suites/2026-07-28/requestor/harness.ts');
    return serveReceiver(legacyScenario(s), port);
  }
  const t0 = Date.now();
  const server = new ScenarioServer(s, {
    onWire: (e) =>
      process.stderr.write(
        `+${String(e.time - t0).padStart(6)} ms ${e.dir === 'in' ? '→' : '←'} ${typeof e.message === 'string' ? e.message : JSON.stringify(e.message)}\n`,
      ),
  });
  const l = await listenHttp(server, port, '127.0.0.1');
  process.stderr.write(
    `scenario ${s.name} (2026-07-28): ${s.title}\n${s.ask}\nreference extension server listening on ${l.url}  (→ client to server, ← server to client)\n`,
  );
  const stop = () => {
    server.close();
    void l.close().finally(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return -1; // keeps serving
}

/**
 * Runs the client suite until it ends or a signal arrives (scripts/interrupt.ts); then every process the run
 * started (the clients, spawned in vitest's worker) is ended, and the caller reports the tests that did not finish.
 */
async function runInterruptible(interrupt: Interrupt, run: Parameters<typeof runSuite>[0]): Promise<void> {
  try {
    // vitest's Node API exits the process on SIGINT/SIGTERM: once it has started (onInit), our handler alone acts.
    await interrupt.race(runSuite({ ...run, reporters: [...run.reporters, { onInit: () => interrupt.sole() }] }));
  } catch (e) {
    if (!(e instanceof Interrupted)) throw e;
    await endDescendants();
  }
}

/** The collected checks without a result once the run was interrupted: not exercised (interrupted). */
function unfinished(collector: CheckCollector, interrupt: Interrupt, revision?: Revision): CheckResult[] {
  if (!interrupt.signal) return [];
  const done = new Set(collector.results.map((r) => r.id));
  const defs = new Map<string, { id: string; section: string; title?: string; requirements?: readonly string[]; level?: Level }>(
    [...requestorChecks, ...extensionRequestorChecks].map((c) => [c.id, c]),
  );
  return collector.collected.filter((t) => !done.has(t.id)).map((t) => interruptedResult({ ...t, ...(defs.get(t.id) ?? {}) }, revision, interrupt.signal!));
}

/** Grades a client in revision 2026-07-28: the scenarios of the reference extension server, the requestor checks of the revision. */
async function gradeExtensionClient(args: Extract<ReturnType<typeof parseClientArgs>, { config: ClientRunConfig }>): Promise<number> {
  const { config } = args;
  const started = new Date();
  const target = `client: ${config.command} (${config.transport}, revision 2026-07-28)`;
  const plan = planExtensionScenarios(config.transport, config.scenarios);
  process.stderr.write(`${target}\nscenarios: ${plan.run.join(', ')}\n`);
  const collector = new CheckCollector((line) => process.stderr.write(`  ${line}\n`));
  const provided: ExtensionClientRunConfig & { command: string; cwd?: string } = {
    command: config.command,
    transport: config.transport,
    scenarios: config.scenarios,
    concurrency: config.concurrency,
    ...(config.timeoutMs !== undefined ? { timeoutMs: config.timeoutMs } : {}),
  };
  const longest = Math.max(20_000, ...plan.run.map((n) => config.timeoutMs ?? EXTENSION_SCENARIOS.find((s) => s.name === n)!.timeoutMs));
  const interrupt = onInterrupt();
  await runInterruptible(interrupt, {
    entry: 'suites/2026-07-28/requestor/client.suite',
    reporters: [collector],
    provide: { extensionClientConformance: provided },
    options: { hookTimeout: Math.ceil(plan.run.length / Math.max(1, config.concurrency)) * (clientRunLimitMs(longest) + 5_000) + 30_000, testTimeout: 60_000 },
  });
  const order = new Map(extensionRequestorChecks.map((c, i) => [c.id, i]));
  const results = [...collector.results, ...unfinished(collector, interrupt, '2026-07-28')].sort((a, b) => (order.get(a.id) ?? 1e9) - (order.get(b.id) ?? 1e9));
  const report = buildReport(results, target, started, args.baseline, collector.errors, '2026-07-28');
  if (interrupt.signal) report.interrupted = { signal: interrupt.signal };
  interrupt.dispose();
  const code = gateReport(report, args.strict);
  process.stdout.write(formatConsole(report, args.color) + '\n');
  await writeReports(report, { json: args.json, junit: args.junit, markdown: args.markdown }, { strict: args.strict, exitCode: code });
  return code;
}
