// 2025-11-25 as a value (suites/runner/adapter.ts): an initialize handshake and a session, the core Tasks
// page. Its judge lives on the undated floors (suites/runner, suites/receiver, suites/properties); this file
// only names what is its own for the registry (suites/revisions.ts).
import { revision } from '../../schema/revisions.ts';
import { PROFILE_ROLES } from '../engine/profile.ts';
import type { RevisionAdapter } from '../runner/adapter.ts';
import { planDiscovery } from '../runner/discovery.ts';
import { SESSIONS_2025 } from '../runner/session.ts';
import { PROPERTY_NAMES, runProperties } from '../properties/run.ts';
import { checks } from '../receiver/index.ts';

export const adapter: RevisionAdapter = {
  ...revision('2025-11-25'),
  ...SESSIONS_2025,
  roles: PROFILE_ROLES,
  checks,
  gradesServerAsRequestor: true,
  planDiscovery: (info, settings, leftOut) => planDiscovery(info.tools, info.serverCapabilities ?? {}, settings, [...leftOut]),
  listed: (info) => ({ protocolVersion: info.initializeResult?.protocolVersion ?? '(none)', serverInfo: info.initializeResult?.serverInfo ?? {} }),
  propertyTokens: PROPERTY_NAMES,
  runProperties,
};
