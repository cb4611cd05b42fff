#!/usr/bin/env node
// Builds the package into dist/ (npm run build; also run by `prepare`, so by `npm ci` and `npm pack`):
// tsc -p tsconfig.build.json, then the files the code reads at run time, copied next to the
// compiled module that reads them (each is found by `new URL('./…', import.meta.url)`), then the
// reference peers' entry (dist/scripts/mock.js) bundled with what it imports.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');

/** Run-time assets, relative to the repository root (and to dist/). */
const ASSETS = [
  'schema/requirements.json', // schema/catalog.ts
  'schema/2026-07-28/requirements.json', // schema/catalog.ts
  'schema/tasks-2025-11-25.schema.json', // schema/validate.ts
  'schema/tasks-2026-07-28.schema.json', // schema/validate.ts
  'schema/RULINGS.md', // schema/rulings.ts (rulings cited in reports)
  'suites/wire/stdio-bridge.mjs', // suites/wire/client-endpoint.ts, suites/requestor/harness.ts
  'fixtures/reference.profile.json', // the reference receiver's roles (npm start, README)
  'fixtures/reference-2026-07-28.profile.json', // the reference extension server's roles (README)
];

// An installed package (a tarball is a "non-registry source" whose `prepare` npm may run) ships dist/
// built and no sources: nothing to do.
if (!existsSync(join(ROOT, 'tsconfig.build.json'))) process.exit(0);

rmSync(DIST, { recursive: true, force: true });
// typescript exports only package.json; its bin is found next to it.
const ts = createRequire(import.meta.url)('typescript/package.json');
const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), ts.bin.tsc);
const r = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json')], { stdio: 'inherit' });
if (r.status !== 0) process.exit(r.status ?? 1);
for (const a of ASSETS) cpSync(join(ROOT, a), join(DIST, a));

// The schema validators compiled ahead: every run would otherwise compile with ajv, on the main thread,
// each definition its checks validate (0.2-0.5 s of CPU a run, the first while every check waits).
const { standaloneSource } = await import(pathToFileURL(join(DIST, 'schema/validate.js')).href);
for (const revision of ['2025-11-25', '2026-07-28']) {
  const doc = JSON.parse(readFileSync(join(ROOT, `schema/tasks-${revision}.schema.json`), 'utf8'));
  writeFileSync(join(DIST, `schema/validators-${revision}.cjs`), await standaloneSource(doc, revision));
}
chmodSync(join(DIST, 'scripts/cli.js'), 0o755);

// A stdio run spawns the reference receiver once per connection (~25 times), and most of each start-up is
// Node's module loader resolving and compiling ~130 files (the SDK's transports and the zod schemas
// they parse with, our own modules). One file per entry halves that CPU. dist/scripts/mock.js is replaced
// by the bundle (same exports; `mock` of dist/scripts/cli.js loads it too); what it imports on demand —
// the Streamable HTTP transport, the 2026-07-28 and dual-era peers — stays on demand, in mock-chunks/.
// The modules it was built from stay in dist/ for the library's own imports.
await build({
  entryPoints: [join(DIST, 'scripts/mock.js')],
  outdir: join(DIST, 'scripts'),
  chunkNames: 'mock-chunks/[name]-[hash]',
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
});

// Every file the compiled code finds through `new URL('./…', import.meta.url)` must be in dist/.
const missing = [];
for (const entry of readdirSync(DIST, { recursive: true })) {
  const file = join(DIST, String(entry));
  if (!file.endsWith('.js')) continue;
  for (const m of readFileSync(file, 'utf8').matchAll(/new URL\(['"`](\.{1,2}\/[^'"`$]+)['"`], import\.meta\.url\)/g)) {
    if (!existsSync(resolve(dirname(file), m[1]))) missing.push(`${file.slice(ROOT.length + 1)} reads ${m[1]}`);
  }
}
if (missing.length) {
  process.stderr.write(`build: run-time files missing from dist/ (add them to ASSETS in scripts/build.mjs):\n  ${missing.join('\n  ')}\n`);
  process.exit(1);
}
