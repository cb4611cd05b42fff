// Tool behaviours of the reference receiver. Each tool is deterministic given its arguments, so a
// task-augmented call and a plain call of the same tool produce the same CallToolResult
// (result-exact-error). Durations can be tuned per call with `{ "ms": N }` (0 … 60000).
import type { TaskSupport } from '../../schema/protocol.ts';
import { ErrorCode } from '../../schema/protocol.ts';
import { RpcError, type JsonRpcErrorObject } from './store.ts';
import type { FaultSwitches } from './fault-switches.ts';
import { requestFromClient, type ClientRequestMethod } from './requestor.ts';

export interface ToolTimings {
  /** `complete`, `required_task`, `forbidden_task`, `plain`, `echo`: default run time (ms). */
  completesMs: number;
  /** `slow`: default run time (ms). */
  slowMs: number;
  /** `fail`: default run time before failing (ms). */
  failMs: number;
  /** `progress`: default total run time (ms), split into `steps` progress notifications. */
  progressMs: number;
  /** `log`: default total run time (ms), split into `steps` log messages. */
  logMs?: number;
}

export const DEFAULT_TIMINGS: ToolTimings = { completesMs: 100, slowMs: 3000, failMs: 50, progressMs: 300 };

export const MAX_TOOL_MS = 60_000;

export type CallToolResult = { content: { type: 'text'; text: string }[]; isError?: boolean; [k: string]: unknown };

export interface ToolContext {
  args: Record<string, unknown>;
  /** Aborted when the task is cancelled/expired or the plain request is cancelled. */
  signal: AbortSignal;
  /** Abortable sleep (rejects with the abort reason). */
  sleep(ms: number): Promise<void>;
  /** Sends notifications/progress if the request carried a progressToken and the work is still live. */
  progress(progress: number, total?: number, message?: string): void;
  /** Sends notifications/message (logging) while the work is still live; for a task with related-task _meta. */
  log(level: 'debug' | 'info' | 'notice' | 'warning', data: unknown): void;
  /** Sends a request to the requestor (elicitation/create) and waits for its answer. */
  requestInput(method: string, params: Record<string, unknown>): Promise<{ result?: unknown; error?: JsonRpcErrorObject }>;
  /** The capabilities the client declared at initialize (the requestor tools read tasks.requests). */
  clientCapabilities: Record<string, unknown>;
  /** Where the active faults bend the requestor tools. */
  switches: FaultSwitches;
}

export interface ToolDef {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** undefined = no `execution` field (same as forbidden). */
  taskSupport?: TaskSupport;
  /** MCP tool annotations (tools.md): every tool here is read-only, so discovery may call it. */
  annotations?: Record<string, boolean>;
  run(ctx: ToolContext): Promise<CallToolResult>;
}

/** The `ms` argument, with the tool's own default run time (so a schema-derived call shows what it gets). */
const msSchema = (defaultMs: number) => ({
  ms: { type: 'integer', minimum: 0, maximum: MAX_TOOL_MS, default: defaultMs, description: 'run time in milliseconds' },
});

/** Side-effect free and closed-world: the suite's discovery may call these tools (tools.md, annotations). */
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

function durationArg(args: Record<string, unknown>, fallback: number): number {
  const v = args.ms;
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
    throw new RpcError(ErrorCode.InvalidParams, `Invalid arguments: "ms" must be a number between 0 and ${MAX_TOOL_MS}`);
  }
  return Math.min(Math.floor(v), MAX_TOOL_MS);
}

const text = (t: string): CallToolResult => ({ content: [{ type: 'text', text: t }] });

