// Extracts the task-related part of the official MCP schema (revision 2025-11-25),
// applies the published upstream errata plus this suite's own recorded patches, and writes
// schema/tasks-2025-11-25.schema.json (JSON Schema draft 2020-12, `$defs`, refs `#/$defs/X`).
// Likewise for revision 2026-07-28: the Tasks extension's schema.json merged with the core definitions
// its flows use, written to schema/tasks-2026-07-28.schema.json.
//
//   npx tsx scripts/sync-schema.ts [--spec-dir <dir>] [--check]      (also: npm run schema:sync)
//
// Reads the vendored pages in schema/spec/<revision>/. With --spec-dir <dir> (a folder holding fresh
// upstream copies of the same revision, with LICENSE and README.md one level up), first refreshes the
// vendored copies from it, and those of the sibling folders 2026-07-28/ and ext-tasks/ when it has them. --check writes nothing and exits 1 if the committed file differs from what
// would be generated.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SPEC_REVISION, VENDORED, VENDORED_FILES, VENDORED_SPEC_DIR, specDir as vendoredDir, type SpecFolder } from '../schema/spec.ts';

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

/** The JSON-RPC envelopes, roots of both revisions' extractions. */
const JSONRPC_ENVELOPES = [
  'JSONRPCMessage',
  'JSONRPCRequest',
  'JSONRPCNotification',
  'JSONRPCResponse',
  'JSONRPCResultResponse',
  'JSONRPCErrorResponse',
] as const;

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
  ...JSONRPC_ENVELOPES,
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

/** Name of the ajv custom format registered by schema/validate.ts (RFC 3339 date-time with a zone: RULINGS.md#timestamps-rfc3339). */
export const TIMESTAMP_FORMAT = 'iso8601';
/** The 2026-07-28 one: ISO 8601 as the extension's schema.ts says, zone and seconds optional (RULINGS.md#ext-timestamps-iso8601). */
export const TIMESTAMP_FORMAT_2026 = 'iso8601-extension';

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

// ---- Revision 2026-07-28: the Tasks extension (io.modelcontextprotocol/tasks) on the 2026-07-28 core ----

export const REVISION_2026 = '2026-07-28';
export const CORE_2026_DIR = vendoredDir('2026-07-28');
export const EXT_TASKS_DIR = vendoredDir('ext-tasks');
export const OUTPUT_FILE_2026 = resolve(REPO_ROOT, `schema/tasks-${REVISION_2026}.schema.json`);

/** Provenance of the two inputs (see schema/spec/README.md). */
export const PROVENANCE_2026 = {
  core: {
    sourceRepository: 'https://github.com/modelcontextprotocol/modelcontextprotocol',
    sourcePath: `schema/${REVISION_2026}/schema.json`,
    commit: 'b0f60ba5409db7a6582440a7b473cc0398890f15',
    license: 'Apache-2.0, or MIT where relicensing consent is missing (schema/spec/2026-07-28/LICENSE)',
  },
  extension: {
    sourceRepository: 'https://github.com/modelcontextprotocol/ext-tasks',
    sourcePath: 'schema/draft/schema.json',
    commit: 'e4345978be1f602f1fc48d89051e8559dd5302a6',
    license: 'Apache-2.0 (schema/spec/ext-tasks/LICENSE)',
  },
};

/** The extension's own definitions (those of its schema.json that the core lacks); all are kept. */
export const ROOTS_2026_EXTENSION = [
  'Task',
  'TaskStatus',
  'WorkingTask',
  'InputRequiredTask',
  'CompletedTask',
  'FailedTask',
  'CancelledTask',
  'DetailedTask',
  'CreateTaskResult',
  'GetTaskRequest',
  'GetTaskResult',
  'UpdateTaskRequest',
  'UpdateTaskResult',
  'CancelTaskRequest',
  'CancelTaskResult',
  'TaskStatusNotification',
  'TaskStatusNotificationParams',
  'TaskSubscriptionNotifications',
  'TaskSubscriptionAcknowledgedNotifications',
  'TasksExtensionCapability',
] as const;

