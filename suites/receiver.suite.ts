// The vitest entry the CLI runs (`mcp-tasks-conformance server …`): one describe per spec section,
// one concurrent test per check (suites/vitest.ts). The target comes from the CLI through vitest's
// `provide`/`inject`.
import { inject } from 'vitest';
import type { RunConfig } from './runner/session.ts';
import { registerChecks } from './vitest.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    conformance: RunConfig;
  }
}

registerChecks(inject('conformance'));
