// The hostile-input properties: generated malformed JSON, wrong JSON-RPC shapes, unknown methods,
// taskIds and cursors of every JSON type and size, and `task` params of wrong types. Each input must
// get a JSON-RPC error of the right code, and the target must keep serving (a ping after it works).
//
// Levels: the Tasks page requires -32602 for invalid taskIds and cursors (MUST: the check fails).
// -32700 / -32600 / -32601 and -32602 for an ill-typed `task` are JSON-RPC 2.0 rules, not rules of the
// Tasks page (the suite's own errors.malformed-input-survives check only notes them): a wrong or
// missing code there warns. A target that stops answering after an input fails every category
// (errors-internal-32603: an input it cannot handle is an internal error, to be answered with -32603).
import fc from 'fast-check';
import type { Message, Peer, Response } from '../wire/peer.ts';
import { WireClosedError, WireTimeoutError } from '../wire/peer.ts';
import { describeAnswer, PropertyViolation, short } from './model.ts';
import { createParams, delay, type Lease, type PropertyEnv } from './env.ts';

/** Pseudo requirement id for JSON-RPC 2.0 rules (not in the Tasks catalog). */
export const JSON_RPC = 'json-rpc-2.0';

export type HostileName = 'malformed-json' | 'envelope' | 'unknown-method' | 'task-id' | 'cursor' | 'task-param';

export interface HostileInput {
  /** What the input is, for the report. */
  label: string;
  /** Raw text to write (malformed JSON, non-JSON-RPC JSON), or a request to send. */
  bytes?: string;
  request?: { method: string; params?: unknown };
  /** Acceptable error codes. */
  codes: number[];
  /** The id the answer may carry (besides none/null) for raw inputs. */
  id?: string | number;
  /**
   * The request is not a valid JSON-RPC request (e.g. params not an object): a framing layer may
   * answer it without an id, so where raw bytes can be sent it is sent as bytes and an id-less
   * error counts as its answer.
   */
  envelopeLevel?: boolean;
}

export interface HostileCategory {
  name: HostileName;
  title: string;
  requirements: string[];
  /** Level of a wrong or missing error code (a target that stops serving always fails). */
  level: 'MUST' | 'SHOULD';
  /** Why it cannot run against this target, or undefined. */
  unavailable(env: PropertyEnv, canSendBytes: boolean): string | undefined;
  arbitrary(env: PropertyEnv, canSendBytes: boolean): fc.Arbitrary<HostileInput>;
}

const KNOWN_METHODS = new Set([
  'initialize',
  'ping',
  'tools/list',
  'tools/call',
  'tasks/get',
  'tasks/result',
  'tasks/list',
  'tasks/cancel',
  'resources/list',
  'resources/read',
  'resources/templates/list',
  'resources/subscribe',
  'resources/unsubscribe',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'logging/setLevel',
  'sampling/createMessage',
  'elicitation/create',
  'roots/list',
]);

const noNewlines = (s: string) => s.replace(/[\r\n]/g, ' ');
function isJson(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

/** Every JSON type, including big and odd ones. */
function anyJsonValue(): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
  );
}

/** Strings that cannot be anybody's task id or cursor: odd, empty, unicode, huge. */
function oddString(prefix: string): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ maxLength: 40, unit: 'binary' }).map((s) => prefix + s) },
    { weight: 1, arbitrary: fc.constantFrom(1_000, 20_000, 100_000).map((n) => prefix + 'Z'.repeat(n)) },
    { weight: 1, arbitrary: fc.constantFrom('\u0000', '\ud800', '../../etc/passwd', '%00', '\u202e', '🦄'.repeat(50), ' ').map((s) => prefix + s) },
  );
}

const reqId = fc.oneof(
  fc.integer({ min: 1, max: 1_000_000 }),
  fc.string({ minLength: 1, maxLength: 10 }).map((s) => `h-${s}`),
);

