// Faulty modes of the reference client (mocks/client/reference-client.ts). Each breaks one
// requestor rule, so that every requestor check is shown able to fail; the checks a fault kills name it
// in their `killedBy` (suites/requestor/checks/), and suites/requestor-faults.test.ts holds each fault
// to exactly those when the client runs every scenario over Streamable HTTP.
// Switch one on with `--fault <name>` or CLIENT_FAULT=<name>[,<name>…].

export interface ClientFault {
  name: string;
  description: string;
}

export const CLIENT_FAULTS = [
  {
    name: 'augment-forbidden',
    description: 'calls tools whose taskSupport is "forbidden" or absent as tasks',
  },
  {
    name: 'no-augment-required',
    description: 'calls tools whose taskSupport is "required" without `task`',
  },
  {
    name: 'ignore-tasks-capability',
    description: 'task-augments tools/call by taskSupport alone, even when the server declares no tasks capability',
  },
  {
    name: 'ignore-tools-call-capability',
    description: 'task-augments tools/call by taskSupport alone when the server declares tasks but not tasks.requests.tools.call',
  },
  {
    name: 'augment-task-requests',
    description: 'adds `task: {}` to its tasks/get and tasks/result requests (request types nobody declares as task-augmentable)',
  },
  {
    name: 'fast-poll',
    description: 'polls tasks/get every 50 ms whatever pollInterval says',
  },
  {
    name: 'stop-polling',
    description:
      'never polls: after the CreateTaskResult it waits, connected and idle, for a status notification that never comes (3 pollIntervals and 2 s), pings, and moves on',
  },
  {
    name: 'no-result-on-input-required',
    description: 'on input_required keeps polling tasks/get (10 more times) and never calls tasks/result',
  },
  {
    name: 'no-poll-after-result-error',
    description: 'when tasks/result fails while the task runs, gives the task up instead of polling again',
  },
  {
    name: 'elicitation-no-related-task',
    description: "answers a task's elicitation/create without related-task _meta",
  },
  {
    name: 'related-task-in-requests',
    description: 'adds related-task _meta to its tasks/get, tasks/result and tasks/cancel requests',
  },
  {
    name: 'related-task-in-list',
    description: 'adds related-task _meta (of its latest task) to its tasks/list requests',
  },
  {
    name: 'modify-cursor',
    description: 'changes the last character of each nextCursor before sending it back',
  },
  {
    name: 'cancel-notification',
    description: 'cancels a task with notifications/cancelled for the task-creating request instead of tasks/cancel',
  },
  {
    name: 'ignore-get-stream',
    description: 'opens the standalone GET SSE stream (Streamable HTTP) but never reads what arrives there: a request delivered on it goes unanswered',
  },
  // The client as task receiver while its own tools/call runs (mocks/client/task-receiver.ts; it declares
  // tasks for sampling/createMessage only, so a task-augmented elicitation/create is of an undeclared type).
  {
    name: 'receiver-ignores-task',
    description: 'answers a task-augmented sampling/createMessage (a declared type) with the plain CreateMessageResult, no task',
  },
  {
    name: 'receiver-rejects-task',
    description: 'answers a task-augmented sampling/createMessage (a declared type) with -32601 "Method not found"',
  },
  {
    name: 'receiver-starts-input-required',
    description: 'its CreateTaskResult shows the new task "input_required" (for a request that needs no input) instead of "working"',
  },
  {
    name: 'receiver-numeric-id',
    description: 'its CreateTaskResult carries the task id as a JSON number',
  },
  {
    name: 'receiver-no-created-at',
    description: 'its Tasks (CreateTaskResult, tasks/get) omit createdAt',
  },
  {
    name: 'receiver-resumes',
    description: 'a task reported completed by tasks/get is reported "working" by the next tasks/get',
  },
  {
    name: 'receiver-result-no-related-task',
    description: 'its tasks/result answers carry no related-task _meta',
  },
  {
    name: 'receiver-undeclared-creates-task',
    description: 'a task-augmented elicitation/create (a type it did not declare) creates a task instead of being processed normally',
  },
  {
    name: 'receiver-undeclared-rejects',
    description: 'a task-augmented elicitation/create (a type it did not declare) is answered -32600, while the same request without `task` gets a result',
  },
  {
    name: 'receiver-undeclared-tasks',
    description: 'declares no tasks capability, yet answers task-augmented sampling/createMessage and elicitation/create with a CreateTaskResult',
  },
] as const satisfies readonly ClientFault[];

export type ClientFaultName = (typeof CLIENT_FAULTS)[number]['name'];

export const CLIENT_FAULT_NAMES: readonly string[] = CLIENT_FAULTS.map((f) => f.name);

export function isClientFault(s: string): s is ClientFaultName {
  return CLIENT_FAULT_NAMES.includes(s);
}
