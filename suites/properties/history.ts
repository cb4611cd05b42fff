// The oracle of the races property: do the answers to overlapping requests about one task fit some
// sequential order of a spec-conforming receiver (the model of one task: model.ts)?
import { canTransition, isTaskStatus, isTerminal, RELATED_TASK_META, type TaskStatus } from '../../schema/protocol.ts';
import type { Response } from '../wire/peer.ts';
import { PropertyViolation, reachable, relatedTaskId, short, describeAnswer } from './model.ts';

/** One request of a concurrent history, about one task. Times are from one logical clock (send/receive order). */
export interface Op {
  n: number;
  method: 'tasks/get' | 'tasks/cancel' | 'tasks/result' | 'tasks/list';
  label: string;
  sent: number;
  received?: number;
  /** Local wall-clock ms of the receipt (ttl judgements). */
  receivedAtMs?: number;
  response?: Response;
  /** No answer within the bound given. */
  timedOut?: boolean;
  /** For tasks/list: the task's entry, or null when absent from a complete walk. */
  listEntry?: any;
}

/** What an answered op tells about the task's status at some instant in [sent, received]. */
interface Witness {
  op: Op;
  /** The status it shows, or 'terminal' (some terminal status), or 'non-terminal', or 'gone'. */
  shows: TaskStatus | 'terminal' | 'non-terminal' | 'gone';
  requirements: string[];
  what: string;
}

/**
 * Linearizability-lite: checks that the answers to overlapping requests about one task fit some
 * sequential order of a spec-conforming receiver. "a precedes b" = a's answer arrived before b was sent.
 *  - after a terminal observation, every later one shows the same status (lifecycle-terminal-sticky, -valid-paths);
 *  - a tasks/cancel answered "cancelled": its answer shows "cancelled" (cancel-transition-before-response)
 *    and every later observation is cancelled or gone (cancel-sticky);
 *  - a tasks/cancel rejected -32602: every later observation is terminal or gone (cancel-terminal-32602);
 *  - a tasks/result answer: no observation sent after it shows the task non-terminal, and no cancel
 *    sent after it succeeds (result-blocks-nonterminal); all answers of tasks/result are equal
 *    (result-terminal-returns-final) and carry related-task `_meta` (related-task-result-must);
 *  - a -32602 for the task is allowed only once it may be deleted (cancelled, or its ttl elapsed).
 */