export const HOSTILE_CATEGORIES: HostileCategory[] = [
  {
    name: 'malformed-json',
    title: 'bytes that are not JSON get -32700 (parse error) and the target keeps serving',
    requirements: [JSON_RPC, 'errors-internal-32603'],
    level: 'SHOULD',
    unavailable: (env, bytes) => (bytes ? undefined : `the ${env.connector.transport} transport cannot carry raw bytes (it hands the receiver parsed objects)`),
    arbitrary: () =>
      fc
        .oneof(
          // a valid request cut short
          fc.tuple(fc.constantFrom('tasks/get', 'tasks/list', 'ping', 'tools/call'), fc.string({ maxLength: 16 }), fc.nat()).map(([m, s, k]) => {
            const full = JSON.stringify({ jsonrpc: '2.0', id: `h-${k % 1000}`, method: m, params: { taskId: s } });
            return full.slice(0, 1 + (k % (full.length - 1)));
          }),
          // garbage
          fc.string({ minLength: 1, maxLength: 120, unit: 'binary' }),
          // JSON followed by junk
          fc.tuple(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(' x', '}', ']', ',', '{', ' {"a":1}')).map(([v, junk]) => JSON.stringify(v) + junk),
          // near-JSON
          fc.constantFrom(
            "{'jsonrpc':'2.0','id':1,'method':'ping'}",
            '{"jsonrpc":"2.0","id":1,"method":"ping",}',
            '{"jsonrpc":"2.0","id":1,"method":"ping"} // comment',
            '{"jsonrpc":"2.0","id":NaN,"method":"ping"}',
            '{"jsonrpc":"2.0","id":0x10,"method":"ping"}',
            '[',
            '{"a":',
          ),
        )
        .map(noNewlines)
        // (a leading BOM may be ignored by a parser, RFC 8259 §8.1: such text counts as JSON)
        .filter((s) => s.trim().length > 0 && !isJson(s.replace(/^\ufeff/, '')))
        .map((bytes) => ({ label: `bytes ${short(bytes, 80)}`, bytes, codes: [-32700] })),
  },
  {
    name: 'envelope',
    title: 'JSON that is not a valid JSON-RPC request (wrong shapes, params not an object) gets -32600 (or -32602 for params) and the target keeps serving',
    requirements: [JSON_RPC, 'errors-internal-32603'],
    level: 'SHOULD',
    unavailable: () => undefined,
    arbitrary: (env, bytes) => {
      // Requests whose params are not an object: sendable on any transport (as bytes where possible,
      // since a framing layer may answer them without an id).
      const methods = ['tasks/get', 'tasks/result', 'tasks/list', ...(env.caps.cancel ? ['tasks/cancel'] : [])];
      const paramsNotObject = fc
        .tuple(
          fc.constantFrom(...methods),
          fc.oneof(fc.integer(), fc.string({ maxLength: 10 }), fc.array(fc.string({ maxLength: 10 }), { maxLength: 2 }), fc.constant(null), fc.boolean()),
        )
        .map(([method, params]): HostileInput => ({
          label: `${method} params ${short(params, 60)}`,
          request: { method, params },
          codes: [-32600, -32602],
          envelopeLevel: true,
        }));
      if (!bytes) return paramsNotObject;
      const shapes = fc
        .oneof(
          fc
            .oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string({ maxLength: 20 }), fc.boolean(), fc.constant(null))
            .map((v) => ({ v, id: undefined })),
          fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.boolean()), { maxLength: 3 }).map((v) => ({ v, id: undefined })),
          fc.tuple(fc.constantFrom<unknown>('1.0', '2', 2, null, '', '2.0 '), reqId).map(([jsonrpc, id]) => ({ v: { jsonrpc, id, method: 'ping' }, id })),
          reqId.map((id) => ({ v: { id, method: 'ping' }, id })),
          fc
            .tuple(
              fc.oneof(
                fc.integer(),
                fc.boolean(),
                fc.constant(null),
                fc.array(fc.string({ maxLength: 5 }), { maxLength: 2 }),
                fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 }),
              ),
              reqId,
            )
            .map(([method, id]) => ({ v: { jsonrpc: '2.0', id, method }, id })),
          fc
            .oneof(fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 }), fc.array(fc.integer(), { maxLength: 2 }), fc.boolean())
            .map((id) => ({ v: { jsonrpc: '2.0', id, method: 'ping' }, id: undefined })),
          reqId.map((id) => ({ v: { jsonrpc: '2.0', id }, id })),
          fc
            .dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 4 })
            .filter((o) => !('method' in o) && !('result' in o) && !('error' in o) && !('id' in o))
            .map((v) => ({ v, id: undefined })),
        )
        .map(({ v, id }): HostileInput => ({
          label: `JSON ${short(v, 100)}`,
          bytes: JSON.stringify(v),
          codes: [-32600],
          id: typeof id === 'string' || typeof id === 'number' ? id : undefined,
        }));
      return fc.oneof({ weight: 4, arbitrary: shapes }, { weight: 1, arbitrary: paramsNotObject });
    },
  },
  {
    name: 'unknown-method',
    title: 'a request for an unknown method gets -32601 (method not found) and the target keeps serving',
    requirements: [JSON_RPC, 'errors-internal-32603'],
    level: 'SHOULD',
    unavailable: () => undefined,
    arbitrary: () =>
      fc
        .oneof(
          fc.string({ minLength: 1, maxLength: 40 }),
          fc.constantFrom(
            'tasks/unknown',
            'tasks/GET',
            'Tasks/get',
            'tasks/get/',
            'tasks//get',
            'tools/cal',
            'rpc.discover',
            'tasks/delete',
            'tasks/update',
            'notifications/tasks/status',
          ),
          fc.string({ minLength: 1, maxLength: 10 }).map((s) => `tasks/${s}`),
        )
        .filter((m) => !KNOWN_METHODS.has(m))
        .map((method) => ({ label: `method ${short(method)}`, request: { method, params: {} }, codes: [-32601] })),
  },
  {
    name: 'task-id',
    title: 'tasks/get, tasks/result and tasks/cancel with a taskId of any JSON type or size that names no task get -32602',
    requirements: ['errors-invalid-taskid-32602', 'errors-internal-32603'],
    level: 'MUST',
    unavailable: (env) => (env.info.serverCapabilities?.tasks ? undefined : 'the target declares no tasks capability'),
    arbitrary: (env) => {
      const methods = ['tasks/get', 'tasks/result', ...(env.caps.cancel ? ['tasks/cancel'] : [])];
      const taskId = fc.oneof(
        { weight: 1, arbitrary: fc.constant<{ present: false }>({ present: false }) },
        { weight: 4, arbitrary: anyJsonValue().map((v) => ({ present: true as const, v })) },
        { weight: 4, arbitrary: oddString('').map((v) => ({ present: true as const, v })) },
        { weight: 1, arbitrary: fc.uuid().map((v) => ({ present: true as const, v })) },
      );
      return fc.tuple(fc.constantFrom(...methods), taskId).map(([method, id]): HostileInput => ({
        label: `${method} taskId ${id.present ? short(id.v, 80) : '(missing)'}`,
        request: { method, params: id.present ? { taskId: id.v } : {} },
        codes: [-32602],
      }));
    },
  },
  {
    name: 'cursor',
    title: 'tasks/list with a cursor it never issued (any JSON type, huge, odd) gets -32602',
    requirements: ['errors-invalid-cursor-32602', 'errors-internal-32603'],
    level: 'MUST',
    unavailable: (env) => (env.caps.list ? undefined : 'the target does not declare tasks.list'),
    arbitrary: () =>
      fc
        .oneof(
          anyJsonValue().filter((v) => v !== null),
          oddString('bogus-cursor:'),
        )
        .map((cursor) => ({ label: `tasks/list cursor ${short(cursor, 80)}`, request: { method: 'tasks/list', params: { cursor } }, codes: [-32602] })),
  },
  {
    name: 'task-param',
    title: 'a task-augmented tools/call whose `task` (or `task.ttl`) has the wrong type gets -32602',
    requirements: [JSON_RPC, 'errors-internal-32603'],
    level: 'SHOULD',
    unavailable: (env) => (env.roles.length ? undefined : 'no profile role names a tool that can run as a task'),
    arbitrary: (env) => {
      const role = (['completes', 'requiresTask', 'fails', 'slow', 'progress', 'needsInput'] as const).find((r) => env.roles.includes(r))!;
      const base = createParams(env, role);
      const badTask = fc.oneof(
        fc
          .oneof(fc.integer(), fc.string({ maxLength: 10 }), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 2 }))
          .map((task) => ({ task })),
        fc
          .oneof(
            fc.string({ maxLength: 10 }),
            fc.boolean(),
            fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 }),
            fc.array(fc.integer(), { maxLength: 2 }),
          )
          .map((ttl) => ({ task: { ttl } })),
      );
      return badTask.map(({ task }) => ({
        label: `tools/call ${base.name} task ${short(task, 60)}`,
        request: { method: 'tools/call', params: { ...base, task } },
        codes: [-32602],
      }));
    },
  },
];

