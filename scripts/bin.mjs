#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, so `npx mcp-tasks-conformance …` works without a build step.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const tsxCli = require.resolve('tsx/cli');
const r = spawnSync(process.execPath, [tsxCli, join(here, 'cli.ts'), ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(r.status ?? (r.signal ? 1 : 0));
