// Schema conformance of everything the target sent (schema/tasks-2025-11-25.schema.json: the
// task-related 2025-11-25 definitions with errata 357adac4 and the iso8601 timestamp format).
// Runs last and reads every message received so far: the shared connection's whole transcript (probe
// included) and the extra sessions recorded in earlier checks' transcripts.
//
// Requirement ids: the catalog has no id for "messages conform to the schema"; the check cites the
// ids whose rulings name this schema validation (ttl-created-at / ttl-last-updated-at: RFC 3339
// timestamps via format iso8601; ttl-actual-in-get: ttl integer or null per the erratum schema) and
// each violation names the id its path maps to when one does.
import { defineCheck, type CheckContext, type CheckDef } from '../engine/check.ts';
import type { Message } from '../wire/peer.ts';
import { validate } from '../../schema/validate.ts';
import { isObj, short } from '../engine/text.ts';
import { SPEC_REVISION } from '../../schema/spec.ts';
import { targetTranscripts } from '../arrange/tasks.ts';

const SECTION = 'Schema';
const MAX_REPORTED = 12;

function idKey(id: unknown): string {
  return typeof id === 'string' ? `s:${id}` : (JSON.stringify(id) ?? 'undefined');
}

/** Definitions for a successful response, from the request it answers. */
function resultDefinitions(request: Message | undefined, result: unknown): string[] {
  if (!request) return [];
  const r = result as Record<string, unknown> | null;
  switch (request.method) {
    case 'initialize':
      return ['InitializeResult'];
    case 'tools/list':
      return ['ListToolsResult'];
    case 'tools/call':
      // A task-augmented call answered with a plain result (target without task support) is a CallToolResult.
      return request.params?.task !== undefined && r && typeof r === 'object' && 'task' in r ? ['CreateTaskResult'] : ['CallToolResult'];
    case 'tasks/get':
      return ['GetTaskResult'];
    case 'tasks/list':
      return ['ListTasksResult'];
    case 'tasks/cancel':
      return ['CancelTaskResult'];
    case 'tasks/result':
      // The suite creates tasks only through tools/call: the payload is a CallToolResult.
      return ['GetTaskPayloadResult', 'CallToolResult'];
    default:
      return ['Result'];
  }
}

/** Definitions for a request or notification the target sent. */
function messageDefinitions(m: Message): string[] {
  const isRequest = 'id' in m;
  switch (m.method) {
    case 'elicitation/create':
      return ['ElicitRequest'];
    case 'sampling/createMessage':
      return ['CreateMessageRequest'];
    case 'notifications/progress':
      return ['ProgressNotification'];
    case 'notifications/tasks/status':
      return ['TaskStatusNotification'];
    case 'notifications/cancelled':
      return ['CancelledNotification'];
    default:
      return [isRequest ? 'JSONRPCRequest' : 'JSONRPCNotification'];
  }
}

/** The catalog id a schema error path points at, when there is one. */
function requirementFor(error: string): string | undefined {
  if (/\/createdAt\b/.test(error) || /'createdAt'/.test(error)) return 'ttl-created-at';
  if (/\/lastUpdatedAt\b/.test(error) || /'lastUpdatedAt'/.test(error)) return 'ttl-last-updated-at';
  if (/\/ttl\b/.test(error) || /'ttl'/.test(error)) return 'ttl-actual-in-get';
  if (/\/taskId\b/.test(error) || /'taskId'/.test(error)) return 'id-string';
  // The tasks capability is the Tasks page's own (Capabilities), wherever it appears.
  if (/\/capabilities\/tasks\b/.test(error)) return 'caps-declare';
  return undefined;
}

/** Definitions of the Tasks page's messages: their schema errors are Tasks findings. */
const TASK_DEFINITIONS = new Set([
  'CreateTaskResult',
  'GetTaskResult',
  'ListTasksResult',
  'CancelTaskResult',
  'GetTaskPayloadResult',
  'TaskStatusNotification',
]);

