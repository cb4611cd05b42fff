// Verdicts on messy targets: each class of trouble, reproduced by a small target, ends with no verdict
// charged to an unrelated requirement, the cause named once, and the run finishing.
import { describe, expect, it } from 'vitest';
import { receiverChecks2025 } from '../index.ts';
import { runChecks } from './session.ts';
import { loadProfile, type TargetSpec } from './target.ts';
import { buildReport } from '../report/model.ts';
import { formatConsole } from '../report/console.ts';
import { createReferenceReceiverFromArgs } from '../../mocks/receiver/args.ts';
import { defineCheck, type CheckResult } from '../engine/check.ts';
import type { Profile } from '../engine/profile.ts';
import { openTargetSession } from '../revisions.ts';

const reference = loadProfile('fixtures/reference.profile.json');
const OPTIONS = { checkTimeoutMs: 15_000, requestTimeoutMs: 5_000 };

async function runAll(target: TargetSpec, profile: Profile, during?: (shared: { transcript: unknown[] }) => Promise<void>): Promise<CheckResult[]> {
  const session = await openTargetSession({ target, profile, options: OPTIONS });
  try {
    const side = during?.(session.shared);
    const results = await runChecks(receiverChecks2025, session, 8);
    await side;
    return results;
  } finally {
    await session.close();
  }
}

const failing = (rs: CheckResult[]) => rs.filter((r) => r.status === 'fail' || r.status === 'warn').map((r) => `${r.id}: ${r.message}`);

describe('verdicts on messy targets', () => {
  it(
    'a proxy that declares tasks but answers -32603 to every creation: nothing fails (an internal error is no refusal, errors-internal-32603), the rest is not exercised with one cause',
    { timeout: 120_000 },
    async () => {
      const profile = { tools: { completes: { name: 'work' }, slow: { name: 'work' } } };
      const results = await runAll({ kind: 'stdio', command: `${process.execPath} fixtures/bad-target.mjs proxy` }, profile);
      expect(failing(results)).toEqual([]);
      const report = buildReport(results, 'proxy', new Date());
      const group = report.rootCauses.find((g) => /task creation answered error -32603/.test(g.cause));
      expect(group?.checks.length).toBeGreaterThan(10);
      expect(results.filter((r) => r.judgedBy === 'creation.create-task-result').length).toBeGreaterThan(10);
      // A schema error outside the Tasks page (serverInfo without version) is reported apart, not as a Tasks verdict.
      expect(results.find((r) => r.id === 'schema.messages-valid')?.status).toBe('pass');
      expect(report.outsideTasks.map((o) => o.id)).toContain('schema-non-task-message');
      expect(formatConsole(report)).toMatch(/\d+ checks, one cause: task creation answered error -32603/);
    },
  );

  it('a `completes` role that waits for input: checks that need it to end are not exercised, nothing fails', { timeout: 120_000 }, async () => {
    const profile = { tools: { ...reference.tools, completes: reference.tools.needsInput! } };
    const results = await runAll({ kind: 'reference', args: [] }, profile);
    expect(failing(results)).toEqual([]);
    expect(results.filter((r) => r.status === 'skip' && /did not (reach a terminal status|end)/.test(r.message)).length).toBeGreaterThan(3);
  });

  it('a low shared task limit is back-pressure: the run waits and retries, reports the limit once, and nothing fails', { timeout: 120_000 }, async () => {
    const results = await runAll({ kind: 'reference', args: ['--max-concurrent-tasks', '2'] }, reference);
    expect(failing(results)).toEqual([]);
    const report = buildReport(results, 'limited', new Date());
    expect(report.limitObserved?.what).toMatch(/Too many concurrent tasks/);
    expect(results.filter((r) => r.limitObserved)).toHaveLength(1);
  });

  it(
    'a stdio target that exits mid-run: named once with the check that was running and its stderr; later checks not exercised; nothing fails',
    { timeout: 120_000 },
    async () => {
      const profile = { tools: { completes: { name: 'work' }, slow: { name: 'work' } } };
      const results = await runAll({ kind: 'stdio', command: `${process.execPath} fixtures/bad-target.mjs proxy-dies` }, profile);
      const report = buildReport(results, 'dies', new Date());
      const down = report.targetDown.filter((d) => !d.connectionOnly);
      expect(down).toHaveLength(1);
      expect(down[0]!.stderrTail).toMatch(/exiting mid-run/);
      expect(results.filter((r) => r.message.includes(`target not running since ${down[0]!.check}`)).length).toBeGreaterThan(10);
      // The proxy's own finding before it died may stand (creation.create-task-result); nothing else fails.
      expect(
        failing(results)
          .map((l) => l.split(':')[0])
          .filter((id) => id !== 'creation.create-task-result'),
      ).toEqual([]);
    },
  );

  it(
    'an HTTP target that dies mid-run: named once with the check that was running; later checks not exercised; nothing fails',
    { timeout: 120_000 },
    async () => {
      const receiver = createReferenceReceiverFromArgs([]);
      const h = await receiver.listenHttp(0);
      try {
        // Stop the server once the run is under way (the shared connection has exchanged some messages).
        const kill = async (shared: { transcript: unknown[] }) => {
          for (let i = 0; i < 400 && shared.transcript.length < 40; i++) await new Promise((r) => setTimeout(r, 25));
          await h.close();
          await receiver.close();
        };
        const results = await runAll({ kind: 'http', url: h.url }, reference, kill);
        const report = buildReport(results, 'dies', new Date());
        expect(report.targetDown).toHaveLength(1);
        const down = report.targetDown[0]!;
        expect(down.reason).toMatch(/fetch failed|ECONNREFUSED|closed|ECONNRESET|socket/i);
        expect(results.filter((r) => r.message.includes(`target not running since ${down.check}`)).length).toBeGreaterThan(10);
        expect(failing(results)).toEqual([]);
        expect(formatConsole(report).match(/^ERROR the target stopped running/gm)).toHaveLength(1);
      } finally {
        await h.close().catch(() => undefined);
        await receiver.close().catch(() => undefined);
      }
    },
  );
});

