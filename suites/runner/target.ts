// How the suite reaches a target: a spec that survives serialisation (CLI → vitest workers),
// connectors that open fresh initialized connections, and the probe (initialize + tools/list + profile,
// completed by discovery where it ran).
import { readFileSync } from 'node:fs';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { startupAllowance, type Peer } from '../wire/peer.ts';
import { connectHttp, connectInMemory, connectStdio, connectTransport, splitCommand } from '../wire/connect.ts';
import { ANY_REVISION_ROLES, PROFILE_ROLES, REQUESTOR_ROLES, profileSettles, type Profile, type ProfileRole } from '../engine/profile.ts';
import { isRevision, REVISIONS } from '../../schema/spec.ts';
import type { TargetConnector, TargetInfo, TargetLatency } from '../engine/check.ts';
import type { DiscoveryResult } from './discovery.ts';
import { limiter } from './limiter.ts';
import { Spares } from './spares.ts';

/** How many stdio connections are kept started ahead for a run with this concurrency (runner/spares.ts). */
export function sparesFor(concurrency: number): number {
  return Math.min(2, Math.ceil(concurrency / 4));
}

export type TargetSpec =
  | { kind: 'stdio'; command: string; cwd?: string; env?: Record<string, string> }
  | { kind: 'http'; url: string; headers?: Record<string, string>; secondaryHeaders?: Record<string, string> }
  /** The reference receiver in this process (tests, benchmarks); `args` are `mock` options, e.g. ['--fault', 'x']. */
  | { kind: 'reference'; args?: string[] }
  /**
   * A target in this process (library use; does not survive serialisation): `connect` returns a new
   * client Transport, connected to the target and not yet started, for every connection the checks open
   * (e.g. one end of the SDK's InMemoryTransport pair whose other end an McpServer is connected to).
   */
  | { kind: 'transport'; connect: () => Transport | Promise<Transport>; label?: string };

/** Requestor capabilities the suite declares: it can answer elicitation (needsInput role). */
export const SUITE_CLIENT_CAPABILITIES = { elicitation: { form: {} } };

/**
 * Opens fresh initialized connections to a target. `startupMs`: the start-up allowance of each process over stdio
 * (PeerOptions.startupMs; default STARTUP_MS for the first, then what the first showed: startupAllowance).
 */
export function connectorFor(spec: TargetSpec, requestTimeoutMs: number, concurrency = 1, startupMs?: () => number): TargetConnector {
  const init = async (peer: Peer, capabilities?: Record<string, unknown>) => {
    const r = await peer.initialize(capabilities ?? SUITE_CLIENT_CAPABILITIES, undefined, requestTimeoutMs);
    if (r.error) throw new Error(`initialize failed: ${r.error.code} ${r.error.message}`);
    return peer;
  };
  switch (spec.kind) {
    case 'stdio': {
      const { command, args } = splitCommand(spec.command);
      // Each connection is a process: start them two at a time, so that a burst of checks opening
      // connections does not turn process start-up on a busy machine into initialize timeouts.
      const starting = limiter(2);
      // The first process (the shared connection) gets STARTUP_MS, the others the request bound plus 3 × its start-up (startupAllowance).
      let first: Peer | undefined;
      const allowance = startupMs ?? startupAllowance(() => first, requestTimeoutMs);
      const start = (capabilities?: Record<string, unknown>, ahead = false) =>
        starting(
          async () => {
            const peer = await connectStdio({ command, args, cwd: spec.cwd, env: spec.env }, { defaultTimeoutMs: requestTimeoutMs, startupMs: allowance });
            first ??= peer;
            try {
              return await init(peer, capabilities);
            } catch (e) {
              // A process that exited before it was initialized: what it wrote to stderr says why.
              if (peer.closed && e instanceof Error) e.message += peer.stderrNote();
              await peer.close();
              throw e;
            }
          },
          { ahead },
        );
      // Connections with the suite's own capabilities are started ahead (after the first, the shared one),
      // so that the start-up of the target is paid while earlier checks run; a start someone waits for goes
      // first. A target that failed to start once gets no more starts ahead (runner/spares.ts).
      const spares = new Spares(
        sparesFor(concurrency),
        () => start(undefined, true),
        (p) => p.close(),
      );
      let opened = 0;
      return {
        transport: 'stdio',
        label: spec.command,
        hasSecondIdentity: false,
        open(opts) {
          if (opened++ === 0) {
            // The first connection (the shared one) starts alone; the spares once it has started.
            const first = start(opts?.capabilities);
            first.then(
              () => spares.fill(),
              () => undefined,
            );
            return first;
          }
          // Only a connection with the suite's own capabilities can be one made ahead.
          return spares.take(!opts?.capabilities) || start(opts?.capabilities);
        },
        expect: (n) => spares.expect(n),
        close: () => spares.close(),
      };
    }
    case 'http':
      return {
        transport: 'http',
        label: spec.url,
        hasSecondIdentity: spec.secondaryHeaders !== undefined,
        credentials: Object.keys(spec.headers ?? {}).some((h) => h.toLowerCase() === 'authorization'),
        async open(opts) {
          const headers = opts?.identity === 'secondary' && spec.secondaryHeaders ? spec.secondaryHeaders : spec.headers;
          const peer = await connectHttp({ url: spec.url, headers }, { defaultTimeoutMs: requestTimeoutMs });
          return init(peer, opts?.capabilities);
        },
      };
    case 'transport':
      return {
        transport: 'in-process',
        label: spec.label ?? 'in-process transport',
        hasSecondIdentity: false,
        async open(opts) {
          const peer = await connectTransport(await spec.connect(), { label: spec.label, defaultTimeoutMs: requestTimeoutMs });
          return init(peer, opts?.capabilities);
        },
      };
    case 'reference': {
      // Loaded lazily so that the suite does not depend on the mock unless asked to.
      let receiver: Promise<{ connect(t: unknown, identity?: { authToken?: string; label?: string }): unknown }> | undefined;
      return {
        transport: 'in-process',
        label: `reference receiver (in process${spec.args?.length ? ' ' + spec.args.join(' ') : ''})`,
        // The secondary identity is a bearer context of its own (like a second token over HTTP); primary
        // connections stay bound to their session, so every primary openSession() is still isolated.
        hasSecondIdentity: true,
        async open(opts) {
          receiver ??= import('../../mocks/receiver/args.ts').then((m) => m.createReferenceReceiverFromArgs(spec.args ?? []));
          const r = await receiver;
          const identity = opts?.identity === 'secondary' ? { authToken: 'conformance-secondary-identity', label: 'secondary identity' } : undefined;
          const peer = await connectInMemory((t) => void r.connect(t, identity), { defaultTimeoutMs: requestTimeoutMs });
          return init(peer, opts?.capabilities);
        },
      };
    }
  }
}

