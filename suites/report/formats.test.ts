// The JUnit and Markdown reports, from a report object holding every status, a baseline's expected
// failure, a stale baseline entry, a run error, a property result and hostile text.
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildReport, type Report } from './model.ts';
import { formatJunit } from './junit.ts';
import { formatMarkdown, mermaidText, sequenceDiagram } from './markdown.ts';
import { formatConsole } from './console.ts';
import { addReproductions, invocationOf, reproduceCommand } from './reproduce.ts';
import { addReplays, replayCommands } from './replay.ts';
import { execFileSync } from 'node:child_process';
import { junitSchemaErrors } from '../../fixtures/junit/validate.ts';
import type { CheckResult } from '../engine/check.ts';
import type { TranscriptEntry } from '../wire/peer.ts';
import type { PropertyCheckResult } from '../properties/run.ts';

let seq = 0;
const entry = (dir: TranscriptEntry['dir'], message?: unknown, extra: Partial<TranscriptEntry> = {}): TranscriptEntry => ({
  seq: ++seq,
  time: new Date(0).toISOString(),
  ms: seq,
  dir,
  ...(message !== undefined ? { message } : {}),
  ...extra,
});

/** A cancel exchange: create, poll, cancel of a completed task answered with a result. */
function cancelExchange(id: string): TranscriptEntry[] {
  return [
    entry('out', { jsonrpc: '2.0', id: `${id}-1`, method: 'tools/call', params: { name: 'complete', arguments: {}, task: {} } }),
    entry('in', { jsonrpc: '2.0', id: `${id}-1`, result: { task: { taskId: 'd22e8359-beba-47f9-bd74-e89513559b52', status: 'working' } } }),
    entry('event', undefined, { note: 'http 200 application/json for id=1' }),
    entry('in', { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1, total: 3 } }),
    entry('out', { jsonrpc: '2.0', id: `${id}-2`, method: 'tasks/cancel', params: { taskId: 'd22e8359-beba-47f9-bd74-e89513559b52' } }),
    entry('in', { jsonrpc: '2.0', id: `${id}-2`, result: { taskId: 'd22e8359-beba-47f9-bd74-e89513559b52', status: 'completed' } }),
    entry('out', { jsonrpc: '2.0', id: `${id}-3`, method: 'tasks/get', params: { taskId: 7 } }),
    entry('in', { jsonrpc: '2.0', id: `${id}-3`, error: { code: -32602, message: 'Invalid params; see <docs> & "#1"' } }),
  ];
}

function check(
  id: string,
  section: string,
  status: CheckResult['status'],
  level: CheckResult['level'],
  requirements: string[],
  message: string,
  transcript: TranscriptEntry[] = [],
): CheckResult {
  return { id, title: `title of ${id}`, section, requirements, level, status, message, durationMs: 12.3456, transcript };
}

const HOSTILE = 'garbage \u0000\u0007\u001b[31m\uFFFF \uD800 ]]> </system-out> <![CDATA[ & ``` | end; %% #';

function sampleReport(): Report {
  const property: PropertyCheckResult = {
    ...check(
      'properties.races',
      'Properties',
      'fail',
      'MUST',
      ['cancel-terminal-32602'],
      '[cancel-terminal-32602] cancel#1 succeeded\nfalsified after 4 runs',
      cancelExchange('p'),
    ),
    property: {
      name: 'races',
      seed: 42,
      runs: 5,
      numShrinks: 1,
      interrupted: false,
      replay: 'npx mcp-tasks-conformance server --stdio x --properties --seed=42 --path races/1',
      steps: ['cancel#1 → completed'],
    },
  };
  const results: CheckResult[] = [
    check(
      'cancel.completed-rejected',
      'Task Cancellation',
      'fail',
      'MUST',
      ['cancel-terminal-32602'],
      'tasks/cancel of a completed task: expected -32602, got result',
      cancelExchange('cancel.completed-rejected'),
    ),
    check('cancel.failed-rejected', 'Task Cancellation', 'fail', 'MUST', ['cancel-terminal-32602'], 'known failure'),
    check('cancel.cancelled-rejected', 'Task Cancellation', 'pass', 'MUST', ['cancel-terminal-32602'], ''),
    check('ttl.max-enforced', 'TTL and Resource Management', 'warn', 'SHOULD', ['resource-max-ttl'], `granted 10 years ${HOSTILE}`, [
      ...cancelExchange('ttl.max-enforced'),
      entry('event', undefined, { note: 'stderr: line1\nline2' }),
      entry('in', undefined, { raw: HOSTILE }),
    ]),
    check('ttl.override-reported', 'TTL and Resource Management', 'info', 'MAY', ['ttl-override-may'], 'ttl honoured'),
    check(
      'transport.get-no-sse-upgrade',
      'Streamable HTTP',
      'skip',
      'SHOULD',
      ['sse-get-no-upgrade'],
      'not exercised: Streamable HTTP only; transport is stdio',
    ),
    property,
  ];
  return buildReport(
    results,
    'stdio: node mock.mjs --fault "x" <y>',
    new Date(Date.now() - 1500),
    ['cancel.failed-rejected', 'cancel.cancelled-rejected'],
    ['suites/receiver.suite.ts: worker exited'],
  );
}