describe('one exchange broken in transport', () => {
  it(
    'a response connection reset while the target still answers ping: the check is not exercised with the reason, not a violation',
    { timeout: 60_000 },
    async () => {
      const { createServer, request } = await import('node:http');
      const receiver = createReferenceReceiverFromArgs([]);
      const h = await receiver.listenHttp(0);
      const upstream = new URL(h.url);
      // A proxy in front of the reference receiver that resets the connection of the one POST carrying MARKER.
      const MARKER = 'reset-this-exchange';
      let resets = 0;
      const proxy = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const body = Buffer.concat(chunks);
          if (body.includes(MARKER) && resets++ === 0) return req.socket.destroy();
          const up = request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (r) => {
            res.writeHead(r.statusCode ?? 502, r.headers);
            r.pipe(res);
          });
          up.on('error', () => res.destroy());
          up.end(body);
        });
      });
      await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
      const port = (proxy.address() as { port: number }).port;
      const check = defineCheck({
        id: 'creation.create-task-result',
        title: 'a check whose one request is reset',
        section: 'test',
        requirements: ['lifecycle-begin-working'],
        level: 'MUST',
        killedBy: [],
        async run(ctx) {
          const r = await ctx.peer.request('tools/call', { name: 'echo', arguments: { note: MARKER } });
          return `answered ${JSON.stringify(r.result)}`;
        },
      });
      const session = await openTargetSession({
        target: { kind: 'http', url: `http://127.0.0.1:${port}${upstream.pathname}` },
        profile: reference,
        options: OPTIONS,
      });
      try {
        const [r] = await runChecks([check], session, 1);
        expect(resets).toBe(1);
        expect(r?.status, r?.message).toBe('skip');
        expect(r?.message).toMatch(/not exercised: a request failed in transport while the target still answered \(.*(fetch failed|other side closed|socket)/i);
        expect(r?.targetDown).toBeUndefined();
      } finally {
        await session.close();
        await new Promise((r) => proxy.close(r));
        await h.close();
        await receiver.close();
      }
    },
  );
});

describe('property runs on slow targets', () => {
  it(
    'races: a tasks/result blocked on a task that runs longer than 3 s is judged only once the task ended (no false result-blocks-nonterminal)',
    { timeout: 180_000 },
    async () => {
      const { runProperties } = await import('../properties/run.ts');
      // Over stdio the run times cannot be set per call: every task of this profile runs ~3.5 s.
      const profile = { tools: { completes: { name: 'slow', arguments: { ms: 3_500 } }, slow: { name: 'slow', arguments: { ms: 3_500 } } } };
      const [r] = await runProperties(
        { target: { kind: 'stdio', command: `${process.execPath} --import tsx scripts/mock.ts --stdio` }, profile, options: { requestTimeoutMs: 5_000 } },
        { runs: 4, timeoutMs: 120_000, only: ['races'], seed: 7 },
      );
      expect(r?.status, r?.message).not.toBe('fail');
    },
  );
});

describe('a client that exits early', () => {
  it('the client as task receiver leaves after its first request: named once, later checks not exercised, nothing fails', { timeout: 120_000 }, async () => {
    const { connectHttp } = await import('../wire/connect.ts');
    const { runClientReceiverChecks } = await import('../requestor/client-receiver.ts');
    const { buildReport } = await import('../report/model.ts');
    let launched = 0;
    // Declares task-augmented sampling, answers nothing and exits once the first request arrives.
    const exitingClient = {
      kind: 'function' as const,
      label: 'a client that exits early',
      async run(a: { serverArg: string; signal: AbortSignal }) {
        launched++;
        const peer = await connectHttp({ url: a.serverArg });
        let leave!: () => void;
        const left = new Promise<void>((r) => (leave = r));
        peer.onRequest(() => {
          leave();
          return new Promise(() => undefined);
        });
        await peer.initialize({ sampling: {}, tasks: { requests: { sampling: { createMessage: {} } }, list: {}, cancel: {} } });
        await Promise.race([left, new Promise((r) => a.signal.addEventListener('abort', r, { once: true }))]);
        await peer.close();
        return 0;
      },
    };
    const { results } = await runClientReceiverChecks(exitingClient as never, 'http', 'sampling', {
      concurrency: 4,
      options: { requestTimeoutMs: 3_000, checkTimeoutMs: 10_000 },
    });
    expect(launched).toBeGreaterThan(0);
    expect(results.filter((r) => r.status === 'fail' || r.status === 'warn').map((r) => `${r.id}: ${r.message}`)).toEqual([]);
    const report = buildReport(results, 'exiting client', new Date());
    expect(report.targetDown.filter((d) => !d.connectionOnly)).toHaveLength(1);
  });
});