export function checkHistory(task: { taskId: string; label: string; createdSentAtMs: number; ttl: number | null | undefined }, ops: Op[], slackMs = 10): void {
  const answered = ops.filter((o) => o.response !== undefined && o.received !== undefined);
  let cancelSucceededAt: number | undefined; // logical receive time of a successful cancel
  const mayBeGone = (o: Op) => {
    if (cancelSucceededAt !== undefined && cancelSucceededAt < o.sent) return true;
    if (task.ttl === undefined) return true;
    if (task.ttl === null) return false;
    return (o.receivedAtMs ?? 0) + slackMs >= task.createdSentAtMs + task.ttl;
  };
  // A cancel that succeeded makes deletion legal for anything sent after its answer; any cancel that
  // succeeded at all makes a concurrent -32602 legal too (the deletion may follow the cancel at once).
  const anyCancelSucceeded = answered.some((o) => o.method === 'tasks/cancel' && !o.response!.error && o.response!.result?.status === 'cancelled');
  const witnesses: Witness[] = [];
  const results: Op[] = [];
  for (const o of answered) {
    const r = o.response!;
    if (o.method === 'tasks/list') {
      if (o.listEntry) witnesses.push({ op: o, shows: o.listEntry.status, requirements: [], what: `${o.label} listed it "${o.listEntry.status}"` });
      continue;
    }
    if (r.error) {
      if (r.error.code === -32602 && o.method !== 'tasks/result') {
        if (o.method === 'tasks/cancel') {
          witnesses.push({
            op: o,
            shows: 'terminal',
            requirements: ['cancel-terminal-32602'],
            what: `${o.label} was rejected with -32602 (the answer for a terminal task)`,
          });
          continue;
        }
        if (!mayBeGone(o) && !anyCancelSucceeded) {
          throw new PropertyViolation(
            ['ttl-delete-after-expiry-may', 'ttl-actual-in-get'],
            `${o.label} for task ${task.label} answered -32602 "${short(r.error.message, 80)}" before its ttl of ${task.ttl} ms elapsed and without a successful cancel`,
          );
        }
        witnesses.push({ op: o, shows: 'gone', requirements: [], what: `${o.label} answered -32602 (deleted)` });
        continue;
      }
      if (o.method === 'tasks/result') {
        results.push(o);
        continue;
      }
      throw new PropertyViolation(
        o.method === 'tasks/cancel' ? ['cancel-transition-before-response'] : ['ttl-actual-in-get'],
        `${o.label} for task ${task.label} answered ${describeAnswer(r)}`,
      );
    }
    if (o.method === 'tasks/result') {
      results.push(o);
      continue;
    }
    const res = r.result;
    if (!res || res.taskId !== task.taskId)
      throw new PropertyViolation(['related-task-taskid-source-of-truth'], `${o.label} for ${short(task.taskId)} answered ${short(res)}`);
    if (!isTaskStatus(res.status)) throw new PropertyViolation(['lifecycle-valid-paths'], `${o.label} shows status ${short(res.status)}, not a task status`);
    if (o.method === 'tasks/cancel') {
      if (res.status !== 'cancelled') {
        throw new PropertyViolation(
          isTerminal(res.status) ? ['cancel-terminal-32602'] : ['cancel-transition-before-response'],
          isTerminal(res.status)
            ? `${o.label} succeeded with the task "${res.status}": a terminal task's cancel must be rejected with -32602`
            : `${o.label} answered with the task still "${res.status}": it must be cancelled before the response`,
        );
      }
      if (cancelSucceededAt === undefined || o.received! < cancelSucceededAt) cancelSucceededAt = o.received!;
      witnesses.push({ op: o, shows: 'cancelled', requirements: ['cancel-sticky'], what: `${o.label} answered "cancelled"` });
    } else {
      witnesses.push({ op: o, shows: res.status, requirements: [], what: `${o.label} showed "${res.status}"` });
    }
  }

  // tasks/result answers: related-task meta; each shows the task terminal when it answered.
  const finals: { op: Op; key: string }[] = [];
  for (const o of results) {
    const r = o.response!;
    if (r.error?.code === -32602 && (mayBeGone(o) || anyCancelSucceeded)) continue; // "not found" after a permitted deletion
    if (!r.error && relatedTaskId(r.result) !== task.taskId) {
      throw new PropertyViolation(
        ['related-task-result-must'],
        `${o.label} answered without _meta["${RELATED_TASK_META}"].taskId = ${short(task.taskId)}: ${short(r.result)}`,
      );
    }
    finals.push({ op: o, key: JSON.stringify(r.error ? { error: r.error } : { result: r.result }) });
    witnesses.push({
      op: o,
      shows: 'terminal',
      requirements: ['result-blocks-nonterminal'],
      what: `${o.label} answered (so the task was terminal when it answered)`,
    });
  }

  // Pairwise real-time order: a (answered) precedes b (sent after a's answer).
  for (const a of witnesses) {
    for (const b of witnesses) {
      if (a === b || !(a.op.received! < b.op.sent)) continue;
      const bad = violates(a.shows, b.shows);
      if (bad) {
        const sticky = isTaskStatus(a.shows) && isTerminal(a.shows) ? ['lifecycle-terminal-sticky', 'lifecycle-valid-paths'] : [];
        const reqs = [...a.requirements, ...sticky];
        throw new PropertyViolation(reqs.length ? reqs : ['lifecycle-valid-paths'], `${a.what}; after that answer arrived, ${b.what}. ${bad}`);
      }
    }
  }
  // A non-terminal witness sent after a tasks/result answered: the result answered too early.
  // (Covered above, since a result witness shows 'terminal'.) A cancel that succeeded proves the task
  // non-terminal at some instant after it was sent: a tasks/result answered before that send was early.
  for (const c of witnesses.filter((w) => w.op.method === 'tasks/cancel' && w.shows === 'cancelled')) {
    for (const r of witnesses.filter((w) => w.op.method === 'tasks/result')) {
      if (r.op.received! < c.op.sent) {
        throw new PropertyViolation(
          ['result-blocks-nonterminal'],
          `${r.what} before ${c.op.label} was even sent, yet that cancel succeeded — so the task was not terminal when tasks/result answered: it must block until the task is terminal`,
        );
      }
    }
  }
  // One final result: every answer of tasks/result is the same.
  for (const f of finals.slice(1)) {
    if (f.key !== finals[0]!.key) {
      throw new PropertyViolation(
        ['result-terminal-returns-final', 'result-blocks-nonterminal', 'result-exact'],
        `${finals[0]!.op.label} answered ${short(JSON.parse(finals[0]!.key), 200)} but ${f.op.label} answered ${short(JSON.parse(f.key), 200)}: a task has one final result, ` +
          `so one of the answers came before the task was terminal (tasks/result must block until then) or the final result changed`,
      );
    }
  }
}

/** Why `later` cannot follow `earlier` (null when it can). */
function violates(earlier: Witness['shows'], later: Witness['shows']): string | null {
  if (later === 'gone' || earlier === 'gone') return null;
  const laterNonTerminal = later === 'non-terminal' || (isTaskStatus(later) && !isTerminal(later));
  if (earlier === 'terminal') return laterNonTerminal ? `A terminal task cannot become "${later}".` : null;
  if (earlier === 'non-terminal') return null;
  if (isTerminal(earlier)) {
    if (later === 'terminal') return null;
    if (later === 'non-terminal' || !canTransition(earlier, later as TaskStatus)) return `"${earlier}" is terminal: it cannot become "${later}".`;
    return null;
  }
  if (later === 'terminal' || later === 'non-terminal') return null;
  return canTransition(earlier, later) || reachable(earlier).has(later) ? null : `"${earlier}" cannot become "${later}".`;
}
