// `mcp-tasks-conformance replay <file.json> (--stdio "<command>" | --url <url> [--header "K: V"]…)`: sends
// the messages of a flagged check's replay (suites/report/replay.ts) in order, one connection each as
// recorded (2026-07-28: on the stateless wire, each request as recorded with its own _meta and, over HTTP, the
// standard headers its body implies), fills the placeholders from the answers, and prints what came back.
// Exit codes: 0 replayed (whatever the target answered), 2 usage or connection error.
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import { connectHttp, connectStdio, splitCommand } from '../suites/wire/connect.ts';
import type { Message, Peer, Response } from '../suites/wire/peer.ts';
import { formatTranscript } from '../suites/wire/transcript.ts';
import type { Replay } from '../suites/report/replay.ts';
import { connectModern } from '../suites/2026-07-28/wire/peer.ts';
import { REVISION as MODERN_REVISION } from '../schema/2026-07-28/protocol.ts';

export const REPLAY_HELP = `Usage: mcp-tasks-conformance replay <replay.json> (--stdio "<command>" | --url <http-url> [--header "K: V"]…) [--request-timeout <ms>]
  <replay.json>: a file of --replay-dir, or a report of --json (with --check <id> when it holds several replays)
`;

/** The value a placeholder names: `name:n` (the first such field in the answer to request n) or `a.b.c:n` (a path). */
function lookup(answer: unknown, ref: string): string | undefined {
  if (ref.includes('.')) {
    let v: any = answer;
    for (const k of ref.split('.')) v = v?.[k];
    return typeof v === 'string' ? v : undefined;
  }
  const walk = (v: unknown): string | undefined => {
    if (Array.isArray(v))
      for (const x of v) {
        const found = walk(x);
        if (found !== undefined) return found;
      }
    if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        if (k === ref && typeof x === 'string') return x;
        const found = walk(x);
        if (found !== undefined) return found;
      }
    return undefined;
  };
  return walk(answer);
}

export function fill(value: unknown, answers: ReadonlyMap<number, Response>): unknown {
  if (typeof value === 'string') {
    const whole = /^\{\{([^{}:]+):(\d+)\}\}$/.exec(value);
    if (!whole) return value;
    const got = lookup(answers.get(Number(whole[2]))?.result, whole[1]!);
    if (got === undefined) throw new Error(`placeholder ${value}: the answer to request ${whole[2]} has no ${whole[1]}`);
    return got;
  }
  if (Array.isArray(value)) return value.map((v) => fill(v, answers));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, answers)]));
  return value;
}

export interface ReplayRun {
  /** The answer to each request of the replay, by its number. */
  answers: Map<number, Response>;
  /** Each connection's transcript (what was sent and received). */
  peers: Peer[];
  /** Steps that could not be sent as recorded (a placeholder without a value, an answer the target did not ask for). */
  problems: string[];
}

export type ReplayTarget = { command: string } | { url: string; headers?: Record<string, string> };

