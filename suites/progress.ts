// Checks for the spec section "progress" (tasks.md); requirement ids from fixtures/requirements.json.
import type { CheckDef } from './engine.ts';

export const checks: CheckDef[] = [];
