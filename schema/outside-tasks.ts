// Rules outside the Tasks page that the checks meet along the way (base JSON-RPC 2.0, the schema of
// messages that are not about tasks, the transport). Deviations from them are reported in a section of
// their own under these ids, never as a verdict on a Tasks requirement, and do not fail the run.
export const OUTSIDE_TASKS = {
  'jsonrpc-parse-error-32700': 'JSON-RPC 2.0 §5.1: invalid JSON is answered with -32700 (Parse error)',
  'jsonrpc-invalid-request-32600': 'JSON-RPC 2.0 §5.1: JSON that is not a valid Request object is answered with -32600 (Invalid Request)',
  'jsonrpc-method-not-found-32601': 'JSON-RPC 2.0 §5.1: an unknown method is answered with -32601 (Method not found)',
  'jsonrpc-error-for-invalid-params':
    'JSON-RPC 2.0 §4.2/§5.1: params that are neither an object nor an array of the method are answered with an error (-32602 or -32600), not a result',
  'jsonrpc-response-to-every-request': 'JSON-RPC 2.0 §4.1: every request (a message with an id) is answered with a Response object',
  'connection-survives-malformed-input': 'JSON-RPC 2.0 §5 / transports: after answering malformed input with errors, the connection keeps serving requests',
  'schema-non-task-message':
    'schema.ts (2025-11-25): messages other than the Tasks ones (initialize, tools/list, a plain tools/call …) conform to their definitions',
} as const;

export type OutsideTasksId = keyof typeof OUTSIDE_TASKS;
