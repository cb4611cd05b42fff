// The task state machine of a revision, built from its one transition table (each revision states its
// table once, in its protocol module, pinned by a test to its own page). The logic is the same in every
// revision; only the table differs.

export interface IllegalStep<S extends string> {
  from: S;
  to: S;
  index: number;
}

export interface TaskStateMachine<S extends string> {
  readonly statuses: readonly S[];
  /** Statuses a task may never leave: those with no outgoing transition. */
  readonly terminal: readonly S[];
  readonly initial: S;
  readonly transitions: Readonly<Record<S, readonly S[]>>;
  isStatus(s: unknown): s is S;
  isTerminal(s: S): boolean;
  /** True when `from → to` is allowed; staying in the same status is not a transition and is always allowed. */
  canTransition(from: S, to: S): boolean;
  /** Checks an observed sequence of statuses (in order seen); returns the first illegal step or null. */
  firstIllegalStep(seen: readonly S[]): IllegalStep<S> | null;
}

export function taskStateMachine<S extends string>(transitions: Readonly<Record<S, readonly S[]>>, initial: S): TaskStateMachine<S> {
  const statuses = Object.keys(transitions) as S[];
  const terminal = statuses.filter((s) => transitions[s].length === 0);
  const canTransition = (from: S, to: S) => from === to || transitions[from].includes(to);
  return {
    statuses,
    terminal,
    initial,
    transitions,
    isStatus: (s: unknown): s is S => typeof s === 'string' && (statuses as readonly string[]).includes(s),
    isTerminal: (s: S) => terminal.includes(s),
    canTransition,
    firstIllegalStep(seen) {
      for (let i = 1; i < seen.length; i++) {
        const from = seen[i - 1]!;
        const to = seen[i]!;
        if (!canTransition(from, to)) return { from, to, index: i };
      }
      return null;
    },
  };
}
