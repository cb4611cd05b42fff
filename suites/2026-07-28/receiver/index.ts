// The receiver checks of 2026-07-28 + io.modelcontextprotocol/tasks, by section (one file each), in report
// order (suites/2026-07-28/engine/check.ts: how to write one): its adapter (suites/2026-07-28/revision.ts)
// hands them to the registry (suites/index.ts).
import type { CheckDef } from '../../engine/check.ts';
import { checks as negotiation } from './negotiation.ts';
import { checks as results } from './results.ts';
import { checks as removed } from './removed.ts';
import { checks as errors } from './errors.ts';
import { checks as creation } from './creation.ts';
import { checks as get } from './get.ts';
import { checks as input } from './input.ts';
import { checks as cancel } from './cancel.ts';
import { checks as notifications } from './notifications.ts';
import { checks as routing } from './routing.ts';
import { checks as ttl } from './ttl.ts';
import { checks as security } from './security.ts';
import { checks as meta } from './meta.ts';
import { checks as versioning } from './versioning.ts';
import { checks as headers } from './headers.ts';
import { checks as compat } from './compat.ts';
import { checks as codes } from './codes.ts';
import { checks as mrtr } from './mrtr.ts';

export const checks: CheckDef[] = [
  ...negotiation,
  ...results,
  ...creation,
  ...get,
  ...ttl,
  ...input,
  ...cancel,
  ...notifications,
  ...routing,
  ...security,
  ...meta,
  ...versioning,
  ...headers,
  ...compat,
  ...codes,
  ...mrtr,
  ...removed,
  ...errors,
];
