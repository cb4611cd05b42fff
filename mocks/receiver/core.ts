// What every part of the reference receiver shares: the per-request context, the reply shape, and small
// helpers (abortable waits). A leaf: it imports only the store's error type. The session's port (what
// the method modules use of a connection) is port.ts.
import { RpcError } from './store.ts';
import { isObj } from '../../schema/json.ts';

export const SERVER_NAME = 'mcp-tasks-reference-receiver';
export const SERVER_VERSION = '0.1.0';

export type Params = Record<string, unknown>;
export type Msg = Record<string, any>;
export type RequestCtx = { id: string | number; owner: string; auth: string | undefined; progressToken: unknown; sessionLabel: string };
export const NO_REPLY = Symbol('no-reply');
export type Reply = { result: Record<string, unknown>; after?: () => void } | typeof NO_REPLY;

/** The error of the underlying request, returned by tasks/result as is (not a protocol error of tasks/result). */
export class UnderlyingRequestError extends RpcError {}

export const isObject: (v: unknown) => v is Params = isObj;

export { abortableSleep, abortWith, raceAbort } from './abort.ts';
