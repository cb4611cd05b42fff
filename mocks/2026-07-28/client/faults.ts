// Named faults and latitudes of the reference extension client (mocks/2026-07-28/client/reference-client.ts):
// a requestor of MCP 2026-07-28 with the Tasks extension. A FAULT breaks exactly one requestor requirement
// (`requirement`: the catalog id it breaks), so that each requestor check of the revision is shown able to
// fail (the checks name their faults in `killedBy`; suites/2026-07-28/requestor/faults.test.ts holds each
// fault to exactly those). A LATITUDE is a freedom the texts leave a client; every check stays silent under it.
// Switch one on with `--fault NAME` / `--latitude NAME` (or CLIENT_FAULT / CLIENT_LATITUDE, comma-separated).

export interface ClientSwitch {
  name: string;
  /** Latitude: what leaves the freedom, as the 2025-11-25 registry says it (LatitudeInfo.allows): a catalog id, `RULINGS.md#<slug>` or `schema:<Definition>.<field>`. */
  allows?: string;
  /** Fault: the requirement id it breaks. Latitude: the text that leaves the freedom. */
  requirement: string;
  description: string;
  /** The transport the switch acts on, when only one (the fault's line is about that transport). */
  transport?: 'stdio' | 'http';
}

export const CLIENT_FAULTS = [
  {
    name: 'fast-poll',
    requirement: '2026-poll-respect-interval',
    description: 'polls tasks/get every 10 ms whatever pollIntervalMs says',
  },
  {
    name: 'ignore-interval-change',
    requirement: '2026-poll-respect-interval',
    description: 'keeps polling at the first pollIntervalMs it saw for a task, though later answers raise it',
  },
  {
    name: 'stop-polling',
    requirement: '2026-poll-until-terminal',
    description: 'never polls: after the CreateTaskResult it moves on (as if a notification would come)',
  },
  {
    name: 'stop-after-update',
    requirement: '2026-input-client-keep-observing',
    description: 'after its tasks/update it stops observing the task',
  },
  {
    name: 'ignore-input',
    requirement: '2026-input-client-fulfill',
    description: 'answers no inputRequests: on input_required it cancels the task with tasks/cancel instead',
  },
  {
    name: 'no-dedupe',
    requirement: '2026-update-client-track-keys',
    description: 'answers every inputRequests key on every poll that lists it, already answered or not',
  },
  {
    name: 'stray-keys',
    requirement: '2026-update-keys-outstanding',
    description: 'adds a key the server never issued to each tasks/update inputResponses',
  },
  {
    name: 'cancel-notification',
    requirement: '2026-cancel-no-notifications-cancelled',
    description: 'cancels a task with notifications/cancelled for the tools/call that created it instead of tasks/cancel',
  },
  {
    name: 'no-mcp-name',
    requirement: '2026-http-mcp-name-task-id',
    description: 'over Streamable HTTP sends tasks/get, tasks/update and tasks/cancel without the Mcp-Name header',
  },
  {
    name: 'no-method-header',
    requirement: '2026-header-standard-required',
    description: 'over Streamable HTTP sends no Mcp-Method header',
  },
  {
    name: 'no-request-meta',
    requirement: '2026-meta-required-fields',
    description: 'sends tasks/get, tasks/update and tasks/cancel without the per-request _meta (version, capabilities)',
  },
  {
    name: 'follow-any-task',
    requirement: '2026-caps-unsupported-request-invalid',
    description: 'takes a CreateTaskResult for any request as a task and polls it, e.g. one that answers tools/list',
  },
  {
    name: 'raw-names',
    requirement: '2026-header-mcp-name-base64',
    description: 'sends an Mcp-Name value that is not plain ASCII as it is, without the Base64 sentinel',
  },
  {
    name: 'expects-tasks',
    requirement: '2026-caps-client-handle-both',
    description: 'takes a plain CallToolResult to its tools/call for a failure and stops (it only handles CreateTaskResult)',
  },
  {
    name: 'task-by-shape',
    requirement: '2026-core-result-type-unknown-invalid',
    description: 'follows any tools/call result that carries a taskId as a task, whatever its resultType says',
  },
  {
    name: 'result-type-required',
    requirement: '2026-core-result-type-absent-complete',
    description:
      'takes a result without resultType for an invalid one, also from a legacy server: a tools/list result without it is asked again, then given up',
  },
  {
    name: 'no-version-retry',
    requirement: '2026-version-client-retry-supported',
    description: 'on -32022 (UnsupportedProtocolVersionError) gives the request up, though data.supported names its own version',
  },
  {
    name: 'initialize-first',
    requirement: '2026-discover-dual-client-first',
    description: 'on stdio probes as a dual-era client with the legacy initialize before server/discover (then, told the server is modern, goes on modern)',
    transport: 'stdio',
  },
  {
    name: 'cancel-unissued',
    requirement: '2026-cancellation-only-issued',
    description: 'on stdio ends its subscriptions/listen with notifications/cancelled naming the task id, a request id it never sent',
    transport: 'stdio',
  },
  {
    name: 'ignore-ack',
    requirement: '2026-subscribe-client-check-ack',
    description: 'after subscriptions/listen waits for notifications/tasks whatever the acknowledgement agreed to, and does not poll a task it left out',
  },
] as const satisfies readonly ClientSwitch[];

