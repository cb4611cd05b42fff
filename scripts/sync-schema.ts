// Extracts the task-related part of the official MCP schema (revision 2025-11-25),
// applies the published upstream errata plus this suite's own recorded patches, and writes
// schema/tasks-2025-11-25.schema.json (JSON Schema draft 2020-12, `$defs`, refs `#/$defs/X`).
//
//   npx tsx scripts/sync-schema.ts [--spec-dir <dir>] [--check]      (also: npm run schema:sync)
//
// Reads the vendored pages in schema/spec/<revision>/. With --spec-dir <dir> (a folder holding fresh
// upstream copies of the same revision, with LICENSE and README.md one level up), first refreshes the
// vendored copies from it. --check writes nothing and exits 1 if the committed file differs from what
// would be generated.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SPEC_REVISION, VENDORED_FILES, VENDORED_SPEC_DIR } from '../schema/spec.ts';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };
export type Defs = Record<string, Obj>;

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_SPEC_DIR = VENDORED_SPEC_DIR;
export const OUTPUT_FILE = resolve(REPO_ROOT, `schema/tasks-${SPEC_REVISION}.schema.json`);
const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

/** Provenance of the input files (see schema/spec/README.md). */
export const PROVENANCE = {
  sourceRepository: 'https://github.com/modelcontextprotocol/modelcontextprotocol',
  sourcePath: `schema/${SPEC_REVISION}/schema.json`,
  tag: SPEC_REVISION,
  commit: '38c84e9f93ad191d9eb26d92b945d17bd0efcaf3',
};
export const ERRATA_COMMIT = 'b0f60ba5409db7a6582440a7b473cc0398890f15';
export const COPYRIGHT = 'Copyright (c) 2024–2025 Anthropic, PBC and contributors';

/**
 * Roots of the extraction: every definition that task-related messages use (names exactly as in
 * schema.json). Their transitive `$ref`s are added automatically.
 */
export const ROOTS = [
  // Tasks utility (tasks.md)
  'Task',
  'TaskStatus',
  'TaskMetadata',
  'RelatedTaskMetadata',
  'CreateTaskResult',
  'GetTaskRequest',
  'GetTaskResult',
  'GetTaskPayloadRequest',
  'GetTaskPayloadResult',
  'ListTasksRequest',
  'ListTasksResult',
  'CancelTaskRequest',
  'CancelTaskResult',
  'TaskStatusNotification',
  'TaskStatusNotificationParams',
  'TaskAugmentedRequestParams',
  // Task-augmentable requests and their results, tool-level negotiation (tools.md, sampling.md, elicitation.md)
  'CallToolRequest',
  'CallToolResult',
  'Tool',
  'ToolExecution',
  'ListToolsRequest',
  'ListToolsResult',
  'CreateMessageRequest',
  'CreateMessageResult',
  'ElicitRequest',
  'ElicitResult',
  // Capability negotiation (lifecycle.md), progress and cancellation alongside tasks
  'InitializeRequest',
  'InitializeResult',
  'ServerCapabilities',
  'ClientCapabilities',
  'ProgressNotification',
  'CancelledNotification',
  // JSON-RPC envelopes
  'JSONRPCMessage',
  'JSONRPCRequest',
  'JSONRPCNotification',
  'JSONRPCResponse',
  'JSONRPCResultResponse',
  'JSONRPCErrorResponse',
] as const;

export interface Change {
  at: string;
  from: Json | '(absent)';
  to: Json;
}
export interface Patch {
  id: string;
  source: string;
  what: string;
  /** Mutates `defs`; must verify the upstream state it expects (fails loudly if upstream changed). */
  apply: (defs: Defs) => Change[];
}

const clone = <T>(v: T): T => structuredClone(v);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Sets defs/<path> from `from` to `to`, checking the current value first. `undefined` = absent. */
function set(defs: Defs, path: string[], from: Json | undefined, to: Json): Change {
  let parent: Obj = defs as unknown as Obj;
  for (const k of path.slice(0, -1)) parent = parent?.[k] as Obj;
  const key = path[path.length - 1];
  const at = '#/$defs/' + path.join('/');
  if (!parent || typeof parent !== 'object') throw new Error(`patch target ${at}: parent missing`);
  if (!same(parent[key], from)) {
    throw new Error(`patch target ${at}: expected ${JSON.stringify(from)}, found ${JSON.stringify(parent[key])}`);
  }
  parent[key] = clone(to);
  return { at, from: from === undefined ? '(absent)' : from, to };
}

