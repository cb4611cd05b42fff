#!/usr/bin/env node
// Builds the package into dist/ (npm run build; also run by `prepare`, so by `npm ci` and `npm pack`):
// tsc -p tsconfig.build.json, then the files the code reads at run time, copied next to the
// compiled module that reads them (each is found by `new URL('./…', import.meta.url)`), then the
// reference peers' and the `server` command's entries (dist/scripts/mock.js, server.js) bundled with what they import.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
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
  'fixtures/reference.profile.json', // the reference receiver's roles (npm start)
  'fixtures/reference-2026-07-28.profile.json', // the reference extension server's roles (npm run start:2026-07-28)
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

// Start-up is mostly Node's module loader resolving and compiling files: ~130 for the reference peers
// (the SDK's transports and the zod schemas they parse with, our own modules), which a stdio run spawns
// once per connection (~25 times), and ~250 for `server` before it can spawn its target. One file per
// entry takes about a third off a mock's start-up and half off the CLI's. dist/scripts/mock.js and
// dist/scripts/server.js are replaced by their bundles (same exports; dist/scripts/cli.js loads them);
// what they import on demand (the HTTP transport, the 2026-07-28 and dual-era peers, the report formats)
// stays on demand, in chunks beside them. The modules they were built from stay in dist/ for the
// library, the vitest helper and the `client` command. vitest is never bundled.
const SCRIPTS = join(DIST, 'scripts');
/** Where a module lives in dist/: tsc's output, or (an entry's own source, scripts/<name>.ts) where tsc put it. */
const inDist = (path) => (path.startsWith(DIST + sep) ? path : join(DIST, relative(ROOT, path)).replace(/\.ts$/, '.js'));
const ours = (path) => path.startsWith(ROOT + sep) && !path.includes(`${sep}node_modules${sep}`);
const fromDist = {
  name: 'from-dist',
  setup(b) {
    // The entry is read from its source and everything else from tsc's output, so the bundles, written over
    // dist/scripts/<name>.js, are never a build's input (two builds at once cannot bundle a bundle).
    b.onResolve({ filter: /^\.\.?\/.*\.ts$/ }, (args) => ({ path: inDist(resolve(args.resolveDir, args.path)) }));
    // Each of our modules' import.meta.url stays its own file's in dist/ (its schemas, catalog, rulings, the
    // stdio bridge): the bundles and their chunks all sit in dist/scripts/.
    b.onLoad({ filter: /\.[cm]?[jt]s$/ }, (args) => {
      if (!ours(args.path)) return undefined;
      const code = readFileSync(args.path, 'utf8');
      if (!code.includes('import.meta.url')) return undefined;
      const rel = './' + relative(SCRIPTS, inDist(args.path)).split(sep).join('/');
      return {
        contents: code.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel)}, import.meta.url).href`),
        loader: args.path.endsWith('.ts') ? 'ts' : 'js',
      };
    });
  },
};
for (const name of ['mock', 'server'])
  await build({
    entryPoints: [join(ROOT, `scripts/${name}.ts`)],
    outdir: SCRIPTS,
    chunkNames: `${name}-[name]-[hash]`,
    allowOverwrite: true,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: ['vitest', 'vitest/*'],
    // CommonJS dependencies require Node's built-in modules.
    banner: { js: "import { createRequire as __bundleCreateRequire } from 'node:module'; const require = __bundleCreateRequire(import.meta.url);" },
    plugins: [fromDist],
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
