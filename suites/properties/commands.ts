// The state-machine property: fast-check commands over a live connection, checked against the
// ReceiverModel after every step. Commands pick tasks by index (modulo the tasks created so far), so
// shrinking can drop any command and the rest still make sense.
import { pollDelayMs } from '../judge/pacing.ts';
import fc from 'fast-check';
import type { Peer, Response } from '../wire/peer.ts';
import { WireTimeoutError } from '../wire/peer.ts';
import { RELATED_TASK_META } from '../../schema/protocol.ts';
import { type ProfileRole } from '../engine/profile.ts';
import { describeAnswer, hasRelatedTask, PropertyViolation, relatedTaskId, short, type Findings, ReceiverModel, type ModelTask } from './model.ts';
import { createParams, delay, requestOrTimeout, toolFor, type PropertyEnv } from './env.ts';

/** Requirement ids the state-machine property enforces (the check's `requirements` on pass). */
export const STATE_MACHINE_REQUIREMENTS = [
  'create-returns-createtaskresult',
  'id-string',
  'id-unique',
  'lifecycle-begin-working',
  'lifecycle-valid-paths',
  'lifecycle-terminal-sticky',
  'cancel-terminal-32602',
  'cancel-transition-before-response',
  'cancel-sticky',
  'errors-invalid-taskid-32602',
  'errors-invalid-cursor-32602',
  'list-get-implies-list',
  'list-next-cursor',
  'related-task-result-must',
  'related-task-get-list-cancel-should-not',
  'related-task-taskid-source-of-truth',
  'input-required-related-task',
  'result-blocks-nonterminal',
  'result-terminal-returns-final',
  'result-exact',
  'ttl-actual-in-get',
  'ttl-created-at',
  'ttl-last-updated-at',
  'ttl-delete-after-expiry-may',
  'related-task-receiver-ignore',
];

/** The live side of a run: the connection, the elicitation handler, a log of what each command did. */
export class Real {
  readonly log: string[] = [];
  pollMs = 25;
  private readonly removeHandler: () => void;

  constructor(
    readonly env: PropertyEnv,
    readonly peer: Peer,
    model: ReceiverModel,
  ) {
    // Answers every input request (role needsInput); checks it names its task (input-required-related-task).
    this.removeHandler = peer.onRequest((req) => {
      if (req.method !== 'elicitation/create') return undefined;
      const rel = relatedTaskId(req.params);
      if (!hasRelatedTask(req.params) || typeof rel !== 'string') {
        model.deferred.push(
          new PropertyViolation(
            ['input-required-related-task'],
            `an elicitation/create request (${short(req.params, 200)}) lacks _meta["${RELATED_TASK_META}"].taskId: an input request of a task must name it`,
          ),
        );
      }
      if (typeof rel === 'string') model.onInputRequest(rel);
      const t = model.byId(rel);
      this.log.push(`  ← elicitation/create for ${t ? `task ${t.label}` : short(rel)}; answered accept {"answer":"property"}`);
      return { result: { action: 'accept', content: { answer: 'property' } } };
    });
  }

  /** A request that must be answered within the env's bound; a non-answer violates `requirements`. */
  async must(method: string, params: unknown, requirements: string[]): Promise<{ r: Response; at: number }> {
    try {
      const r = await this.peer.request(method, params, { timeoutMs: this.env.answerMs });
      const at = Date.now();
      const ms = r.result?.pollInterval;
      if (typeof ms === 'number' && ms > 0) this.pollMs = pollDelayMs(ms); // never sooner than asked (poll-respect-interval)
      return { r, at };
    } catch (e) {
      if (e instanceof WireTimeoutError)
        throw new PropertyViolation(requirements, `${method} ${short(params, 120)} was not answered within ${this.env.answerMs} ms`);
      throw e;
    }
  }

  /** Best effort: cancels what is still running (a reused connection must not pile up tasks). */
  async cleanup(model: ReceiverModel): Promise<void> {
    this.removeHandler();
    if (!this.env.caps.cancel || this.peer.closed) return;
    await Promise.all(
      model.tasks
        .filter((t) => !t.gone && !t.knownTerminal())
        .map((t) => this.peer.request('tasks/cancel', { taskId: t.taskId }, { timeoutMs: 1000 }).catch(() => undefined)),
    );
  }
}

