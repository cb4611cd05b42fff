// Checks for tasks/list (tasks.md "Listing Tasks", Behavior Requirements > "Task Listing", Error
// Handling > Protocol Errors: invalid cursor); requirement ids from schema/requirements.json.
// Every check lists on a connection of its own (ctx.openSession()), so that on a receiver that binds
// tasks to sessions the list holds only the check's tasks; other tasks showing up are tolerated.
import { defineCheck, type CheckContext, type CheckDef } from '../engine/check.ts';
import { expectError } from '../arrange/tasks.ts';
import { createTask, reachTerminal } from '../arrange/arrange.ts';
import { getTask } from '../arrange/poll.ts';
import { short } from '../engine/text.ts';
import { isIso8601DateTime } from '../../schema/validate.ts';
import type { Response, Scope } from '../wire/peer.ts';

const SECTION = 'Task Listing';

/** Tasks created for the pagination checks: more than one page of a typical receiver (the SDK's store pages by 10). */
const MANY = 12;
/**
 * How many tasks list.paginate creates before it reports what one response carried. The page names no page size
 * (tasks.md:489): a receiver paginating at 100 or 1000 paginates too, so no count is a verdict.
 */
const PAGE_LIMIT = 50;

/** Creates `n` tasks of the completes role on `s`, a few at a time; returns their ids in creation order. */
async function createMany(ctx: CheckContext, s: Scope, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i += 4) {
    const batch = await Promise.all(Array.from({ length: Math.min(4, n - i) }, () => createTask(ctx, 'completes', { peer: s })));
    ids.push(...batch.map((c) => c.taskId));
  }
  return ids;
}

interface Walk {
  pages: { tasks: any[]; nextCursor?: unknown; response: Response }[];
  ids: string[];
}

/** Follows nextCursor to the end (bounded); a tasks/list error or a repeated cursor is a violation. */
async function walk(ctx: CheckContext, s: Scope, maxPages = 200): Promise<Walk> {
  const pages: Walk['pages'] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let i = 0; i < maxPages; i++) {
    const r = await s.request('tasks/list', cursor === undefined ? {} : { cursor });
    if (r.error)
      ctx.violation(
        `tasks/list ${cursor === undefined ? '(first page)' : `with cursor ${JSON.stringify(cursor)} it issued`} answered error ${r.error.code} ${r.error.message}`,
      );
    if (!Array.isArray(r.result?.tasks)) ctx.violation(`tasks/list result has no tasks array (got ${short(r.result)})`);
    const next = r.result.nextCursor;
    pages.push({ tasks: r.result.tasks, nextCursor: next, response: r });
    if (next === undefined || next === null) break;
    if (typeof next !== 'string') ctx.violation(`tasks/list nextCursor is ${typeof next}, not a string`);
    if (seen.has(next)) ctx.violation(`tasks/list returned cursor ${JSON.stringify(next)} twice (pagination loops)`);
    seen.add(next);
    cursor = next;
    if (i === maxPages - 1) ctx.violation(`tasks/list did not end within ${maxPages} pages`);
  }
  return { pages, ids: pages.flatMap((p) => p.tasks.map((t) => t?.taskId)) };
}

/** Of `ids`, those missing from the walk that tasks/get still finds (deleted ones are not held against the list). */
async function missingButGettable(ctx: CheckContext, s: Scope, ids: string[], listed: string[]): Promise<{ missing: string[]; gone: string[] }> {
  const set = new Set(listed);
  const missing: string[] = [];
  const gone: string[] = [];
  for (const id of ids.filter((x) => !set.has(x))) {
    const g = await getTask(ctx, id, s);
    (g.error ? gone : missing).push(id);
  }
  return { missing, gone };
}

function pageSizes(w: Walk): string {
  return w.pages.map((p) => p.tasks.length).join(' + ');
}

/** Replaces the middle character with one of another class, making a cursor the receiver never issued. */
/** A cursor no receiver issues. */
const NEVER_ISSUED = 'conformance-garbage-cursor';

function tamper(cursor: string): string {
  const i = Math.floor(cursor.length / 2);
  const ch = cursor[i] ?? '';
  const repl = /[0-9]/.test(ch) ? 'Z' : /[A-Za-z]/.test(ch) ? '7' : 'q';
  return cursor.slice(0, i) + repl + cursor.slice(i + 1);
}

