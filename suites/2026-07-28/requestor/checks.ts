// Requestor checks of revision 2026-07-28 (clients as requestors of the Tasks extension), one file per
// section (checks/), in report order. Each judges recorded scenario transcripts (analysis.ts); the
// reference extension client's faults kill them (killedBy) and its latitudes leave them silent.
//
// Not graded, with the reason:
//  - removed methods: no requestor line forbids calling tasks/result or tasks/list; the server answers
//    them -32601 (2026-compat-tasks-result-32601, a receiver rule, and RULINGS.md#ext-tasks-list-removed).
//  - entries marked not observable in the catalog (trust model, durable storage, deleting state).
import { checks as polling } from './checks/polling.ts';
import { checks as input } from './checks/input.ts';
import { checks as cancel } from './checks/cancel.ts';
import { checks as transport } from './checks/transport.ts';
import { checks as negotiation } from './checks/negotiation.ts';
import { checks as versions } from './checks/versions.ts';
import { checks as subscriptions } from './checks/subscriptions.ts';
import type { ExtensionRequestorCheckDef } from './engine.ts';

export const extensionRequestorChecks: ExtensionRequestorCheckDef[] = [
  ...negotiation,
  ...versions,
  ...polling,
  ...subscriptions,
  ...input,
  ...cancel,
  ...transport,
];