type Cmd = fc.AsyncCommand<ReceiverModel, Real, false>;

const st = (t: ModelTask) => t.last ?? '?';

class CreateCmd implements Cmd {
  constructor(
    readonly role: ProfileRole,
    readonly ttl: number | undefined,
  ) {}
  check() {
    return true;
  }
  async run(m: ReceiverModel, real: Real) {
    const tool = toolFor(real.env, this.role);
    const sentAt = Date.now();
    const { r } = await real.must('tools/call', createParams(real.env, this.role, { ttl: this.ttl }), ['create-returns-createtaskresult']);
    const task = r.result?.task;
    real.log.push(
      `${this} → ${task ? `task #${m.tasks.length} ${short(task.taskId)}, status ${short(task.status)}, ttl ${short(task.ttl)}` : describeAnswer(r)}`,
    );
    m.onCreate(this.role, tool.name, sentAt, r);
  }
  toString() {
    return `create(${this.role}${this.ttl !== undefined ? `, ttl=${this.ttl}` : ''})`;
  }
}

class GetCmd implements Cmd {
  constructor(readonly i: number) {}
  check(m: Readonly<ReceiverModel>) {
    return m.tasks.length > 0;
  }
  async run(m: ReceiverModel, real: Real) {
    const t = m.taskAt(this.i);
    const { r, at } = await real.must('tasks/get', { taskId: t.taskId }, ['ttl-actual-in-get']);
    real.log.push(`get(#${t.index}) → ${r.error ? describeAnswer(r) : r.result?.status}`);
    m.onGet(t, r, at);
  }
  toString() {
    return `get(${this.i})`;
  }
}

/**
 * tasks/get whose request carries related-task `_meta` naming another task (or none that exists):
 * params.taskId must win (related-task-receiver-ignore, related-task-taskid-source-of-truth).
 */
class GetWithForeignMetaCmd implements Cmd {
  constructor(
    readonly i: number,
    readonly j: number,
    readonly fallbackId: string,
  ) {}
  check(m: Readonly<ReceiverModel>) {
    return m.tasks.length > 0;
  }
  async run(m: ReceiverModel, real: Real) {
    const t = m.taskAt(this.i);
    const others = m.tasks.filter((x) => x !== t);
    const other = others.length ? others[this.j % others.length]!.taskId : this.fallbackId;
    const params = { taskId: t.taskId, _meta: { [RELATED_TASK_META]: { taskId: other } } };
    // No answer breaks what this step exercises: params.taskId wins over the foreign _meta.
    const { r, at } = await real.must('tasks/get', params, ['related-task-receiver-ignore', 'related-task-taskid-source-of-truth']);
    real.log.push(
      `get(#${t.index}) with related-task _meta naming ${others.length ? `task #${m.byId(other)!.index}` : 'no task'} → ${r.error ? describeAnswer(r) : `${r.result?.taskId === t.taskId ? '' : `taskId ${short(r.result?.taskId)}, `}${r.result?.status}`}`,
    );
    const reqs = ['related-task-receiver-ignore', 'related-task-taskid-source-of-truth'];
    if (r.error && !(r.error.code === -32602 && t.mayBeGone(at, m.slackMs))) {
      throw new PropertyViolation(
        reqs,
        `tasks/get for task ${t.label} with related-task _meta naming ${short(other)} answered ${describeAnswer(r)}: the receiver must ignore that _meta in favour of params.taskId`,
      );
    }
    if (!r.error && r.result?.taskId !== t.taskId) {
      throw new PropertyViolation(
        reqs,
        `tasks/get for taskId ${short(t.taskId)} with related-task _meta naming ${short(other)} answered task ${short(r.result?.taskId)}: params.taskId is the source of truth`,
      );
    }
    m.onGet(t, r, at, 'tasks/get (with foreign related-task _meta)');
  }
  toString() {
    return `getWithForeignMeta(${this.i}, ${this.j})`;
  }
}

const SHORT_RESULT_MS = 60;
const LONG_RESULT_MS = 1200;

