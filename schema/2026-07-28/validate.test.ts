// The validator of revision 2026-07-28 (schema/tasks-2026-07-28.schema.json: the Tasks extension's
// definitions and the core ones its flows use). Valid samples are the extension's own JSON examples
// (tasks.md); requests get the per-request `_meta` the examples leave out (RULINGS.md#ext-examples-omit-request-meta).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createValidator, validatorFor } from '../validate.ts';
import { LOCAL_PATCHES_2026, OUTPUT_FILE_2026, ROOTS_2026_CORE, ROOTS_2026_EXTENSION, generate2026, serialize } from '../../scripts/sync-schema.ts';
import { specDir } from '../spec.ts';
import {
  ErrorCode,
  REQUEST_DEFINITION,
  RESULT_DEFINITION,
  missingTasksCapabilityData,
  requestMeta,
  resultDefinition,
  tasksExtensionCapabilities,
} from './protocol.ts';

const v = validatorFor('2026-07-28');
const committedDoc = JSON.parse(readFileSync(OUTPUT_FILE_2026, 'utf8'));
const md = readFileSync(`${specDir('ext-tasks')}tasks.md`, 'utf8');
const blocks = [...md.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]!);
/** The n-th (1-based) ```json block of the extension's tasks.md, in document order. */
const example = (n: number): any => JSON.parse(blocks[n - 1]!);
/** A request example with the per-request `_meta` every 2026-07-28 request carries. */
const withMeta = (req: any) => ({ ...req, params: { ...req.params, _meta: requestMeta(tasksExtensionCapabilities()) } });

const task = () => ({
  taskId: '786512e2-9e0d-44bd-8f29-789f320fe840',
  status: 'working',
  createdAt: '2026-07-28T10:30:00Z',
  lastUpdatedAt: '2026-07-28T10:40:00Z',
  ttlMs: 60000,
  pollIntervalMs: 500,
});
const elicit = {
  method: 'elicitation/create',
  params: { mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } },
};

function expectInvalid(name: string, value: unknown, ...fragments: string[]) {
  const r = v.validate(name, value);
  expect(r.valid, name).toBe(false);
  const text = r.valid ? '' : r.errors.join('\n');
  for (const f of fragments) expect(text).toContain(f);
}

