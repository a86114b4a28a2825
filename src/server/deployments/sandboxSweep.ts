import { listProcesses, readCommandLine } from './processTree';
import { SANDBOX_HOSTNAME } from './sandbox';
import { WATCHDOG_MARKER } from './watchdog';

/**
 * Kills the sandboxes nobody supervises any more, at start. A sandbox is a bwrap process with
 * Toolscope's sandbox host name; it is supervised while its parent is a watchdog (or, inside a
 * PID namespace's set-up, another bwrap). Its watchdog dies with Toolscope and takes it along, and
 * --die-with-parent ends it if the watchdog alone is killed, so an orphan should never exist: this
 * sweep is the last net, and reports what it had to kill. Returns the pids it killed.
 */
export function sweepOrphanedSandboxes(): number[] {
  const processes = listProcesses();
  const byPid = new Map(processes.map((entry) => [entry.pid, entry]));
  const killed: number[] = [];
  for (const entry of processes) {
    if (entry.name !== 'bwrap') continue;
    const argv = readCommandLine(entry.pid).split('\0');
    const hostname = argv.indexOf('--hostname');
    if (hostname < 0 || argv[hostname + 1] !== SANDBOX_HOSTNAME) continue;
    const parent = byPid.get(entry.parentPid);
    if (parent?.name === 'bwrap') continue;
    if (parent && readCommandLine(parent.pid).includes(WATCHDOG_MARKER)) continue;
    try {
      process.kill(entry.pid, 'SIGKILL');
      killed.push(entry.pid);
    } catch {
      // gone meanwhile
    }
  }
  return killed;
}
