// docs/COVERAGE.md is generated (scripts/docs-coverage.ts) and must match the catalog, the checks and the rulings.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COVERAGE_FILE, renderCoverage } from './docs-coverage.ts';

describe('docs/COVERAGE.md', () => {
  it('is current', () => {
    const onDisk = readFileSync(COVERAGE_FILE, 'utf8');
    expect(onDisk === renderCoverage(), 'docs/COVERAGE.md is stale: run `npm run docs:coverage` and commit the result').toBe(true);
  });
});