/** How a report names the target. */
export function describeTarget(t: TargetSpec): string {
  switch (t.kind) {
    case 'stdio':
      return `stdio: ${t.command}`;
    case 'http':
      return `http: ${t.url}`;
    case 'transport':
      return t.label ?? 'in-process transport';
    case 'reference':
      return 'reference receiver (in process)';
  }
}

export function loadProfile(path: string): Profile {
  const raw = JSON.parse(readFileSync(path, 'utf8'));
  const shape = `a profile is { "tools": { "<role>": { "name": "…", "arguments": {} } }, "absent": { "<role>": "why" }, "revisions": { "<revision>": { "tools": …, "absent": … } } }`;
  if (!raw || typeof raw !== 'object' || (typeof raw.tools !== 'object' && typeof raw.revisions !== 'object')) throw new Error(`${path}: ${shape}`);
  const roles = (where: string, tools: unknown, absent: unknown) => {
    if (tools !== undefined && (!tools || typeof tools !== 'object')) throw new Error(`${path}: ${where}tools must be an object`);
    if (absent !== undefined && (!absent || typeof absent !== 'object')) throw new Error(`${path}: ${where}absent must be an object`);
    for (const role of [...Object.keys(tools ?? {}), ...Object.keys(absent ?? {})])
      if (!(ANY_REVISION_ROLES as readonly string[]).includes(role))
        throw new Error(`${path}: unknown role "${role}" (roles: ${ANY_REVISION_ROLES.join(', ')})`);
    for (const [role, t] of Object.entries((tools ?? {}) as Record<string, any>))
      if (!t || typeof t.name !== 'string') throw new Error(`${path}: role ${role} needs a tool "name"`);
  };
  roles('', raw.tools, raw.absent);
  for (const [revision, section] of Object.entries((raw.revisions ?? {}) as Record<string, any>)) {
    if (!isRevision(revision)) throw new Error(`${path}: unknown revision "${revision}" in "revisions" (${REVISIONS.join(', ')})`);
    if (!section || typeof section !== 'object') throw new Error(`${path}: revisions["${revision}"] must be an object`);
    roles(`revisions["${revision}"].`, section.tools, section.absent);
  }
  for (const [k, v] of Object.entries(raw.limits ?? {})) {
    if ((k === 'perConnection' || k === 'run') && !(Number.isInteger(v) && (v as number) >= 1))
      throw new Error(`${path}: limits.${k} is a whole number of live tasks ≥ 1, got ${JSON.stringify(v)}`);
  }
  return { ...raw, tools: raw.tools ?? {} } as Profile;
}

/** tools/list, every page (bounded). */
/** Pings the pre-flight sends to measure the target's round trip. */
const LATENCY_SAMPLES = 3;

