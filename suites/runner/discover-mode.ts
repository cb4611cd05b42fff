// What discovery is asked to do and what it finds for a role, read by receiver discovery (discovery.ts) and
// requestor discovery (requestor-discovery.ts) alike.
export type DiscoverMode = 'off' | 'safe' | 'all';
export const DISCOVER_MODES: readonly DiscoverMode[] = ['off', 'safe', 'all'];

export interface DiscoveredRole {
  name: string;
  arguments: Record<string, unknown>;
  /** What was observed (kept as the role's "observed" line in a written profile). */
  observed: string;
}
