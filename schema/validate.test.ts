// schema/ module tests. Valid samples are the spec's own JSON examples (tasks.md).
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertValid, createValidator, definitionNames, isIso8601DateTime, standaloneSource, standaloneValidator, validate } from './validate.ts';
import { DEFAULT_SPEC_DIR, ERRATA, OUTPUT_FILE, ROOTS, generate, loadUpstream, serialize } from '../scripts/sync-schema.ts';

const specDir = DEFAULT_SPEC_DIR;
const committedDoc = JSON.parse(readFileSync(OUTPUT_FILE, 'utf8'));

/** The n-th (1-based) ```json block of tasks.md, in document order. */
function example(n: number): any {
  const md = readFileSync(resolve(specDir, 'tasks.md'), 'utf8');
  return JSON.parse([...md.matchAll(/```json\n([\s\S]*?)```/g)][n - 1][1]);
}

const task = () => ({
  taskId: '786512e2-9e0d-44bd-8f29-789f320fe840',
  status: 'working',
  createdAt: '2025-11-25T10:30:00Z',
  lastUpdatedAt: '2025-11-25T10:40:00Z',
  ttl: 60000,
  pollInterval: 5000,
});

function expectInvalid(name: string, value: unknown, ...fragments: string[]) {
  const r = validate(name, value);
  expect(r.valid).toBe(false);
  const text = r.valid ? '' : r.errors.join('\n');
  for (const f of fragments) expect(text).toContain(f);
}

