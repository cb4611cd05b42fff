// The transition table (schema/protocol.ts) is pinned to the spec's own text: the valid paths listed and
// the state diagram of "Task Status Lifecycle" in the vendored tasks.md. The reference receiver, the
// checks and the property model all share the table, so a wrong row would pass everywhere but here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INITIAL_STATUS, TASK_STATUSES, TERMINAL_STATUSES, TRANSITIONS } from './protocol.ts';
import { VENDORED_SPEC_DIR } from './spec.ts';
import { readStateDiagram } from './test-helpers.ts';

const page = readFileSync(join(VENDORED_SPEC_DIR, 'tasks.md'), 'utf8');
const start = page.indexOf('### Task Status Lifecycle');
const section = page.slice(start, page.indexOf('\n### ', start + 1));
const names = (s: string) => [...s.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!);
const sorted = (xs: readonly string[]) => [...xs].sort();

describe('TRANSITIONS follows tasks.md "Task Status Lifecycle"', () => {
  it('the section is where we read it', () => {
    expect(start).toBeGreaterThan(0);
    expect(section).toMatch(/valid paths/);
  });

  it('equals the valid paths listed in the text', () => {
    const fromText: Partial<Record<string, string[]>> = {};
    for (const m of section.matchAll(/From `([a-z_]+)`: may move to ([^\n]+)/g)) fromText[m[1]!] = sorted(names(m[2]!));
    const terminal = /Tasks with a ([^\n]+?) status are in a terminal state and \*\*MUST NOT\*\* transition/.exec(section);
    expect(terminal).not.toBeNull();
    for (const s of names(terminal![1]!)) fromText[s] = [];
    expect(sorted(Object.keys(fromText))).toEqual(sorted(TASK_STATUSES));
    expect(Object.fromEntries(TASK_STATUSES.map((s) => [s, sorted(TRANSITIONS[s])]))).toEqual(fromText);
    expect(sorted(TERMINAL_STATUSES)).toEqual(sorted(names(terminal![1]!)));
    expect(section).toContain(`begin in the \`${INITIAL_STATUS}\` status`);
  });

  it('equals the state diagram ("terminal" expanded to the statuses its note lists)', () => {
    const diagram = /```mermaid\n([\s\S]*?)```/.exec(section)![1]!;
    const { terminal, initial, edges } = readStateDiagram(diagram, '•');
    expect(sorted(terminal)).toEqual(sorted(TERMINAL_STATUSES));
    expect(initial).toBe(INITIAL_STATUS);
    expect(Object.fromEntries(TASK_STATUSES.map((s) => [s, sorted(TRANSITIONS[s])]))).toEqual(edges);
  });
});
