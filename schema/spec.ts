// The spec revision this suite judges, stated once, and where its vendored pages live
// (schema/spec/<revision>/, copied byte for byte from upstream; provenance and MIT notice in
// schema/spec/README.md and schema/spec/LICENSE; refreshed by `npm run schema:sync -- --spec-dir <dir>`).
import { fileURLToPath } from 'node:url';

export const SPEC_REVISION = '2025-11-25';

/** Folder of the vendored upstream pages of SPEC_REVISION (tasks.md, schema.json, errata diff, …). */
export const VENDORED_SPEC_DIR = fileURLToPath(new URL(`./spec/${SPEC_REVISION}/`, import.meta.url));

/** The files vendored from upstream for SPEC_REVISION. */
export const VENDORED_FILES = [
  'tasks.md',
  'progress.md',
  'cancellation.md',
  'lifecycle.md',
  'transports.md',
  'tools.md',
  'sampling.md',
  'elicitation.md',
  'schema.json',
  'schema.ts',
  'errata-since-tag.diff',
] as const;