describe('definitions (2026-07-28)', () => {
  it('contains every root and what it references; every definition compiles', () => {
    const names = v.definitionNames();
    for (const n of [...ROOTS_2026_EXTENSION, ...ROOTS_2026_CORE]) expect(names).toContain(n);
    expect(names).toContain('RequestMetaObject');
    expect(() => v.validate('GetTaskPayloadRequest', {})).toThrow(/unknown definition/); // tasks/result is gone
    for (const n of names) expect(() => v.validate(n, {}), n).not.toThrow();
  });

  it('is a draft 2020-12 document with both provenances and the recorded patches', () => {
    expect(committedDoc.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(committedDoc['x-provenance']).toMatchObject({
      revision: '2026-07-28',
      core: { commit: 'b0f60ba5409db7a6582440a7b473cc0398890f15' },
      extension: { sourceRepository: 'https://github.com/modelcontextprotocol/ext-tasks', commit: 'e4345978be1f602f1fc48d89051e8559dd5302a6' },
    });
    expect(committedDoc['x-local-patches'].map((p: { id: string }) => p.id)).toEqual(LOCAL_PATCHES_2026.map((p) => p.id));
    expect(Object.keys(committedDoc.$defs).filter((n) => '$schema' in committedDoc.$defs[n])).toEqual([]);
  });

  it('the request and result tables of protocol.ts name definitions of the document', () => {
    for (const d of [...Object.values(REQUEST_DEFINITION), ...Object.values(RESULT_DEFINITION), 'CreateTaskResult', 'InputRequiredResult'])
      expect(v.definitionNames()).toContain(d);
    expect(resultDefinition('tools/call', example(2).result)).toBe('CreateTaskResult');
    expect(resultDefinition('tools/call', { resultType: 'complete', content: [] })).toBe('CallToolResult');
    expect(resultDefinition('tools/call', { resultType: 'input_required', inputRequests: {} })).toBe('InputRequiredResult');
    expect(resultDefinition('tasks/get', example(7).result)).toBe('GetTaskResult');
    expect(resultDefinition('tasks/result', { resultType: 'complete' })).toBeUndefined();
  });

  it('output equals the committed file (npm run schema:sync)', () => {
    expect(serialize(generate2026())).toBe(readFileSync(OUTPUT_FILE_2026, 'utf8'));
  });
});

describe("the extension's examples (tasks.md) are valid", () => {
  it.each([
    ['CallToolRequest', () => withMeta(example(1))],
    ['CreateTaskResult', () => example(2).result],
    ['JSONRPCResultResponse', () => example(2)],
    ['MissingRequiredClientCapabilityError', () => example(3)],
    ['TaskStatusNotification', () => example(4)],
    ['TaskStatusNotificationParams', () => example(4).params],
    ['CreateTaskResult', () => example(5).result],
    ['GetTaskRequest', () => withMeta(example(6))],
    ['GetTaskResult', () => example(7).result],
    ['GetTaskResult', () => example(9).result], // input_required with inputRequests
    ['GetTaskResult', () => example(11).result],
    ['UpdateTaskRequest', () => withMeta(example(12))],
    ['UpdateTaskResult', () => example(13).result],
    ['GetTaskResult', () => example(15).result],
    ['GetTaskResult', () => example(17).result], // completed with the CallToolResult inlined
    ['JSONRPCErrorResponse', () => example(18)],
    ['InvalidParamsError', () => example(18).error],
    ['InvalidParamsError', () => example(19).error],
    ['CreateTaskResult', () => example(20).result], // "failed" seed state with the error (RULINGS.md#ext-create-task-result-terminal-seed)
    ['CreateTaskResult', () => example(21).result],
  ])('%s', (name, sample) => {
    expect(v.validate(name, sample())).toEqual({ valid: true });
  });

  it('a request without the per-request _meta is invalid (local-request-meta), and only for that', () => {
    for (const [name, n] of [
      ['CallToolRequest', 1],
      ['GetTaskRequest', 6],
      ['UpdateTaskRequest', 12],
    ] as const)
      expect(v.validate(name, example(n))).toEqual({ valid: false, errors: ["/params: must have required property '_meta'"] });
    const raw = createValidator(generate2026({ localPatches: [] }) as { $defs: Record<string, unknown> }, '2026-07-28-raw');
    expect(raw.validate('GetTaskRequest', example(6))).toEqual({ valid: true });
    expect(v.validate('CancelTaskRequest', withMeta({ jsonrpc: '2.0', id: 9, method: 'tasks/cancel', params: { taskId: 't' } }))).toEqual({ valid: true });
    expectInvalid(
      'CancelTaskRequest',
      { jsonrpc: '2.0', id: 9, method: 'tasks/cancel', params: { taskId: 't', _meta: {} } },
      "must have required property 'io.modelcontextprotocol/protocolVersion'",
    );
  });
});

describe('DetailedTask per status', () => {
  it.each([
    ['working', {}],
    ['input_required', { inputRequests: { name: elicit } }],
    ['completed', { result: { content: [], isError: true } }],
    ['failed', { error: { code: -32603, message: 'boom' } }],
    ['cancelled', {}],
  ])('%s with its payload is valid', (status, extra) => {
    expect(v.validate('DetailedTask', { ...task(), status, ...extra })).toEqual({ valid: true });
    expect(v.validate('GetTaskResult', { ...task(), status, ...extra, resultType: 'complete' })).toEqual({ valid: true });
  });

  it('a status without its payload is invalid', () => {
    expectInvalid('DetailedTask', { ...task(), status: 'input_required' }, "must have required property 'inputRequests'");
    expectInvalid('DetailedTask', { ...task(), status: 'completed' }, "must have required property 'result'");
    expectInvalid('DetailedTask', { ...task(), status: 'failed' }, "must have required property 'error'");
    expectInvalid('DetailedTask', { ...task(), status: 'failed', error: { message: 'no code' } }, "must have required property 'code'");
    expectInvalid('DetailedTask', { ...task(), status: 'done' }, '/status: must be "working"', '/status: must be "cancelled"');
  });

  it('inputRequests hold only server-to-client requests', () => {
    expectInvalid(
      'InputRequiredTask',
      { ...task(), status: 'input_required', inputRequests: { k: { method: 'tools/call', params: { name: 'x' } } } },
      '/inputRequests/k',
    );
  });
});

describe('Task fields', () => {
  it('ttlMs: integer or null; pollIntervalMs: integer; both milliseconds under their new names', () => {
    expect(v.validate('Task', { ...task(), ttlMs: null })).toEqual({ valid: true });
    expectInvalid('Task', { ...task(), ttlMs: '60000' }, '/ttlMs');
    expectInvalid('Task', { ...task(), ttlMs: 1.5 }, '/ttlMs: must be integer');
    expectInvalid('Task', { ...task(), pollIntervalMs: 'soon' }, '/pollIntervalMs: must be integer');
    const { ttlMs: _, ...noTtl } = task();
    expectInvalid('Task', { ...noTtl, ttl: 60000 }, "/: must have required property 'ttlMs'");
  });

  it('timestamps are ISO 8601 (local-iso8601-timestamps), in every task shape', () => {
    expectInvalid('Task', { ...task(), createdAt: 'yesterday' }, '/createdAt: must match format "iso8601-extension"');
    expectInvalid(
      'CreateTaskResult',
      { ...task(), resultType: 'task', lastUpdatedAt: '2026-13-45T99:00:00Z' },
      '/lastUpdatedAt: must match format "iso8601-extension"',
    );
    expectInvalid('TaskStatusNotificationParams', { ...task(), createdAt: 1 }, '/createdAt: must be string');
    // RULINGS.md#ext-timestamps-iso8601: zone-less (Python's naive isoformat()), basic format, mixed precision.
    for (const t of ['2026-07-28T10:30:00.123456', '20260728T103000Z', '2026-07-28T10:30', '2026-07-28T10:30:00,5+02'])
      expect(v.validate('Task', { ...task(), createdAt: t, lastUpdatedAt: t }), t).toEqual({ valid: true });
    const raw = createValidator(generate2026({ localPatches: [] }) as { $defs: Record<string, unknown> }, '2026-07-28-raw');
    expect(raw.validate('Task', { ...task(), createdAt: 'yesterday' })).toEqual({ valid: true });
  });
});

describe('resultType', () => {
  it('CreateTaskResult is a flat Task with resultType "task"', () => {
    expect(v.validate('CreateTaskResult', { ...task(), resultType: 'task' })).toEqual({ valid: true });
    expectInvalid('CreateTaskResult', { ...task(), resultType: 'complete' }, '/resultType: must be "task"');
    expectInvalid('CreateTaskResult', { task: task(), resultType: 'task' }, "must have required property 'taskId'"); // the 2025 nesting
    expectInvalid('CreateTaskResult', task(), "must have required property 'resultType'");
  });

  it('tasks/get, tasks/update, tasks/cancel answer with resultType "complete"', () => {
    expectInvalid('GetTaskResult', { ...task(), resultType: 'task' }, '/resultType: must be "complete"');
    expectInvalid('UpdateTaskResult', { resultType: 'task' }, '/resultType: must be "complete"');
    expectInvalid('CancelTaskResult', {}, "must have required property 'resultType'");
    expect(v.validate('CancelTaskResult', { resultType: 'complete' })).toEqual({ valid: true });
  });

  it('every result carries resultType (core Result)', () => {
    expectInvalid('CallToolResult', { content: [] }, "must have required property 'resultType'");
    expect(v.validate('CallToolResult', { content: [], resultType: 'complete' })).toEqual({ valid: true });
  });
});

describe('tasks/update params', () => {
  const update = (params: unknown) => ({ jsonrpc: '2.0', id: 6, method: 'tasks/update', params });
  it('require taskId and inputResponses', () => {
    const _meta = requestMeta(tasksExtensionCapabilities());
    expect(v.validate('UpdateTaskRequest', update({ _meta, taskId: 't', inputResponses: { name: { action: 'accept', content: { name: 'Luca' } } } }))).toEqual({
      valid: true,
    });
    expectInvalid('UpdateTaskRequest', update({ _meta, taskId: 't' }), "/params: must have required property 'inputResponses'");
    expectInvalid('UpdateTaskRequest', update({ _meta, inputResponses: {} }), "/params: must have required property 'taskId'");
    expectInvalid('UpdateTaskRequest', update({ _meta, taskId: 't', inputResponses: [] }), '/params/inputResponses: must be object');
  });
});

describe('errors', () => {
  const err = (error: unknown) => ({ jsonrpc: '2.0', id: 1, error });
  it('-32021 carries data.requiredCapabilities', () => {
    const e = { code: ErrorCode.MissingRequiredClientCapability, message: 'Missing required client capability', data: missingTasksCapabilityData() };
    expect(v.validate('MissingRequiredClientCapabilityError', err(e))).toEqual({ valid: true });
    expectInvalid('MissingRequiredClientCapabilityError', err({ ...e, data: {} }), "/error/data: must have required property 'requiredCapabilities'");
    expectInvalid('MissingRequiredClientCapabilityError', err({ ...e, code: -32003 }), '/error/code: must be -32021');
    expectInvalid('MissingRequiredClientCapabilityError', err({ code: e.code, message: e.message }), "/error: must have required property 'data'");
  });

  it('-32022 lists the supported and the requested version; -32020 is the header mismatch', () => {
    const data = { supported: ['2026-07-28'], requested: '2099-01-01' };
    expect(v.validate('UnsupportedProtocolVersionError', err({ code: ErrorCode.UnsupportedProtocolVersion, message: 'x', data }))).toEqual({ valid: true });
    expectInvalid(
      'UnsupportedProtocolVersionError',
      err({ code: ErrorCode.UnsupportedProtocolVersion, message: 'x', data: { requested: 'x' } }),
      "must have required property 'supported'",
    );
    expect(v.validate('HeaderMismatchError', err({ code: ErrorCode.HeaderMismatch, message: 'x' }))).toEqual({ valid: true });
    expectInvalid('HeaderMismatchError', err({ code: -32001, message: 'x' }), '/error/code: must be -32020');
  });
});

describe('discovery and subscriptions', () => {
  it('server/discover result', () => {
    const result = {
      resultType: 'complete',
      cacheScope: 'public',
      ttlMs: 60000,
      supportedVersions: ['2026-07-28'],
      capabilities: tasksExtensionCapabilities(),
    };
    expect(v.validate('DiscoverResult', result)).toEqual({ valid: true });
    expectInvalid('DiscoverResult', { ...result, supportedVersions: '2026-07-28' }, '/supportedVersions: must be array');
  });

  it('subscriptions/listen with taskIds', () => {
    const listen = {
      jsonrpc: '2.0',
      id: 12,
      method: 'subscriptions/listen',
      params: { _meta: requestMeta(tasksExtensionCapabilities()), notifications: { taskIds: ['t'] } },
    };
    expect(v.validate('SubscriptionsListenRequest', listen)).toEqual({ valid: true });
    expect(v.validate('TaskSubscriptionNotifications', { taskIds: ['t'] })).toEqual({ valid: true });
    expectInvalid('TaskSubscriptionNotifications', { taskIds: 't' }, '/taskIds: must be array');
  });
});
