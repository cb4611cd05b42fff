/**
 * Who may talk to the reference receiver over HTTP (transports.md, Security Warning: servers MUST
 * validate the Origin header to prevent DNS rebinding attacks; running locally they SHOULD bind to
 * localhost; they SHOULD implement authentication).
 *
 * - Host: the hostname (any port) must be a loopback name, the bound address, one of the machine's
 *   own addresses when bound to a wildcard address, or a name given in `allowedHosts`. A DNS-rebound
 *   request carries the attacker's name (`Host: evil.example`) and is refused.
 * - Origin: absent (non-browser clients) is fine; present, its hostname must pass the same test or
 *   the whole origin be listed in `allowedOrigins`. `Origin: null` is refused.
 * - Bearer token (optional): with `tokens`, every request must carry `Authorization: Bearer <one of them>`.
 *   Each token is its own requestor identity (tasks are bound to it), so the isolation checks can use two.
 *
 * The SDK offers the same Host test only as Express middleware (server/middleware/hostHeaderValidation)
 * and as deprecated, port-exact transport options (allowedHosts/allowedOrigins), which would only act
 * after our session routing; this guard runs first, for every request on the endpoint.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { networkInterfaces } from 'node:os';

/** Environment variable with bearer tokens (comma-separated), besides --token. */
export const TOKEN_ENV = 'MCP_CONFORMANCE_MOCK_TOKEN';

/** The transport and HTTP access options of a mock command line (util.parseArgs options), shared by the mocks of both revisions. */
export const TRANSPORT_OPTIONS = {
  stdio: { type: 'boolean' },
  http: { type: 'string' },
  host: { type: 'string' },
  token: { type: 'string', multiple: true },
  'allowed-host': { type: 'string', multiple: true },
  'allowed-origin': { type: 'string', multiple: true },
} as const;

/** HttpAccessOptions from parsed TRANSPORT_OPTIONS (tokens also from TOKEN_ENV). Throws an Error a user can read. */
export function accessFromArgs(values: {
  http?: string;
  host?: string;
  token?: string[];
  'allowed-host'?: string[];
  'allowed-origin'?: string[];
}): HttpAccessOptions {
  const httpOnly = (['host', 'token', 'allowed-host', 'allowed-origin'] as const).filter((k) => values[k] !== undefined);
  if (values.http === undefined && httpOnly.length) throw new Error(`${httpOnly.map((k) => `--${k}`).join(', ')}: HTTP only (with --http <port>)`);
  for (const o of values['allowed-origin'] ?? []) {
    if (!/^https?:\/\/[^/]+\/?$/.test(o)) throw new Error(`--allowed-origin expects scheme://host[:port], got "${o}"`);
  }
  const tokens = [...(values.token ?? []), ...(process.env[TOKEN_ENV] ?? '').split(',')].map((t) => t.trim()).filter(Boolean);
  if (tokens.some((t) => /\s/.test(t))) throw new Error('--token: a bearer token has no whitespace');
  return { allowedHosts: values['allowed-host'] ?? [], allowedOrigins: values['allowed-origin'] ?? [], tokens };
}

export interface HttpAccessOptions {
  /** Extra hostnames (no port) accepted in Host and Origin, e.g. a container's service name. */
  allowedHosts?: string[];
  /** Extra exact origins accepted (`scheme://host[:port]`). */
  allowedOrigins?: string[];
  /** Bearer tokens; when non-empty, a request without one of them is refused with 401. */
  tokens?: string[];
}

export interface AccessRefusal {
  status: 401 | 403;
  message: string;
  headers?: Record<string, string>;
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];
const WILDCARD = new Set(['0.0.0.0', '::', '[::]', '']);

/** `::1` → `[::1]` (the form URL.hostname gives for IPv6). */
function asHostname(address: string): string {
  return address.includes(':') && !address.startsWith('[') ? `[${address}]` : address.toLowerCase();
}

export function isLoopbackHost(host: string): boolean {
  const h = asHostname(host);
  return LOOPBACK_NAMES.includes(h) || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** Hostnames accepted for a server bound to `bindHost`. */
export function allowedHostnames(bindHost: string, extra: string[] = []): Set<string> {
  const names = new Set([...LOOPBACK_NAMES, ...extra.map(asHostname)]);
  if (WILDCARD.has(bindHost)) {
    for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) names.add(asHostname(a.address));
  } else {
    names.add(asHostname(bindHost));
  }
  return names;
}

function hostnameOf(authority: string): string | undefined {
  try {
    return new URL(`http://${authority}`).hostname;
  } catch {
    return undefined;
  }
}

function sameToken(given: string, tokens: Buffer[]): boolean {
  const g = Buffer.from(given);
  // Compare against every token (constant time per comparison, no early exit on a match).
  return tokens.reduce((hit, t) => (t.length === g.length && timingSafeEqual(t, g)) || hit, false);
}

/** Returns a checker for requests to a server bound to `bindHost`: undefined when the request may pass. */
export function createAccessGuard(bindHost: string, options: HttpAccessOptions = {}): (req: IncomingMessage) => AccessRefusal | undefined {
  const hosts = allowedHostnames(bindHost, options.allowedHosts);
  const origins = new Set((options.allowedOrigins ?? []).map((o) => o.replace(/\/+$/, '').toLowerCase()));
  const tokens = (options.tokens ?? []).filter(Boolean).map((t) => Buffer.from(t));
  return (req) => {
    const host = req.headers.host;
    const hostname = host ? hostnameOf(host) : undefined;
    if (!hostname || !hosts.has(hostname)) return { status: 403, message: `Forbidden: Host header not allowed: ${host ?? '(none)'}` };
    const origin = req.headers.origin;
    if (origin !== undefined) {
      let originHost: string | undefined;
      try {
        const u = new URL(origin);
        if (u.protocol === 'http:' || u.protocol === 'https:') originHost = u.hostname;
      } catch {
        // unparsable (or "null"): refused below
      }
      const exact = origins.has(origin.replace(/\/+$/, '').toLowerCase());
      if (!exact && (!originHost || !hosts.has(originHost))) return { status: 403, message: `Forbidden: Origin not allowed: ${origin}` };
    }
    if (tokens.length) {
      const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
      if (!m || !sameToken(m[1]!, tokens)) {
        return { status: 401, message: 'Unauthorized: a valid bearer token is required', headers: { 'www-authenticate': 'Bearer' } };
      }
    }
    return undefined;
  };
}