/** The core definitions the Tasks flows meet (discovery, per-request _meta, tools, MRTR, subscriptions, errors). */
export const ROOTS_2026_CORE = [
  'DiscoverRequest',
  'DiscoverResult',
  'RequestMetaObject',
  'ClientCapabilities',
  'ServerCapabilities',
  'Result',
  'ResultType',
  'EmptyResult',
  'CallToolRequest',
  'CallToolResult',
  'ListToolsRequest',
  'ListToolsResult',
  'Tool',
  'InputRequiredResult',
  'InputRequests',
  'InputResponses',
  'ElicitRequest',
  'ElicitResult',
  'CreateMessageRequest',
  'CreateMessageResult',
  'ListRootsRequest',
  'ListRootsResult',
  'SubscriptionsListenRequest',
  'SubscriptionsListenResult',
  'SubscriptionsAcknowledgedNotification',
  'CancelledNotification',
  'ProgressNotification',
  'LoggingMessageNotification',
  'ParseError',
  'InvalidRequestError',
  'MethodNotFoundError',
  'InvalidParamsError',
  'InternalError',
  'HeaderMismatchError',
  'MissingRequiredClientCapabilityError',
  'UnsupportedProtocolVersionError',
  ...JSONRPC_ENVELOPES,
] as const;

/** This suite's own additions to the 2026-07-28 document (none upstream: the copies are at upstream main). */
export const LOCAL_PATCHES_2026: Patch[] = [
  {
    id: 'local-nested-schema-keyword',
    source: 'mcp-tasks-conformance (the extension\'s schema.json, generated with zod, repeats "$schema" inside each definition)',
    what: 'drop "$schema" from definitions (draft 2020-12 allows it only at the root of a schema resource)',
    apply: (d) =>
      Object.keys(d)
        .filter((n) => '$schema' in d[n]!)
        .map((n) => {
          const from = d[n]!.$schema!;
          delete d[n]!.$schema;
          return { at: `#/$defs/${n}/$schema`, from, to: '(absent)' };
        }),
  },
  {
    id: 'local-request-meta',
    source:
      'mcp-tasks-conformance (basic-index.md "Per-request protocol fields": the required _meta fields MUST be included on every request; the core RequestParams requires _meta, the extension\'s requests do not say so)',
    what: 'tasks/get, tasks/update, tasks/cancel: params require "_meta" (RequestMetaObject: protocolVersion and clientCapabilities)',
    apply: (d) =>
      ['GetTaskRequest', 'UpdateTaskRequest', 'CancelTaskRequest'].flatMap((n) => {
        const params = ['allOf', '1', 'properties', 'params'];
        const required = ((d[n]?.allOf as Obj[] | undefined)?.[1]?.properties as Obj | undefined)?.params as Obj | undefined;
        const before = (required?.required ?? []) as Json[];
        return [
          set(d, [n, ...params, 'properties', '_meta'], undefined, { $ref: '#/$defs/RequestMetaObject' }),
          set(d, [n, ...params, 'required'], before, [...before, '_meta']),
        ];
      }),
  },
  {
    id: 'local-iso8601-timestamps',
    source: 'mcp-tasks-conformance (the extension\'s schema.ts documents these fields as "ISO 8601 timestamp" but the JSON schema has no format)',
    what: `createdAt/lastUpdatedAt of every task shape: add "format": "${TIMESTAMP_FORMAT_2026}" (custom ajv format: ISO 8601 date and time, extended or basic, zone, seconds and fraction optional: RULINGS.md#ext-timestamps-iso8601)`,
    apply: (d) => {
      const changes: Change[] = [];
      const visit = (v: Json, at: string): void => {
        if (Array.isArray(v)) return v.forEach((x, i) => visit(x, `${at}/${i}`));
        if (!v || typeof v !== 'object') return;
        const props = v.properties as Obj | undefined;
        if (props && 'taskId' in props)
          for (const p of ['createdAt', 'lastUpdatedAt']) {
            const f = props[p] as Obj | undefined;
            if (!f) continue;
            if (!same(f, { type: 'string' })) throw new Error(`patch target ${at}/properties/${p}: expected {"type":"string"}, found ${JSON.stringify(f)}`);
            f.format = TIMESTAMP_FORMAT_2026;
            changes.push({ at: `${at}/properties/${p}/format`, from: '(absent)', to: TIMESTAMP_FORMAT_2026 });
          }
        for (const [k, x] of Object.entries(v)) visit(x, `${at}/${k}`);
      };
      for (const n of ROOTS_2026_EXTENSION) visit(d[n] as Json, `#/$defs/${n}`);
      return changes;
    },
  },
];

export interface Generate2026Options {
  coreDir?: string;
  extDir?: string;
  localPatches?: Patch[];
}

