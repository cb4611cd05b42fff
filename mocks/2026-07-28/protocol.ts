// The protocol vocabulary of the reference extension server: the revision's constants (stated once in
// schema/2026-07-28/protocol.ts) and the few this server adds.
import { PROTOCOL_VERSION } from '../../schema/2026-07-28/protocol.ts';

export * from '../../schema/2026-07-28/protocol.ts';

/** The protocol versions this server implements (UnsupportedProtocolVersionError data.supported). */
export const SUPPORTED_VERSIONS: readonly string[] = [PROTOCOL_VERSION];
/** The legacy handshake; a modern-only server names its versions in the error (basic-versioning.md). */
export const INITIALIZE = 'initialize';
/** Where `Mcp-Name` comes from, by method (streamable-http "Standard Request Headers"; tasks.md "Routing Headers"). */
export const MCP_NAME_SOURCE: Readonly<Record<string, string>> = {
  'tools/call': 'name',
  'resources/read': 'uri',
  'prompts/get': 'name',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};
