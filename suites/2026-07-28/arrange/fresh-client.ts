// A client of a check's own, for the rules on what a server may remember between requests (basic-index.md
// "Statelessness") and on the protocol version a request names (basic-versioning.md).
import type { CheckContext } from '../../engine/check.ts';
import { Meta, Method, PROTOCOL_VERSION } from '../../../schema/2026-07-28/protocol.ts';
import { CLIENT_INFO, type ModernResponse, type ModernScope } from '../wire/peer.ts';
import { openWire } from '../engine/check.ts';

/** A protocol version no server implements (the example of basic-versioning.md). */
export const UNSUPPORTED_VERSION = '1900-01-01';

/**
 * A connection of the check's own and a client identity of its own (`_meta` clientInfo): no earlier request of
 * the run is "prior" to its first one, whether a server keys what it remembers on the connection or the client.
 * `toolsList(version)` sends tools/list naming that protocol version (over HTTP the header mirrors it).
 */
export async function freshClient(ctx: CheckContext, what: string): Promise<{ s: ModernScope; toolsList: (version?: string) => Promise<ModernResponse> }> {
  const s = await openWire(ctx);
  const clientInfo = { name: `${CLIENT_INFO.name}-${what}`, version: Math.random().toString(36).slice(2, 10) };
  return {
    s,
    toolsList: (version = PROTOCOL_VERSION) => s.request(Method.ToolsList, {}, { meta: { [Meta.ProtocolVersion]: version, [Meta.ClientInfo]: clientInfo } }),
  };
}
