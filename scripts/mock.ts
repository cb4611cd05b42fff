// Standalone reference receiver:  tsx scripts/mock.ts --stdio | --http <port> [--host H] [options]
// (also `mcp-tasks-conformance mock …`, through runMock). Stdout carries only JSON-RPC (stdio mode);
// everything else goes to stderr. See mocks/RECEIVER.md. With `--revision 2026-07-28` the reference
// extension server runs instead (mocks/2026-07-28/cli.ts, its own options); with `--revision dual-era` both,
// behind one endpoint (mocks/dual-era/cli.ts).
import { parseArgs } from 'node:util';
import { listenAnnounced, parseCommandLine, runWhenMain, shutdownOnSignals, transportChoiceError } from '../mocks/command.ts';
import { createReferenceReceiver, FAULTS, LATITUDES, type FaultInfo, type LatitudeInfo } from '../mocks/receiver/index.ts';
import { MOCK_USAGE, parseMockArgs } from '../mocks/receiver/args.ts';

/**
 * The revisions a reference peer serves: 2025-11-25 (the receiver above, the default), 2026-07-28
 * (mocks/2026-07-28), or dual-era (both behind one endpoint, basic-versioning.md: mocks/dual-era).
 */
export const MOCK_REVISIONS = ['2025-11-25', '2026-07-28', 'dual-era'] as const;
const USAGE = `${MOCK_USAGE}
revision:
  --revision <rev>         ${MOCK_REVISIONS.join(' | ')} (default 2025-11-25); 2026-07-28 is the reference
                           extension server, with its own options: mock --revision 2026-07-28 --help;
                           dual-era serves both revisions on one endpoint: mock --revision dual-era --help
judge:
  --judge                  grade the client that connects, live (both revisions): mock --judge --help`;

/** Takes `--revision <rev>` (or `--revision=<rev>`) out of argv; the rest is the chosen mock's own options. */
export function splitRevision(argv: string[]): { revision: string | undefined; rest: string[] } {
  const { tokens } = parseArgs({ args: argv, options: { revision: { type: 'string' } }, strict: false, allowPositionals: true, tokens: true });
  const opt = tokens.filter((t) => t.kind === 'option' && t.name === 'revision');
  if (!opt.length) return { revision: undefined, rest: argv };
  const last = opt.at(-1)!;
  const drop = new Set<number>();
  for (const t of opt) {
    drop.add(t.index);
    if (t.kind === 'option' && !t.inlineValue && t.value !== undefined) drop.add(t.index + 1);
  }
  return { revision: (last.kind === 'option' ? last.value : undefined) ?? '', rest: argv.filter((_, i) => !drop.has(i)) };
}

/** Runs the mock. Returns an exit code when it is done at once (usage error: 2, --list-faults/--help: 0); void while serving. */
export async function runMock(argvWithRevision: string[]): Promise<number | void> {
  const { revision, rest: argv } = splitRevision(argvWithRevision);
  if (revision !== undefined && !(MOCK_REVISIONS as readonly string[]).includes(revision)) {
    process.stderr.write(`--revision expects ${MOCK_REVISIONS.join(' or ')}, got "${revision}"\n${USAGE}\n`);
    return 2;
  }
  if (argv.includes('--judge')) {
    const { runJudge } = await import('./judge.ts');
    return runJudge(revision, argv);
  }
  if (revision === 'dual-era') {
    const { runDualEra } = await import('../mocks/dual-era/cli.ts');
    return runDualEra(argv);
  }
  if (revision === '2026-07-28') {
    const { runExtensionServer } = await import('../mocks/2026-07-28/cli.ts');
    return runExtensionServer(argv);
  }
  const parsed = parseCommandLine(argv, parseMockArgs, USAGE);
  if (typeof parsed === 'number') return parsed;
  const { values, port, faults, options, access } = parsed;
  if (values['list-faults']) {
    for (const f of FAULTS as readonly FaultInfo[]) {
      const needs = [...(f.args?.length ? [`needs ${f.args.join(' ')}`] : []), ...(f.transport ? [`${f.transport.toUpperCase()} only`] : [])];
      process.stdout.write(`${f.name}\t${f.requirement}\t${f.description}${needs.length ? ` (${needs.join('; ')})` : ''}\n`);
    }
    return 0;
  }
  if (values['list-latitudes']) {
    for (const l of LATITUDES as readonly LatitudeInfo[])
      process.stdout.write(`${l.name}\t${l.allows}\t${l.description}${l.args?.length ? ` (sets ${l.args.join(' ')})` : ''}\n`);
    return 0;
  }
  const choice = transportChoiceError(values, USAGE);
  if (choice) return choice;
  const receiver = createReferenceReceiver(options);
  const shutdown = shutdownOnSignals(receiver);
  if (values.stdio) {
    const session = await receiver.serveStdio();
    process.stdin.once('end', () => shutdown(0));
    session.transport.onclose = ((prev) => () => {
      prev?.();
      shutdown(0);
    })(session.transport.onclose);
    if (faults.length) process.stderr.write(`reference receiver (stdio) with faults: ${faults.join(', ')}\n`);
    return;
  }
  return listenAnnounced(receiver, 'reference receiver', faults.length ? ` (faults: ${faults.join(', ')})` : '', { port, host: values.host, access });
}

runWhenMain(import.meta.url, runMock);
