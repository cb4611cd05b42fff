// Checks of revision 2026-07-28 (the Tasks extension io.modelcontextprotocol/tasks). How to write one:
//
// 1. A file per section, suites/2026-07-28/receiver/<section>.ts, exporting `checks: CheckDef[]`, spread into
//    `receiverChecks` in suites/index.ts. `checksFor('2026-07-28')` (what a run of that revision runs) then finds it.
// 2. Each check is `modernCheck({ … })` — the check object of suites/engine/check.ts, with:
//    - `id` `2026-<section>.<what>` (the catalog's `2026-` prefix), `section` as the page names it (the
//      revision is added to it: "Negotiation (2026-07-28)"), `revisions` set to ['2026-07-28'];
//    - `requirements`: ids of schema/2026-07-28/requirements.json (`2026-…`), `level` the strongest of them;
//    - `killedBy`: faults of the reference extension server (mocks/2026-07-28/faults.ts) that make it fail —
//      exactly those (the kill matrix holds it to the list); a MUST check has at least one;
//    - `needs`: roles of MODERN_PROFILE_ROLES (suites/engine/profile.ts), e.g. 'taskOnly', 'completes'.
// 3. In `run(ctx: CheckContext)` (annotated: ctx.expect is an assertion): `const s = wire(ctx)` is the check's view of the shared connection (a ModernScope,
//    suites/2026-07-28/wire/peer.ts); `await openWire(ctx, { capabilities })` a connection of its own.
//    `s.request(method, params, { capabilities, meta, headers, raw, timeoutMs })` sends with the request's own
//    `_meta` (default capabilities: CLIENT_CAPABILITIES.declaring; `.nonDeclaring` and `.legacyTasksOnly` are
//    there too) and, over HTTP, the standard headers (override or leave out one with `headers`); the
//    response carries `httpStatus`. `s.listen({ taskIds })` opens a subscriptions/listen stream. The probe's
//    server/discover answer is `ctx.info.discoverResult`; `declaresExtension(ctx.info)` says whether it
//    advertises the extension (use `extensionNotAdvertised` as `notApplicable` for the extension's own methods).
// 4. Verdicts as in 2025-11-25: ctx.expect / violation / skip (a failed precondition is not exercised) /
//    note. An HTTP answer that holds no JSON-RPC response rejects with HttpNoAnswerError (status and body in
//    its message): catch it where the requirement is about that answer, else the engine judges it.
// 5. Names from schema/2026-07-28/protocol.ts (Method, ErrorCode, ResultType, Meta, Header, Field), never literals.
// 6. `npm run docs:coverage` regenerates docs/COVERAGE.md (its 2026-07-28 section and kill matrix list the check;
//    scripts/docs-coverage.test.ts fails while the file is stale).
import type { CheckContext, CheckDef, TargetInfo } from '../../engine/check.ts';
import type { ModernProfileRole } from '../../engine/profile.ts';
import { REVISION, TASKS_EXTENSION } from '../../../schema/2026-07-28/protocol.ts';
import { modern, type ModernScope } from '../wire/peer.ts';
import { short } from '../../engine/text.ts';

/** The check object with the roles of this revision (`revisions` is set by modernCheck). */
export interface ModernCheckDef extends CheckDef {
  needs?: ModernProfileRole[];
}

/** A check of revision 2026-07-28 (see the recipe above). */
export function modernCheck(def: ModernCheckDef): CheckDef {
  if (!def.id.startsWith('2026-')) throw new Error(`${def.id}: a 2026-07-28 check id begins with "2026-"`);
  return { ...def, section: `${def.section} (${REVISION})`, revisions: [REVISION] };
}

/** The check's view of the shared 2026-07-28 connection. */
export function wire(ctx: CheckContext): ModernScope {
  return modern(ctx.peer);
}

/** A 2026-07-28 connection of the check's own (closed when the check ends; its messages join the evidence). */
export async function openWire(ctx: CheckContext, opts?: { identity?: 'primary' | 'secondary'; capabilities?: Record<string, unknown> }): Promise<ModernScope> {
  return modern(await ctx.openSession(opts));
}

/** The server/discover answer advertises the Tasks extension (`capabilities.extensions["io.modelcontextprotocol/tasks"]` is an object). */
export function declaresExtension(info: TargetInfo): boolean {
  const ext = info.discoverResult?.capabilities?.extensions?.[TASKS_EXTENSION];
  return typeof ext === 'object' && ext !== null && !Array.isArray(ext);
}

/** `notApplicable` of checks of the extension's own behaviour: a server that does not advertise it is judged by the core checks only. */
export function extensionNotAdvertised(info: TargetInfo): string | undefined {
  return declaresExtension(info) ? undefined : `the target's server/discover does not advertise ${TASKS_EXTENSION}`;
}

/** A value as a short line of evidence (undefined and cyclic values too). */
export function brief(v: unknown, max = 300): string {
  return short(v, max);
}
