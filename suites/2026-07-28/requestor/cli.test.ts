// `client --revision 2026-07-28` end to end: the CLI runs the reference extension client (a process) through
// the scenarios, prints the report, writes JSON, and exits 0 — and 1 when a fault makes a MUST check fail.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { extensionRequestorChecks } from './checks.ts';

const run = promisify(execFile);
const CLIENT = `${process.execPath} --import tsx mocks/2026-07-28/client/reference-client.ts`;
const CLI = ['--import', 'tsx', 'scripts/cli.ts', 'client', '--revision', '2026-07-28', '--no-color'];

describe('client --revision 2026-07-28', () => {
  it("grades the reference extension client: the revision's checks, JSON report, exit 0; with a fault exit 1", { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-client-2026-'));
    const json = join(dir, 'r.json');
    const ok = await run(process.execPath, [...CLI, '--command', CLIENT, '--scenario', 'tasks,cancel', '--json', json]);
    expect(ok.stdout).toMatch(/PASS  2026-requestor\.mcp-name-task-id/);
    expect(ok.stdout).toMatch(/PASS  2026-requestor\.cancel-with-tasks-cancel/);
    const report = JSON.parse(readFileSync(json, 'utf8'));
    expect([report.specVersion, report.revisions]).toEqual(['2026-07-28', ['2026-07-28']]);
    expect(report.target).toBe(`client: ${CLIENT} (http, revision 2026-07-28)`);
    expect(report.checks.length).toBe(extensionRequestorChecks.length);
    expect(report.checks.every((r: { id: string }) => r.id.startsWith('2026-requestor.'))).toBe(true);
    const bad = await run(process.execPath, [...CLI, '--command', `${CLIENT} --fault no-mcp-name`, '--scenario', 'tasks']).then(
      () => ({ code: 0, stdout: '' }),
      (e: { code: number; stdout: string }) => e,
    );
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/FAIL  2026-requestor\.mcp-name-task-id/);
  });
});