/** Published upstream errata (errata-since-tag.diff, schema.json hunks), applied explicitly. */
export const ERRATA: Patch[] = [
  {
    id: '357adac4',
    source: 'upstream commit 357adac4 (schema/2025-11-25/schema.json hunk @@ -3348 of errata-since-tag.diff)',
    what: 'Task.ttl nullable: "type": "integer" -> ["integer", "null"] (schema.ts already says `ttl: number | null`, "null for unlimited")',
    apply: (d) => [set(d, ['Task', 'properties', 'ttl', 'type'], 'integer', ['integer', 'null'])],
  },
  {
    id: 'modelcontextprotocol#3139',
    source: 'upstream PR #3139 (schema/2025-11-25/schema.json hunk @@ -2107 of errata-since-tag.diff; not listed in schema/spec/README.md)',
    what: 'NumberSchema.minimum/maximum/default: "type": "integer" -> "number" (schema.ts declares them `number`)',
    apply: (d) => ['default', 'maximum', 'minimum'].map((p) => set(d, ['NumberSchema', 'properties', p, 'type'], 'integer', 'number')),
  },
];

/** Name of the ajv custom format registered by schema/validate.ts (RFC 3339 / ISO 8601 date-time). */
export const TIMESTAMP_FORMAT = 'iso8601';

/** This suite's own additions (not upstream): recorded like errata so they are visible in the output. */
export const LOCAL_PATCHES: Patch[] = [
  {
    id: 'local-iso8601-timestamps',
    source: 'mcp-tasks-conformance (schema.ts documents these fields as "ISO 8601 timestamp" but the JSON schema has no format)',
    what: `Task.createdAt/lastUpdatedAt: add "format": "${TIMESTAMP_FORMAT}" (custom ajv format: RFC 3339 date-time, Z or offset, optional fraction)`,
    apply: (d) => ['createdAt', 'lastUpdatedAt'].map((p) => set(d, ['Task', 'properties', p, 'format'], undefined, TIMESTAMP_FORMAT)),
  },
];

/** Visits every object in `v`. */
function walk(v: Json, f: (o: Obj) => void): void {
  if (Array.isArray(v)) v.forEach((x) => walk(x, f));
  else if (v && typeof v === 'object') {
    f(v);
    Object.values(v).forEach((x) => walk(x, f));
  }
}

/** Loads schema.json, normalising a draft-07 `definitions` document to 2020-12 `$defs` (a no-op for 2025-11-25). */
export function loadUpstream(specDir: string): { defs: Defs; dialect: string; sha256: string } {
  const text = readFileSync(resolve(specDir, 'schema.json'), 'utf8');
  const src = JSON.parse(text) as Obj;
  const defs = clone((src.$defs ?? src.definitions) as unknown as Defs);
  if (!defs) throw new Error('schema.json has neither $defs nor definitions');
  walk(defs as unknown as Json, (o) => {
    if (typeof o.$ref === 'string') o.$ref = o.$ref.replace(/^#\/definitions\//, '#/$defs/');
    for (const k of ['additionalItems', 'dependencies']) if (k in o) throw new Error(`draft-07-only keyword ${k} not converted`);
    if (Array.isArray(o.items)) throw new Error('tuple-form items not converted');
  });
  return { defs, dialect: String(src.$schema), sha256: createHash('sha256').update(text).digest('hex') };
}

/** `roots` plus every definition they reach through `#/$defs/X` refs, sorted by name. */
export function extract(defs: Defs, roots: readonly string[] = ROOTS): Defs {
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length) {
    const name = queue.pop()!;
    if (seen.has(name)) continue;
    if (!defs[name]) throw new Error(`definition ${name} not in schema.json`);
    seen.add(name);
    walk(defs[name], (o) => {
      if (typeof o.$ref !== 'string') return;
      const m = /^#\/\$defs\/(.+)$/.exec(o.$ref);
      if (!m) throw new Error(`unsupported $ref ${o.$ref} in ${name}`);
      queue.push(decodeURIComponent(m[1]));
    });
  }
  return Object.fromEntries([...seen].sort().map((n) => [n, clone(defs[n])]));
}

