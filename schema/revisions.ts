// The revision registry: for each spec revision the suite judges, where its statement lives in schema/
// (catalog, validator, rulings, vendored pages). Suites build `checksFor(revision)` on it; the protocol
// constants differ in shape between revisions and are imported from their own module
// (schema/protocol.ts for 2025-11-25, schema/2026-07-28/protocol.ts for 2026-07-28).
import { catalogFor, COMPLETENESS, type Requirement } from './catalog.ts';
import { rulings, type Ruling } from './rulings.ts';
import { REVISIONS, isRevision, specDir, type Revision, type SpecFolder } from './spec.ts';
import { validatorFor, type Validator } from './validate.ts';

export { REVISIONS, isRevision, catalogFor, validatorFor, type Revision };

export interface RevisionInfo {
  revision: Revision;
  /** The protocolVersion string peers exchange for it. */
  protocolVersion: string;
  /** How it is negotiated: an `initialize` handshake (2025-11-25) or per-request `_meta` with `server/discover` (2026-07-28). */
  negotiation: 'initialize' | 'per-request';
  /** Where the Tasks feature is defined: the core Tasks page, or the extension `io.modelcontextprotocol/tasks`. */
  tasks: { kind: 'core' } | { kind: 'extension'; id: string };
  /** Vendored folders under schema/spec/ holding its texts. */
  specFolders: readonly SpecFolder[];
  /** Requirement ids begin with this (ids are unique across revisions). */
  idPrefix: string;
}

export const REVISION_INFO: Readonly<Record<Revision, RevisionInfo>> = {
  '2025-11-25': {
    revision: '2025-11-25',
    protocolVersion: '2025-11-25',
    negotiation: 'initialize',
    tasks: { kind: 'core' },
    specFolders: ['2025-11-25'],
    idPrefix: '',
  },
  '2026-07-28': {
    revision: '2026-07-28',
    protocolVersion: '2026-07-28',
    negotiation: 'per-request',
    tasks: { kind: 'extension', id: 'io.modelcontextprotocol/tasks' },
    specFolders: ['2026-07-28', 'ext-tasks'],
    idPrefix: '2026-',
  },
};

/** Everything schema/ states about one revision. */
export interface RevisionStatement extends RevisionInfo {
  catalog: Requirement[];
  rulings: Ruling[];
  validator: () => Validator;
  /** Absolute paths of its vendored folders. */
  specDirs: string[];
  completeness: (typeof COMPLETENESS)[Revision];
}

export function revision(rev: Revision): RevisionStatement {
  const info = REVISION_INFO[rev];
  return {
    ...info,
    catalog: catalogFor(rev),
    rulings: rulings.filter((r) => r.revision === rev),
    validator: () => validatorFor(rev),
    specDirs: info.specFolders.map(specDir),
    completeness: COMPLETENESS[rev],
  };
}
