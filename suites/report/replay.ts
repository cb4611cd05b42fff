// A self-contained replay of a flagged check's exchange: the messages the suite sent, in order, per
// connection, with placeholders for what the target chose at run time (`{{taskId:1}}`: the taskId in the
// answer to the replay's request 1; a dotted path such as `{{tasks.1.taskId:3}}` when the name is not
// unique). scripts/replay.ts sends them and fills the placeholders from the answers.
import type { TranscriptEntry } from '../wire/peer.ts';
import type { Report } from './model.ts';
import { PROTOCOL_VERSION } from '../../schema/protocol.ts';
import { SPEC_REVISION } from '../../schema/spec.ts';
import { SUITE_CLIENT_CAPABILITIES } from '../runner/target.ts';

export interface ReplayStep {
  /** Index into `connections`. */
  connection: number;
  /** The message to send, placeholders in string values; unset for raw bytes. */
  message?: unknown;
  /** Bytes sent as they are (not a JSON-RPC message). */
  raw?: string;
  /** This step is a request: its number in the replay (placeholders refer to it). */
  request?: number;
  /** This step answers the target's request of this method (its id is filled in at replay time). */
  answers?: string;
  /** Requests whose answers the suite had seen before it sent this step: the replay waits for them. */
  after: number[];
  /** A tasks/get poll: the status its recorded answer showed; the replay polls again (at the task's pollInterval, bounded) until it shows it. */
  until?: { status: string };
}

export interface Replay {
  check: string;
  /** The Streamable HTTP endpoint the run talked to (headers are not kept: they may hold credentials). */
  url?: string;
  revision: string;
  transport: 'stdio' | 'http';
  /** Connections in the order they appear; the first is the run's shared one when the check used it. */
  connections: string[];
  steps: ReplayStep[];
}

/** The ids a target chooses and later requests name (MCP field names). */
const LEARNED = new Set(['taskId', 'nextCursor', 'requestId']);

function collect(value: unknown, path: string[], out: { name: string; path: string; value: string }[]): void {
  if (Array.isArray(value)) value.forEach((v, i) => collect(v, [...path, String(i)], out));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      if (LEARNED.has(k) && typeof v === 'string' && v) out.push({ name: k, path: [...path, k].join('.'), value: v });
      else collect(v, [...path, k], out);
    }
}

function substitute(value: unknown, known: Map<string, string>): unknown {
  if (typeof value === 'string') return known.get(value) ?? value;
  if (Array.isArray(value)) return value.map((v) => substitute(v, known));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, known)]));
  return value;
}

