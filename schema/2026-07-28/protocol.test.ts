// The constants of schema/2026-07-28/protocol.ts pinned to the vendored texts they come from: the
// transition table to the extension's state diagram, the statuses to its status list and schema, the
// error codes and version to the core schema.ts, the headers and methods to the pages that name them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { specDir } from '../spec.ts';
import { readStateDiagram } from '../test-helpers.ts';
import {
  declaresTasksExtension,
  EARLIER_NUMBERING,
  earlierNumbering,
  ErrorCode,
  Header,
  INITIAL_STATUS,
  Meta,
  Method,
  missingTasksCapabilityData,
  PROTOCOL_VERSION,
  REMOVED_TASK_METHODS,
  ResultType,
  TASK_AUGMENTABLE_METHODS,
  TASK_METHODS,
  TASK_STATUSES,
  TASKS_EXTENSION,
  TERMINAL_STATUSES,
  TRANSITIONS,
  firstIllegalStep,
  requestMeta,
  tasksExtensionCapabilities,
} from './protocol.ts';

const ext = (f: string) => readFileSync(join(specDir('ext-tasks'), f), 'utf8');
const core = (f: string) => readFileSync(join(specDir('2026-07-28'), f), 'utf8');
const tasksMd = ext('tasks.md');
const extSchema = ext('schema.ts');
const coreSchema = core('schema.ts');
const sorted = (xs: readonly string[]) => [...xs].sort();

describe('TRANSITIONS follows the extension\'s "Task Status State Diagram"', () => {
  const at = tasksMd.indexOf('**Task Status State Diagram:**');
  const diagram = /```mermaid\n([\s\S]*?)```/.exec(tasksMd.slice(at))![1]!;

  it('the diagram is where we read it', () => {
    expect(at).toBeGreaterThan(0);
    expect(diagram).toMatch(/stateDiagram-v2/);
  });

  it('equals the diagram ("terminal" expanded to the statuses its note lists)', () => {
    const { terminal, initial, edges } = readStateDiagram(diagram, '-');
    expect(sorted(terminal)).toEqual(sorted(TERMINAL_STATUSES));
    expect(initial).toBe(INITIAL_STATUS);
    expect(Object.fromEntries(TASK_STATUSES.map((s) => [s, sorted(TRANSITIONS[s])]))).toEqual(edges);
  });

  it('the statuses are those of "Task Status" and of schema.ts TaskStatus', () => {
    const section = tasksMd.slice(tasksMd.indexOf('### Task Status\n'), tasksMd.indexOf('Derived shapes of `Task`'));
    expect(sorted([...section.matchAll(/^- `([a-z_]+)`:/gm)].map((m) => m[1]!))).toEqual(sorted(TASK_STATUSES));
    const union = /export type TaskStatus =([\s\S]*?);/.exec(extSchema)![1]!;
    expect(sorted([...union.matchAll(/"([a-z_]+)"/g)].map((m) => m[1]!))).toEqual(sorted(TASK_STATUSES));
  });

  it('judges observed sequences with the table', () => {
    expect(firstIllegalStep(['working', 'input_required', 'working', 'completed'])).toBeNull();
    expect(firstIllegalStep(['working', 'cancelled', 'working'])).toEqual({ from: 'cancelled', to: 'working', index: 2 });
    expect(firstIllegalStep(['completed', 'failed'])).toEqual({ from: 'completed', to: 'failed', index: 1 });
  });
});

