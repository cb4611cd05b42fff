// Ctrl-C (SIGINT) and SIGTERM during a run: the run stops waiting, keeps what it has (the checks that finished),
// marks the others not exercised (interrupted), writes every report asked for, ends every process it started,
// and exits 130. A second signal exits at once.
import type { CheckResult, Level } from '../suites/engine/check.ts';
import type { Revision } from '../schema/spec.ts';

export class Interrupted extends Error {
  constructor(readonly signal: NodeJS.Signals) {
    super(`interrupted (${signal})`);
  }
}

export interface Interrupt {
  /** The signal received, once one was. */
  readonly signal: NodeJS.Signals | undefined;
  /** Resolves with the first signal. */
  readonly happened: Promise<NodeJS.Signals>;
  /** `work`, or an Interrupted rejection as soon as a signal arrives. */
  race<T>(work: Promise<T>): Promise<T>;
  /** Removes every other SIGINT/SIGTERM handler (vitest's Node API exits the process on them): ours alone decides. */
  sole(): void;
  /** Removes the handlers (the process's default handling comes back). */
  dispose(): void;
}

/** Listens for SIGINT and SIGTERM until disposed. */
export function onInterrupt(say: (text: string) => void = (t) => process.stderr.write(t)): Interrupt {
  let signal: NodeJS.Signals | undefined;
  let resolve!: (s: NodeJS.Signals) => void;
  const happened = new Promise<NodeJS.Signals>((r) => (resolve = r));
  const handler = (sig: NodeJS.Signals) => {
    if (signal) {
      say(`\n${sig} again: exiting now, without reports\n`);
      process.exit(130);
    }
    signal = sig;
    say(`\n${sig}: stopping the run; the reports asked for are written with what it has (${sig} again exits at once)\n`);
    resolve(sig);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  const interrupted = happened.then((s) => Promise.reject(new Interrupted(s)));
  interrupted.catch(() => undefined);
  return {
    get signal() {
      return signal;
    },
    happened,
    race: (work) => Promise.race([work, interrupted]),
    sole() {
      for (const sig of ['SIGINT', 'SIGTERM'] as const) for (const l of process.listeners(sig)) if (l !== handler) process.off(sig, l as never);
    },
    dispose() {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
}

/** A check the run scheduled but did not finish: not exercised, because of the signal. */
export function interruptedResult(
  check: { id: string; section: string; title?: string; requirements?: readonly string[]; level?: Level },
  revision: Revision | undefined,
  signal: NodeJS.Signals,
): CheckResult {
  return {
    id: check.id,
    title: check.title ?? check.id,
    section: check.section,
    ...(revision ? { revision } : {}),
    requirements: [...(check.requirements ?? [])],
    level: check.level ?? 'MUST',
    status: 'skip',
    message: `not exercised (interrupted): the run received ${signal} before this check finished`,
    cause: `run interrupted (${signal})`,
    durationMs: 0,
    transcript: [],
  };
}
