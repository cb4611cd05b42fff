// --revision from the flag to the run: parsed into RunOptions.revision (the library's `revision` the same),
// refused when unknown; `checks --revision` lists one revision's checks; the report names what it judged.
import { describe, expect, it } from 'vitest';
import { parseServerArgs, UsageError, listChecks } from './server.ts';
import { runConfig } from '../suites/api.ts';
import { buildReport } from '../suites/report/model.ts';
import { checksFor } from '../suites/index.ts';
import type { CheckResult } from '../suites/engine/check.ts';

describe('--revision', () => {
  it('defaults to auto in the CLI and the library, and takes each revision by name', () => {
    expect((parseServerArgs(['--stdio', 'node x.js']) as any).config.options.revision).toBe('auto');
    expect(runConfig('node x.js').options!.revision).toBe('auto');
    for (const r of ['2025-11-25', '2026-07-28', 'auto']) {
      expect((parseServerArgs(['--stdio', 'node x.js', '--revision', r]) as any).config.options.revision).toBe(r);
      expect(runConfig('node x.js', { revision: r as never }).options!.revision).toBe(r);
    }
  });

  it('an unknown revision is a usage error (CLI) or an error (library)', () => {
    expect(() => parseServerArgs(['--stdio', 'node x.js', '--revision', '2024-11-05'])).toThrow(UsageError);
    expect(() => runConfig('node x.js', { revision: '2024-11-05' as never })).toThrow(/revision takes/);
  });

  it('selectors and baselines may name 2026-07-28 checks', () => {
    const id = checksFor('2026-07-28')[0]!.id;
    expect((parseServerArgs(['--stdio', 'node x.js', '--only', id]) as any).config.only).toEqual([id]);
  });

  it('checks --revision lists that revision only, each row naming it', () => {
    const out: string[] = [];
    const write = process.stdout.write;
    process.stdout.write = ((s: string) => (out.push(s), true)) as never;
    try {
      expect(listChecks(['--revision', '2026-07-28'])).toBe(0);
    } finally {
      process.stdout.write = write;
    }
    const rows = out
      .join('')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split('\t'));
    expect(new Set(rows.map((r) => r[1]))).toEqual(new Set(['2026-07-28']));
    for (const c of checksFor('2026-07-28')) expect(rows.some((r) => r[0] === c.id)).toBe(true);
  });

  it('the report names the revisions its checks judged', () => {
    const r = (id: string, revision?: '2026-07-28'): CheckResult => ({
      id,
      title: id,
      section: 's',
      requirements: [],
      level: 'MUST',
      status: 'pass',
      message: '',
      durationMs: 0,
      transcript: [],
      ...(revision ? { revision } : {}),
    });
    expect(buildReport([r('a')], 't', new Date()).specVersion).toBe('2025-11-25');
    expect(buildReport([r('2026-b', '2026-07-28')], 't', new Date()).specVersion).toBe('2026-07-28');
    const both = buildReport([r('a'), r('2026-b', '2026-07-28')], 't', new Date());
    expect(both.specVersion).toBe('2025-11-25 + 2026-07-28');
    expect(both.revisions).toEqual(['2025-11-25', '2026-07-28']);
  });
});
