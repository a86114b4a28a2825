// The watchdog every deployed program runs under. Toolscope starts it (node -e, so it needs no
// file on disk and works the same from the built server and from tests) as the leader of a new
// process group; it starts the program (the sandbox: prlimit → setpriv → bwrap → program, see
// sandbox.ts) in that group with the same stdin/stdout/stderr (the program talks to Toolscope
// directly, nothing is relayed) and holds fd 3, one end of a socket pair whose other end only
// Toolscope holds. When Toolscope dies for any reason — kill -9 included — the kernel closes that
// end, the watchdog reads EOF and SIGKILLs the whole group; bwrap's --die-with-parent then ends
// the sandbox's PID namespace and with it every process inside, whatever it did (setsid, double
// fork, ignoring SIGTERM). When the program exits, the watchdog reports how on fd 3 and kills the
// rest of the group for the same reason.
//
// Arguments: `<folder fd: "3" | "-"> <network: JSON | "-"> <command> <args…>`. With "3", the watchdog's fd 4 (the
// deployment's folder, opened by Toolscope) becomes the program's fd 3 (bwrap --bind-fd 3), so the
// sandbox never opens the data dir's path itself. Before starting the program the watchdog closes
// every inherited descriptor it does not pass on (those without close-on-exec: whatever Toolscope's
// own parent leaked to it), so the program inherits nothing but stdio and that folder.
//
// With a network (sandboxNetwork.ts), bwrap reports its child's pid on fd 4 (--info-fd) and waits
// on fd 5 (--block-fd) before it starts the program: the watchdog attaches slirp4netns to that
// network namespace, sets the egress routes in it (nsenter … ip -batch), and only then lets bwrap
// go on. slirp4netns stays in the group and dies with it. If any step fails, nothing starts.
//
// Messages on fd 3, one JSON object a line: {"pid": n} once the program started,
// {"exit": {"code": n|null, "signal": s|null}} when it ended, {"error": "…"} if it could not start.
// The group's SIGTERM (Toolscope's stop) is the program's to handle; the watchdog ignores it and
// leaves when the program does.
export const WATCHDOG_MARKER = 'toolscope-deployment-watchdog';

export const WATCHDOG_SOURCE = String.raw`'use strict'; // ${WATCHDOG_MARKER}
const { spawn } = require('child_process');
const fs = require('fs');
const net = require('net');
const [folderFd, networkJson, command, ...args] = process.argv.slice(1);
const network = networkJson === '-' ? null : JSON.parse(networkJson);
const O_CLOEXEC = 0o2000000;
for (const name of fs.readdirSync('/proc/self/fd')) {
  const fd = Number(name);
  if (fd <= 4) continue;
  try {
    const flags = /flags:\s*([0-7]+)/.exec(fs.readFileSync('/proc/self/fdinfo/' + fd, 'utf8'));
    if (flags && (parseInt(flags[1], 8) & O_CLOEXEC) === 0) fs.closeSync(fd);
  } catch (e) {}
}
const parent = new net.Socket({ fd: 3, readable: true, writable: true });
function killGroup() {
  try { process.kill(-process.pid, 'SIGKILL'); } catch (e) {}
  process.exit(137);
}
parent.on('data', () => {});
parent.on('end', killGroup);
parent.on('close', killGroup);
// However the watchdog ends (its event loop drained, an exit elsewhere), its group ends with it:
// slirp4netns and any set-up helper included.
process.on('exit', () => { try { process.kill(-process.pid, 'SIGKILL'); } catch (e) {} });
parent.on('error', killGroup);
for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(s, () => {});
// Whatever goes wrong in here, the group goes with the watchdog: never a sandbox without it.
process.on('uncaughtException', (e) => {
  try { parent.write(JSON.stringify({ error: 'The watchdog failed: ' + e.message }) + '\n'); } catch (x) {}
  killGroup();
});
const stdio = ['inherit', 'inherit', 'inherit', folderFd === '3' ? 4 : 'ignore', ...(network ? ['pipe', 'pipe'] : [])];
const child = spawn(command, args, { stdio });
if (folderFd === '3') { try { fs.closeSync(4); } catch (e) {} }
child.on('spawn', () => parent.write(JSON.stringify({ pid: child.pid }) + '\n'));
if (network) {
  let info = '';
  let attached = false;
  const fail = (why) => { try { child.kill('SIGKILL'); } catch (e) {} report({ error: 'The sandbox network could not be set up: ' + why }); };
  child.stdio[4].setEncoding('utf8');
  child.stdio[4].on('error', () => {});
  child.stdio[5].on('error', () => {});
  child.stdio[4].on('data', (chunk) => {
    info += chunk;
    const found = /"child-pid"\s*:\s*(\d+)/.exec(info);
    if (!found || attached) return;
    attached = true;
    const pid = found[1];
    const userns = network.userns ? ['--userns-path=/proc/' + pid + '/ns/user'] : [];
    const slirp = spawn(network.slirp, ['--mtu=65520', '--disable-host-loopback', ...userns, '--ready-fd=3', '--exit-fd=4', pid, 'tap0'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'], env: {} });
    // --exit-fd: slirp4netns leaves as soon as the watchdog's end of fd 4 closes, however the watchdog ended.
    slirp.stdio[4].on('error', () => {});
    let ready = false;
    slirp.on('error', (e) => fail(e.message));
    slirp.on('exit', (code) => { if (!ready) fail('slirp4netns exited with ' + code); });
    slirp.stdio[3].on('error', () => {});
    slirp.stdio[3].once('data', () => {
      ready = true;
      const enter = network.userns ? ['--preserve-credentials', '-U'] : [];
      const routes = spawn(network.nsenter, ['-t', pid, ...enter, '-n', network.ip, '-force', '-batch', '-'], { stdio: ['pipe', 'ignore', 'inherit'], env: {} });
      routes.on('error', (e) => fail(e.message));
      routes.on('exit', (code) => {
        if (code !== 0) return fail('ip exited with ' + code);
        child.stdio[5].write('go');
      });
      routes.stdin.end(network.routes.join('\n') + '\n');
    });
  });
}
function report(message) {
  parent.write(JSON.stringify(message) + '\n', killGroup);
  setTimeout(killGroup, 1000).unref();
}
child.on('error', (e) => report({ error: 'Could not start ' + command + ': ' + e.message }));
child.on('exit', (code, signal) => report({ exit: { code, signal } }));
`;