export function buildTools(timings: ToolTimings): ToolDef[] {
  const simple = (name: string, taskSupport: TaskSupport | undefined, description: string): ToolDef => ({
    name,
    title: name,
    description,
    inputSchema: { type: 'object', properties: { ...msSchema(timings.completesMs) } },
    ...(taskSupport ? { taskSupport } : {}),
    annotations: READ_ONLY,
    async run(ctx) {
      await ctx.sleep(durationArg(ctx.args, timings.completesMs));
      return text('done');
    },
  });
  return [
    simple('complete', 'optional', `Completes after ${timings.completesMs} ms (or "ms") with the text "done".`),
    {
      name: 'slow',
      title: 'slow',
      description: `Runs ${timings.slowMs} ms (or "ms"), then completes with "slow done"; stops when cancelled.`,
      inputSchema: { type: 'object', properties: { ...msSchema(timings.slowMs) } },
      annotations: READ_ONLY,
      taskSupport: 'optional',
      async run(ctx) {
        await ctx.sleep(durationArg(ctx.args, timings.slowMs));
        return text('slow done');
      },
    },
    {
      name: 'fail',
      title: 'fail',
      description: `After ${timings.failMs} ms (or "ms"), returns a tool error (isError: true); as a task it ends "failed".`,
      inputSchema: { type: 'object', properties: { ...msSchema(timings.failMs) } },
      annotations: READ_ONLY,
      taskSupport: 'optional',
      async run(ctx) {
        await ctx.sleep(durationArg(ctx.args, timings.failMs));
        return { content: [{ type: 'text', text: 'Tool execution failed: deliberate failure' }], isError: true };
      },
    },
    {
      name: 'ask',
      title: 'ask',
      description: 'Needs input: sends elicitation/create (form, one string field "answer"), then completes echoing the answer.',
      inputSchema: { type: 'object', properties: { ...msSchema(10), question: { type: 'string' } } },
      annotations: READ_ONLY,
      taskSupport: 'optional',
      async run(ctx) {
        await ctx.sleep(durationArg(ctx.args, 10));
        const question = typeof ctx.args.question === 'string' ? ctx.args.question : 'What is your answer?';
        const r = await ctx.requestInput('elicitation/create', {
          mode: 'form',
          message: question,
          requestedSchema: {
            type: 'object',
            properties: { answer: { type: 'string', title: 'Answer', description: 'Any text' } },
            required: ['answer'],
          },
        });
        if (r.error) return { content: [{ type: 'text', text: `elicitation failed: ${r.error.message}` }], isError: true };
        const res = (r.result ?? {}) as { action?: unknown; content?: { answer?: unknown } };
        if (res.action === 'accept') return text(`answer: ${String(res.content?.answer ?? '')}`);
        return text(`elicitation ${String(res.action ?? 'unknown')}`);
      },
    },
    simple('required_task', 'required', 'Like "complete", but must be called as a task (taskSupport "required").'),
    simple('forbidden_task', 'forbidden', 'Like "complete", but must not be called as a task (taskSupport "forbidden").'),
    simple('plain', undefined, 'Like "complete", with no "execution" field (task augmentation forbidden by default).'),
    {
      name: 'progress',
      title: 'progress',
      description: `Sends 3 notifications/progress (with the request's progressToken) over ${timings.progressMs} ms (or "ms"), then completes.`,
      inputSchema: { type: 'object', properties: { ...msSchema(timings.progressMs) } },
      annotations: READ_ONLY,
      taskSupport: 'optional',
      async run(ctx) {
        const total = durationArg(ctx.args, timings.progressMs);
        const steps = 3;
        for (let i = 1; i <= steps; i++) {
          await ctx.sleep(total / steps);
          ctx.progress(i, steps, `step ${i} of ${steps}`);
        }
        return text('progress done');
      },
    },
    {
      name: 'log',
      title: 'log',
      description: `Sends 3 notifications/message (level "info", logger "reference") over ${timings.logMs ?? timings.progressMs} ms (or "ms"), then completes.`,
      inputSchema: { type: 'object', properties: { ...msSchema(timings.logMs ?? timings.progressMs) } },
      annotations: READ_ONLY,
      taskSupport: 'optional',
      async run(ctx) {
        const total = durationArg(ctx.args, timings.logMs ?? timings.progressMs);
        const steps = 3;
        for (let i = 1; i <= steps; i++) {
          await ctx.sleep(total / steps);
          ctx.log('info', `log step ${i} of ${steps}`);
        }
        return text('log done');
      },
    },
    requestorTool('sample_via_client', 'sampling/createMessage', 'Requestor role requestsSampling: sends sampling/createMessage to the calling client'),
    requestorTool(
      'elicit_via_client',
      'elicitation/create',
      'Requestor role requestsElicitation: sends elicitation/create (form, one string field "answer") to the calling client',
    ),
    {
      name: 'echo',
      title: 'echo',
      description: 'Returns its arguments as JSON text (after "ms", default 0).',
      inputSchema: { type: 'object', properties: { ...msSchema(0) }, additionalProperties: true },
      annotations: READ_ONLY,
      taskSupport: 'optional',
      async run(ctx) {
        await ctx.sleep(durationArg(ctx.args, 0));
        return text(JSON.stringify(ctx.args));
      },
    },
  ];
}

/**
 * A tool that makes the receiver a requestor toward its client (requestor.ts): the request is
 * task-augmented when the client declared it in tasks.requests, and the client's task is followed to
 * its end. No `execution` field: these tools run only as plain calls.
 */
function requestorTool(name: string, method: ClientRequestMethod, what: string): ToolDef {
  return {
    name,
    title: name,
    description: `${what} (task-augmented when the client declares it in capabilities.tasks.requests), follows the client's task and returns its answer.`,
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
    async run(ctx) {
      const said = typeof ctx.args.text === 'string' ? ctx.args.text : 'conformance: complete';
      const params: Record<string, unknown> =
        method === 'sampling/createMessage'
          ? { messages: [{ role: 'user', content: { type: 'text', text: said } }], maxTokens: 64 }
          : {
              mode: 'form',
              message: said,
              requestedSchema: { type: 'object', properties: { answer: { type: 'string', title: 'Answer' } }, required: ['answer'] },
            };
      const o = await requestFromClient(
        {
          clientCapabilities: ctx.clientCapabilities,
          switches: ctx.switches,
          signal: ctx.signal,
          sleep: (ms) => ctx.sleep(ms),
          send: (m, p) => ctx.requestInput(m, p),
        },
        method,
        params,
      );
      if (o.error) return { content: [{ type: 'text', text: `${method} failed: ${o.error.code} ${o.error.message} (${o.log.join('; ')})` }], isError: true };
      return text(`${method}: ${JSON.stringify(o.result)} (${o.log.join('; ')})`);
    },
  };
}
