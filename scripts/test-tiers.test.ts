// The test tiers (vitest.tiers.ts): every test file of the repository runs in exactly one vitest project, as
// `vitest list` sees them, and every file a tier names exists (a renamed test would otherwise fall into `reference`).
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';
import { E2E, MATRIX, UNIT } from '../vitest.tiers.ts';

const ROOT = join(import.meta.dirname, '..');

it('every test file belongs to exactly one project, and every file a tier names exists', async () => {
  const tracked = execFileSync('git', ['ls-files', '--', '*.test.ts'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
  const out = await new Promise<string>((resolve, reject) =>
    execFile(
      process.execPath,
      [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'list', '--filesOnly', '--json'],
      { cwd: ROOT, maxBuffer: 16 << 20 },
      (err, stdout, stderr) => (err ? reject(new Error(`vitest list: ${stderr}`)) : resolve(stdout)),
    ),
  );
  const listed = (JSON.parse(out) as { file: string; projectName?: string }[]).map((f) => ({ file: relative(ROOT, f.file), project: f.projectName }));
  const projectsOf = (file: string) => listed.filter((l) => l.file === file).map((l) => l.project);
  expect(tracked.filter((f) => projectsOf(f).length !== 1).map((f) => `${f}: ${projectsOf(f).join(', ') || 'no project'}`)).toEqual([]);
  expect([...UNIT, ...MATRIX, ...E2E].filter((p) => !p.includes('*') && !existsSync(join(ROOT, p)))).toEqual([]);
}, 120_000);
