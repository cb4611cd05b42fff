// Checks for the spec section "notifications" (tasks.md); requirement ids from fixtures/requirements.json.
import type { CheckDef } from './engine.ts';

export const checks: CheckDef[] = [];