describe('constants follow the vendored texts', () => {
  it('protocol version and extension id', () => {
    expect(coreSchema).toContain(`export const LATEST_PROTOCOL_VERSION = "${PROTOCOL_VERSION}";`);
    expect(tasksMd).toContain(`This extension is identified as: \`${TASKS_EXTENSION}\`.`);
  });

  it('error codes equal the core schema.ts constants', () => {
    const named = {
      PARSE_ERROR: ErrorCode.ParseError,
      INVALID_REQUEST: ErrorCode.InvalidRequest,
      METHOD_NOT_FOUND: ErrorCode.MethodNotFound,
      INVALID_PARAMS: ErrorCode.InvalidParams,
      INTERNAL_ERROR: ErrorCode.InternalError,
      HEADER_MISMATCH: ErrorCode.HeaderMismatch,
      MISSING_REQUIRED_CLIENT_CAPABILITY: ErrorCode.MissingRequiredClientCapability,
      UNSUPPORTED_PROTOCOL_VERSION: ErrorCode.UnsupportedProtocolVersion,
    };
    for (const [name, code] of Object.entries(named)) expect(coreSchema).toContain(`export const ${name} = ${code};`);
    expect(tasksMd).toContain(`\`${ErrorCode.MissingRequiredClientCapability}\` (Missing Required Client Capability)`);
  });

  it('methods: the three of the extension, tools/call the one augmentable request, tasks/result and tasks/list removed', () => {
    expect(tasksMd).toContain(
      `three methods: ${TASK_METHODS.map((m) => `\`${m}\``)
        .join(', ')
        .replace(/, (?=[^,]*$)/, ', and ')}`,
    );
    const supported = tasksMd.slice(tasksMd.indexOf('## Supported Methods'), tasksMd.indexOf('## Polymorphic Results'));
    expect([...supported.matchAll(/^- `([^`]+)`$/gm)].map((m) => m[1])).toEqual([...TASK_AUGMENTABLE_METHODS]);
    for (const m of TASK_METHODS) expect(extSchema).toContain(`method: "${m}";`);
    expect(extSchema).toContain(`method: "${Method.TasksNotification}";`);
    for (const m of REMOVED_TASK_METHODS) expect(extSchema).not.toContain(`"${m}"`);
    expect(ext('sep-2663-tasks-extension.md')).toContain(`\`${Method.TasksResult}\` is removed; clients calling it **MUST** receive \`-32601\``);
    for (const m of [Method.ServerDiscover, Method.ToolsCall, Method.SubscriptionsListen, Method.SubscriptionsAcknowledged, Method.Cancelled])
      expect(coreSchema).toContain(`method: "${m}";`);
  });

  it('resultType values', () => {
    expect(coreSchema).toContain(`export type ResultType = "${ResultType.Complete}" | "${ResultType.InputRequired}" | string;`);
    expect(tasksMd).toContain(`Servers **MUST** set \`resultType\` to \`"${ResultType.Task}"\` when returning a \`CreateTaskResult\``);
  });

  it('headers and _meta keys', () => {
    const http = core('basic-transports-streamable-http.md');
    for (const h of [Header.ProtocolVersion, Header.Method, Header.Name]) expect(http).toContain(`\`${h}\``);
    expect(http).toContain(`\`${Header.ParamPrefix}{Name}\``);
    expect(tasksMd).toContain(`the client **MUST** set the \`${Header.Name}\` header to the value of \`params.taskId\``);
    for (const k of [Meta.ProtocolVersion, Meta.ClientCapabilities, Meta.ClientInfo, Meta.LogLevel, Meta.SubscriptionId, Meta.ServerInfo])
      expect(coreSchema).toContain(`"${k}"`);
    expect(tasksMd).toContain(`"${Meta.ClientCapabilities}": {`);
  });
});

describe('capability helpers', () => {
  it('the -32021 data is the one of the text', () => {
    expect(tasksMd).toContain(JSON.stringify(missingTasksCapabilityData(), null, 2).replace(/\n/g, '\n    '));
  });

  it("declaresTasksExtension reads only the request's own _meta", () => {
    expect(declaresTasksExtension({ _meta: requestMeta(tasksExtensionCapabilities()) })).toBe(true);
    expect(declaresTasksExtension({ _meta: requestMeta({}) })).toBe(false);
    expect(declaresTasksExtension({ _meta: requestMeta({ tasks: { requests: { tools: { call: {} } } } }) })).toBe(false);
    expect(declaresTasksExtension({ _meta: requestMeta({ extensions: { [TASKS_EXTENSION]: true } }) })).toBe(false);
    expect(declaresTasksExtension(undefined)).toBe(false);
    expect(declaresTasksExtension({ capabilities: tasksExtensionCapabilities() })).toBe(false);
  });
});

describe('the numbering before August 2026 (RULINGS.md#ext-error-renumbering)', () => {
  it('each earlier code is in the changelog beside the one judged now', () => {
    const changelog = core('changelog.md').replace(/\s+/g, ' ');
    for (const [earlier, now] of Object.entries(EARLIER_NUMBERING)) expect(changelog).toContain(`\`${earlier}\` → \`${now}\``);
  });
  it('names the earlier code, and nothing else', () => {
    expect(earlierNumbering(-32003, ErrorCode.MissingRequiredClientCapability)).toMatch(/-32003 is -32021 in the numbering before August 2026/);
    expect(earlierNumbering(-32003, ErrorCode.HeaderMismatch)).toBe('');
    expect(earlierNumbering(-32602, ErrorCode.MissingRequiredClientCapability)).toBe('');
  });
});
