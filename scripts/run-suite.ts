// Runs the suite's vitest entry for clients (suites/requestor/client.suite) through vitest's Node API, for
// the `client` command (the `server` command runs its checks without vitest: scripts/server.ts). From the sources (tsx) the .ts entry runs;
// from the package, the compiled .js entry beside this compiled file.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = fileURLToPath(import.meta.url);
/** The root the entries are found under: the checkout (sources) or the package's dist/ (compiled). */
const ROOT = resolve(dirname(HERE), '..');
const EXT = HERE.endsWith('.ts') ? '.ts' : '.js';

export interface SuiteRun {
  /** Entry without extension, relative to ROOT. */
  entry: 'suites/requestor/client.suite' | 'suites/2026-07-28/requestor/client.suite';
  reporters: unknown[];
  provide: Record<string, unknown>;
  /** Further vitest options (maxConcurrency, hookTimeout, testTimeout). */
  options?: Record<string, unknown>;
}

let vitestNode: Promise<typeof import('vitest/node')> | undefined;
/** Starts loading vitest's Node API (a few hundred ms) while the caller does other work, e.g. its pre-flight. */
export function preloadVitest(): void {
  vitestNode ??= import('vitest/node');
  vitestNode.catch(() => undefined); // a failure surfaces in runSuite
}

export async function runSuite(run: SuiteRun): Promise<void> {
  preloadVitest();
  const { startVitest } = await vitestNode!;
  const vitest = await startVitest(
    'test',
    [],
    {
      root: ROOT,
      config: false,
      watch: false,
      include: [run.entry + EXT],
      // The package itself lives under node_modules/ when installed: nothing of vitest's default exclude applies.
      exclude: [],
      reporters: run.reporters,
      provide: run.provide,
      // Compiled: the worker imports our modules natively (vite would transform every one of them first).
      ...(EXT === '.js' ? { server: { deps: { external: [/[\\/]dist[\\/]/] } } } : {}),
      pool: 'threads',
      fileParallelism: false,
      passWithNoTests: true,
      ...run.options,
    } as any,
    { logLevel: 'error' },
  );
  await vitest.close();
}