async function doResult(m: ReceiverModel, real: Real, t: ModelTask, patienceMs: number, label: string): Promise<void> {
  const known = t.knownTerminal() && !t.gone;
  const bound = known ? real.env.answerMs : patienceMs;
  const o = await requestOrTimeout(real.peer, 'tasks/result', { taskId: t.taskId }, bound);
  if ('timeout' in o) {
    real.log.push(`${label} #${t.index} → no answer within ${bound} ms (task ${known ? 'known terminal' : `last seen ${st(t)}`})`);
    m.onResultTimeout(t, bound);
    return;
  }
  const f = await real.must('tasks/get', { taskId: t.taskId }, ['ttl-actual-in-get']);
  real.log.push(`${label} #${t.index} → ${describeAnswer(o.r)}; then get → ${f.r.error ? describeAnswer(f.r) : f.r.result?.status}`);
  m.onResult(t, o.r, o.at, f.r, f.at);
}

class ResultCmd implements Cmd {
  constructor(
    readonly i: number,
    readonly patience: 'short' | 'long',
  ) {}
  check(m: Readonly<ReceiverModel>) {
    return m.tasks.length > 0;
  }
  async run(m: ReceiverModel, real: Real) {
    const t = m.taskAt(this.i);
    await doResult(m, real, t, this.patience === 'short' ? SHORT_RESULT_MS : LONG_RESULT_MS, `result(${this.patience})`);
  }
  toString() {
    return `result(${this.i}, ${this.patience})`;
  }
}

/** tasks/result on a task of role needsInput: the input request comes on it and is answered. */
class AnswerInputCmd implements Cmd {
  constructor(readonly i: number) {}
  private candidates(m: Readonly<ReceiverModel>) {
    return m.tasks.filter((t) => t.role === 'needsInput' && !t.gone && !t.knownTerminal());
  }
  check(m: Readonly<ReceiverModel>) {
    return this.candidates(m).length > 0;
  }
  async run(m: ReceiverModel, real: Real) {
    const c = this.candidates(m);
    await doResult(m, real, c[this.i % c.length]!, LONG_RESULT_MS, 'answerInput: result');
  }
  toString() {
    return `answerInput(${this.i})`;
  }
}

class CancelCmd implements Cmd {
  constructor(readonly i: number) {}
  check(m: Readonly<ReceiverModel>) {
    return m.caps.cancel && m.tasks.length > 0;
  }
  async run(m: ReceiverModel, real: Real) {
    const t = m.taskAt(this.i);
    const before = t.knownTerminal() ? `known terminal (${st(t)})` : `last seen ${st(t)}`;
    const { r, at } = await real.must('tasks/cancel', { taskId: t.taskId }, ['cancel-transition-before-response']);
    let follow: { r: Response; at: number } | undefined;
    if (r.error?.code === -32602) follow = await real.must('tasks/get', { taskId: t.taskId }, ['ttl-actual-in-get']);
    real.log.push(
      `cancel(#${t.index}) [${before}] → ${r.error ? describeAnswer(r) : `status ${r.result?.status}`}${follow ? `; then get → ${follow.r.error ? describeAnswer(follow.r) : follow.r.result?.status}` : ''}`,
    );
    m.onCancel(t, r, at, follow);
  }
  toString() {
    return `cancel(${this.i})`;
  }
}

