// The JSON-RPC methods of the reference receiver and how a thrown error becomes the response's error.
import { setLogLevel } from './result-delivery.ts';
import { ErrorCode, PROTOCOL_VERSION } from '../../schema/protocol.ts';
import type { Dispatcher, SessionPort } from './port.ts';
import { isObject, SERVER_NAME, SERVER_VERSION, UnderlyingRequestError, type Params, type Reply, type RequestCtx } from './core.ts';
import { toolsCall } from './execution.ts';
import { tasksResult } from './result-delivery.ts';
import { RpcError } from './store.ts';
import { tasksCancel, tasksGet, tasksList } from './task-methods.ts';
import { SPEC_REVISION } from '../../schema/spec.ts';

/** The answer to one request: its result (and work to do once it is sent), its error, or none at all. */
export const answer: Dispatcher = async (s, method, params, ctx) => {
  try {
    if (params !== undefined && !isObject(params)) throw new RpcError(ErrorCode.InvalidParams, 'Invalid params: params must be an object');
    return await dispatch(s, method, (params ?? {}) as Params, ctx);
  } catch (e) {
    if (e instanceof RpcError) return { error: s.core.switches.protocolError(method, e.toJSON(), e instanceof UnderlyingRequestError) };
    s.core.logError(`internal error in ${String(method)}: ${e instanceof Error ? e.stack : String(e)}`);
    return { error: { code: ErrorCode.InternalError, message: `Internal error: ${e instanceof Error ? e.message : String(e)}` } };
  }
};

function dispatch(s: SessionPort, method: string, params: Params, ctx: RequestCtx): Promise<Reply> | Reply {
  // support-undeclared-process-normally: `task` on a request type not declared for it is ignored.
  if (s.core.switches.refusesTaskOn(method, params))
    throw new RpcError(ErrorCode.InvalidRequest, `Invalid request: ${method} does not support task augmentation`);
  switch (method) {
    case 'initialize':
      return { result: initialize(s, params) };
    case 'ping':
      return { result: {} };
    case 'logging/setLevel':
      setLogLevel(s, params.level);
      return { result: {} };
    case 'tools/list':
      return { result: toolsList(s) };
    case 'tools/call':
      return toolsCall(s, params, ctx);
  }
  if ((s.core.tasksCapability || s.core.switches.tasksWithoutCapability()) && !s.core.latitude.methodAbsent(method)) {
    const limited = s.core.latitude.pollLimit(ctx.owner, method, params, s.core.pollInterval); // security-rate-limit
    if (limited) throw limited;
    switch (method) {
      case 'tasks/get':
        return tasksGet(s, params, ctx);
      case 'tasks/result':
        return tasksResult(s, params, ctx);
      case 'tasks/list':
        return tasksList(s, params, ctx);
      case 'tasks/cancel':
        return tasksCancel(s, params, ctx);
    }
  }
  throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
}

function initialize(s: SessionPort, params: Params): Record<string, unknown> {
  if (isObject(params.capabilities)) s.clientCapabilities = params.capabilities;
  // logging: the tool "log" sends notifications/message (logging.md: servers that emit them declare it).
  const capabilities: Record<string, unknown> = { tools: {}, logging: {} };
  // caps-declare: the tasks capability, with list, cancel and task-augmented tools/call.
  if (s.core.tasksCapability) capabilities.tasks = s.toolsCallTasks ? { list: {}, cancel: {}, requests: { tools: { call: {} } } } : { list: {}, cancel: {} }; // scenario hook
  if (s.core.tasksCapability) capabilities.tasks = s.core.switches.tasksCapability(s.core.latitude.tasksCapability(capabilities.tasks as Params));
  return {
    protocolVersion: PROTOCOL_VERSION,
    capabilities,
    serverInfo: { name: SERVER_NAME, version: SERVER_VERSION },
    instructions: `Reference receiver for MCP Tasks conformance testing (spec ${SPEC_REVISION}).`,
  };
}

function toolsList(s: SessionPort): Record<string, unknown> {
  return {
    tools: [...s.core.tools.values()].map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.inputSchema,
      ...(t.annotations ? { annotations: t.annotations } : {}),
      // tool-level negotiation: execution.taskSupport (absent on `plain`, and when tasks are not declared).
      ...(t.taskSupport && (s.core.tasksCapability || s.core.scenario?.listTaskSupportAlways) ? { execution: { taskSupport: t.taskSupport } } : {}),
    })),
  };
}
