#!/usr/bin/env node
// mcp-tasks-conformance: the command line. Each command is loaded on demand, so `mock` starts without
// loading vitest or the checks.
//   server  — grade a task receiver (scripts/server.ts)
//   client  — grade an MCP client as a task requestor (scripts/client.ts)
//   mock    — run the reference receiver (scripts/mock.ts); --revision 2026-07-28: the reference extension server
//   replay  — send a flagged check's recorded messages again (scripts/replay.ts)
//   action  — the GitHub Action's run step: its inputs as `server` flags (scripts/action.ts)
//   checks  — list every check of every role and the property runs, with level, requirement ids, the faults that kill it and rulings (scripts/server.ts)
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  try {
    switch (cmd) {
      case 'server': {
        const { runServerCommand } = await import('./server.ts');
        return await runServerCommand(rest);
      }
      case 'client': {
        const { runClientCommand } = await import('./client.ts');
        return await runClientCommand(rest);
      }
      case 'mock': {
        const { runMock } = await import('./mock.ts');
        const code = await runMock(rest);
        return typeof code === 'number' ? code : -1;
      }
      case 'replay': {
        const { runReplayCommand } = await import('./replay.ts');
        return await runReplayCommand(rest);
      }
      case 'action': {
        const { runAction } = await import('./action.ts');
        return await runAction();
      }
      case 'checks': {
        const { listChecks } = await import('./server.ts');
        return listChecks(rest);
      }
      case undefined:
      case '--help':
      case '-h':
      case 'help': {
        const { HELP } = await import('./help.ts');
        process.stdout.write(HELP);
        return cmd === undefined ? 2 : 0;
      }
      default:
        process.stderr.write(`mcp-tasks-conformance: unknown command "${cmd}"\n(see mcp-tasks-conformance --help)\n`);
        return 2;
    }
  } catch (e) {
    process.stderr.write(`mcp-tasks-conformance: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
}

// Run only as the entry point (through npm's bin link too: compare real paths). -1: a long-running
// command (mock, client --serve) keeps the process alive.
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then((code) => {
    if (code >= 0) process.exit(code);
  });
}