export const checks: CheckDef[] = [
  defineCheck({
    id: 'schema.messages-valid',
    title: `Every message the target sent conforms to the ${SPEC_REVISION} schema (task definitions with errata)`,
    section: SECTION,
    requirements: ['ttl-created-at', 'ttl-last-updated-at', 'ttl-actual-in-get'],
    level: 'MUST',
    killedBy: ['missing-created-at', 'bad-timestamp', 'ttl-missing', 'result-returns-task', 'numeric-task-id', 'caps-not-objects', 'unknown-status'],
    clientReceiver: 'validates tasks/result payloads as CallToolResult (the suite creates tasks through tools/call only)',
    runsLast: true,
    async run(ctx: CheckContext) {
      await ctx.othersDone();
      // Which check a message came up in (for the report).
      const owner = new Map<unknown, string>();
      for (const r of ctx.history()) for (const e of r.transcript) if (e.dir === 'in' && e.message && !owner.has(e.message)) owner.set(e.message, r.id);

      // Violations grouped by definition + error: the first occurrence is quoted, the rest counted.
      const groups = new Map<string, { count: number; first: string }>();
      const add = (what: string, where: string, excerptOf: unknown) => {
        const g = groups.get(what);
        if (g) g.count++;
        else groups.set(what, { count: 1, first: `${where} — ${short(excerptOf, 240)}` });
      };
      // Errors in messages that are not about tasks, at fields no Tasks requirement governs: outside Tasks.
      const outside = new Map<string, { count: number; first: string }>();
      let validated = 0;
      const seen = new Set<unknown>();
      const check = (where: string, definition: string, value: unknown, excerptOf: unknown, taskMessage = TASK_DEFINITIONS.has(definition)) => {
        const v = validate(definition, value);
        validated++;
        if (v.valid) return;
        for (const err of v.errors) {
          const req = requirementFor(err);
          if (!req && !taskMessage) {
            const what = `${definition} ${err}`;
            const g = outside.get(what);
            if (g) g.count++;
            else outside.set(what, { count: 1, first: `${where} — ${short(excerptOf, 240)}` });
            continue;
          }
          add(`${definition} ${err}${req ? ` [${req}]` : ''}`, where, excerptOf);
        }
      };

      // The probe's initialize result and tool list (also in the shared transcript; validated once there).
      for (const src of targetTranscripts(ctx)) {
        const requests = new Map<string, Message>();
        for (const e of src.entries) {
          const m = e.message as Message | undefined;
          if (e.dir === 'out' && m && typeof m === 'object' && 'method' in m && 'id' in m) requests.set(idKey(m.id), m);
        }
        for (const e of src.entries) {
          const m = e.message as Message | undefined;
          if (e.dir !== 'in' || !m || seen.has(m)) continue;
          seen.add(m);
          const where = `${owner.get(m) ?? src.label} #${e.seq}`;
          if (typeof m !== 'object' || Array.isArray(m)) {
            add('not a JSON-RPC message object', where, m);
            continue;
          }
          if ('method' in m) {
            for (const d of messageDefinitions(m)) check(where, d, m, m);
            continue;
          }
          if ('error' in m) {
            // JSON-RPC 2.0 answers unreadable requests with id null; the MCP schema's RequestId has no
            // null (the id is optional there), so such an answer is validated without its id.
            const value: Record<string, unknown> = { ...m };
            if (value.id === null) delete value.id;
            check(where, 'JSONRPCErrorResponse', value, m);
            continue;
          }
          const request = requests.get(idKey(m.id));
          // The payload of tasks/result is a Tasks message whatever its definition.
          const taskAnswer = typeof request?.method === 'string' && request.method.startsWith('tasks/');
          check(where, 'JSONRPCResultResponse', m, m, taskAnswer);
          // tasks/result returns the underlying request's result exactly (result-exact): a CallToolResult that deviates
          // from tools.md's schema is that request's own, judged outside Tasks, unless it is a Task in its place.
          const forwarded = request?.method === 'tasks/result' && !(isObj(m.result) && 'taskId' in m.result && 'status' in m.result);
          for (const d of resultDefinitions(request, m.result))
            check(`${where} (${request?.method})`, d, m.result, m, TASK_DEFINITIONS.has(d) || (taskAnswer && !(forwarded && d === 'CallToolResult')));
        }
      }
      for (const [what, g] of outside) ctx.outside('schema-non-task-message', `${what} (${g.count}×; first: ${g.first})`);
      const problems = [...groups].map(([what, g]) => `${what} (${g.count}×; first: ${g.first})`);
      const total = [...groups.values()].reduce((n, g) => n + g.count, 0);
      ctx.expect(
        problems.length === 0,
        `${total} schema violation${total === 1 ? '' : 's'} in messages from the target: ${problems.slice(0, MAX_REPORTED).join(' | ')}${problems.length > MAX_REPORTED ? ` | … (+${problems.length - MAX_REPORTED} more kinds)` : ''}`,
      );
      return `${seen.size} messages from the target, ${validated} validations, all valid`;
    },
  }),
];
