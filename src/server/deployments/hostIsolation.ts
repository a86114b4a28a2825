import fs from 'node:fs';
import path from 'node:path';
import type { DeploymentIsolation, DeploymentLimits } from '../../contract/deployments';

// Optional isolation, with the util-linux tools the host has: prlimit (address space, open
// files) and unshare (an empty network namespace; a PID namespace of its own). This is not a
// container: the program still sees the host's file system and runs as Toolscope's user
// (docs/deployments.md says what each option gives and what it does not).
export interface HostTools {
  prlimit: string | null;
  unshare: string | null;
}

function findOnPath(name: string, searchPath: string | undefined): string | null {
  for (const dir of (searchPath ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

export function detectHostTools(searchPath: string | undefined): HostTools {
  if (process.platform !== 'linux') return { prlimit: null, unshare: null };
  const extended = `${searchPath ?? ''}${path.delimiter}/usr/bin${path.delimiter}/bin${path.delimiter}/usr/sbin`;
  return { prlimit: findOnPath('prlimit', extended), unshare: findOnPath('unshare', extended) };
}

/** Why a config's isolation cannot be had on this host (null = it can). */
export function missingIsolation(tools: HostTools, limits: DeploymentLimits, isolation: DeploymentIsolation): string | null {
  if ((limits.memoryMb || limits.openFiles) && !tools.prlimit) return 'Resource limits need prlimit (util-linux), which this host does not have';
  if ((isolation.noNetwork || isolation.ownPidNamespace) && !tools.unshare) return 'Network and PID isolation need unshare (util-linux), which this host does not have';
  return null;
}

/** The program's argv behind the wrappers its limits and isolation ask for. */
export function wrapCommand(tools: HostTools, command: string, args: string[], limits: DeploymentLimits, isolation: DeploymentIsolation): string[] {
  let argv = [command, ...args];
  if (isolation.noNetwork || isolation.ownPidNamespace) {
    const flags = [...(isolation.noNetwork ? ['--net'] : []), ...(isolation.ownPidNamespace ? ['--pid', '--fork', '--kill-child', '--mount-proc'] : [])];
    argv = [tools.unshare!, ...flags, '--', ...argv];
  }
  if (limits.memoryMb || limits.openFiles) {
    const flags = [
      ...(limits.memoryMb ? [`--as=${limits.memoryMb * 1024 * 1024}`] : []),
      ...(limits.openFiles ? [`--nofile=${limits.openFiles}:${limits.openFiles}`] : []),
    ];
    argv = [tools.prlimit!, ...flags, '--', ...argv];
  }
  return argv;
}