export interface GenerateOptions {
  specDir?: string;
  errata?: Patch[];
  localPatches?: Patch[];
}

/** Builds the output document. `errata: [], localPatches: []` gives the raw upstream extraction. */
export function generate(opts: GenerateOptions = {}): Obj {
  const specDir = opts.specDir ?? DEFAULT_SPEC_DIR;
  const { defs: all, dialect, sha256 } = loadUpstream(specDir);
  const defs = extract(all);
  const record = (ps: Patch[]) => ps.map((p) => ({ id: p.id, source: p.source, what: p.what, changes: p.apply(defs) }) as unknown as Json);
  const errata = record(opts.errata ?? ERRATA);
  const local = record(opts.localPatches ?? LOCAL_PATCHES);
  const license = readFileSync(resolve(specDir, '../LICENSE'), 'utf8');
  if (!license.includes(COPYRIGHT)) throw new Error(`LICENSE does not contain "${COPYRIGHT}"`);
  return {
    $schema: DRAFT_2020_12,
    $comment:
      `Generated by \`npx tsx scripts/sync-schema.ts\` (npm run schema:sync) - do not edit. ` +
      `Subset of the MCP ${PROVENANCE.tag} schema.json used by task-related messages, with upstream errata ` +
      `and local patches applied (see x-provenance, x-errata, x-local-patches). MIT License, ${COPYRIGHT}.`,
    'x-provenance': {
      ...PROVENANCE,
      sourceDialect: dialect,
      sourceSha256: sha256,
      errataUpToCommit: ERRATA_COMMIT,
      errataDiff: `schema/spec/${SPEC_REVISION}/errata-since-tag.diff (tag..${ERRATA_COMMIT.slice(0, 8)})`,
      license: { spdx: 'MIT', notice: license.trim() },
      generator: 'npx tsx scripts/sync-schema.ts [--spec-dir <dir>] [--check]  (npm run schema:sync)',
      roots: [...ROOTS],
    },
    'x-errata': errata,
    'x-local-patches': local,
    $defs: defs as unknown as Json,
  };
}

export const serialize = (doc: Obj) => JSON.stringify(doc, null, 2) + '\n';

/** Copies fresh upstream pages of SPEC_REVISION from `from` (with LICENSE and README.md one level up) over the vendored ones. */
export function refreshVendored(from: string, to = VENDORED_SPEC_DIR): string[] {
  const missing = VENDORED_FILES.filter((f) => !existsSync(resolve(from, f)));
  if (missing.length) throw new Error(`${from} lacks ${missing.join(', ')}`);
  for (const f of VENDORED_FILES) copyFileSync(resolve(from, f), resolve(to, f));
  for (const f of ['LICENSE', 'README.md']) if (existsSync(resolve(from, '..', f))) copyFileSync(resolve(from, '..', f), resolve(to, '..', f));
  return [...VENDORED_FILES];
}

function main(argv: string[]): number {
  const i = argv.indexOf('--spec-dir');
  const check = argv.includes('--check');
  if (i >= 0) {
    const from = resolve(argv[i + 1] ?? '');
    if (check) {
      console.error('--check reads the vendored copies only; drop --spec-dir');
      return 2;
    }
    try {
      console.log(`refreshed schema/spec/${SPEC_REVISION}/: ${refreshVendored(from).join(', ')}`);
    } catch (e) {
      console.error(`--spec-dir: ${e instanceof Error ? e.message : String(e)}`);
      return 2;
    }
  }
  const specDir = DEFAULT_SPEC_DIR;
  const text = serialize(generate({ specDir }));
  const rel = relative(process.cwd(), OUTPUT_FILE);
  if (check) {
    const current = existsSync(OUTPUT_FILE) ? readFileSync(OUTPUT_FILE, 'utf8') : '';
    if (current !== text) {
      console.error(`${rel} is out of date: run npm run schema:sync`);
      return 1;
    }
    console.log(`${rel} is up to date`);
    return 0;
  }
  writeFileSync(OUTPUT_FILE, text);
  console.log(`wrote ${rel}`);
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exit(main(process.argv.slice(2)));
