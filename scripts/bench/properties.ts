// Section 4: property runs against the reference receiver (in process, default options, the reference
// profile): state-machine command sequences per second, through suites/properties' runProperties.
// A fixed seed makes every repeat (and every machine) run the same sequences.
import { join } from 'node:path';
import { runProperties } from '../../suites/properties/run.ts';
import { loadProfile } from '../../suites/runner/target.ts';
import { PROFILE_PATH } from './suite.ts';
import { round, series, type Series } from './stats.ts';

export interface PropertiesSection {
  property: 'state-machine';
  seed: number;
  runs: number;
  samples: { sequences: number; elapsedMs: number; status: string; sequencesPerSec: number }[];
  sequencesPerSec: Series;
}

export async function benchProperties(o: {
  root: string;
  repeats: number;
  runs: number;
  seed: number;
  timeoutMs: number;
  log(line: string): void;
}): Promise<PropertiesSection> {
  const profile = loadProfile(join(o.root, PROFILE_PATH));
  const samples: PropertiesSection['samples'] = [];
  for (let i = 0; i < o.repeats; i++) {
    const t0 = performance.now();
    const [r] = await runProperties(
      { target: { kind: 'reference', args: [] }, profile },
      { runs: o.runs, seed: o.seed, timeoutMs: o.timeoutMs, only: ['state-machine'] },
    );
    const elapsedMs = performance.now() - t0;
    const sequences = r?.property.runs ?? 0;
    const s = { sequences, elapsedMs: round(elapsedMs, 0), status: r?.status ?? 'missing', sequencesPerSec: round((sequences / elapsedMs) * 1000, 2) };
    samples.push(s);
    o.log(`  properties: ${s.sequences} sequences in ${s.elapsedMs} ms (${s.sequencesPerSec}/s, ${s.status})`);
  }
  return {
    property: 'state-machine',
    seed: o.seed,
    runs: o.runs,
    samples,
    sequencesPerSec: series(
      samples.map((s) => s.sequencesPerSec),
      2,
    ),
  };
}
