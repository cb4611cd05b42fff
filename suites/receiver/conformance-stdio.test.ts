// The reference receiver passes every check over stdio: every connection a process of its own (so in the e2e tier,
// vitest.tiers.ts; in process and over Streamable HTTP: conformance.test.ts).
import { it } from 'vitest';
import { KEEPS_CANCELLED, NOT_HTTP, passesEveryCheck, UNDECLARED } from './test-helpers.ts';

// A second stdio session is another process with its own tasks: isolation says nothing there.
const maySkip = (id: string) => id === UNDECLARED || NOT_HTTP(id) || id === KEEPS_CANCELLED || id.startsWith('security.');

it('the reference receiver over stdio passes every check (none fails or warns; only transport-bound checks are not exercised)', { timeout: 120_000 }, () =>
  passesEveryCheck({ kind: 'stdio', command: `${process.execPath} --import tsx scripts/mock.ts --stdio --status-notifications` }, maySkip),
);
