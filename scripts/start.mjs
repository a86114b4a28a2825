// `npm start`: builds Toolscope unless the build is current (scripts/lib/currentBuild.mjs), then
// runs the server from the build in this process, as `node dist/node/server/main.js` would.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { buildUnlessCurrent } from './lib/currentBuild.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
if (!buildUnlessCurrent(root)) process.exit(1);
createRequire(import.meta.url)(`${root}dist/node/server/main.js`);
