// `npm run dev`: the server recompiled on change (tsc --watch) and restarted (node --watch), and
// Vite's dev server for the SPA on :5173 proxying /api and /mcp to it. Ctrl-C stops all three.
import { spawn, spawnSync } from 'node:child_process';

const run = (cmd, args, extraEnv = {}) => spawn(cmd, args, { stdio: 'inherit', env: { ...process.env, ...extraEnv } });

// One full compile first so node --watch has something to start.
const first = spawnSync('npx', ['tsc', '-p', 'tsconfig.server.json'], { stdio: 'inherit' });
if (first.status !== 0) process.exit(first.status ?? 1);

const children = [
  run('npx', ['tsc', '-p', 'tsconfig.server.json', '--watch', '--preserveWatchOutput']),
  run('node', ['--watch', 'dist/node/server/main.js'], { TOOLSCOPE_CLIENT_DIR: '' }),
  run('npx', ['vite']),
];
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