class ListCmd implements Cmd {
  check(m: Readonly<ReceiverModel>) {
    return m.caps.list;
  }
  async run(m: ReceiverModel, real: Real) {
    const entries: { entry: any; page: number }[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    let pages = 0;
    for (;;) {
      if (pages >= 100) throw new PropertyViolation(['list-next-cursor'], `tasks/list did not end within 100 pages (${entries.length} tasks so far)`);
      const { r } = await real.must('tasks/list', cursor === undefined ? {} : { cursor }, ['list-get-implies-list']);
      pages++;
      if (r.error) {
        throw new PropertyViolation(
          cursor === undefined ? ['list-get-implies-list'] : ['list-next-cursor'],
          `tasks/list ${cursor === undefined ? '(first page)' : `with the cursor it issued, ${short(cursor)}`} answered ${describeAnswer(r)}`,
        );
      }
      const tasks = r.result?.tasks;
      if (!Array.isArray(tasks)) throw new PropertyViolation(['list-get-implies-list'], `tasks/list page ${pages} has no tasks array: ${short(r.result)}`);
      if (hasRelatedTask(r.result))
        m.findings.add(['related-task-get-list-cancel-should-not'], `a tasks/list result carries _meta["${RELATED_TASK_META}"] (SHOULD NOT)`);
      for (const e of tasks) entries.push({ entry: e, page: pages - 1 });
      const next = r.result.nextCursor;
      if (next === undefined || next === null) break;
      if (typeof next !== 'string') throw new PropertyViolation(['list-next-cursor'], `tasks/list nextCursor is ${short(next)}, not a string`);
      if (seen.has(next)) throw new PropertyViolation(['list-next-cursor'], `tasks/list issued cursor ${short(next)} twice: pagination loops`);
      seen.add(next);
      m.issuedCursors.push(next);
      cursor = next;
    }
    const mine = entries.filter((e) => m.byId(e.entry?.taskId));
    real.log.push(
      `list → ${pages} page(s), ${entries.length} task(s): ${mine.map((e) => `#${m.byId(e.entry.taskId)!.index} ${e.entry.status}`).join(', ') || '(none of ours)'}`,
    );
    await m.onListWalk(entries, pages, async (t) => {
      const f = await real.must('tasks/get', { taskId: t.taskId }, ['ttl-actual-in-get']);
      real.log.push(`  get(#${t.index}) [missing from the list] → ${f.r.error ? describeAnswer(f.r) : f.r.result?.status}`);
      return f;
    });
  }
  toString() {
    return 'list()';
  }
}

/** A cursor the receiver never issued: a tampered one (when it issued any) or a fabricated one. */
class BadCursorCmd implements Cmd {
  constructor(
    readonly kind: 'tampered' | 'fabricated',
    readonly n: number,
    readonly text: string,
  ) {}
  check(m: Readonly<ReceiverModel>) {
    return m.caps.list;
  }
  cursorFor(m: Readonly<ReceiverModel>): string {
    const issued = m.issuedCursors;
    if (this.kind === 'tampered' && issued.length > 0) {
      const base = issued[this.n % issued.length]!;
      const pos = this.n % base.length;
      const marks = ['~', '!', '%', '*'];
      let out = base.slice(0, pos) + marks[this.n % marks.length] + base.slice(pos + 1);
      if (issued.includes(out)) out = base + '~';
      return out;
    }
    return `bogus-cursor:${this.text}`;
  }
  async run(m: ReceiverModel, real: Real) {
    const cursor = this.cursorFor(m);
    const { r } = await real.must('tasks/list', { cursor }, ['errors-invalid-cursor-32602']);
    real.log.push(`badCursor(${short(cursor, 60)}) → ${describeAnswer(r)}`);
    if (r.error?.code !== -32602) {
      throw new PropertyViolation(
        ['errors-invalid-cursor-32602'],
        `tasks/list with a cursor the receiver never issued (${short(cursor)}) answered ${describeAnswer(r)}, expected -32602`,
      );
    }
  }
  toString() {
    return `badCursor(${this.kind}, ${this.n}, ${JSON.stringify(this.text)})`;
  }
}

class UnknownIdCmd implements Cmd {
  constructor(
    readonly method: 'tasks/get' | 'tasks/result' | 'tasks/cancel',
    readonly id: string,
  ) {}
  check(m: Readonly<ReceiverModel>) {
    return (this.method !== 'tasks/cancel' || m.caps.cancel) && !m.byId(this.id);
  }
  async run(m: ReceiverModel, real: Real) {
    void m;
    const o = await requestOrTimeout(real.peer, this.method, { taskId: this.id }, real.env.answerMs);
    if ('timeout' in o) {
      real.log.push(`${this} → no answer within ${real.env.answerMs} ms`);
      throw new PropertyViolation(
        ['errors-invalid-taskid-32602'],
        `${this.method} for a taskId that does not exist (${short(this.id)}) was not answered within ${real.env.answerMs} ms; expected -32602`,
      );
    }
    real.log.push(`${this} → ${describeAnswer(o.r)}`);
    if (o.r.error?.code !== -32602) {
      throw new PropertyViolation(
        ['errors-invalid-taskid-32602'],
        `${this.method} for a taskId that does not exist (${short(this.id)}) answered ${describeAnswer(o.r)}, expected -32602`,
      );
    }
  }
  toString() {
    return `unknownId(${this.method}, ${JSON.stringify(this.id)})`;
  }
}

class WaitCmd implements Cmd {
  constructor(readonly ms: number) {}
  check() {
    return true;
  }
  async run(_m: ReceiverModel, real: Real) {
    await delay(this.ms);
    real.log.push(`wait(${this.ms} ms)`);
  }
  toString() {
    return `wait(${this.ms})`;
  }
}

/** Polls one task with tasks/get for a while (catches late, illegal status changes). */
class WatchCmd implements Cmd {
  constructor(
    readonly i: number,
    readonly windowMs: number,
  ) {}
  check(m: Readonly<ReceiverModel>) {
    return m.tasks.length > 0;
  }
  async run(m: ReceiverModel, real: Real) {
    const t = m.taskAt(this.i);
    const end = Date.now() + this.windowMs;
    const seen: string[] = [];
    try {
      while (!t.gone) {
        const { r, at } = await real.must('tasks/get', { taskId: t.taskId }, ['ttl-actual-in-get']);
        const s = r.error ? `error ${r.error.code}` : String(r.result?.status);
        if (seen[seen.length - 1] !== s) seen.push(s);
        m.onGet(t, r, at, `tasks/get (watching #${t.index})`);
        const left = end - Date.now();
        if (left <= 0) break;
        await delay(real.pollMs); // at the target's pace: the last poll is at or after the end of the window
      }
    } finally {
      real.log.push(`watch(#${t.index}, ${this.windowMs} ms) → ${seen.join(' → ')}`);
    }
  }
  toString() {
    return `watch(${this.i}, ${this.windowMs})`;
  }
}

/** The command arbitraries for an environment (weighted by repetition). */
export function stateMachineCommands(env: PropertyEnv): fc.Arbitrary<Cmd>[] {
  const idx = fc.nat({ max: 15 });
  // constantFrom shrinks towards its first value: the most robust (longest) timings come first, so
  // shrunk counterexamples keep a margin and replay reliably.
  const ttl = fc.option(fc.constantFrom(60_000, 400, 120, 30, 0), { nil: undefined, freq: 2 });
  const create = fc.record({ role: fc.constantFrom(...env.roles), ttl }).map(({ role, ttl }) => new CreateCmd(role, ttl) as Cmd);
  const get = idx.map((i) => new GetCmd(i) as Cmd);
  const result = fc.tuple(idx, fc.constantFrom<'short' | 'long'>('short', 'long')).map(([i, p]) => new ResultCmd(i, p) as Cmd);
  const answer = idx.map((i) => new AnswerInputCmd(i) as Cmd);
  const cancel = idx.map((i) => new CancelCmd(i) as Cmd);
  const list = fc.constant(null).map(() => new ListCmd() as Cmd);
  const badCursor = fc
    .tuple(fc.constantFrom<'tampered' | 'fabricated'>('tampered', 'fabricated'), fc.nat({ max: 1000 }), fc.string({ maxLength: 12 }))
    .map(([k, n, s]) => new BadCursorCmd(k, n, s) as Cmd);
  const unknownId = fc
    .tuple(
      fc.constantFrom<'tasks/get' | 'tasks/result' | 'tasks/cancel'>('tasks/get', 'tasks/result', 'tasks/cancel'),
      fc.oneof(
        fc.uuid(),
        fc.string({ minLength: 1, maxLength: 24 }).map((s) => `no-such-task-${s}`),
      ),
    )
    .map(([m, id]) => new UnknownIdCmd(m, id) as Cmd);
  const foreignMeta = fc.tuple(idx, idx, fc.uuid()).map(([i, j, id]) => new GetWithForeignMetaCmd(i, j, id) as Cmd);
  const wait = fc.constantFrom(120, 60, 25, 5).map((ms) => new WaitCmd(ms) as Cmd);
  const watch = fc.tuple(idx, fc.constantFrom(500, 150, 50)).map(([i, w]) => new WatchCmd(i, w) as Cmd);
  const weighted: [fc.Arbitrary<Cmd>, number][] = [
    [create, 4],
    [get, 3],
    [result, 2],
    [cancel, env.caps.cancel ? 3 : 0],
    [list, env.caps.list ? 2 : 0],
    [badCursor, env.caps.list ? 1 : 0],
    [unknownId, 1],
    [foreignMeta, 1],
    [wait, 2],
    [watch, 1],
    [answer, env.roles.includes('needsInput') ? 1 : 0],
  ];
  return weighted.flatMap(([a, w]) => Array.from({ length: w }, () => a));
}

export function newModel(env: PropertyEnv, findings: Findings): ReceiverModel {
  return new ReceiverModel(env.caps, findings, env.slackMs);
}