describe('JUnit report', () => {
  it('is valid against the published JUnit schema (vendored junit-10.xsd, unchanged)', async () => {
    const xsd = readFileSync(new URL('../../fixtures/junit/junit-10.xsd', import.meta.url));
    const notice = readFileSync(new URL('../../fixtures/junit/README.md', import.meta.url), 'utf8');
    expect(notice).toContain(createHash('sha256').update(xsd).digest('hex'));
    for (const strict of [false, true]) expect(await junitSchemaErrors(formatJunit(sampleReport(), { strict }))).toEqual([]);
  });

  it('the schema check has teeth: an invalid document is reported', async () => {
    const xml = formatJunit(sampleReport()).replace('<testcase name=', '<testcase nom=');
    expect((await junitSchemaErrors(xml)).join('\n')).toMatch(/name/);
  });

  it('one testsuite per section; a testcase per check named with its level and requirement ids', () => {
    const xml = formatJunit(sampleReport());
    const suites = [...xml.matchAll(/<testsuite name="([^"]+)"/g)].map((m) => m[1]);
    expect(suites).toEqual(['Task Cancellation', 'TTL and Resource Management', 'Streamable HTTP', 'Properties', 'Run errors', 'Baseline']);
    expect(xml).toContain('<testcase name="cancel.completed-rejected [MUST: cancel-terminal-32602]" classname="Task Cancellation"');
    expect(xml).toMatch(/<testsuites name="mcp-tasks-conformance" tests="9" failures="3" errors="1"/);
  });

  it('fail → <failure> with the requirement text; skip → <skipped message>; expected failure → <skipped type="expected-failure">', () => {
    const xml = formatJunit(sampleReport());
    const tc = (id: string) => new RegExp(`<testcase name="${id.replace(/\./g, '\\.')} [^>]*>([\\s\\S]*?)</testcase>`).exec(xml)![1]!;
    expect(tc('cancel.completed-rejected')).toMatch(
      /<failure type="fail" message="\[MUST: cancel-terminal-32602\] tasks\/cancel of a completed task[^"]*">[\s\S]*Receivers MUST reject cancellation requests/,
    );
    expect(tc('transport.get-no-sse-upgrade')).toMatch(/<skipped message="not exercised: Streamable HTTP only; transport is stdio"\/>/);
    expect(tc('cancel.failed-rejected')).toMatch(/<skipped type="expected-failure" message="expected failure \(baseline\)/);
    expect(tc('cancel.failed-rejected')).not.toMatch(/<failure/);
    expect(xml).toMatch(/<testcase name="cancel.cancelled-rejected \(baseline\)" classname="Baseline"[^>]*>\s*<failure type="stale-baseline"/);
    expect(xml).toMatch(/<error type="run-error" message="suites\/receiver.suite.ts: worker exited">/);
  });

  it('warn is visible: WARNING in <system-out> and a warnings property; a <failure type="warning"> under --strict', () => {
    const tc = (xml: string) => /<testcase name="ttl\.max-enforced [^>]*>([\s\S]*?)<\/testcase>/.exec(xml)![1]!;
    const plain = formatJunit(sampleReport());
    expect(tc(plain)).not.toMatch(/<failure/);
    expect(tc(plain)).toMatch(/<system-out>WARNING \(SHOULD violated\): title of ttl\.max-enforced/);
    expect(plain).toMatch(/<testsuite name="TTL and Resource Management" tests="2" failures="0"[\s\S]*?<property name="warnings" value="1"\/>/);
    const strict = formatJunit(sampleReport(), { strict: true });
    expect(tc(strict)).toMatch(/<failure type="warning" message="\[SHOULD: resource-max-ttl\] granted 10 years/);
    expect(strict).toMatch(/<testsuite name="TTL and Resource Management" tests="2" failures="1"/);
    expect(/<testcase name="ttl\.override-reported [^>]*>([\s\S]*?)<\/testcase>/.exec(plain)![1]).toMatch(/<system-out>INFO \(MAY: observed\)/);
  });

  it('property runs are included, with seed and replay command; the messages exchanged are in <system-out>', () => {
    const xml = formatJunit(sampleReport());
    const tc = /<testcase name="properties\.races [^>]*>([\s\S]*?)<\/testcase>/.exec(xml)![1]!;
    expect(tc).toMatch(/<failure type="fail"/);
    expect(tc).toContain('Property races: seed 42, 5 runs');
    expect(tc).toContain('Replay: npx mcp-tasks-conformance server --stdio x --properties --seed=42 --path races/1');
    expect(tc).toMatch(/Messages exchanged \(8;[\s\S]*→ \{"jsonrpc":"2.0","id":"p-2","method":"tasks\/cancel"/);
  });

  it('a target that stopped running is an error of its own (JUnit and Markdown), as it fails the run', async () => {
    const down = {
      ...check('lifecycle.paths-fails', 'Task Status Lifecycle', 'fail', 'MUST', ['lifecycle-valid-paths'], 'target stopped'),
      targetDown: { check: 'lifecycle.paths-fails', reason: 'process exited with code 1', lastMessages: ['→ tasks/get'], stderrTail: 'boom <stack>' },
    };
    const later = {
      ...check('get.ttl', 'Getting Tasks', 'skip', 'MUST', ['ttl-actual-in-get'], 'not exercised: target not running'),
      cause: 'target not running since lifecycle.paths-fails',
    };
    const report = buildReport([down, later], 't', new Date());
    const xml = formatJunit(report);
    expect(await junitSchemaErrors(xml)).toEqual([]);
    expect(xml).toMatch(
      /<testsuite name="Target health" tests="1" failures="0" errors="1"[\s\S]*<error type="target-down" message="process exited with code 1">[\s\S]*boom &lt;stack&gt;/,
    );
    const md = formatMarkdown(report);
    expect(md).toMatch(
      /\*\*The target stopped running\*\* \(a run-level finding\):\n\n```text\nERROR the target stopped running during lifecycle.paths-fails: process exited with code 1/,
    );
  });

  it('hostile text is escaped, never breaks the document', () => {
    const xml = formatJunit(sampleReport());
    expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
    expect(xml.match(/<\/system-out>/g)!.length).toBe(xml.match(/<system-out>/g)!.length);
    expect(xml).toContain('&lt;/system-out&gt;');
  });
});

/** Parses a diagram with Mermaid itself (the parser GitHub's renderer uses); throws on a syntax error. */
async function mermaidParse(diagram: string): Promise<void> {
  const { default: mermaid } = await import('mermaid');
  await mermaid.parse(diagram);
}

const diagramsOf = (md: string) => [...md.matchAll(/```mermaid\n([\s\S]*?)\n```/g)].map((m) => m[1]!);

describe('Markdown report', () => {
  it('verdict, counts, and one table per section with check id, requirement ids, level, status', () => {
    const md = formatMarkdown(sampleReport());
    expect(md).toMatch(/^## MCP Tasks conformance: ❌ failed/);
    expect(md).toContain('**7 checks:** 1 passed, 3 failed (1 expected by the baseline), 1 warnings, 1 info, 1 not exercised');
    expect(md).toContain('**Stale baseline entries**');
    for (const section of ['Task Cancellation', 'TTL and Resource Management', 'Streamable HTTP', 'Properties'])
      expect(md).toContain(`### ${section}\n\n| check | requirements | level | status | note |`);
    expect(md).toContain('| `cancel.completed-rejected` | `cancel-terminal-32602` | MUST | ❌ fail |');
    expect(md).toContain('| `cancel.failed-rejected` | `cancel-terminal-32602` | MUST | ❌ fail (expected) |');
    expect(md).toMatch(/\| `transport\.get-no-sse-upgrade` \| `sse-get-no-upgrade` \| SHOULD \| ⏭️ not exercised \| not exercised: Streamable HTTP only/);
    // A table row stays one row: pipes escaped, no raw HTML.
    const warnRow = md.split('\n').find((l) => l.startsWith('| `ttl.max-enforced`'))!;
    expect(warnRow.split(/(?<!\\)\|/).length).toBe(7);
    expect(warnRow).not.toMatch(/<\/?system-out>/);
  });

  it('each failed or warned check: requirement text, message, a Mermaid diagram, the messages in <details>', () => {
    const md = formatMarkdown(sampleReport());
    const flagged = md.slice(md.indexOf('## Failures and warnings'));
    expect(flagged).toMatch(/^## Failures and warnings \(4\)/);
    const block = flagged.slice(flagged.indexOf('### ❌ `cancel.completed-rejected`'), flagged.indexOf('### ❌ `cancel.failed-rejected`'));
    expect(block).toContain('> cancel-terminal-32602 (MUST, tasks.md:');
    expect(block).toContain('Receivers MUST reject cancellation requests for tasks already in a terminal status');
    expect(block).toContain('```mermaid\nsequenceDiagram\n');
    expect(block).toContain('  S->>T: tasks/cancel taskId d22e8359#8230; (id #35;2)');
    expect(block).toContain('  T--xS: error -32602 Invalid params#59; see #60;docs#62; #38; #34;#35;1#34;');
    expect(block).toContain('  T-)S: notifications/progress 1/3');
    expect(block).toMatch(/<details><summary>Messages exchanged \(8;[^<]*<\/summary>\n\n```text\n[\s\S]*"method":"tasks\/cancel"[\s\S]*```\n\n<\/details>/);
    expect(flagged).toContain('### ❌ `cancel.failed-rejected` (Task Cancellation) — expected by the baseline');
    expect(flagged).toContain('Replay: ```sh\nnpx mcp-tasks-conformance server --stdio x --properties --seed=42 --path races/1\n```');
  });

  it('every diagram parses with Mermaid, hostile text included; fences cannot be closed by content', async () => {
    const md = formatMarkdown(sampleReport());
    const diagrams = diagramsOf(md);
    expect(diagrams.length).toBe(3); // the fail, the warn, the property (the expected failure has no transcript)
    for (const d of diagrams) await mermaidParse(d);
    // The control: what the escaping prevents is a syntax error for Mermaid.
    await expect(mermaidParse('sequenceDiagram\n  S->>T: a;b#c\n')).rejects.toThrow();
    // Every kind of entry, with text that is Mermaid syntax, a null message, an array, a bare string.
    const hostile = [HOSTILE + ' ->> :: participant end loop alt\nNote over', null, [1, 2], 'a string'];
    const entries: TranscriptEntry[] = [
      entry('out', { jsonrpc: '2.0', id: hostile[0], method: hostile[0], params: { name: hostile[0], taskId: hostile[0], requestId: hostile[0], task: {} } }),
      entry('in', { jsonrpc: '2.0', id: 1, error: { code: -1, message: hostile[0] } }),
      entry('in', { jsonrpc: '2.0', id: 1, result: { [hostile[0] as string]: 1 } }),
      entry('in', undefined, { raw: hostile[0] as string }),
      entry('event', undefined, { note: hostile[0] as string }),
      ...hostile.slice(1).map((m) => entry('in', m)),
    ];
    const report = buildReport([check('a.b', 'S', 'fail', 'MUST', ['x'], hostile[0] as string, entries)], hostile[0] as string, new Date());
    const hostileMd = formatMarkdown(report);
    expect(hostileMd).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
    const [d] = diagramsOf(hostileMd);
    expect(d!.split('\n').length).toBe(3 + entries.length);
    await mermaidParse(d!);
    // The message holding ``` is fenced with a longer fence.
    expect(md).toMatch(/````text\ngranted 10 years [^\n]*```[^\n]*\n````/);
  });

  it('sizes are bounded: a long exchange is cut in the diagram and the transcript, and the document stays under its limit', () => {
    const long: TranscriptEntry[] = [];
    for (let i = 0; i < 500; i++) long.push(...cancelExchange(`x-${i}`));
    const d = sequenceDiagram(long, { suite: 'suite', target: 'target' }, 40);
    expect(d.split('\n').length).toBe(3 + 41);
    expect(d).toContain('message(s) omitted');
    const results = Array.from({ length: 60 }, (_, i) => check(`c.${i}`, 'S', 'fail', 'MUST', ['cancel-terminal-32602'], 'x', long));
    const md = formatMarkdown(buildReport(results, 't', new Date()), { maxChars: 200_000 });
    expect(md.length).toBeLessThan(260_000);
    expect(md).toContain('left out for size, see the JSON report');
  });

  it('shows the coverage of the run, and the verdict of the run when more than the checks decide it', () => {
    const passing = buildReport([check('a.b', 'S', 'pass', 'MUST', ['cancel-terminal-32602'], 'ok')], 't', new Date());
    passing.coverage = {
      must: { applicable: 2, exercised: 1, unexercised: ['resource-max-ttl'] },
      should: { applicable: 0, exercised: 0, unexercised: [] },
      missingRoles: [{ role: 'slow', reason: 'no tool', checks: 3 }],
    };
    const md = formatMarkdown(passing);
    expect(md).toMatch(/^## MCP Tasks conformance: ✅ passed/);
    expect(md).toContain('**coverage: 1/2 MUST and 0/0 SHOULD requirements exercised**');
    expect(md).toContain('- slow (3 checks not exercised): no tool');
    expect(md).toContain('- MUST requirements not exercised: resource-max-ttl');
    expect(formatMarkdown(passing, { exitCode: 1 })).toMatch(/^## MCP Tasks conformance: ❌ failed/);
  });

  it('mermaidText leaves no character Mermaid treats as syntax', () => {
    expect(mermaidText('a;b#c<d>e"f`g|h%i{j}k\\l')).toBe('a#59;b#35;c#60;d#62;e#34;f#96;g#124;h#37;i#123;j#125;k#92;l');
    expect(mermaidText('x'.repeat(200))).toHaveLength(79 + '#8230;'.length);
  });
});

describe('Reproduce with', () => {
  const passed = [
    { name: 'stdio', value: `node mock.mjs --fault "x" it's` },
    { name: 'profile', value: 'my profile.json' },
    { name: 'request-timeout', value: '5000' },
    { name: 'strict' },
  ];
  const flaggedReport = () => {
    const report = sampleReport();
    addReproductions(report, passed, '2025-11-25', (id) => !id.startsWith('properties.'));
    return report;
  };

  it('starts the CLI the way the run was started, runnable where it was started', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'mtc-invocation-'));
    expect(invocationOf(join(cwd, 'node_modules/mcp-tasks-conformance/dist/scripts/cli.js'), cwd)).toEqual(['npx', 'mcp-tasks-conformance']);
    expect(invocationOf('/usr/lib/node_modules/mcp-tasks-conformance/dist/scripts/cli.js', cwd)).toEqual(['mcp-tasks-conformance']);
    expect(invocationOf(join(cwd, 'scripts/cli.ts'), cwd)).toEqual(['npx', 'tsx', 'scripts/cli.ts']);
    expect(invocationOf(join(cwd, 'dist/scripts/cli.js'), cwd)).toEqual(['node', 'dist/scripts/cli.js']);
    expect(invocationOf(undefined, cwd)).toEqual(['npx', 'mcp-tasks-conformance']);
    expect(reproduceCommand([], { id: 'a.b' }, '2025-11-25', ['npx', 'tsx', 'scripts/cli.ts'])).toBe(
      'npx tsx scripts/cli.ts server --revision 2025-11-25 --only a.b',
    );
  });

  it('the command reruns one check: the options as given, the check revision, --only <id>; a shell reads back every word', () => {
    const cmd = reproduceCommand(passed, { id: 'cancel.completed-rejected', revision: '2026-07-28' }, '2025-11-25');
    expect(cmd).toBe(
      `npx mcp-tasks-conformance server --stdio 'node mock.mjs --fault "x" it'\\''s' --profile 'my profile.json' --request-timeout 5000 --strict --revision 2026-07-28 --only cancel.completed-rejected`,
    );
    // The shell splits it back into exactly the words (node prints its argv after the script name).
    const words = JSON.parse(
      execFileSync('sh', ['-c', `node -e 'console.log(JSON.stringify(process.argv.slice(1)))' -- ${cmd.replace(/^npx mcp-tasks-conformance /, '')}`], {
        encoding: 'utf8',
      }),
    );
    expect(words).toEqual([
      'server',
      '--stdio',
      passed[0]!.value,
      '--profile',
      'my profile.json',
      '--request-timeout',
      '5000',
      '--strict',
      '--revision',
      '2026-07-28',
      '--only',
      'cancel.completed-rejected',
    ]);
  });

  it('every fail and warn carries it (not pass, info, skip; not what --only cannot select); console, JSON, Markdown and JUnit show it', () => {
    const report = flaggedReport();
    const byId = new Map(report.checks.map((c) => [c.id, c]));
    for (const id of ['cancel.completed-rejected', 'cancel.failed-rejected', 'ttl.max-enforced'])
      expect(byId.get(id)!.reproduce).toBe(reproduceCommand(passed, byId.get(id)!, '2025-11-25'));
    for (const id of ['cancel.cancelled-rejected', 'ttl.override-reported', 'transport.get-no-sse-upgrade', 'properties.races'])
      expect(byId.get(id)!.reproduce).toBeUndefined();
    const cmd = byId.get('cancel.completed-rejected')!.reproduce!;
    const consoleText = formatConsole(report);
    const consoleLines = consoleText.split('\n');
    const at = consoleLines.findIndex((l) => l.includes(' cancel.completed-rejected ['));
    expect(consoleLines[at + 1]).toBe(`        reproduce with: ${cmd}`);
    expect(JSON.parse(JSON.stringify(report)).checks.find((c: { id: string }) => c.id === 'ttl.max-enforced').reproduce).toContain('--only ttl.max-enforced');
    const md = formatMarkdown(report);
    expect(md).toContain(`Reproduce with:\n\n\`\`\`sh\n${cmd}\n\`\`\``);
    const xml = formatJunit(report);
    const escaped = cmd.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    expect(xml).toContain(`Reproduce with: ${escaped}`);
    // The failure in <failure> and <system-out>; the expected failure and the warning in <system-out>.
    expect(xml.split('Reproduce with: ').length - 1).toBe(4);
  });

  it('the replay: what the suite sent, placeholders for the task id the target chose; curl with the Streamable HTTP headers in Markdown', () => {
    const report = flaggedReport();
    addReplays(report, { url: 'http://127.0.0.1:9/mcp' });
    const flagged = report.checks.find((c) => c.id === 'cancel.completed-rejected')!;
    const replay = flagged.replay!;
    // The handshake first (the shared connection's happened before the check), then the three requests sent.
    expect(replay.steps.map((s) => (s.message as { method?: string }).method)).toEqual([
      'initialize',
      'notifications/initialized',
      'tools/call',
      'tasks/cancel',
      'tasks/get',
    ]);
    expect((replay.steps[3]!.message as { params: unknown }).params).toEqual({ taskId: '{{taskId:2}}' });
    expect(replay.steps[3]!.after).toEqual([1, 2]);
    // A literal the target did not choose stays as it was.
    expect((replay.steps[4]!.message as { params: unknown }).params).toEqual({ taskId: 7 });
    expect(JSON.parse(JSON.stringify(report)).checks.find((c: { id: string }) => c.id === flagged.id).replay).toEqual(replay);
    const lines = replayCommands(replay, replay.url);
    const cancel = lines.find((l) => l.includes('tasks/cancel'))!;
    for (const h of [
      "-H 'Content-Type: application/json'",
      "-H 'Accept: application/json, text/event-stream'",
      "-H 'Mcp-Session-Id: {{Mcp-Session-Id:1}}'",
      "-H 'MCP-Protocol-Version: 2025-11-25'",
    ])
      expect(cancel).toContain(h);
    expect(cancel).toMatch(/^curl -sS -i -X POST 'http:\/\/127\.0\.0\.1:9\/mcp' /);
    expect(lines.find((l) => l.includes('"initialize"'))).not.toContain('Mcp-Session-Id');
    expect(formatMarkdown(report)).toContain(cancel);
  });
});