/**
 * The target's round trip, measured in the pre-flight: the slowest of a few pings, one after the other (any
 * answer counts, an error too: it took the same way back). A target that leaves a ping unanswered within
 * `boundMs` is measured with tools/list instead. The run's bounds grow by it (engine/check.ts scaledBound): a
 * slow network or a busy machine is the run's to allow for, never the target's violation (RULINGS.md#response-time).
 */
export async function measureLatency(peer: Peer, boundMs = 2_000): Promise<TargetLatency> {
  for (const method of ['ping', 'tools/list'] as const) {
    const samples: number[] = [];
    try {
      for (let i = 0; i < LATENCY_SAMPLES; i++) {
        const t0 = Date.now();
        await peer.request(method, method === 'ping' ? undefined : {}, { timeoutMs: boundMs });
        samples.push(Date.now() - t0);
      }
      return { roundTripMs: Math.max(0, ...samples), samples, method };
    } catch {
      /* unanswered within the bound: try the next request, or give up */
    }
  }
  return { roundTripMs: 0, samples: [], method: 'ping' };
}

export async function listTools(peer: Peer): Promise<any[]> {
  const tools: any[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const r = await peer.request('tools/list', cursor ? { cursor } : {});
    if (r.error || !Array.isArray(r.result?.tools)) break;
    tools.push(...r.result.tools);
    cursor = typeof r.result.nextCursor === 'string' ? r.result.nextCursor : undefined;
    if (!cursor) break;
  }
  return tools;
}

/** The initialize result recorded on a connection opened by a connector. */
export function initializeResultOf(peer: Peer): any {
  const initEntry = peer.transcript.find((e) => e.dir === 'in' && (e.message as any)?.result?.protocolVersion !== undefined);
  return (initEntry?.message as any)?.result ?? {};
}

/** Roles the profile leaves out (discovery looks for these). */
export function rolesLeftOut(profile: Profile | undefined): ProfileRole[] {
  return PROFILE_ROLES.filter((r) => !profileSettles(profile, r));
}

/**
 * initialize + tools/list; resolves the profile against what the target lists. An explicit profile wins
 * for the roles it names; the others come from discovery (runner/discovery.ts) when it ran.
 */
export async function probe(
  peer: Peer,
  connector: TargetConnector,
  profile: Profile | undefined,
  discovery?: DiscoveryResult,
  tools?: any[],
): Promise<TargetInfo> {
  const initializeResult = initializeResultOf(peer);
  tools ??= await listTools(peer);
  const latency = peer.closed ? undefined : await measureLatency(peer);
  const byName = new Map(tools.map((t) => [t?.name, t]));
  const resolved: Profile = { tools: {} };
  const missingRoles: Partial<Record<ProfileRole, string>> = {};
  // Requestor roles: resolved against the tools listed to a client that declares tasks.requests.* (server-requestor.ts).
  const unlisted: Partial<Record<ProfileRole, string>> = {};
  for (const role of REQUESTOR_ROLES) {
    const given = profile?.tools[role] ?? discovery?.roles[role];
    if (given) resolved.tools[role] = { name: given.name, arguments: given.arguments ?? {} };
    else if (profile?.absent?.[role]) missingRoles[role] = absentNote(role, profile.absent[role]);
    else if (discovery?.missing[role]) missingRoles[role] = discovery.missing[role];
  }
  for (const role of PROFILE_ROLES) {
    const given = profile?.tools[role];
    if (given) {
      if (!byName.has(given.name)) {
        missingRoles[role] = `profile names tool "${given.name}" for role ${role}, but the target does not list it`;
        unlisted[role] = given.name;
      } else resolved.tools[role] = { name: given.name, arguments: given.arguments ?? {} };
      continue;
    }
    if (profile?.absent?.[role]) {
      missingRoles[role] = absentNote(role, profile.absent[role]);
      continue;
    }
    const found = discovery?.roles[role];
    if (found && byName.has(found.name)) resolved.tools[role] = { name: found.name, arguments: found.arguments };
    else if (discovery?.missing[role]) missingRoles[role] = discovery.missing[role];
    else if (discovery && !discovery.plan.roles.includes(role)) missingRoles[role] = `discovery did not look for role ${role} (no selected check needs it)`;
    else missingRoles[role] = `no tool for role ${role}: name one in --profile${discovery ? '' : ', or let discovery find one (--discover safe)'}`;
  }
  return {
    label: connector.label,
    transport: connector.transport,
    initializeResult,
    serverCapabilities: initializeResult.capabilities ?? {},
    tools,
    profile: resolved,
    missingRoles,
    ...(Object.keys(unlisted).length ? { unlistedProfileTools: unlisted } : {}),
    ...(latency ? { latency } : {}),
  };
}

/** Why a role the profile says is absent has no tool (a missing role's reason). */
export function absentNote(role: ProfileRole, why: string): string {
  return `the profile says no tool plays role ${role} (${why})`;
}
