import { openTargetSession } from './suites/harness/session.ts';
import { formatPlan } from './suites/harness/discovery.ts';
const s = await openTargetSession({ target: { kind: 'stdio', command: `${process.execPath} node_modules/@modelcontextprotocol/server-everything/dist/index.js stdio` }, discover: { mode: 'safe' } }, { onDiscoveryPlan: (p, b) => console.log(formatPlan(p, b).join('\n')) });
console.log(JSON.stringify({ roles: s.discovery!.roles, missing: s.discovery!.missing, elapsed: s.discovery!.elapsedMs, obs: s.discovery!.observations.map(o => [o.tool, o.label, o.outcome, o.statuses.map(x=>x.status+'@'+x.atMs).join(','), o.error]) }, null, 1));
await s.close();
