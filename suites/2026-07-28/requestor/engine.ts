// Requestor checks of revision 2026-07-28: the shape of a check and the scenario sets they judge. Grading
// (one verdict per check over its scenarios, the level mapping, not-exercised reasons) is the 2025 engine's
// (suites/requestor/engine.ts gradeCheck), over this revision's runs (analysis.ts).
import type { CheckMetadata } from '../../engine/check.ts';
import type { ClientFaultName } from '../../../mocks/2026-07-28/client/faults.ts';
import { CLIENT_SCENARIOS } from '../../../mocks/2026-07-28/scenarios.ts';
import type { Revision } from '../../../schema/spec.ts';
import type { JudgeContext } from '../../requestor/engine.ts';
import type { Analysis } from './analysis.ts';

export type { JudgeContext };

/** `id` is `2026-requestor.<what>`, `requirements` are ids of schema/2026-07-28/requirements.json. */
export interface ExtensionRequestorCheckDef extends CheckMetadata {
  /** Faults of the reference extension client that make this check fail (MUST) or warn (SHOULD): exactly these. */
  killedBy: readonly ClientFaultName[];
  revisions: readonly Revision[];
  /** Scenarios (mocks/2026-07-28/scenarios.ts) whose transcripts this check judges. */
  scenarios: readonly string[];
  /** Judges one scenario: return → fine; ctx.violation → fail/warn by level; ctx.skip → not exercised there. */
  judge(run: Analysis, ctx: JudgeContext): string | void;
}

export function defineExtensionRequestorCheck(def: Omit<ExtensionRequestorCheckDef, 'revisions'>): ExtensionRequestorCheckDef {
  return { ...def, revisions: ['2026-07-28'] };
}

/** The scenarios of a modern (2026-07-28) server; a legacy one's requests are 2025-11-25 traffic, judged only by the checks that name it. */
export const ALL = CLIENT_SCENARIOS.filter((s) => !s.legacy).map((s) => s.name);
/** The scenarios of a legacy (2025-11-25) server. */
export const LEGACY = CLIENT_SCENARIOS.filter((s) => s.legacy).map((s) => s.name);
/** Scenarios in which the client is asked to follow every task to its end (not cancel it). */
export const FOLLOW = ALL.filter((s) => s !== 'cancel');
/** Scenarios whose tasks ask for input. */
export const INPUT = ['input', 'input-eventual'];
