// Requestor checks: listing (Requestor: Task Listing). Scenario sets and helpers they share: common.ts.
import { at, short, type Analysis } from '../analysis.ts';
import { defineRequestorCheck, type JudgeContext, type RequestorCheckDef } from '../engine.ts';
import { ALL, SERVER_ALL, calls } from './common.ts';

const SEC_LIST = 'Requestor: Task Listing';

export const checks: RequestorCheckDef[] = [
  defineRequestorCheck({
    id: 'requestor.cursor-opaque',
    title: 'tasks/list cursors are sent back exactly as received',
    section: SEC_LIST,
    requirements: ['list-cursor-opaque'],
    level: 'MUST',
    killedBy: ['modify-cursor'],
    scenarios: [...ALL, ...SERVER_ALL],
    judge(run: Analysis, ctx: JudgeContext) {
      let listed = 0;
      let sent = 0;
      let lastPageReached = false;
      const bad: string[] = [];
      for (const s of run.sessions) {
        const lists = calls(s, 'tasks/list');
        listed += lists.length;
        const received: { cursor: unknown; ms: number }[] = [];
        for (const x of lists) {
          if (x.result && x.answeredMs !== undefined) {
            if (x.result.nextCursor !== undefined && x.result.nextCursor !== null) received.push({ cursor: x.result.nextCursor, ms: x.answeredMs });
            else lastPageReached = true;
          }
        }
        for (const x of lists) {
          if (!x.params || !('cursor' in x.params)) continue;
          sent++;
          const known = received.filter((r) => r.ms <= x.sentMs).map((r) => r.cursor);
          if (!known.some((c) => c === x.params.cursor)) {
            bad.push(
              `tasks/list at ${at(x.sentMs)} sent cursor ${short(x.params.cursor)}, which the receiver never returned (returned so far: ${known.map((c) => short(c, 60)).join(', ') || 'none'})`,
            );
          }
        }
      }
      if (listed === 0) ctx.skip('the requestor sent no tasks/list');
      if (sent === 0) ctx.skip(`the requestor sent ${listed} tasks/list without a cursor (it did not follow nextCursor)`);
      ctx.expect(bad.length === 0, bad.join('; '));
      return `${sent} cursor(s) sent back unchanged over ${listed} tasks/list request(s)${lastPageReached ? ', last page reached' : ''}`;
    },
  }),
];