/** The extension's definitions merged with the core ones (which they repeat verbatim where names meet), then extracted. */
export function generate2026(opts: Generate2026Options = {}): Obj {
  const core = loadUpstream(opts.coreDir ?? CORE_2026_DIR);
  const ext = loadUpstream(opts.extDir ?? EXT_TASKS_DIR);
  const own = Object.keys(ext.defs)
    .filter((n) => !(n in core.defs))
    .sort();
  if (!same(own, [...ROOTS_2026_EXTENSION].sort())) throw new Error(`the extension's own definitions changed: ${own.join(', ')}`);
  for (const n of Object.keys(ext.defs).filter((n) => n in core.defs))
    if (!same(ext.defs[n], core.defs[n])) throw new Error(`definition ${n} differs between the extension and the core schema`);
  const defs = extract({ ...core.defs, ...ext.defs }, [...ROOTS_2026_EXTENSION, ...ROOTS_2026_CORE]);
  const local = (opts.localPatches ?? LOCAL_PATCHES_2026).map((p) => ({ id: p.id, source: p.source, what: p.what, changes: p.apply(defs) }) as unknown as Json);
  return {
    $schema: DRAFT_2020_12,
    $comment:
      `Generated by \`npx tsx scripts/sync-schema.ts\` (npm run schema:sync) - do not edit. ` +
      `The definitions of the MCP Tasks extension (io.modelcontextprotocol/tasks) and the MCP ${REVISION_2026} core ` +
      `definitions its flows use, with local patches applied (see x-provenance, x-local-patches). ` +
      `Apache-2.0 (core: Apache-2.0 or MIT, see schema/spec/2026-07-28/LICENSE).`,
    'x-provenance': {
      revision: REVISION_2026,
      core: { ...PROVENANCE_2026.core, sourceDialect: core.dialect, sourceSha256: core.sha256 },
      extension: { ...PROVENANCE_2026.extension, sourceDialect: ext.dialect, sourceSha256: ext.sha256 },
      generator: 'npx tsx scripts/sync-schema.ts [--spec-dir <dir>] [--check]  (npm run schema:sync)',
      roots: [...ROOTS_2026_EXTENSION, ...ROOTS_2026_CORE],
    },
    'x-local-patches': local,
    $defs: defs as unknown as Json,
  };
}

/**
 * Copies fresh upstream pages of SPEC_REVISION from `from` (with LICENSE and README.md one level up) over the
 * vendored ones; then, for each other vendored folder (2026-07-28, ext-tasks) that `from/..` has, its files too.
 */
export function refreshVendored(from: string, to = VENDORED_SPEC_DIR): string[] {
  const missing = VENDORED_FILES.filter((f) => !existsSync(resolve(from, f)));
  if (missing.length) throw new Error(`${from} lacks ${missing.join(', ')}`);
  for (const f of VENDORED_FILES) copyFileSync(resolve(from, f), resolve(to, f));
  for (const f of ['LICENSE', 'README.md']) if (existsSync(resolve(from, '..', f))) copyFileSync(resolve(from, '..', f), resolve(to, '..', f));
  const copied: string[] = [...VENDORED_FILES];
  for (const folder of Object.keys(VENDORED).filter((k) => k !== SPEC_REVISION) as SpecFolder[]) {
    const src = resolve(from, '..', folder);
    if (!existsSync(src)) continue;
    const lacking = VENDORED[folder].filter((f) => !existsSync(resolve(src, f)));
    if (lacking.length) throw new Error(`${src} lacks ${lacking.join(', ')}`);
    const dest = resolve(to, '..', folder);
    for (const f of VENDORED[folder]) copyFileSync(resolve(src, f), resolve(dest, f));
    copied.push(...VENDORED[folder].map((f) => `${folder}/${f}`));
  }
  return copied;
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
      console.log(`refreshed schema/spec/: ${refreshVendored(from).join(', ')}`);
    } catch (e) {
      console.error(`--spec-dir: ${e instanceof Error ? e.message : String(e)}`);
      return 2;
    }
  }
  const outputs: [string, string][] = [
    [OUTPUT_FILE, serialize(generate({ specDir: DEFAULT_SPEC_DIR }))],
    [OUTPUT_FILE_2026, serialize(generate2026())],
  ];
  let stale = 0;
  for (const [file, text] of outputs) {
    const rel = relative(process.cwd(), file);
    if (check) {
      const current = existsSync(file) ? readFileSync(file, 'utf8') : '';
      if (current !== text) {
        console.error(`${rel} is out of date: run npm run schema:sync`);
        stale++;
      } else console.log(`${rel} is up to date`);
      continue;
    }
    writeFileSync(file, text);
    console.log(`wrote ${rel}`);
  }
  return stale ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exit(main(process.argv.slice(2)));
