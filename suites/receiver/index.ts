// The receiver checks of 2025-11-25, by spec section (one file each), in report order: its adapter
// (suites/2025-11-25/revision.ts) hands them to the registry (suites/index.ts).
import type { CheckDef } from '../engine/check.ts';
import { checks as capabilities } from './capabilities.ts';
import { checks as creation } from './creation.ts';
import { checks as lifecycle } from './lifecycle.ts';
import { checks as get } from './get.ts';
import { checks as result } from './result.ts';
import { checks as relatedTask } from './related-task.ts';
import { checks as list } from './list.ts';
import { checks as cancel } from './cancel.ts';
import { checks as ttl } from './ttl.ts';
import { checks as errors } from './errors.ts';
import { checks as progress } from './progress.ts';
import { checks as notifications } from './notifications.ts';
import { checks as security } from './security.ts';
import { checks as transport } from './transport.ts';
import { checks as schema } from './schema.ts';

export const checks: CheckDef[] = [
  ...capabilities,
  ...creation,
  ...lifecycle,
  ...get,
  ...result,
  ...relatedTask,
  ...list,
  ...cancel,
  ...ttl,
  ...errors,
  ...progress,
  ...notifications,
  ...security,
  ...transport,
  ...schema,
];