export const checks: CheckDef[] = [
  defineCheck({
    id: 'list.get-implies-list',
    title: 'every task retrievable via tasks/get (terminal or working) appears in tasks/list',
    section: SECTION,
    requirements: ['list-get-implies-list'],
    level: 'MUST',
    killedBy: ['list-omits-task'],
    clientReceiver: true,
    needs: ['completes'],
    needsCapabilities: ['tasks.list'],
    opensConnections: 1,
    async run(ctx: CheckContext) {
      const s = await ctx.openSession();
      const a = await createTask(ctx, 'completes', { peer: s });
      await reachTerminal(ctx, a.taskId, { peer: s, initial: a.task });
      const b = await createTask(ctx, 'completes', { peer: s }); // most likely still working when listed
      const w = await walk(ctx, s);
      const { missing, gone } = await missingButGettable(ctx, s, [a.taskId, b.taskId], w.ids);
      if (gone.length) ctx.note(`deleted meanwhile (not judged): ${gone.join(', ')}`);
      ctx.expect(
        missing.length === 0,
        `task(s) ${missing.join(', ')} answer tasks/get but are not in tasks/list (${w.pages.length} page(s) of ${pageSizes(w)} tasks, ${w.ids.length} listed)`,
      );
    },
  }),
  defineCheck({
    id: 'list.next-cursor',
    title: "a tasks/list page has a nextCursor whenever more of the requestor's tasks remain",
    section: SECTION,
    requirements: ['list-next-cursor'],
    level: 'MUST',
    killedBy: ['no-next-cursor'],
    clientReceiver: true,
    needs: ['completes'],
    needsCapabilities: ['tasks.list'],
    opensConnections: 1,
    async run(ctx: CheckContext) {
      const s = await ctx.openSession();
      const ids = await createMany(ctx, s, MANY);
      const w = await walk(ctx, s);
      const { missing, gone } = await missingButGettable(ctx, s, ids, w.ids);
      const dup = w.ids.filter((id, i) => w.ids.indexOf(id) !== i);
      if (dup.length) ctx.note(`listed more than once: ${[...new Set(dup)].join(', ')}`);
      if (gone.length) ctx.note(`deleted meanwhile (not judged): ${gone.length}`);
      ctx.note(`${w.pages.length} page(s): ${pageSizes(w)} tasks`);
      if (missing.length === 0) return;
      // The walk ended (no nextCursor) while tasks the requestor can fetch were on no page: more tasks were
      // available, so the last page needed a nextCursor (catalog note of list-next-cursor), whatever its size.
      const last = w.pages[w.pages.length - 1]!;
      ctx.violation(
        `page ${w.pages.length} (${last.tasks.length} tasks) has no nextCursor, yet ${missing.length} of the ${MANY} tasks just created answer tasks/get and were on no page: ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''}`,
      );
    },
  }),
  defineCheck({
    id: 'list.paginate',
    title: `tasks/list limits how many tasks one response carries (reported: with more than ${PAGE_LIMIT} tasks, the first page's size and nextCursor)`,
    section: SECTION,
    requirements: ['list-paginate'],
    level: 'MAY',
    weakerLevel:
      'the page names no page size (tasks.md:489): a receiver whose pages hold more tasks than any count the suite could create still paginates, so the check reports what one response carried and never warns',
    killedBy: [],
    clientReceiver: true,
    needs: ['completes'],
    needsCapabilities: ['tasks.list'],
    timeoutMs: 45_000,
    loadsTarget: true, // creates many tasks: runs last, on its own connection
    opensConnections: 1,
    async run(ctx: CheckContext) {
      const s = await ctx.openSession();
      let created = (await createMany(ctx, s, MANY)).length;
      const first = async () => {
        const r = await s.request('tasks/list', {});
        if (r.error) ctx.skip(`tasks/list answered error ${r.error.code} ${r.error.message}`);
        if (!Array.isArray(r.result?.tasks)) ctx.skip(`tasks/list result has no tasks array (${short(r.result)})`);
        return r.result;
      };
      let page = await first();
      if (page.nextCursor !== undefined && page.nextCursor !== null)
        return `paginates: first page ${page.tasks.length} tasks with a nextCursor (${created} created)`;
      if (page.tasks.length < created)
        return `first page ${page.tasks.length} of ${created} tasks, no nextCursor (missing tasks are judged by list.next-cursor)`;
      // One page held everything: add tasks until more than PAGE_LIMIT exist, then look again.
      created += (await createMany(ctx, s, PAGE_LIMIT + 1 - created)).length;
      page = await first();
      const paged = page.nextCursor !== undefined && page.nextCursor !== null;
      if (!paged)
        ctx.note(
          `with ${created} tasks, tasks/list returned all ${page.tasks.length} in one response without a nextCursor (its pages may be larger: the page names no size)`,
        );
      return `first page ${page.tasks.length} tasks${paged ? ' with a nextCursor' : ''} (${created} created)`;
    },
  }),
  defineCheck({
    id: 'list.invalid-cursor',
    title: 'tasks/list with a cursor the receiver never issued → -32602',
    section: SECTION,
    requirements: ['errors-invalid-cursor-32602'],
    level: 'MUST',
    killedBy: ['bad-cursor-ignored'],
    clientReceiver: true,
    needsCapabilities: ['tasks.list'],
    async run(ctx: CheckContext) {
      for (const cursor of [NEVER_ISSUED, '%%%not a cursor%%%']) {
        const r = await ctx.peer.request('tasks/list', { cursor });
        expectError(ctx, r, -32602, `tasks/list with cursor ${JSON.stringify(cursor)}`);
      }
    },
  }),
  defineCheck({
    id: 'list.tampered-cursor',
    title: 'tasks/list with a modified copy of a real cursor → -32602',
    section: SECTION,
    requirements: ['errors-invalid-cursor-32602'],
    level: 'MUST',
    killedBy: ['bad-cursor-ignored'],
    clientReceiver: true,
    needs: ['completes'],
    needsCapabilities: ['tasks.list'],
    opensConnections: 1,
    async run(ctx: CheckContext) {
      const s = await ctx.openSession();
      await createMany(ctx, s, MANY);
      const r = await s.request('tasks/list', {});
      if (r.error) ctx.skip(`tasks/list answered error ${r.error.code} ${r.error.message}`);
      const cursor = r.result?.nextCursor;
      if (typeof cursor !== 'string' || cursor.length === 0)
        ctx.skip(`tasks/list issued no cursor with ${MANY} tasks (${r.result?.tasks?.length} on the first page)`);
      const ok = await s.request('tasks/list', { cursor });
      if (ok.error) ctx.skip(`the untouched cursor answered error ${ok.error.code} ${ok.error.message}, so a modified one says nothing`);
      // RULINGS.md#lenient-cursor: a page for a modified cursor is a lenient decode when the receiver does check
      // cursors (one it never issued is -32602); when it answers that with a page too, cursors are ignored.
      let validates: boolean | undefined;
      const lenient: string[] = [];
      for (const bad of [tamper(cursor), `${cursor}tampered`]) {
        const t = await s.request('tasks/list', { cursor: bad });
        const what = `tasks/list with the issued cursor ${JSON.stringify(cursor)} modified to ${JSON.stringify(bad)}`;
        if (!t.error && Array.isArray(t.result?.tasks)) {
          validates ??= (await s.request('tasks/list', { cursor: NEVER_ISSUED })).error?.code === -32602;
          if (validates) {
            lenient.push(`${JSON.stringify(bad)} → a page of ${t.result.tasks.length}`);
            continue;
          }
        }
        expectError(ctx, t, -32602, what);
      }
      if (lenient.length) ctx.note(`modified cursors decoded leniently to a position (RULINGS.md#lenient-cursor): ${lenient.join('; ')}`);
    },
  }),
  defineCheck({
    id: 'list.entries-are-tasks',
    title: 'each tasks/list entry is a Task with taskId, createdAt and lastUpdatedAt (ISO 8601)',
    section: SECTION,
    requirements: ['ttl-created-at', 'ttl-last-updated-at'],
    level: 'MUST',
    killedBy: ['missing-created-at', 'bad-timestamp'],
    clientReceiver: true,
    needs: ['completes'],
    needsCapabilities: ['tasks.list'],
    opensConnections: 1,
    async run(ctx: CheckContext) {
      const s = await ctx.openSession();
      const c = await createTask(ctx, 'completes', { peer: s });
      await reachTerminal(ctx, c.taskId, { peer: s, initial: c.task });
      await createTask(ctx, 'completes', { peer: s });
      const w = await walk(ctx, s);
      let n = 0;
      for (const t of w.pages.flatMap((p) => p.tasks)) {
        const id = short(t?.taskId);
        ctx.expect(t && typeof t === 'object' && typeof t.taskId === 'string', `tasks/list entry is not a Task with a string taskId: ${short(t)}`);
        ctx.expect(
          typeof t.createdAt === 'string' && isIso8601DateTime(t.createdAt),
          `tasks/list entry ${id}: createdAt ${short(t.createdAt)} is not an ISO 8601 timestamp`,
        );
        ctx.expect(
          typeof t.lastUpdatedAt === 'string' && isIso8601DateTime(t.lastUpdatedAt),
          `tasks/list entry ${id}: lastUpdatedAt ${short(t.lastUpdatedAt)} is not an ISO 8601 timestamp`,
        );
        n++;
      }
      if (n === 0) ctx.skip('tasks/list listed none of the tasks just created (judged by list.get-implies-list)');
      return `${n} entries`;
    },
  }),
];
