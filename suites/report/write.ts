// Report files: JSON (the Report as it is), JUnit (junit.ts) and Markdown (markdown.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Report } from './model.ts';

function writeText(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

export function writeJson(path: string, report: Report): void {
  writeText(path, JSON.stringify(report, null, 2) + '\n');
}

export interface ReportFiles {
  json?: string;
  junit?: string;
  markdown?: string;
}

/** Writes the requested report files (--json, --junit, --markdown). `strict`: warnings are JUnit failures; `exitCode`: the run's verdict when more than the checks decide it (--require-coverage). */
export async function writeReports(report: Report, files: ReportFiles, verdict: { strict: boolean; exitCode?: number }): Promise<void> {
  if (files.json) writeJson(files.json, report);
  if (files.junit) {
    const { formatJunit } = await import('./junit.ts');
    writeText(files.junit, formatJunit(report, { strict: verdict.strict }));
  }
  if (files.markdown) {
    const { formatMarkdown } = await import('./markdown.ts');
    writeText(files.markdown, formatMarkdown(report, verdict));
  }
}