/** Sends the replay's steps in order; a step waits (bounded) for the answers the suite had seen before sending it. */
export async function runReplay(replay: Replay, target: ReplayTarget, requestTimeoutMs = 10_000): Promise<ReplayRun> {
  const peers: Peer[] = [];
  /** Sends a recorded request as it is on connection i (a 2026-07-28 one with its HTTP headers) and waits for its answer. */
  const senders: ((m: Message, headers?: Record<string, string | null>) => Promise<Response>)[] = [];
  const modern = replay.revision === MODERN_REVISION;
  const answers = new Map<number, Response>();
  const pending = new Map<number, Promise<Response | undefined>>();
  const problems: string[] = [];
  // Answers the suite gave to the target's requests, by method: the handler waits for the step.
  const incomingQueue = replay.connections.map(() => new Map<string, ((m: Message) => void)[]>());
  // Steps that answer a request the target has not sent yet: woken when it arrives.
  const arrived = replay.connections.map(() => new Set<() => void>());
  const nextIncoming = async (c: number, method: string) => {
    const deadline = Date.now() + requestTimeoutMs;
    for (;;) {
      const reply = incomingQueue[c]!.get(method)?.shift();
      if (reply || Date.now() >= deadline) return reply;
      await new Promise<void>((wake) => {
        const t = setTimeout(done, deadline - Date.now());
        function done() {
          clearTimeout(t);
          arrived[c]!.delete(done);
          wake();
        }
        arrived[c]!.add(done);
      });
    }
  };
  try {
    for (let i = 0; i < replay.connections.length; i++) {
      const label = replay.connections[i];
      let peer: Peer;
      if (modern) {
        // 2026-07-28: no handshake, no session; over HTTP each POST carries the standard headers its body implies.
        const mp = await connectModern(
          'command' in target ? { kind: 'stdio', ...splitCommand(target.command) } : { kind: 'http', url: target.url, headers: target.headers },
          { label, defaultTimeoutMs: requestTimeoutMs },
        );
        peer = mp.peer;
        const scope = mp.all();
        senders.push((m, headers) =>
          scope.request(String(m.method), m.params, {
            raw: true,
            id: m.id,
            timeoutMs: requestTimeoutMs,
            ...(headers && !('command' in target) ? { headers } : {}),
          }),
        );
      } else {
        peer =
          'command' in target
            ? await connectStdio(splitCommand(target.command), { label, defaultTimeoutMs: requestTimeoutMs })
            : await connectHttp({ url: target.url, headers: target.headers }, { label, defaultTimeoutMs: requestTimeoutMs });
        senders.push((m) => peer.requestRaw(m));
      }
      peers.push(peer);
      peer.onRequest(
        (request) =>
          new Promise((resolve) => {
            const method = String(request.method);
            const reply = (m: Message) => resolve('error' in m ? { error: m.error as never } : { result: m.result });
            (incomingQueue[i]!.get(method) ?? incomingQueue[i]!.set(method, []).get(method)!).push(reply);
            for (const wake of [...arrived[i]!]) wake();
            // Unanswered by the replay: no answer at all within the bound (the peer sends none).
            setTimeout(() => resolve(undefined), requestTimeoutMs * 3).unref?.();
          }),
      );
    }
    const skipInitialized = new Set<number>();
    for (const step of replay.steps) {
      await Promise.all(step.after.map((n) => pending.get(n)));
      const peer = peers[step.connection]!;
      if (step.raw !== undefined) {
        await peer.sendBytes(step.raw).catch((e) => problems.push(`raw bytes: ${String(e)}`));
        continue;
      }
      let message: Message;
      let headers: Record<string, string | null> | undefined;
      try {
        message = fill(step.message, answers) as Message;
        headers = step.headers ? (fill(step.headers, answers) as Record<string, string | null>) : undefined;
      } catch (e) {
        problems.push(e instanceof Error ? e.message : String(e));
        continue;
      }
      if (step.answers) {
        const reply = await nextIncoming(step.connection, step.answers);
        if (reply) reply(message);
        else problems.push(`the target did not send ${step.answers} (the suite answered one)`);
        continue;
      }
      if (message.method === 'notifications/initialized' && skipInitialized.delete(step.connection)) continue;
      if (step.request !== undefined) {
        const n = step.request;
        const sent =
          message.method === 'initialize'
            ? peer.initialize((message.params as any)?.capabilities, (message.params as any)?.clientInfo).then((r) => (skipInitialized.add(step.connection), r))
            : step.until
              ? pollUntil((m) => senders[step.connection]!(m, headers), message, step.until.status, requestTimeoutMs)
              : senders[step.connection]!(message, headers);
        const p = sent.then(
          (r) => (answers.set(n, r), r),
          (e) => (problems.push(`request ${n} (${String(message.method)}): ${e instanceof Error ? e.message : String(e)}`), undefined),
        );
        pending.set(n, p);
        if (message.method === 'initialize') await p;
      } else await peer.send(message).catch((e) => problems.push(`${String(message.method)}: ${String(e)}`));
    }
    await Promise.all(pending.values());
    return { answers, peers, problems };
  } finally {
    await Promise.all(peers.map((p) => p.close()));
  }
}

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