/** The replay of a check's transcript (what the suite sent), or undefined when it sent nothing. */
export function replayOf(check: { id: string; revision?: string; transcript: readonly TranscriptEntry[] }, transport: 'stdio' | 'http'): Replay | undefined {
  const revision = check.revision ?? SPEC_REVISION;
  const connections: string[] = [];
  const steps: ReplayStep[] = [];
  const requestNo = new Map<string, number>(); // connection + id → request number
  const stepOf = new Map<number, ReplayStep>();
  const incoming = new Map<string, string>(); // connection + id of the target's requests → method
  const answered: number[] = [];
  const known = new Map<string, string>(); // learned value → placeholder
  let next = 1;
  const connectionOf = (e: TranscriptEntry) => {
    const label = e.connection ?? 'shared';
    let i = connections.indexOf(label);
    if (i < 0) {
      i = connections.push(label) - 1;
      // A 2025-11-25 connection starts with the handshake; the shared one's happened before the check (not in its transcript).
      if (revision === SPEC_REVISION && (e.message as any)?.method !== 'initialize') {
        const n = next++;
        steps.push({
          connection: i,
          request: n,
          message: {
            jsonrpc: '2.0',
            id: `replay-${i}-init`,
            method: 'initialize',
            params: {
              protocolVersion: PROTOCOL_VERSION,
              capabilities: SUITE_CLIENT_CAPABILITIES,
              clientInfo: { name: 'mcp-tasks-conformance', version: '0.1.0' },
            },
          },
          after: [],
        });
        requestNo.set(`${i} ${JSON.stringify(`replay-${i}-init`)}`, n);
        steps.push({ connection: i, message: { jsonrpc: '2.0', method: 'notifications/initialized' }, after: [n] });
        answered.push(n);
      }
    }
    return i;
  };
  for (const e of check.transcript) {
    if (e.dir === 'event') continue;
    const m = e.message as any;
    const c = connectionOf(e);
    if (e.dir === 'in') {
      if (!m || typeof m !== 'object') continue;
      const key = `${c} ${JSON.stringify(m.id)}`;
      if (typeof m.method === 'string' && m.id !== undefined) incoming.set(key, m.method);
      const n = m.method === undefined ? requestNo.get(key) : undefined;
      if (n === undefined) continue;
      answered.push(n);
      const asked = stepOf.get(n);
      if ((asked?.message as any)?.method === 'tasks/get' && typeof m.result?.status === 'string') asked!.until = { status: m.result.status };
      const found: { name: string; path: string; value: string }[] = [];
      collect(m.result, [], found);
      for (const f of found) {
        if (known.has(f.value)) continue;
        const unique = found.filter((g) => g.name === f.name).length === 1;
        known.set(f.value, `{{${unique ? f.name : f.path}:${n}}}`);
      }
      continue;
    }
    const after = [...answered];
    if (m === undefined) {
      if (e.raw !== undefined) steps.push({ connection: c, raw: e.raw, after });
      continue;
    }
    const isRequest = m && typeof m === 'object' && typeof m.method === 'string' && m.id !== undefined;
    const isAnswer = m && typeof m === 'object' && m.method === undefined && ('result' in m || 'error' in m);
    const step: ReplayStep = { connection: c, message: substitute(m, known), after };
    if (isRequest) {
      step.request = next++;
      requestNo.set(`${c} ${JSON.stringify(m.id)}`, step.request);
      stepOf.set(step.request, step);
    } else if (isAnswer) {
      const method = incoming.get(`${c} ${JSON.stringify(m.id)}`);
      if (method) {
        step.answers = method;
        step.message = { ...(step.message as object), id: '{{id}}' };
      }
    }
    steps.push(step);
  }
  if (!steps.some((s) => s.raw !== undefined || (s.message as any)?.id !== `replay-${s.connection}-init`)) return undefined;
  return { check: check.id, revision, transport, connections, steps };
}

/** Sets `replay` on every fail and warn that carries a reproduction. */
export function addReplays(report: Report, target: { url: string } | { command: string }): void {
  for (const c of report.checks)
    if (c.reproduce) {
      const r = replayOf(c, 'url' in target ? 'http' : 'stdio');
      if (r) c.replay = 'url' in target ? { ...r, url: target.url } : r;
    }
}

/** The replay as shell commands: for HTTP `curl` POSTs with the headers of Streamable HTTP (the session id a placeholder, from the initialize answer's Mcp-Session-Id header); for stdio the lines to pipe in. Placeholders stay for the reader (or `mcp-tasks-conformance replay`) to fill. */
export function replayCommands(replay: Replay, url = '$MCP_URL'): string[] {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const sent = replay.steps.map((s) => (s.raw !== undefined ? s.raw : JSON.stringify(s.message)));
  if (replay.transport === 'stdio') {
    const lines = ['# JSON-RPC lines, one per connection (a process each), in order; fill {{…}} from the answers'];
    replay.connections.forEach((label, i) => {
      lines.push(`# connection ${i + 1} (${label})`);
      replay.steps.forEach((s, j) => s.connection === i && lines.push(sent[j]!));
    });
    return lines;
  }
  const lines = [
    `# Streamable HTTP: one session per connection; {{Mcp-Session-Id:N}} is the Mcp-Session-Id header of connection N's initialize answer (curl -i shows it), other {{…}} come from the answers`,
  ];
  replay.steps.forEach((s, j) => {
    const message = s.message as { method?: string } | undefined;
    const init = message?.method === 'initialize';
    const headers = ['Content-Type: application/json', 'Accept: application/json, text/event-stream'];
    if (!init && replay.revision === SPEC_REVISION) headers.push(`Mcp-Session-Id: {{Mcp-Session-Id:${s.connection + 1}}}`);
    if (!init) headers.push(`MCP-Protocol-Version: ${replay.revision}`);
    lines.push(`curl -sS -i -X POST ${q(url)} ${headers.map((h) => `-H ${q(h)}`).join(' ')} --data-raw ${q(sent[j]!)}`);
  });
  return lines;
}

/** A file name for a check's replay (check ids are dotted words). */
export function replayFileName(check: string): string {
  return `${check.replace(/[^A-Za-z0-9_.-]/g, '_')}.replay.json`;
}
