// 2026-07-28 + io.modelcontextprotocol/tasks as a value (suites/runner/adapter.ts): no handshake (per-request
// `_meta`, server/discover), the Tasks extension. The registry (suites/revisions.ts) lists it.
import { revision } from '../../schema/revisions.ts';
import { Field, Meta, REVISION } from '../../schema/2026-07-28/protocol.ts';
import { MODERN_PROFILE_ROLES, type ModernProfileRole } from '../engine/profile.ts';
import type { RevisionAdapter } from '../runner/adapter.ts';
import { planModernDiscovery } from './runner/discovery.ts';
import { preflightDiscover } from './runner/preflight.ts';
import { standardHeaders } from './wire/http.ts';
import { SESSIONS_2026 } from './runner/session.ts';
import { PROPERTY_TOKENS_2026, runModernProperties } from './properties/report.ts';
import { checks } from './receiver/index.ts';

export const adapter: RevisionAdapter = {
  ...revision(REVISION),
  ...SESSIONS_2026,
  preflight: preflightDiscover,
  standardHeaders,
  roles: MODERN_PROFILE_ROLES,
  checks,
  gradesServerAsRequestor: false,
  planDiscovery: (info, settings, leftOut) => planModernDiscovery(info.tools, settings, leftOut as ModernProfileRole[]),
  listed: (info) => ({ supportedVersions: info.discoverResult?.[Field.supportedVersions], serverInfo: info.discoverResult?._meta?.[Meta.ServerInfo] ?? {} }),
  propertyTokens: PROPERTY_TOKENS_2026,
  runProperties: runModernProperties,
};
