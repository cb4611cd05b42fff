// Arranging 2026-07-28 tasks for checks whose requirement is not the creation itself: a task made by a
// declaring client, or the check is not exercised (creation has its own checks).
import type { CheckContext } from '../../engine/check.ts';
import type { ModernProfileRole } from '../../engine/profile.ts';
import { Method, ResultType } from '../../../schema/2026-07-28/protocol.ts';
import type { ModernScope } from '../wire/peer.ts';

/** Is this tools/call answer a task (a CreateTaskResult, or a task in the 2025-11-25 nesting)? */
export function answeredWithTask(result: unknown): boolean {
  if (!result || typeof result !== 'object') return false;
  const r = result as Record<string, any>;
  return r.resultType === ResultType.Task || typeof r.taskId === 'string' || typeof r.task?.taskId === 'string';
}

/** Calls the role's tool as a declaring client and returns the new task's id; not exercised when no task comes back. */
export async function createTask(ctx: CheckContext, s: ModernScope, role: ModernProfileRole): Promise<string> {
  const tool = ctx.tool(role);
  const r = await s.request(Method.ToolsCall, { name: tool.name, arguments: tool.arguments ?? {} });
  const id = r.result?.taskId;
  if (r.error || r.result?.resultType !== ResultType.Task || typeof id !== 'string')
    ctx.skip(`the ${role} tool (${tool.name}) did not answer a declaring client with a CreateTaskResult`, {
      cause: `no task from the ${role} tool`,
    });
  ctx.hold({ taskId: id, peer: s.scope ?? ctx.peer, slot: false, cancelAtEnd: true });
  return id;
}

/** A task id no server has issued (for the unknown-task errors). */
export function unknownTaskId(): string {
  return `conformance-unknown-${crypto.randomUUID()}`;
}
