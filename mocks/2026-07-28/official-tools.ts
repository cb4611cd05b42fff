// The fixture tools of the official MCP conformance suite's Tasks scenarios (@modelcontextprotocol/conformance,
// src/scenarios/server/tasks/*.ts: their "Required server fixtures"), served next to our own tools when the
// server runs with `officialSuiteTools` (--official-suite-tools). They play no role of ours, so discovery
// and profiles are unchanged; behind the option because discovery calls every tool a server lists.
import { ErrorCode } from './protocol.ts';
import { RpcError, type JsonObject } from './store.ts';
import type { Question, Timings, ToolSpec } from './tools.ts';

const text = (t: string, isError = false): { result: JsonObject } => ({ result: { content: [{ type: 'text', text: t }], isError } });

const MAX_SECONDS = 60;

/** A string argument (`required`: it must be there). */
function str(args: JsonObject, tool: string, key: string, required: boolean): string | undefined {
  const v = args[key];
  if (v === undefined && !required) return undefined;
  if (typeof v !== 'string') throw new RpcError(ErrorCode.InvalidParams, `Invalid arguments for tool ${tool}: ${key} must be a string`);
  return v;
}

const noArgs = (runTime: (timings: Timings) => number) => ({ properties: {}, runTime: (_: JsonObject, timings: Timings) => runTime(timings) });

const CONFIRM: Question = { label: 'confirm', message: 'Confirm the deletion.', fields: { confirm: 'boolean' } };
const partOf = (n: number): Question => ({
  label: `part${n}`,
  message: `Input ${n} of 2: your name.`,
  fields: { name: 'string', confirm: 'boolean' },
  required: ['name'],
});

export const OFFICIAL_SUITE_TOOLS: readonly ToolSpec[] = [
  {
    name: 'greet',
    timing: 'completesMs',
    syncOnly: true,
    description: 'Synchronous only: returns "Hello, {name}!" (official conformance suite fixture).',
    params: {
      properties: { name: { type: 'string', description: 'whom to greet' } },
      required: ['name'],
      runTime: (args) => (str(args, 'greet', 'name', true), 0),
    },
    outcome: (_, args) => text(`Hello, ${String(args.name)}!`),
  },
  {
    name: 'slow_compute',
    timing: 'slowMs',
    description: 'Sleeps `seconds` seconds, then returns a result; stops when cancelled (official conformance suite fixture).',
    params: {
      properties: {
        seconds: { type: 'number', minimum: 0, maximum: MAX_SECONDS, description: 'how long to work' },
        label: { type: 'string', description: 'a label echoed in the result' },
      },
      required: ['seconds'],
      runTime: (args) => {
        const s = args.seconds;
        if (typeof s !== 'number' || !Number.isFinite(s) || s < 0 || s > MAX_SECONDS)
          throw new RpcError(ErrorCode.InvalidParams, `Invalid arguments for tool slow_compute: seconds must be a number from 0 to ${MAX_SECONDS}`);
        str(args, 'slow_compute', 'label', false);
        return Math.round(s * 1000);
      },
    },
    outcome: (_, args) => text(`slow_compute${typeof args.label === 'string' ? ` ${args.label}` : ''}: done after ${String(args.seconds)} s`),
  },
  {
    name: 'failing_job',
    timing: 'completesMs',
    taskOnly: true,
    description: 'Runs only as a task, then returns a tool execution error (isError: true) (official conformance suite fixture).',
    params: noArgs((t) => t.completesMs),
    outcome: () => text('failing_job: the job failed', true),
  },
  {
    name: 'protocol_error_job',
    timing: 'completesMs',
    description: 'Fails with a JSON-RPC error (as a task: status failed) (official conformance suite fixture).',
    params: noArgs((t) => t.completesMs),
    outcome: () => ({ error: { code: ErrorCode.InternalError, message: 'protocol_error_job: internal failure', data: { tool: 'protocol_error_job' } } }),
  },
  {
    name: 'confirm_delete',
    timing: 'completesMs',
    description: 'Asks to confirm (elicitation/create, boolean `confirm`), then reports; deletes nothing (official conformance suite fixture).',
    rounds: [[CONFIRM]],
    params: {
      properties: { filename: { type: 'string', description: 'the file it pretends to delete' } },
      required: ['filename'],
      runTime: (args, t) => (str(args, 'confirm_delete', 'filename', true), t.completesMs),
    },
    outcome: (a, args) => text(a.confirm === 'true' ? `Deleted ${String(args.filename)}` : `Kept ${String(args.filename)}`),
  },
  {
    name: 'multi_input',
    timing: 'completesMs',
    description: 'Asks two questions at once (they may be answered separately), then completes (official conformance suite fixture).',
    rounds: [[partOf(1), partOf(2)]],
    params: noArgs((t) => t.completesMs),
    outcome: (a) => text(`part1: ${a.part1}, part2: ${a.part2}`),
  },
  {
    name: 'test_tool_with_task',
    timing: 'completesMs',
    taskOnly: true,
    description:
      'Asks for a user name on the tools/call itself (InputRequiredResult), then runs as a task greeting that name (official conformance suite fixture).',
    before: { label: 'user_name', message: 'What is your name?', fields: { name: 'string' } },
    params: noArgs((t) => t.completesMs),
    outcome: (a) => text(`Hello, ${a.user_name}!`),
  },
];
