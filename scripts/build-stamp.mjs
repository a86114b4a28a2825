// `npm run build`'s prebuild (`begin`) and postbuild (`end`) steps: record which inputs the build
// was made from, so `npm start` and `npm run demo` skip a build that is current (scripts/lib/currentBuild.mjs).
import { fileURLToPath } from 'node:url';
import { beginBuild, endBuild } from './lib/currentBuild.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const step = process.argv[2];
if (step === 'begin') beginBuild(root);
else if (step === 'end') endBuild(root);
else {
  console.error('usage: node scripts/build-stamp.mjs begin|end');
  process.exit(2);
}