export const CLIENT_LATITUDES = [
  {
    name: 'poll-slower',
    allows: '2026-poll-respect-interval',
    requirement: 'tasks.md "Task Polling": clients SHOULD respect pollIntervalMs (a longer wait respects it)',
    description: 'waits twice pollIntervalMs between polls',
  },
  {
    name: 'no-discover',
    allows: '2026-discover-client-may-call',
    requirement: 'basic-versioning.md: clients MAY call server/discover first, but are not required to',
    description: 'sends no server/discover',
  },
  {
    name: 'partial-answers',
    allows: '2026-update-partial',
    requirement: 'tasks.md "Task Update Requests": one or more tasks/update requests',
    description: 'answers several outstanding inputRequests one key per tasks/update',
  },
  {
    name: 'discover-before-retry',
    allows: '2026-discover-client-may-call',
    requirement: 'basic-versioning.md: clients MAY call server/discover to learn the supported versions (after -32022 too)',
    description: 'after -32022 asks server/discover for the supported versions before it retries the request',
  },
  {
    name: 'restart-remembers-era',
    allows: 'RULINGS.md#dual-era-client-remembers-era',
    requirement:
      'basic-versioning.md "Backward Compatibility": clients MAY persist the era across restarts of the same server configuration, re-probing if the cached assumption later fails; RULINGS.md#dual-era-client-remembers-era',
    description:
      'on stdio, after its scenario, restarts the server (a second connection to the same command line) and opens it by the era it found: initialize first for a legacy server, no server/discover; then lists and calls the tools again',
    transport: 'stdio',
  },
  {
    name: 'notified-after-update',
    allows: '2026-input-client-keep-observing',
    requirement: 'tasks.md "Task Update Requests": the client observes the task "via polling or notifications"; it need not poll',
    description:
      'after its tasks/update it follows the task through subscriptions/listen (notifications/tasks) instead of tasks/get, polling only if none comes',
  },
  {
    name: 'cancel-no-confirm',
    allows: '2026-cancel-client-drop-state',
    requirement: 'tasks.md "Task Cancellation": the client does not need to poll tasks/get again',
    description: 'after tasks/cancel it does not poll the task again',
  },
] as const satisfies readonly ClientSwitch[];

export type ClientFaultName = (typeof CLIENT_FAULTS)[number]['name'];
export type ClientLatitudeName = (typeof CLIENT_LATITUDES)[number]['name'];

export function isClientFault(n: string): n is ClientFaultName {
  return CLIENT_FAULTS.some((f) => f.name === n);
}
export function isClientLatitude(n: string): n is ClientLatitudeName {
  return CLIENT_LATITUDES.some((l) => l.name === n);
}
