// `npm run demo`: builds Toolscope unless the build is current (as `npm start` does), then runs the live demo from the build
// (src/demo/runDemo.ts → dist/node/demo/runDemo.js): Toolscope on a fresh data dir, a demo account,
// two real MCP servers and a scripted agent, until Ctrl-C. Options:
//   --data-dir DIR   use and keep DIR (also TOOLSCOPE_DEMO_DATA_DIR); default: a fresh temp dir
//   --port N         Toolscope's port (also PORT; default 4000, or a free one when 4000 is taken; 0 = any free port)
//   --no-build       run the existing build (the tests do; `npm run build` first)
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { buildUnlessCurrent } from './lib/currentBuild.mjs';

const startedAt = Date.now();
const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const valueOf = (flag) => {
  const at = args.indexOf(flag);
  return at >= 0 ? args[at + 1] : undefined;
};

if (!args.includes('--no-build') && !buildUnlessCurrent(root)) process.exit(1);

const givenPort = valueOf('--port') ?? process.env.PORT;
const port = givenPort === undefined ? undefined : Number(givenPort);
if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) {
  console.error(`--port: ${valueOf('--port') ?? process.env.PORT} is not a port number`);
  process.exit(2);
}
const { runDemo } = createRequire(import.meta.url)(`${root}dist/node/demo/runDemo.js`);
await runDemo({ root, startedAt, port, dataDir: valueOf('--data-dir') ?? process.env.TOOLSCOPE_DEMO_DATA_DIR });
