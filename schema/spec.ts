// The spec revisions this suite judges, stated once, and where their vendored pages live
// (schema/spec/<folder>/, copied byte for byte from upstream; provenance and license notices in
// schema/spec/README.md and the LICENSE files; refreshed by `npm run schema:sync -- --spec-dir <dir>`).
import { fileURLToPath } from 'node:url';

/** The first revision (core Tasks), the one `npm start` judges. */
export const SPEC_REVISION = '2025-11-25';

/** Every revision the suite knows, oldest first. */
export const REVISIONS = ['2025-11-25', '2026-07-28'] as const;
export type Revision = (typeof REVISIONS)[number];

export function isRevision(v: unknown): v is Revision {
  return typeof v === 'string' && (REVISIONS as readonly string[]).includes(v);
}

/** Folders under schema/spec/: one per core revision, plus the Tasks extension of 2026-07-28. */
export type SpecFolder = Revision | 'ext-tasks';

/** Folder of the vendored upstream pages of SPEC_REVISION (tasks.md, schema.json, errata diff, …). */
export const VENDORED_SPEC_DIR = specDir(SPEC_REVISION);

/** Absolute path of a vendored folder (with a trailing slash). */
export function specDir(folder: SpecFolder): string {
  return fileURLToPath(new URL(`./spec/${folder}/`, import.meta.url));
}

/** The files vendored from upstream, per folder (the LICENSE of a folder that has its own is listed). */
export const VENDORED: Readonly<Record<SpecFolder, readonly string[]>> = {
  '2025-11-25': [
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
  ],
  '2026-07-28': [
    'LICENSE',
    'basic-index.md',
    'basic-patterns-cancellation.md',
    'basic-patterns-mrtr.md',
    'basic-patterns-progress.md',
    'basic-patterns-subscriptions.md',
    'basic-transports-index.md',
    'basic-transports-stdio.md',
    'basic-transports-streamable-http.md',
    'basic-versioning.md',
    'changelog.md',
    'client-elicitation.md',
    'client-sampling.md',
    'deprecated.md',
    'schema.json',
    'schema.ts',
    'server-discover.md',
    'server-tools.md',
  ],
  'ext-tasks': ['LICENSE', 'tasks.md', 'schema.ts', 'schema.json', 'sep-2663-tasks-extension.md'],
};

/** The files vendored from upstream for SPEC_REVISION. */
export const VENDORED_FILES = VENDORED[SPEC_REVISION];
