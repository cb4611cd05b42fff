// Faulty modes of the reference client (mocks/client/reference-client.ts). Each breaks one
// requestor rule, so that every requestor check is shown able to fail; `kills` is the exact set of
// checks that stop passing (fail/warn) when the client runs every scenario over Streamable HTTP.
// Switch one on with `--fault <name>` or CLIENT_FAULT=<name>[,<name>…].
import type { Status } from '../../suites/engine.ts';

export interface ClientFault {
  name: string;
  description: string;
  /** check id → the status it gets (every other check stays pass/info/skip). */
  kills: Record<string, Extract<Status, 'fail' | 'warn'>>;
}

export const CLIENT_FAULTS = [
  {
    name: 'augment-forbidden',
    description: 'calls tools whose taskSupport is "forbidden" or absent as tasks',
    kills: { 'requestor.tool-forbidden': 'fail' },
  },
  {
    name: 'no-augment-required',
    description: 'calls tools whose taskSupport is "required" without `task`',
    kills: { 'requestor.tool-required': 'fail' },
  },
  {
    name: 'ignore-tasks-capability',
    description: 'task-augments tools/call by taskSupport alone, even when the server declares no tasks capability',
    kills: { 'requestor.augment-only-declared': 'warn', 'requestor.no-tasks-capability': 'warn', 'requestor.tool-no-capability': 'fail' },
  },
  {
    name: 'ignore-tools-call-capability',
    description: 'task-augments tools/call by taskSupport alone when the server declares tasks but not tasks.requests.tools.call',
    kills: { 'requestor.augment-only-declared': 'warn', 'requestor.tool-no-capability': 'fail' },
  },
  {
    name: 'augment-task-requests',
    description: 'adds `task: {}` to its tasks/get and tasks/result requests (request types nobody declares as task-augmentable)',
    kills: { 'requestor.augment-only-declared': 'warn' },
  },
  {
    name: 'fast-poll',
    description: 'polls tasks/get every 50 ms whatever pollInterval says',
    kills: { 'requestor.poll-interval': 'warn' },
  },
  {
    name: 'stop-polling',
    description: 'never polls: after the CreateTaskResult it moves on (as if waiting for a status notification that never comes)',
    kills: { 'requestor.poll-until-terminal': 'warn', 'requestor.no-status-notification-reliance': 'fail' },
  },
  {
    name: 'no-result-on-input-required',
    description: 'on input_required keeps polling tasks/get (10 more times) and never calls tasks/result',
    kills: { 'requestor.input-required-result': 'warn' },
  },
  {
    name: 'no-poll-after-result-error',
    description: 'when tasks/result fails while the task runs, gives the task up instead of polling again',
    kills: { 'requestor.poll-after-result-error': 'warn' },
  },
  {
    name: 'elicitation-no-related-task',
    description: "answers a task's elicitation/create without related-task _meta",
    kills: { 'requestor.input-response-related-task': 'fail' },
  },
  {
    name: 'related-task-in-requests',
    description: 'adds related-task _meta to its tasks/get, tasks/result and tasks/cancel requests',
    kills: { 'requestor.no-related-task-in-task-requests': 'warn' },
  },
  {
    name: 'related-task-in-list',
    description: 'adds related-task _meta (of its latest task) to its tasks/list requests',
    kills: { 'requestor.no-related-task-in-list': 'warn' },
  },
  {
    name: 'modify-cursor',
    description: 'changes the last character of each nextCursor before sending it back',
    kills: { 'requestor.cursor-opaque': 'fail' },
  },
  {
    name: 'cancel-notification',
    description: 'cancels a task with notifications/cancelled for the task-creating request instead of tasks/cancel',
    kills: { 'requestor.cancel-with-tasks-cancel': 'fail' },
  },
  {
    name: 'ignore-get-stream',
    description: 'never opens the standalone GET SSE stream (Streamable HTTP: its fetch answers GET with 405)',
    kills: { 'requestor.input-on-any-stream': 'warn' },
  },
] as const satisfies readonly ClientFault[];

export type ClientFaultName = (typeof CLIENT_FAULTS)[number]['name'];

export const CLIENT_FAULT_NAMES: readonly string[] = CLIENT_FAULTS.map((f) => f.name);

export function isClientFault(s: string): s is ClientFaultName {
  return CLIENT_FAULT_NAMES.includes(s);
}
