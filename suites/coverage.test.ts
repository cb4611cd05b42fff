// Coverage of a run (suites/coverage.ts): requirements exercised out of those applicable, missing roles.
import { describe, expect, it } from 'vitest';
import { computeCoverage, formatCoverage } from './coverage.ts';
import type { CheckDef, CheckResult, Status, TargetInfo } from './engine/check.ts';

const def = (id: string, requirements: string[], extra: Partial<CheckDef> = {}): CheckDef => ({
  id,
  title: id,
  section: 's',
  requirements,
  level: 'MUST',
  killedBy: [],
  run: async () => undefined,
  ...extra,
});
const result = (d: CheckDef, status: Status): CheckResult => ({
  id: d.id,
  title: d.title,
  section: d.section,
  requirements: d.requirements,
  level: d.level,
  status,
  message: '',
  durationMs: 0,
  transcript: [],
});
const target = (extra: Partial<TargetInfo> = {}): TargetInfo => ({
  label: 't',
  transport: 'stdio',
  initializeResult: {},
  serverCapabilities: { tasks: { cancel: {} } },
  tools: [],
  profile: { tools: {} },
  missingRoles: {},
  ...extra,
});

describe('computeCoverage', () => {
  const passes = def('a.pass', ['caps-declare']);
  const skipsForRole = def('a.role', ['tool-required-must-32601'], { needs: ['requiresTask'] });
  const httpOnly = def('a.http', ['tool-required-must-augment'], { notApplicable: (i) => (i.transport === 'http' ? undefined : 'HTTP only') });
  const needsList = def('a.list', ['tool-required-must-augment'], { needsCapabilities: ['tasks.list'] });
  const should = def('a.should', ['tool-forbidden-should-32601', 'tool-optional-may'], { level: 'SHOULD' });
  const defs = [passes, skipsForRole, httpOnly, needsList, should];
  const results = [result(passes, 'pass'), result(skipsForRole, 'skip'), result(httpOnly, 'skip'), result(needsList, 'skip'), result(should, 'warn')];

  it('counts applicable MUST and SHOULD requirements, exercised when a check citing them did not skip', () => {
    const c = computeCoverage(results, defs, target({ missingRoles: { requiresTask: 'no tool', progress: 'not looked for' } }));
    expect(c.must).toEqual({ applicable: 2, exercised: 1, unexercised: ['tool-required-must-32601'] });
    expect(c.should).toEqual({ applicable: 1, exercised: 1, unexercised: [] }); // MAY ids are not counted
    expect(c.missingRoles).toEqual([{ role: 'requiresTask', reason: 'no tool', checks: 1 }]); // progress: no check of the run needed it
    expect(formatCoverage(c).join('\n')).toMatch(
      /coverage: 1\/2 MUST and 1\/1 SHOULD[\s\S]*requiresTask \(1 check not exercised\): no tool[\s\S]*tool-required-must-32601/,
    );
  });

  it('a requirement applies once one of its checks applies (transport, declared capability)', () => {
    const c = computeCoverage(results, defs, target({ transport: 'http', serverCapabilities: { tasks: { list: {} } } }));
    expect(c.must.applicable).toBe(3);
    expect(c.must.unexercised).toEqual(['tool-required-must-32601', 'tool-required-must-augment']);
  });
});
