// A self-contained replay of a flagged check's exchange: the messages the suite sent, in order, per
// connection, with placeholders for what the target chose at run time (`{{taskId:1}}`: the taskId in the
// answer to the replay's request 1; a dotted path such as `{{tasks.1.taskId:3}}` when the name is not
// unique). scripts/replay.ts sends them and fills the placeholders from the answers.
import { PROTOCOL_VERSION } from '../../schema/protocol.ts';
import { SPEC_REVISION, type Revision } from '../../schema/spec.ts';
import { SUITE_CLIENT_CAPABILITIES } from '../runner/target.ts';
import { idKey, type Message, type TranscriptEntry } from '../wire/peer.ts';
import { adapterFor } from '../revisions.ts';

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
  /** 2026-07-28 over Streamable HTTP: the MCP headers this POST carried other than the standard ones of its body (null: left out). */
  headers?: Record<string, string | null>;
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

/** The event a 2026-07-28 HTTP POST leaves in the transcript (suites/2026-07-28/wire/http.ts): its MCP headers and the request id key. */
const HEADERS_NOTE = /^http POST \S+ \[(.*)\] for id=(.*) $/;

/** The headers a POST carried (as noted) that are not the standard ones of its body, or undefined when it carried just those. */
function ownHeaders(message: Message, noted: string, standardHeaders: (m: Message) => Record<string, string>): Record<string, string | null> | undefined {
  const sent = new Map<string, [string, string]>();
  if (noted !== 'no MCP headers')
    for (const part of noted.split(/, (?=[A-Za-z0-9-]+: )/)) {
      const i = part.indexOf(': ');
      if (i > 0) sent.set(part.slice(0, i).toLowerCase(), [part.slice(0, i), part.slice(i + 2)]);
    }
  const standard = standardHeaders(message);
  const own: Record<string, string | null> = {};
  for (const [k, v] of Object.entries(standard)) if (sent.get(k.toLowerCase())?.[1] !== v) own[k] = sent.get(k.toLowerCase())?.[1] ?? null;
  for (const [lower, [k, v]] of sent) if (!Object.keys(standard).some((x) => x.toLowerCase() === lower)) own[k] = v;
  return Object.keys(own).length ? own : undefined;
}

/** The replay of a check's transcript (what the suite sent), or undefined when it sent nothing. */
export function replayOf(check: { id: string; revision?: string; transcript: readonly TranscriptEntry[] }, transport: 'stdio' | 'http'): Replay | undefined {
  const revision = (check.revision ?? SPEC_REVISION) as Revision;
  // A revision negotiated by initialize opens each connection with the handshake; a per-request one frames each request (its standard headers).
  const { negotiation, standardHeaders } = adapterFor(revision);
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
      if (negotiation === 'initialize' && (e.message as any)?.method !== 'initialize') {
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
  const sentOn = new Map<string, { step: ReplayStep; message: Message }>(); // connection + idKey → the step of a request
  for (const e of check.transcript) {
    if (e.dir === 'event') {
      // 2026-07-28 over HTTP: the transport notes the MCP headers of each POST; those the check set itself are replayed too.
      const posted = standardHeaders && transport === 'http' && e.note ? HEADERS_NOTE.exec(e.note) : null;
      const sent = posted ? sentOn.get(`${e.connection ?? 'shared'} ${posted[2]}`) : undefined;
      if (sent) {
        const own = ownHeaders(sent.message, posted![1]!, standardHeaders!);
        if (own) sent.step.headers = substitute(own, known) as Record<string, string | null>;
      }
      continue;
    }
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
      sentOn.set(`${e.connection ?? 'shared'} ${idKey(m.id)}`, { step, message: m });
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
export function addReplays(
  report: { checks: { id: string; revision?: string; transcript: readonly TranscriptEntry[]; reproduce?: string; replay?: Replay }[] },
  target: { url: string } | { command: string },
): void {
  for (const c of report.checks)
    if (c.reproduce) {
      const r = replayOf(c, 'url' in target ? 'http' : 'stdio');
      if (r) c.replay = 'url' in target ? { ...r, url: target.url } : r;
    }
}

/** The replay as shell commands: for HTTP `curl` POSTs with the headers of Streamable HTTP (2025-11-25: the session id a placeholder, from the initialize answer's Mcp-Session-Id header; 2026-07-28: the standard headers of each body); for stdio the lines to pipe in. Placeholders stay for the reader (or `mcp-tasks-conformance replay`) to fill. */
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
  const { negotiation, standardHeaders } = adapterFor(replay.revision as Revision);
  const lines = [
    negotiation === 'per-request'
      ? `# Streamable HTTP, revision ${replay.revision}: no session; each POST carries its own _meta and the standard headers of its body; {{…}} come from the answers`
      : `# Streamable HTTP: one session per connection; {{Mcp-Session-Id:N}} is the Mcp-Session-Id header of connection N's initialize answer (curl -i shows it), other {{…}} come from the answers`,
  ];
  replay.steps.forEach((s, j) => {
    const message = s.message as { method?: string } | undefined;
    const init = message?.method === 'initialize';
    const headers = ['Content-Type: application/json', 'Accept: application/json, text/event-stream'];
    if (!init && negotiation === 'initialize') headers.push(`Mcp-Session-Id: {{Mcp-Session-Id:${s.connection + 1}}}`);
    // A per-request revision (2026-07-28): no session; the standard headers of the body (MCP-Protocol-Version, Mcp-Method, Mcp-Name).
    if (standardHeaders && message) {
      const all: Record<string, string | null> = { ...standardHeaders(message as Message), ...(s.headers ?? {}) };
      headers.push(...Object.entries(all).flatMap(([k, v]) => (v === null ? [] : [`${k}: ${v}`])));
    } else if (!init) headers.push(`MCP-Protocol-Version: ${replay.revision}`);
    lines.push(`curl -sS -i -X POST ${q(url)} ${headers.map((h) => `-H ${q(h)}`).join(' ')} --data-raw ${q(sent[j]!)}`);
  });
  return lines;
}

/** A file name for a check's replay (check ids are dotted words). */
export function replayFileName(check: string): string {
  return `${check.replace(/[^A-Za-z0-9_.-]/g, '_')}.replay.json`;
}
