// The errors both reference peers raise (mocks/receiver for 2025-11-25, mocks/2026-07-28 for the extension):
// a JSON-RPC error a handler throws, and a status change the revision's transition table does not allow.

/** The error object of a JSON-RPC error response. */
export type JsonRpcError = { code: number; message: string; data?: unknown };

/** A JSON-RPC error raised by a handler; the peer turns it into an error response. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }
  toJSON(): JsonRpcError {
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
  }
}

/**
 * Code asked for a task status change the revision's transition table (schema/…/protocol.ts TRANSITIONS) does not
 * allow (lifecycle-valid-paths). Only named faults go around the table.
 */
export class IllegalTransitionError<Status extends string = string> extends Error {
  constructor(
    readonly from: Status,
    readonly to: Status,
    readonly taskId: string,
  ) {
    super(`illegal task transition ${from} → ${to} (task ${taskId})`);
    this.name = 'IllegalTransitionError';
  }
}