export interface HostileRecord {
  log: string[];
  peer?: Peer;
  start: number;
}

/** A connection that survives inputs: replaced when the target stops answering. */
export class HostileConnection {
  private lease: Lease | undefined;
  constructor(private readonly env: PropertyEnv) {}
  async get(): Promise<Lease> {
    if (!this.lease || this.lease.peer.closed) {
      if (this.lease) await this.lease.release({ broken: true });
      this.lease = await this.env.acquire();
    }
    return this.lease;
  }
  async broken(): Promise<void> {
    const l = this.lease;
    this.lease = undefined;
    await l?.release({ broken: true });
  }
  async close(): Promise<void> {
    await this.lease?.release();
    this.lease = undefined;
  }
}

let rawCounter = 0;

/** Sends one input and checks the answer and that the target still serves. */
export async function runHostileInput(env: PropertyEnv, cat: HostileCategory, conn: HostileConnection, input: HostileInput, rec: HostileRecord): Promise<void> {
  const lease = await conn.get();
  const peer = lease.peer;
  if (input.request && input.envelopeLevel && peer.canSendBytes) {
    const id = `hostile-${++rawCounter}`;
    input = { ...input, request: undefined, id, bytes: JSON.stringify({ jsonrpc: '2.0', id, method: input.request.method, params: input.request.params }) };
  }
  rec.peer = peer;
  rec.start = peer.transcript.length;
  const wrong = (message: string) =>
    new PropertyViolation(
      cat.requirements.filter((r) => r !== 'errors-internal-32603'),
      message,
      cat.level,
    );
  const expected = input.codes.join(' or ');
  let answer: { error?: { code: number; message?: string }; result?: unknown } | undefined;
  try {
    if (input.bytes !== undefined) {
      const isAnswer = (m: Message) =>
        !('method' in m) && 'error' in m && (m.id === undefined || m.id === null || (input.id !== undefined && m.id === input.id));
      const got = peer.waitFor(isAnswer, env.answerMs, 'error answer').catch(() => undefined);
      await peer.sendBytes(input.bytes);
      const ping = await ping1(peer, env.answerMs);
      const m = await Promise.race([got, delay(ping ? 100 : 0).then(() => undefined)]);
      if (!ping) throw stopped(input, peer);
      answer = m ? { error: m.error } : undefined;
      rec.log.push(`${input.label} → ${m ? `error ${m.error?.code} ${short(m.error?.message, 80)}` : 'no answer'}; ping → ok`);
      if (!m) throw wrong(`${input.label}: no JSON-RPC error answer (expected ${expected}); the target does answer the ping that followed`);
    } else {
      let r: Response;
      try {
        r = await peer.request(input.request!.method, input.request!.params, { timeoutMs: env.answerMs });
      } catch (e) {
        if (e instanceof WireTimeoutError) {
          const ping = await ping1(peer, env.answerMs);
          rec.log.push(`${input.label} → no answer within ${env.answerMs} ms; ping → ${ping ? 'ok' : 'no answer'}`);
          if (!ping) throw stopped(input, peer);
          throw wrong(`${input.label}: no answer within ${env.answerMs} ms (expected error ${expected}); the target does answer the ping that followed`);
        }
        throw e;
      }
      answer = r;
      if (r.result?.task?.taskId && env.caps.cancel)
        await peer.request('tasks/cancel', { taskId: r.result.task.taskId }, { timeoutMs: 1000 }).catch(() => undefined);
      const ping = await ping1(peer, env.answerMs);
      rec.log.push(`${input.label} → ${describeAnswer(r)}; ping → ${ping ? 'ok' : 'no answer'}`);
      if (!ping) throw stopped(input, peer);
    }
  } catch (e) {
    if (e instanceof WireClosedError) {
      await conn.broken();
      throw new PropertyViolation(
        ['errors-internal-32603'],
        `${input.label}: the target closed the connection (${e.message}); an input it cannot handle is an internal error, to be answered with -32603`,
      );
    }
    if (e instanceof PropertyViolation && e.requirements.includes('errors-internal-32603') && e.requirements.length === 1) await conn.broken();
    throw e;
  }
  const a = answer!;
  if (!a.error) throw wrong(`${input.label}: answered with a result ${short(a.result)}, expected error ${expected}`);
  if (!input.codes.includes(a.error.code)) throw wrong(`${input.label}: answered error ${a.error.code} ${short(a.error.message, 80)}, expected ${expected}`);
}

async function ping1(peer: Peer, timeoutMs: number): Promise<boolean> {
  try {
    const r = await peer.request('ping', undefined, { timeoutMs });
    return r.result !== undefined;
  } catch {
    return false;
  }
}

function stopped(input: HostileInput, peer: Peer): PropertyViolation {
  const why = peer.closed ? `the connection closed (${peer.closed})` : 'a ping right after it was not answered';
  return new PropertyViolation(
    ['errors-internal-32603'],
    `after ${input.label} the target stopped serving: ${why}. An input it cannot handle is an internal error, to be answered with -32603`,
  );
}