/** A recorded tasks/get poll: asked again (new id, at the task's pollInterval or pollIntervalMs) until it shows the recorded status, a terminal other one, an error (that is the answer), or the bound passes. */
async function pollUntil(send: (m: Message) => Promise<Response>, message: Message, status: string, requestTimeoutMs: number): Promise<Response> {
  const deadline = Date.now() + requestTimeoutMs * 3;
  let r = await send(message);
  for (let k = 2; !r.error && r.result?.status !== status && !TERMINAL.has(r.result?.status) && Date.now() < deadline; k++) {
    const interval = Math.min(Math.max(Number(r.result?.pollInterval ?? r.result?.pollIntervalMs) || 100, 10), 1000);
    await new Promise((done) => setTimeout(done, interval));
    r = await send({ ...message, id: `${String(message.id)}-poll-${k}` });
  }
  return r;
}

/** Runs the `replay` command; returns the exit code. */
export async function runReplayCommand(argv: string[]): Promise<number> {
  let replay: Replay;
  let target: ReplayTarget;
  let timeout: number | undefined;
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        stdio: { type: 'string' },
        url: { type: 'string' },
        header: { type: 'string', multiple: true },
        check: { type: 'string' },
        'request-timeout': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
    if (values.help) {
      process.stdout.write(REPLAY_HELP);
      return 0;
    }
    if (positionals.length !== 1) throw new Error('give one replay file');
    if (!values.stdio === !values.url) throw new Error('give exactly one target: --stdio "<command>" or --url <http-url>');
    const doc = JSON.parse(readFileSync(positionals[0]!, 'utf8'));
    // A file of --replay-dir, or a JSON report (its checks carry `replay`).
    const replays: Replay[] = Array.isArray(doc.checks) ? doc.checks.flatMap((c: { replay?: Replay }) => (c.replay ? [c.replay] : [])) : [doc];
    const chosen = values.check ? replays.filter((r) => r.check === values.check) : replays;
    if (chosen.length !== 1)
      throw new Error(
        chosen.length
          ? `the report holds ${chosen.length} replays: choose one with --check <id>`
          : `no replay${values.check ? ` of ${values.check}` : ''} in ${positionals[0]}`,
      );
    replay = chosen[0]!;
    if (!Array.isArray(replay.steps) || !Array.isArray(replay.connections)) throw new Error(`${positionals[0]}: not a replay`);
    if (values.stdio && values.header) throw new Error('--header applies to --url targets only');
    const headers = Object.fromEntries(
      (values.header ?? []).map((h) => {
        const i = h.indexOf(':');
        if (i <= 0) throw new Error(`--header: expected "Name: value", got "${h}"`);
        return [h.slice(0, i).trim(), h.slice(i + 1).trim()];
      }),
    );
    target = values.stdio ? { command: values.stdio } : { url: values.url!, headers };
    if (values['request-timeout'] !== undefined) {
      timeout = Number(values['request-timeout']);
      if (!Number.isInteger(timeout) || timeout <= 0) throw new Error(`--request-timeout takes a positive whole number, got "${values['request-timeout']}"`);
    }
  } catch (e) {
    process.stderr.write(`mcp-tasks-conformance replay: ${e instanceof Error ? e.message : String(e)}\n${REPLAY_HELP}`);
    return 2;
  }
  let run: ReplayRun;
  try {
    run = await runReplay(replay, target, timeout);
  } catch (e) {
    process.stderr.write(`mcp-tasks-conformance replay: cannot connect: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
  const out = [`replay of ${replay.check} (${replay.revision}, recorded over ${replay.transport})`];
  run.peers.forEach((p, i) =>
    out.push(`connection ${i + 1} (${replay.connections[i]}): → sent, ← received, · event`, ...formatTranscript(p.transcript, 400, 4000)),
  );
  for (const [n, r] of [...run.answers].sort((a, b) => a[0] - b[0]))
    out.push(`answer to request ${n}: ${JSON.stringify(r.error ? { error: r.error } : { result: r.result })}`);
  for (const p of run.problems) out.push(`not replayed as recorded: ${p}`);
  process.stdout.write(out.join('\n') + '\n');
  return 0;
}