describe('definitions', () => {
  it('contains every root and what it references', () => {
    const names = definitionNames();
    for (const n of ROOTS) expect(names).toContain(n);
    expect(names).toEqual([...names].sort());
    expect(names).toContain('NumberSchema'); // reached via ElicitRequest
    expect(() => validate('NoSuchThing', {})).toThrow(/unknown definition "NoSuchThing"/);
    for (const n of names) expect(() => validate(n, {}), n).not.toThrow(); // every definition compiles (ajv strict mode)
  });

  it('each committed document is valid against the 2020-12 meta-schema (validatorFor skips that check at run time)', () => {
    for (const file of ['./tasks-2025-11-25.schema.json', './tasks-2026-07-28.schema.json']) {
      const doc = JSON.parse(readFileSync(new URL(file, import.meta.url), 'utf8'));
      expect(() => createValidator(doc, `meta-${file}`), file).not.toThrow();
    }
    // The check is on by default: a document the meta-schema rejects does not build.
    expect(() => createValidator({ $defs: { X: { type: 12 } } }, 'meta-bad')).toThrow(/schema is invalid/);
    expect(() => createValidator({ $defs: { X: { type: 12 } } }, 'meta-bad-unchecked', { validateSchema: false })).not.toThrow();
  });

  it('is a draft 2020-12 document with provenance and recorded patches', () => {
    expect(committedDoc.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(committedDoc['x-provenance']).toMatchObject({
      tag: '2025-11-25',
      commit: '38c84e9f93ad191d9eb26d92b945d17bd0efcaf3',
      errataUpToCommit: 'b0f60ba5409db7a6582440a7b473cc0398890f15',
      license: { spdx: 'MIT' },
    });
    expect(committedDoc['x-provenance'].license.notice).toContain('Copyright (c) 2024–2025 Anthropic, PBC and contributors');
    expect(committedDoc['x-errata'].map((e: { id: string }) => e.id)).toEqual(['357adac4', 'modelcontextprotocol#3139']);
    expect(committedDoc['x-local-patches'][0].changes.map((c: { at: string }) => c.at)).toEqual([
      '#/$defs/Task/properties/createdAt/format',
      '#/$defs/Task/properties/lastUpdatedAt/format',
    ]);
    expect(JSON.stringify(committedDoc)).not.toContain('#/definitions/');
  });
});

describe('spec examples (tasks.md) are valid', () => {
  it.each([
    ['ServerCapabilities', () => example(1).capabilities],
    ['ClientCapabilities', () => example(2).capabilities],
    ['CallToolRequest', () => example(3)],
    ['CreateTaskResult', () => example(4).result],
    ['JSONRPCResultResponse', () => example(4)],
    ['GetTaskRequest', () => example(5)],
    ['GetTaskResult', () => example(6).result],
    ['GetTaskPayloadRequest', () => example(7)],
    ['CallToolResult', () => example(8).result], // tasks/result payload with related-task _meta
    ['GetTaskPayloadResult', () => example(8).result],
    ['RelatedTaskMetadata', () => example(8).result._meta['io.modelcontextprotocol/related-task']],
    ['TaskStatusNotification', () => example(9)],
    ['TaskStatusNotificationParams', () => example(9).params],
    ['ListTasksRequest', () => example(10)],
    ['ListTasksResult', () => example(11).result],
    ['CancelTaskRequest', () => example(12)],
    ['CancelTaskResult', () => example(13).result],
    ['TaskAugmentedRequestParams', () => example(14)],
    ['JSONRPCErrorResponse', () => example(16)],
    ['JSONRPCMessage', () => example(17)],
    ['GetTaskResult', () => example(20).result],
  ])('%s', (name, sample) => {
    expect(validate(name, sample())).toEqual({ valid: true });
  });
});

describe('invalid samples', () => {
  it('missing taskId', () => {
    const { taskId: _, ...t } = task();
    expectInvalid('Task', t, "/: must have required property 'taskId'");
    expectInvalid('CreateTaskResult', { task: t }, "/task: must have required property 'taskId'");
    expectInvalid('GetTaskRequest', { jsonrpc: '2.0', id: 1, method: 'tasks/get', params: {} }, "/params: must have required property 'taskId'");
  });
  it('status "done" lists the allowed values', () => {
    expectInvalid(
      'GetTaskResult',
      { ...task(), status: 'done' },
      '/status: must be equal to one of the allowed values ("cancelled", "completed", "failed", "input_required", "working")',
    );
  });
  it('ttl as string', () => {
    expectInvalid('CreateTaskResult', { task: { ...task(), ttl: '60000' } }, '/task/ttl: must be integer or null');
    expectInvalid('TaskMetadata', { ttl: '60000' }, '/ttl: must be integer');
  });
  it('bad timestamps', () => {
    expectInvalid('Task', { ...task(), createdAt: 'yesterday' }, '/createdAt: must match format "iso8601"');
    expectInvalid('ListTasksResult', { tasks: [{ ...task(), lastUpdatedAt: '2025-13-45T99:00:00Z' }] }, '/tasks/0/lastUpdatedAt: must match format "iso8601"');
    expectInvalid('TaskStatusNotificationParams', { ...task(), createdAt: 1764066600000 }, '/createdAt: must be string');
  });
  it('bad nested types', () => {
    expectInvalid('ListTasksResult', { tasks: {} }, '/tasks: must be array');
    expectInvalid(
      'CallToolRequest',
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', task: { ttl: 1.5 } } },
      '/params/task/ttl: must be integer',
    );
    expectInvalid(
      'Tool',
      { name: 't', inputSchema: { type: 'object' }, execution: { taskSupport: 'sometimes' } },
      '/execution/taskSupport: must be equal to one of the allowed values ("forbidden", "optional", "required")',
    );
    expectInvalid(
      'TaskStatusNotification',
      { jsonrpc: '2.0', method: 'notifications/tasks/status', params: { ...task(), pollInterval: 'soon' } },
      '/params/pollInterval: must be integer',
    );
    expectInvalid('JSONRPCRequest', { jsonrpc: '1.0', id: 1, method: 'tasks/get' }, '/jsonrpc: must be "2.0"');
  });
  it('assertValid throws the readable list', () => {
    expect(() => assertValid('Task', { ...task(), status: 'done', ttl: 'x' })).toThrow(
      /invalid Task:\n {2}\/status: must be equal to one of the allowed values \("cancelled".*\n {2}\/ttl: must be integer or null/,
    );
    expect(() => assertValid('Task', task())).not.toThrow();
  });
});

describe('iso8601 format', () => {
  it.each([
    '2025-11-25T10:30:00Z',
    '2025-11-25T10:30:00.123Z',
    '2025-11-25T10:30:00+01:00',
    '2025-11-25t10:30:00.5-05:30',
    '2024-02-29T23:59:60Z',
    new Date(0).toISOString(),
  ])('accepts %s', (s) => expect(isIso8601DateTime(s)).toBe(true));
  it.each([
    'yesterday',
    '2025-13-45T99:00:00Z',
    '2025-11-25',
    '2025-11-25T10:30:00',
    '2025-11-25 10:30:00Z',
    '2023-02-29T00:00:00Z',
    '2025-11-25T24:00:00Z',
    '2025-11-25T10:30:00+25:00',
    ' 2025-11-25T10:30:00Z',
    '',
  ])('rejects %j', (s) => expect(isIso8601DateTime(s)).toBe(false));
});

describe('errata', () => {
  const upstream = createValidator(generate({ specDir, errata: [], localPatches: [] }) as { $defs: Record<string, unknown> });

  it('357adac4: ttl null is valid after the erratum and invalid against the raw upstream schema', () => {
    for (const name of ['Task', 'GetTaskResult', 'CancelTaskResult', 'TaskStatusNotificationParams']) {
      expect(validate(name, { ...task(), ttl: null })).toEqual({ valid: true });
      expect(upstream.validate(name, { ...task(), ttl: null })).toEqual({ valid: false, errors: ['/ttl: must be integer'] });
    }
    expect(validate('CreateTaskResult', { task: { ...task(), ttl: null } })).toEqual({ valid: true });
    expect(upstream.validate('CreateTaskResult', { task: { ...task(), ttl: null } }).valid).toBe(false);
  });

  it('modelcontextprotocol#3139: fractional NumberSchema bounds/default', () => {
    const s = { type: 'number', minimum: 0.5, maximum: 99.5, default: 95.5 };
    expect(validate('NumberSchema', s)).toEqual({ valid: true });
    expect(upstream.validate('NumberSchema', s).valid).toBe(false);
  });

  it('raw upstream has no timestamp format; ours rejects garbage', () => {
    expect(upstream.validate('Task', { ...task(), createdAt: 'yesterday' })).toEqual({ valid: true });
    expect(validate('Task', { ...task(), createdAt: 'yesterday' }).valid).toBe(false);
  });

  it('the errata equal the schema.json hunks of errata-since-tag.diff', () => {
    // Apply the published diff's schema.json hunks to the tag's text, then compare the extracted defs.
    const diff = readFileSync(resolve(specDir, 'errata-since-tag.diff'), 'utf8');
    const section = diff.split(/^diff --git /m).find((s) => s.startsWith('a/schema/2025-11-25/schema.json'))!;
    let lines = readFileSync(resolve(specDir, 'schema.json'), 'utf8').split('\n');
    let shift = 0;
    for (const h of section.split(/^@@ /m).slice(1)) {
      const start = Number(/^-(\d+)/.exec(h)![1]) - 1 + shift;
      const body = h
        .split('\n')
        .slice(1)
        .filter((l) => l !== '' && !l.startsWith('\\'));
      const before = body.filter((l) => !l.startsWith('+')).map((l) => l.slice(1));
      const after = body.filter((l) => !l.startsWith('-')).map((l) => l.slice(1));
      expect(lines.slice(start, start + before.length)).toEqual(before);
      lines = [...lines.slice(0, start), ...after, ...lines.slice(start + before.length)];
      shift += after.length - before.length;
    }
    const published = JSON.parse(lines.join('\n')).$defs;
    const ours = generate({ specDir, localPatches: [] }).$defs as Record<string, unknown>;
    for (const [name, def] of Object.entries(ours)) expect(def, name).toEqual(published[name]);
    expect(ERRATA).toHaveLength(section.split(/^@@ /m).length - 1); // one named patch per schema.json hunk
    expect(loadUpstream(specDir).dialect).toBe('https://json-schema.org/draft/2020-12/schema');
  });
});

describe('generator', () => {
  it('output equals the committed file (npm run schema:sync)', () => {
    expect(serialize(generate({ specDir }))).toBe(readFileSync(OUTPUT_FILE, 'utf8'));
  });
});

describe('the validators compiled ahead (the package: dist/schema/validators-<revision>.cjs)', () => {
  // Every JSON example of the vendored spec texts (valid and invalid values of many definitions), and a few values of every shape.
  const specRoot = new URL('./spec/', import.meta.url);
  const examples = readdirSync(specRoot, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.md'))
    .flatMap((f) => [...readFileSync(join(specRoot.pathname, f), 'utf8').matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]!))
    .flatMap((text) => {
      try {
        return [JSON.parse(text) as unknown];
      } catch {
        return []; // examples with comments or ellipses
      }
    });
  const samples = [...examples, ...examples.flatMap((e) => (e && typeof e === 'object' && 'params' in e ? [e.params, e] : [])), {}, null, 'x', 1, [], task()];

  it.each(['2025-11-25', '2026-07-28'])('%s: the same verdict and errors as compiling on first use, for every definition and sample', async (revision) => {
    const doc = JSON.parse(readFileSync(new URL(`./tasks-${revision}.schema.json`, import.meta.url), 'utf8'));
    const module = { exports: undefined as unknown };
    new Function('module', 'require', await standaloneSource(doc, revision))(module, createRequire(import.meta.url));
    const ahead = standaloneValidator(module.exports as Parameters<typeof standaloneValidator>[0]);
    const onUse = createValidator(doc, revision, { validateSchema: false });
    expect(ahead.definitionNames()).toEqual(onUse.definitionNames());
    expect(examples.length).toBeGreaterThan(50);
    let invalid = 0;
    for (const name of onUse.definitionNames())
      for (const value of samples) {
        const expected = onUse.validate(name, value);
        if (!expected.valid) invalid++;
        expect(ahead.validate(name, value), `${name} ${JSON.stringify(value).slice(0, 200)}`).toEqual(expected);
      }
    expect(invalid).toBeGreaterThan(0);
    expect(() => ahead.validate('NoSuchThing', {})).toThrow(/unknown definition "NoSuchThing"/);
  });
});
