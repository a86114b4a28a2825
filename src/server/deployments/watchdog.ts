// The watchdog every deployed program runs under. Toolscope starts it (node -e, so it needs no
// file on disk and works the same from the built server and from tests) as the leader of a new
// process group; it starts the program in that group with the same stdin/stdout/stderr (the
// program talks to Toolscope directly, nothing is relayed) and holds fd 3, one end of a socket
// pair whose other end only Toolscope holds. When Toolscope dies for any reason — kill -9
// included — the kernel closes that end, the watchdog reads EOF and SIGKILLs the whole group, so
// no program (nor anything it spawned, e.g. npx's child) outlives Toolscope. When the program
// exits, the watchdog reports how on fd 3 and kills the rest of the group for the same reason.
//
// Messages on fd 3, one JSON object a line: {"pid": n} once the program started,
// {"exit": {"code": n|null, "signal": s|null}} when it ended, {"error": "…"} if it could not start.
// The group's SIGTERM (Toolscope's stop) is the program's to handle; the watchdog ignores it and
// leaves when the program does.
export const WATCHDOG_SOURCE = String.raw`'use strict';
const { spawn } = require('child_process');
const net = require('net');
const [command, ...args] = process.argv.slice(1);
const parent = new net.Socket({ fd: 3, readable: true, writable: true });
let finished = false;
function killGroup() {
  try { process.kill(-process.pid, 'SIGKILL'); } catch (e) {}
  process.exit(137);
}
parent.on('data', () => {});
parent.on('end', killGroup);
parent.on('close', () => { if (!finished) killGroup(); });
parent.on('error', killGroup);
for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(s, () => {});
const child = spawn(command, args, { stdio: 'inherit' });
child.on('spawn', () => parent.write(JSON.stringify({ pid: child.pid }) + '\n'));
function report(message) {
  finished = true;
  parent.write(JSON.stringify(message) + '\n', killGroup);
  setTimeout(killGroup, 1000).unref();
}
child.on('error', (e) => report({ error: 'Could not start ' + command + ': ' + e.message }));
child.on('exit', (code, signal) => report({ exit: { code, signal } }));
`;
