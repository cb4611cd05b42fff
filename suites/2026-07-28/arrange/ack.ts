// Judging an acknowledgement of tasks/update or tasks/cancel (RULINGS.md#ext-empty-ack), shared by the checks of both.
import type { CheckContext } from '../../engine/check.ts';
import { isObj, short } from '../../engine/text.ts';
import { Field, ResultType } from '../../../schema/2026-07-28/protocol.ts';
import { extraMembers } from './tasks.ts';

/** Members an empty acknowledgement may have (RULINGS.md#ext-empty-ack). */
export const ACK_MEMBERS = [Field.resultType, '_meta'] as const;
/** Judges an acknowledgement: nothing but resultType and _meta (RULINGS.md#ext-empty-ack). */
export function judgeAck(ctx: CheckContext, what: string, result: unknown): void {
  const extra = extraMembers(result, ACK_MEMBERS);
  ctx.expect(extra.length === 0, `the ${what} acknowledgement carries ${extra.join(', ')} besides resultType and _meta (got ${short(result, 300)})`);
}
/** Judges an acknowledgement's resultType: "complete". */
export function judgeAckResultType(ctx: CheckContext, what: string, result: unknown): string {
  const type = isObj(result) ? result[Field.resultType] : undefined;
  ctx.expect(type === ResultType.Complete, `the ${what} acknowledgement carries resultType ${short(type)}, not "complete"`);
  return 'resultType "complete"';
}
