// Measures issue 23's promise: from `npm run demo` (build included, after `npm install`) to the
// demo being live. Runs it N times (default 3; `node scripts/bench-demo.mjs 5`), each on a free port
// and a fresh data dir, and reports per run: the build, the first recorded tool call, every screen
// having data (the demo's own lines, counted from the command's start), and how long Ctrl-C took.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// The demo's own /proc reader, from the build the first run makes.
const processTree = () => createRequire(import.meta.url)(`${root}dist/node/demo/processTree.js`);
const runs = Number(process.argv[2] ?? 3);

function runOnce() {
  return new Promise((resolve, reject) => {
    const startedAt = Date.now();
    const child = spawn('npm', ['run', 'demo', '--', '--port', '0'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
      detached: true,
    });
    const figures = {};
    let output = '';
    let stopAt;
    let noted = [];
    child.stdout.on('data', (chunk) => {
      output += chunk.toString();
      figures.build ??= /done in ([\d.]+) s/.exec(output)?.[1];
      figures.live ??= /Live: .*?, ([\d.]+) s after/.exec(output)?.[1];
      figures.everyScreen ??= /Every screen has data, ([\d.]+) s after/.exec(output)?.[1];
      if (figures.everyScreen && stopAt === undefined) {
        noted = processTree().descendantsOf(child.pid);
        stopAt = Date.now();
        // Ctrl-C in a terminal signals the whole foreground process group: npm, node and Toolscope.
        process.kill(-child.pid, 'SIGINT');
      }
    });
    const timeout = setTimeout(() => {
      process.kill(-child.pid, 'SIGKILL');
      reject(new Error(`no "Every screen has data" within 180 s:\n${output}`));
    }, 180_000);
    // 'close': every holder of the output pipes (npm, the demo, Toolscope) has exited.
    child.once('close', (code) => {
      clearTimeout(timeout);
      figures.stopSeconds = stopAt ? ((Date.now() - stopAt) / 1000).toFixed(1) : undefined;
      figures.exitCode = code;
      figures.clean = /Stopped: the \d+ processes the demo started are gone/.test(output);
      figures.noted = noted.length;
      figures.left = noted.filter(processTree().isStillRunning).length;
      figures.wallSeconds = ((Date.now() - startedAt) / 1000).toFixed(1);
      resolve(figures);
    });
  });
}

for (let i = 1; i <= runs; i++) {
  const f = await runOnce();
  console.log(
    `run ${i}: build ${f.build} s, first call ${f.live} s, every screen ${f.everyScreen} s, Ctrl-C took ${f.stopSeconds} s; processes below npm: ${f.noted}, left running: ${f.left} (demo says clean: ${f.clean})`,
  );
}
