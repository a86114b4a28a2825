import fs from 'node:fs';
import path from 'node:path';
import type { DeploymentLimits } from '../../contract/deployments';

// The host tools a sandboxed deployment needs: bubblewrap (namespaces, mounts), setpriv (an
// unprivileged uid of its own when Toolscope runs as root) and prlimit (resource limits). All
// three are Debian packages (bubblewrap, util-linux); docs/deployments.md says what each gives.
export interface HostTools {
  bwrap: string | null;
  setpriv: string | null;
  prlimit: string | null;
  /** Egress: slirp4netns (Debian package), nsenter and ip (util-linux, iproute2). Without them a deployment has no network. */
  slirp4netns: string | null;
  nsenter: string | null;
  ip: string | null;
}

export function findOnPath(name: string, searchPath: string | undefined): string | null {
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

/** `bwrapPath`: the operator's bubblewrap binary (TOOLSCOPE_SANDBOX_BWRAP), else bwrap on the path. */
function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function detectHostTools(searchPath: string | undefined, bwrapPath?: string): HostTools {
  if (process.platform !== 'linux')
    return { bwrap: null, setpriv: null, prlimit: null, slirp4netns: null, nsenter: null, ip: null };
  const extended = `${searchPath ?? ''}${path.delimiter}/usr/bin${path.delimiter}/bin${path.delimiter}/usr/sbin`;
  return {
    bwrap: bwrapPath ? (isExecutable(bwrapPath) ? bwrapPath : null) : findOnPath('bwrap', extended),
    setpriv: findOnPath('setpriv', extended),
    prlimit: findOnPath('prlimit', extended),
    slirp4netns: findOnPath('slirp4netns', extended),
    nsenter: findOnPath('nsenter', extended),
    ip: findOnPath('ip', `${extended}${path.delimiter}/sbin`),
  };
}

/**
 * Why deployments cannot run sandboxed on this host (null = they can). Deployments never run
 * without the sandbox: with TOOLSCOPE_DEPLOYMENTS=catalog|any, Toolscope refuses to start instead.
 */
export function missingSandbox(tools: HostTools, runsAsRoot: boolean): string | null {
  const missing = [
    ...(tools.bwrap ? [] : ['bwrap (Debian package bubblewrap)']),
    ...(tools.prlimit ? [] : ['prlimit (util-linux)']),
    ...(runsAsRoot && !tools.setpriv ? ['setpriv (util-linux)'] : []),
  ];
  if (missing.length === 0) return null;
  return `Deployments run every program in a sandbox, which needs ${missing.join(' and ')} on this host. Install ${missing.length > 1 ? 'them' : 'it'} (apt-get install bubblewrap util-linux) or set TOOLSCOPE_DEPLOYMENTS=off; Toolscope never runs deployed programs unsandboxed.`;
}

/** Why a config's limits cannot be had on this host (null = they can). */
export function missingLimits(tools: HostTools, limits: DeploymentLimits): string | null {
  if ((limits.memoryMb || limits.openFiles) && !tools.prlimit)
    return 'Resource limits need prlimit (util-linux), which this host does not have';
  return null;
}
