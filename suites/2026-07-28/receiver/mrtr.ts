// Multi Round-Trip Requests (core basic-patterns-mrtr.md): "Servers MUST send server-to-client requests (such
// as roots/list, sampling/createMessage, or elicitation/create) using the MRTR pattern" — in an
// InputRequiredResult, or for a task in its inputRequests; this revision defines no request a server sends
// on its own (the schema has no ServerRequest; ping is gone). The check reads every message of the run for a
// request of the target's (a message with a method and an id), after its own occasions: the tool that asks
// before its task, and the tool that asks, called without the extension (answered through MRTR at once).
import type { CheckContext, CheckDef } from '../../engine/check.ts';
import { short } from '../../engine/text.ts';
import { modernCheck } from '../engine/check.ts';
import { callRole, NON_DECLARING } from '../arrange/tasks.ts';
import { runIncoming } from '../arrange/observed.ts';

export const checks: CheckDef[] = [
  modernCheck({
    id: '2026-mrtr.no-server-requests',
    title: 'the server sends no request of its own in the run (input travels in InputRequiredResult / inputRequests)',
    section: 'Multi Round-Trip Requests',
    requirements: ['2026-mrtr-server-requests-only-via-mrtr'],
    level: 'MUST',
    killedBy: ['input-as-server-request'],
    runsLast: true,
    async run(ctx: CheckContext) {
      const own: string[] = [];
      for (const [role, capabilities] of [
        ['needsInputBeforeTask', undefined],
        ['needsInput', NON_DECLARING],
      ] as const) {
        if (!ctx.info.profile.tools[role]) continue;
        const r = await callRole(ctx, role, capabilities ? { capabilities } : {}).catch(() => undefined);
        own.push(`${ctx.tool(role).name}: ${r ? (r.error ? `error ${short(r.error.code)}` : short(r.result?.resultType)) : 'no answer'}`);
      }
      await ctx.othersDone();
      const requests = runIncoming(ctx).filter((i) => 'id' in i.message);
      ctx.expect(
        requests.length === 0,
        `the server sent ${requests.length} request(s) of its own instead of asking through MRTR: ${requests
          .slice(0, 3)
          .map((i) => `${short(i.message.method)} ${short(i.message.params, 120)} (${i.source})`)
          .join('; ')}`,
      );
      return `no server-initiated request in the run${own.length ? ` (own calls: ${own.join('; ')})` : ''}`;
    },
  }),
];
