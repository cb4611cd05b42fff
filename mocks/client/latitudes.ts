// The latitude registry of the reference client (mocks/client/reference-client.ts): the mirror of
// faults.ts. Each latitude is a freedom the spec leaves a requestor (or a client receiving tasks): a MAY,
// a choice the text leaves open, a ruling of schema/RULINGS.md that allows something, made a switch, so
// that the requestor and receiving checks can be shown to stay silent (zero fail, zero warn) on a client
// that uses it: the client half of the no-false-verdict matrix (suites/requestor-latitudes.test.ts; the
// registry shape and the cells: mocks/latitude-matrix.ts). Switch one on with `--latitude <name>` or
// CLIENT_LATITUDE=<name>[,<name>…].
import { compatibleLatitudes, type LatitudeCell, type LatitudeInfo } from '../latitude-matrix.ts';

export const CLIENT_LATITUDES = [
  {
    name: 'no-get-stream',
    allows: 'RULINGS.md#get-stream-optional',
    description: 'never opens the standalone GET SSE stream (Streamable HTTP: the client MAY issue the GET; its fetch answers GET with 405)',
  },
  {
    name: 'poll-on-events',
    allows: 'RULINGS.md#poll-interval-frequency',
    description: 'sends tasks/get at once after an event of the task (its input request answered, a tasks/result answered), besides polling at pollInterval',
  },
  {
    name: 'no-tasks-capability',
    allows: 'caps-declare',
    description: 'declares no tasks capability (it receives no task-augmented request): a task-augmented sampling/elicitation is processed normally',
  },
  {
    name: 'latency',
    allows: 'poll-respect-interval',
    description: 'every message the client sends leaves 150 ms late (in order): a slow network or a busy client',
  },
  {
    name: 'slow-polling',
    allows: 'poll-respect-interval',
    description: 'polls at twice the pollInterval (the interval is a lower bound)',
    excludes: ['wait-on-result'],
  },
  {
    name: 'wait-on-result',
    allows: 'poll-not-stopped-by-result',
    description: 'calls tasks/result right after the CreateTaskResult and waits on it instead of polling (it polls again only when that tasks/result fails)',
    excludes: ['slow-polling', 'poll-on-events', 'skip-result'],
  },
  {
    name: 'no-ttl',
    allows: 'create-ttl-may',
    description: 'task-augments with `task: {}`: no ttl asked for, the receiver default applies',
  },
  {
    name: 'plain-optional',
    allows: 'tool-optional-may',
    description: 'calls tools whose taskSupport is "optional" as normal requests',
  },
  {
    name: 'skip-result',
    allows: 'poll-until-terminal',
    description: 'never calls tasks/result for a task it saw terminal: the status is the outcome it wanted (tasks/result only on input_required)',
    excludes: ['wait-on-result'],
  },
  {
    name: 'instant-completion',
    allows: 'RULINGS.md#new-task-working',
    description:
      'as task receiver, a request that completes at once ("conformance: complete") is done before its CreateTaskResult is written, which then shows "completed"',
    // Without a tasks capability, or (HTTP) without the GET stream the probe's requests arrive on, it receives no task.
    excludes: ['no-tasks-capability', 'no-get-stream'],
  },
] as const satisfies readonly LatitudeInfo[];

export type ClientLatitudeName = (typeof CLIENT_LATITUDES)[number]['name'];

export const CLIENT_LATITUDE_NAMES: readonly string[] = CLIENT_LATITUDES.map((l) => l.name);

export function isClientLatitude(s: string): s is ClientLatitudeName {
  return CLIENT_LATITUDE_NAMES.includes(s);
}

/**
 * The cells of the client matrix: each latitude alone and all compatible ones together, over Streamable HTTP
 * (where every latitude acts: the client scenarios' default transport), and the compatible ones over stdio.
 */
export function clientLatitudeCells(): (LatitudeCell & { transport: 'http' | 'stdio' })[] {
  const all = compatibleLatitudes(CLIENT_LATITUDES);
  return [
    ...CLIENT_LATITUDES.map((l) => ({ label: l.name, latitudes: [l.name], transport: 'http' as const })),
    { label: 'all compatible', latitudes: all, transport: 'http' },
    { label: 'all compatible over stdio', latitudes: all, transport: 'stdio' },
  ];
}
