// Writes action.yml's `inputs:` from the same table as the CLI's --help (scripts/action.ts actionInputs):
// `npx tsx scripts/sync-action.ts`. scripts/action.test.ts fails while action.yml differs from it.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { actionInputs } from './action.ts';

/** A YAML string as prettier writes it: single-quoted unless that needs more escapes than double quotes. */
function quoted(text: string): string {
  const singles = (text.match(/'/g) ?? []).length;
  const doubles = (text.match(/"/g) ?? []).length;
  return singles > doubles ? JSON.stringify(text) : `'${text.replace(/'/g, "''")}'`;
}

/** The `inputs:` block of action.yml (one input per entry). */
export function inputsYaml(): string {
  const lines = ['inputs:'];
  for (const [name, input] of Object.entries(actionInputs())) {
    lines.push(`  ${name}:`, `    description: ${quoted(input.description)}`);
    lines.push(`    required: ${input.required === true}`);
    if (input.default !== undefined) lines.push(`    default: ${quoted(input.default)}`);
  }
  return lines.join('\n') + '\n';
}

/** action.yml with its inputs block replaced by inputsYaml(). */
export function syncedAction(yaml: string): string {
  return yaml.replace(/^inputs:\n(?:(?: {2}.*)?\n)*?(?=\S)/m, inputsYaml() + '\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const path = fileURLToPath(new URL('../action.yml', import.meta.url));
  writeFileSync(path, syncedAction(readFileSync(path, 'utf8')));
}
