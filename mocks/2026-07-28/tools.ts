// The tools of the reference extension server, one per role the checks need. What each does is data here;
// how it runs (as a task, synchronously, through MRTR) is server.ts's business.
import { ErrorCode, Method } from './protocol.ts';
import { RpcError, type InputRequest, type JsonObject, type JsonRpcError } from './store.ts';

export interface Timings {
  /** Run time of complete, fail_rpc, tool_error, task_only and the tail of the input tools. */
  completesMs: number;
  /** Run time of slow. */
  slowMs: number;
}

/** A form field of a question (elicitation/create requestedSchema, a primitive property). */
export type FieldType = 'string' | 'boolean';

/** One question of an input tool: an elicitation/create (form mode; by default one string field `answer`). */
export interface Question {
  label: string;
  message: string;
  /** The form's fields (default `{ answer: 'string' }`); the first one's value is the answer. */
  fields?: Readonly<Record<string, FieldType>>;
  /** The fields an accepted answer must carry (default: every field). */
  required?: readonly string[];
}

export type Role =
  'completes' | 'slow' | 'failsWithError' | 'returnsIsError' | 'needsInput' | 'needsTwoInputs' | 'needsInputTwice' | 'needsInputBeforeTask' | 'taskOnly';

export interface ToolSpec {
  name: string;
  /** The role it plays for discovery and profiles (the official suite's fixture tools play none). */
  role?: Role;
  description: string;
  /** Which run time applies (`ms` overrides it). */
  timing: keyof Timings;
  /** Rounds of questions asked during the work (each round's questions are outstanding together). */
  rounds?: readonly (readonly Question[])[];
  /** A question asked through MRTR on the tools/call itself, before any task exists. */
  before?: Question;
  /** Needs a task: a client that did not declare the extension gets -32021. */
  taskOnly?: boolean;
  /** Never a task: the result comes on the tools/call, whatever the client declares. */
  syncOnly?: boolean;
  /** Its own arguments instead of `ms`: their properties (inputSchema) and a reader giving the run time (throws -32602). */
  params?: { properties: JsonObject; required?: readonly string[]; runTime(args: JsonObject, timings: Timings): number };
  /** String parameters mirrored into `Mcp-Param-{header}` (x-mcp-header), by parameter name: validated over HTTP. */
  mirrored?: Readonly<Record<string, { header: string; description: string }>>;
  /** The outcome once the time has passed and the answers are in (answers by question label; the call's arguments). */
  outcome(answers: Record<string, string>, args: JsonObject): { result: JsonObject } | { error: JsonRpcError };
}

const text = (t: string, isError = false): { result: JsonObject } => ({ result: { content: [{ type: 'text', text: t }], isError } });

export const FAIL_RPC_ERROR: JsonRpcError = { code: ErrorCode.InternalError, message: 'fail_rpc: the upstream service failed', data: { tool: 'fail_rpc' } };

export const TOOLS: readonly ToolSpec[] = [
  {
    name: 'complete',
    role: 'completes',
    timing: 'completesMs',
    description: 'Completes after a short time with the text "done".',
    // Exercises "Custom Headers from Tool Parameters": over HTTP a call with region needs Mcp-Param-Region.
    mirrored: { region: { header: 'Region', description: 'where to run (mirrored into the Mcp-Param-Region header)' } },
    outcome: () => text('done'),
  },
  {
    name: 'slow',
    role: 'slow',
    timing: 'slowMs',
    description: 'Runs for a long time (stops when cancelled), then "slow done".',
    outcome: () => text('slow done'),
  },
  {
    name: 'fail_rpc',
    role: 'failsWithError',
    timing: 'completesMs',
    description: 'Fails with a JSON-RPC error (as a task: status failed).',
    outcome: () => ({ error: FAIL_RPC_ERROR }),
  },
  {
    name: 'tool_error',
    role: 'returnsIsError',
    timing: 'completesMs',
    description: 'Returns a tool error (isError: true; as a task: status completed).',
    outcome: () => text('tool_error: the tool reports an error', true),
  },
  {
    name: 'ask',
    role: 'needsInput',
    timing: 'completesMs',
    description: 'Asks one question (elicitation/create), then completes with the answer.',
    rounds: [[{ label: 'answer', message: 'Please enter an answer.' }]],
    outcome: (a) => text(`answer: ${a.answer}`),
  },
  {
    name: 'ask_two',
    role: 'needsTwoInputs',
    timing: 'completesMs',
    description: 'Asks two questions at once (they may be answered separately), then completes with both answers.',
    rounds: [
      [
        { label: 'first', message: 'Please enter the first answer.' },
        { label: 'second', message: 'Please enter the second answer.' },
      ],
    ],
    outcome: (a) => text(`first: ${a.first}, second: ${a.second}`),
  },
  {
    name: 'ask_rounds',
    role: 'needsInputTwice',
    timing: 'completesMs',
    description: 'Asks a question, and once it is answered a second one (a new key), then completes with both answers.',
    rounds: [[{ label: 'first', message: 'Please enter the first answer.' }], [{ label: 'second', message: 'Please enter the second answer.' }]],
    outcome: (a) => text(`first: ${a.first}, second: ${a.second}`),
  },
  {
    name: 'mrtr_then_task',
    role: 'needsInputBeforeTask',
    timing: 'completesMs',
    description: 'Asks a question on the tools/call itself (an InputRequiredResult) before it starts; the retry with the answer starts the work.',
    before: { label: 'confirm', message: 'Please confirm to start the work.' },
    outcome: (a) => text(`confirmed: ${a.confirm}`),
  },
  {
    name: 'task_only',
    role: 'taskOnly',
    timing: 'completesMs',
    taskOnly: true,
    description: 'Runs only as a task; a client without the Tasks extension gets -32021.',
    outcome: () => text('done as a task'),
  },
];

