// What the tests of the revisions' constants share: reading the task status state diagram of a vendored page.

/**
 * A `stateDiagram-v2` of task statuses (the mermaid block `diagram`): the statuses the note on `terminal` lists
 * (one a line, after `bullet`), the status `[*]` leads to, and the edges (`from --> to`, sorted targets by source)
 * with `terminal` expanded to those statuses; every terminal status is a source, with no edges unless drawn.
 */
export function readStateDiagram(
  diagram: string,
  bullet: string,
): { terminal: string[]; initial: string | undefined; edges: Partial<Record<string, string[]>> } {
  const note = /note right of terminal([\s\S]*?)end note/.exec(diagram)![1]!;
  const terminal = [...note.matchAll(new RegExp(`${bullet}\\s*([a-z_]+)`, 'g'))].map((m) => m[1]!);
  const expand = (s: string): string[] => (s === 'terminal' ? terminal : [s]);
  const edges: Partial<Record<string, string[]>> = Object.fromEntries(terminal.map((s) => [s, []]));
  let initial: string | undefined;
  for (const m of diagram.matchAll(/^\s*(\S+) --> (\S+)\s*$/gm)) {
    const [from, to] = [m[1]!, m[2]!];
    if (from === '[*]') initial = to;
    else if (to !== '[*]') for (const f of expand(from)) edges[f] = [...(edges[f] ?? []), ...expand(to)].sort();
  }
  return { terminal, initial, edges };
}
