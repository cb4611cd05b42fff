// The latitude registry of the reference receiver: the mirror of faults.ts. Each latitude is a freedom the
// spec leaves a receiver (a MAY, a choice the text leaves open, a ruling of schema/RULINGS.md that allows
// something), made a switch, so that the suite can be shown to stay silent (zero fail, zero warn) on a
// receiver that uses it: the no-false-verdict matrix (suites/receiver/latitudes.test.ts, its cells in
// mocks/latitude-matrix.ts). `allows` is the catalog id (schema/requirements.json), the ruling
// (`RULINGS.md#<slug>`) or the optional schema field that leaves the freedom. Where a latitude acts:
// mocks/receiver/latitude-switches.ts.

import type { LatitudeInfo } from '../latitude-matrix.ts';
import { SwitchSet } from './switch-set.ts';

export type { LatitudeInfo } from '../latitude-matrix.ts';

export const LATITUDES = [
  {
    name: 'custom-error-codes',
    allows: 'result-exact',
    description:
      'the fail tool ends in JSON-RPC error -32000 (a server error, as SDKs answer) and invalid tool arguments in -32042 (MCP: URL elicitation required); tasks/result returns them as they were',
  },
  {
    name: 'nondeterministic-output',
    allows: 'result-exact',
    description: 'every tool result carries the time and a random request id, so no two calls of a tool return the same text',
  },
  {
    name: 'fail-asks-first',
    allows: 'RULINGS.md#new-task-working',
    description:
      'the fail tool asks its requestor for input (elicitation/create) before its CreateTaskResult is written, so that shows input_required; it fails after its run time whether answered or not (as an SDK example server does)',
  },
  {
    name: 'slow-runs-minutes',
    allows: 'result-blocks-nonterminal',
    description: 'the slow tool runs 20 minutes whatever its arguments say (it still stops when cancelled)',
  },
  {
    name: 'lazy-expiry',
    allows: 'RULINGS.md#expired-cleanup-promptly',
    description:
      'expired tasks are deleted by a sweep every 15 s, not at their ttl: until the sweep an expired task answers as before (ttl-delete-after-expiry-may: "MAY delete"; "promptly" names no bound)',
  },
  {
    name: 'stateless-cursors',
    allows: 'RULINGS.md#lenient-cursor',
    description: 'tasks/list cursors are the base64 of a position, decoded leniently (a cursor that decodes to no position is -32602)',
  },
  {
    name: 'second-precision-timestamps',
    allows: 'RULINGS.md#timestamps-rfc3339',
    description:
      'lastUpdatedAt has whole seconds (RFC 3339 leaves the fraction optional); createdAt has milliseconds in the CreateTaskResult and whole seconds everywhere else (the same instant, from a store that keeps seconds)',
  },
  {
    name: 'server-pings',
    allows: 'RULINGS.md#related-task-exemptions',
    description:
      'while a task runs, the receiver sends its requestor ping requests (basic/utilities/ping: either side may ping at any time), without related-task',
    overHttp: true,
  },
  {
    name: 'progress-before-create',
    allows: 'RULINGS.md#progress-before-create',
    description:
      "the progress tool sends its first notifications/progress (progress 0) with the request's token before the CreateTaskResult, without related-task",
    overHttp: true,
  },
  {
    name: 'delete-cancelled',
    allows: 'cancel-delete-may',
    description: 'a cancelled task is deleted at once: tasks/get, tasks/result and tasks/cancel then answer -32602',
    overHttp: true,
  },
  {
    name: 'rate-limit',
    allows: 'security-rate-limit',
    description: 'at most 8 task creations per second per requestor; more answer -32000 "Rate limit exceeded" (a limit error)',
  },
  {
    name: 'concurrency-limit',
    allows: 'resource-concurrency-limit',
    description: 'at most 4 non-terminal tasks per requestor; more answer the limit error',
    args: ['--max-concurrent-tasks', '4'],
  },
  {
    name: 'task-cap-internal-error',
    allows: 'resource-concurrency-limit',
    description:
      'at most 3 non-terminal tasks per requestor, and a creation beyond it answers -32603 "Maximum concurrent tasks exceeded" (as mcp-framework does): the run learns the cap and waits for a slot',
    args: ['--max-concurrent-tasks', '3'],
  },
  {
    name: 'shared-session-tasks',
    allows: 'security-bind-context',
    description:
      'without an authorization context (no bearer token) sessions share their tasks: any session may tasks/get and tasks/cancel them, while tasks/result answers only the creating session; tasks.list is not declared (security-list-without-identity)',
    excludes: ['stateless-cursors'],
    overHttp: true,
  },
  {
    name: 'no-status-notifications',
    allows: 'notify-status-may',
    description: 'no notifications/tasks/status at all (even with --status-notifications)',
  },
  {
    name: 'latency',
    allows: 'RULINGS.md#response-time',
    description: 'every message the receiver sends leaves 150 ms late (in order): a slow network or a busy server',
    overHttp: true,
  },
  {
    name: 'no-list',
    allows: 'schema:ServerCapabilities.tasks.list',
    description:
      'tasks.list is not declared (the capability is optional); tasks/list is still there, undeclared, and answers the first page whatever its params',
    excludes: ['stateless-cursors'],
  },
  {
    name: 'no-cancel',
    allows: 'schema:ServerCapabilities.tasks.cancel',
    description: 'tasks.cancel is not declared (the capability is optional) and tasks/cancel is -32601',
    excludes: ['delete-cancelled'],
  },
  {
    name: 'no-poll-interval',
    allows: 'ttl-poll-interval-may',
    description: 'tasks carry no pollInterval',
  },
  {
    name: 'status-messages',
    allows: 'schema:Task.statusMessage',
    description: 'every Task carries a statusMessage (the field is optional on every status), which changes while the task works',
    overHttp: true,
  },
  {
    name: 'ttl-override',
    allows: 'ttl-override-may',
    description: 'every requested ttl is overridden: capped at 20 s (--max-ttl 20000)',
    args: ['--max-ttl', '20000'],
  },
  {
    name: 'poll-rate-limit',
    allows: 'security-rate-limit',
    description:
      'tasks/get of one task sooner than half the pollInterval after the same requestor\'s last one answers -32005 "Slow down: …" (no retry hint), and more than 5 tasks/list a second answer -32005 "Too many requests" (data.retryAfter 1 s); over HTTP such a POST is answered HTTP 429 with Retry-After: 1',
    overHttp: true,
  },
  {
    name: 'foreign-context-custom-code',
    allows: 'RULINGS.md#foreign-context-code',
    description: 'tasks/get, tasks/result and tasks/cancel of another requestor\'s task answer -32001 "Forbidden" (the page names no code for the rejection)',
    excludes: ['shared-session-tasks'],
  },
  {
    name: 'tool-result-deviates',
    allows: 'result-exact',
    description:
      'every tool result\'s first text item carries annotations.priority "high" (tools.md says a number from 0 to 1): the plain call returns it, and tasks/result returns it exactly',
  },
  {
    name: 'bound-sequential-ids',
    allows: 'security-crypto-ids',
    description:
      'tasks of a request that carries a bearer token are bound to it; their ids are a counter ("task-1", "task-2", …): binding is available, so the ids need not be unguessable (its HTTP cell runs with credentials and no second identity)',
    excludes: ['shared-session-tasks'],
    overHttp: true,
    credentials: true,
  },
  {
    name: 'long-poll-interval',
    allows: 'ttl-poll-interval-may',
    description: "tasks suggest pollInterval 5000 (as in the spec's examples): the suite polls no faster, its checks' budgets grow to fit",
    args: ['--poll-interval', '5000'],
    excludes: ['no-poll-interval'],
  },
  {
    name: 'result-wakes-per-interval',
    allows: 'RULINGS.md#response-time',
    description:
      "a blocked tasks/result is woken once per pollInterval (8000 ms here) after it arrived, as the SDKs' task stores do: its answer comes up to one interval after the task ended",
    args: ['--poll-interval', '8000'],
    excludes: ['no-poll-interval', 'long-poll-interval'],
  },
] as const satisfies readonly LatitudeInfo[];

export type LatitudeName = (typeof LATITUDES)[number]['name'];

export const LATITUDE_NAMES: readonly LatitudeName[] = LATITUDES.map((l) => l.name);

export function isLatitudeName(s: string): s is LatitudeName {
  return (LATITUDE_NAMES as readonly string[]).includes(s);
}

export function latitudeInfo(name: LatitudeName): LatitudeInfo {
  return LATITUDES.find((l) => l.name === name)!;
}

/** The set of latitudes active in one receiver. */
export class LatitudeSet extends SwitchSet<LatitudeName> {
  constructor(names: Iterable<string> = []) {
    super('latitude', LATITUDE_NAMES, names);
  }
}