/** Tool name by role (profiles, discovery). */
export const TOOL_ROLES: Readonly<Record<Role, string>> = Object.fromEntries(TOOLS.map((t) => [t.role, t.name])) as Record<Role, string>;

export const MAX_MS = 60_000;

/** The tools/list entry of a tool. */
export function toolDefinition(t: ToolSpec, timings: Timings): JsonObject {
  if (t.params) {
    const inputSchema = { type: 'object', properties: t.params.properties, ...(t.params.required ? { required: [...t.params.required] } : {}) };
    return { name: t.name, description: t.description, inputSchema, annotations: ANNOTATIONS };
  }
  return {
    name: t.name,
    description: t.description,
    inputSchema: {
      type: 'object',
      properties: {
        ms: { type: 'integer', minimum: 0, maximum: MAX_MS, default: timings[t.timing], description: 'run time in milliseconds' },
        ...Object.fromEntries(Object.entries(t.mirrored ?? {}).map(([k, m]) => [k, { type: 'string', description: m.description, 'x-mcp-header': m.header }])),
      },
    },
    annotations: ANNOTATIONS,
  };
}

const ANNOTATIONS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** Validates the arguments (before anything runs): the run time. A bad argument is a -32602 of the tools/call. */
export function runTime(t: ToolSpec, args: unknown, timings: Timings): number {
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args)))
    throw new RpcError(ErrorCode.InvalidParams, 'arguments must be an object');
  if (t.params) return t.params.runTime((args ?? {}) as JsonObject, timings);
  if (args === undefined) return timings[t.timing];
  for (const k of Object.keys(t.mirrored ?? {})) {
    const v = (args as JsonObject)[k];
    if (v !== undefined && v !== null && typeof v !== 'string')
      throw new RpcError(ErrorCode.InvalidParams, `Invalid arguments for tool ${t.name}: ${k} must be a string`);
  }
  const ms = (args as JsonObject).ms;
  if (ms === undefined) return timings[t.timing];
  if (typeof ms !== 'number' || !Number.isInteger(ms) || ms < 0 || ms > MAX_MS)
    throw new RpcError(ErrorCode.InvalidParams, `Invalid arguments for tool ${t.name}: ms must be an integer from 0 to ${MAX_MS}`);
  return ms;
}

const ANSWER: Readonly<Record<string, FieldType>> = { answer: 'string' };
const fieldsOf = (q: Question | undefined) => q?.fields ?? ANSWER;
const requiredOf = (q: Question | undefined) => q?.required ?? Object.keys(fieldsOf(q));

/** The elicitation/create of a question. */
export function elicitation(q: Question): InputRequest {
  const properties = Object.fromEntries(Object.entries(fieldsOf(q)).map(([k, type]) => [k, { type }]));
  return {
    method: Method.ElicitationCreate,
    params: { mode: 'form', message: q.message, requestedSchema: { type: 'object', properties, required: [...requiredOf(q)] } },
  };
}

/** The question an outstanding elicitation/create asks (its requestedSchema's primitive fields), to read its answer. */
export function questionOf(req: InputRequest | undefined): Question | undefined {
  const schema = (req?.params as JsonObject | undefined)?.requestedSchema as JsonObject | undefined;
  const props = schema?.properties as JsonObject | undefined;
  if (!props) return undefined;
  const fields = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, ((v as JsonObject)?.type === 'boolean' ? 'boolean' : 'string') as FieldType]));
  return { label: '', message: '', fields, required: Array.isArray(schema?.required) ? (schema.required as string[]) : [] };
}

const ACTIONS = new Set(['accept', 'decline', 'cancel']);

/** Reads an ElicitResult to question `q` (its first field's value); a malformed one is a -32602 (mrtr.md "Error Handling"). */
export function answerText(key: string, value: unknown, q?: Question): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new RpcError(ErrorCode.InvalidParams, `inputResponses.${key} must be an ElicitResult object`);
  const v = value as JsonObject;
  if (typeof v.action !== 'string' || !ACTIONS.has(v.action))
    throw new RpcError(ErrorCode.InvalidParams, `inputResponses.${key}.action must be "accept", "decline" or "cancel"`);
  if (v.action !== 'accept') return `(${v.action === 'decline' ? 'declined' : 'cancelled'})`;
  const content = v.content;
  if (typeof content !== 'object' || content === null || Array.isArray(content))
    throw new RpcError(ErrorCode.InvalidParams, `inputResponses.${key}.content must be an object when action is "accept"`);
  const required = requiredOf(q);
  for (const [field, type] of Object.entries(fieldsOf(q))) {
    const v = (content as JsonObject)[field];
    if (v === undefined && !required.includes(field)) continue;
    if (typeof v !== type) throw new RpcError(ErrorCode.InvalidParams, `inputResponses.${key}.content.${field} must be a ${type}`);
  }
  const first = (content as JsonObject)[Object.keys(fieldsOf(q))[0]!];
  return first === undefined ? '' : String(first);
}
