import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { DeploymentLimits } from '../../contract/deployments';
import type { HostTools } from './hostIsolation';

// How one deployment runs: prlimit (its resource limits) → bwrap (PID, mount, IPC, UTS, network
// and cgroup namespaces; a user namespace too when Toolscope is not root) → setpriv (an
// unprivileged uid of its own, when Toolscope runs as root) → the program. Inside it sees a read-only system, the read-only package folders the
// operator lists, one writable folder of its own at /home/deployment, a private /tmp, /proc of its
// own PID namespace and nothing else: no data dir, journal, secret file or other deployment.
// docs/deployments.md ("The sandbox") says what each part protects and what it does not.

/** Where the deployment's own folder appears inside the sandbox (also its HOME). */
export const SANDBOX_HOME = '/home/deployment';
/** The sandbox's host name; the start-up sweep recognises orphaned sandboxes by it. */
export const SANDBOX_HOSTNAME = 'toolscope-deployment';
/** The folder fd the watchdog hands to bwrap (--bind-fd): bwrap itself never opens the data dir's path. */
export const FOLDER_FD = 3;

/** What every deployment gets unless its config says otherwise (docs/deployments.md, "Limits"). */
export const DEFAULT_LIMITS = { processes: 256, openFiles: 1024, tmpBytes: 256 * 1024 * 1024 } as const;

export interface SandboxPlan {
  command: string;
  args: string[];
  limits: DeploymentLimits;
  /** The config's cwd, relative to its own folder ('' = the folder itself). */
  relativeCwd: string;
  /** Host folders mounted read-only at the same path (packages, the node install…). */
  readOnlyPaths: string[];
  /** The uid the sandbox runs as on the host; null = Toolscope's own (it is not root). */
  hostUid: number | null;
  /** The sandboxes' group on the host (with hostUid). */
  hostGid: number;
  /** Egress through slirp4netns (the watchdog attaches it: bwrap --info-fd 4 --block-fd 5); null = no network at all. */
  network: { resolvConf: string } | null;
}

/** System folders every program needs, read-only. /etc is not mounted whole: only what name lookups and TLS need. */
const SYSTEM_PATHS = ['/usr'];
const ETC_FILES = [
  '/etc/hosts',
  '/etc/nsswitch.conf',
  '/etc/host.conf',
  '/etc/gai.conf',
  '/etc/ssl',
  '/etc/ca-certificates',
  '/etc/pki',
  '/etc/localtime',
  '/etc/alternatives',
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/mime.types',
];
/** Debian's merged /usr: these are symbolic links into /usr. */
const USR_LINKS: Array<[string, string]> = [
  ['usr/bin', '/bin'],
  ['usr/sbin', '/sbin'],
  ['usr/lib', '/lib'],
  ['usr/lib64', '/lib64'],
];

/**
 * A uid of its own per deployment config, so that two deployments never share a host uid (their
 * process counts, their signals, their files). Root only; 200000 + a hash keeps clear of the host's users.
 */
export function sandboxUid(configId: string, base = 200_000): number {
  const digest = createHash('sha256').update(configId).digest();
  return base + (digest.readUInt32BE(0) % 100_000);
}

function rootLinkOrBind(target: string, link: string): string[] {
  // On a merged-/usr system /bin is a link to usr/bin; elsewhere it is a folder of its own.
  try {
    if (fs.lstatSync(link).isSymbolicLink()) return ['--symlink', target, link];
    return ['--ro-bind', link, link];
  } catch {
    return [];
  }
}

/** Every folder above the given paths (not the paths themselves), outermost first. */
function parentFolders(paths: string[]): string[] {
  const parents = new Set<string>();
  for (const p of paths) {
    for (let dir = path.posix.dirname(p); dir !== '/' && dir !== '.'; dir = path.posix.dirname(dir)) parents.add(dir);
  }
  return [...parents].sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b));
}

export function sandboxArgv(tools: HostTools, plan: SandboxPlan): string[] {
  if (!tools.bwrap) throw new Error('bubblewrap (bwrap) is not installed');
  // Folders bwrap creates on the way to a mount point are 0700 root's: made 0755 first, or a
  // program that is not root could not reach what is mounted below them.
  const destinations = [...SYSTEM_PATHS, ...ETC_FILES, '/etc/resolv.conf', ...plan.readOnlyPaths, SANDBOX_HOME];
  const binds: string[] = [];
  for (const dir of parentFolders(destinations)) binds.push('--perms', '0755', '--dir', dir);
  for (const dir of SYSTEM_PATHS) binds.push('--ro-bind-try', dir, dir);
  for (const [target, link] of USR_LINKS) binds.push(...rootLinkOrBind(target, link));
  for (const file of ETC_FILES) binds.push('--ro-bind-try', file, file);
  for (const dir of plan.readOnlyPaths) binds.push('--ro-bind-try', dir, dir);
  // slirp4netns's DNS forwarder, not the host's resolver (which may be on the host's loopback).
  if (plan.network) binds.push('--ro-bind', plan.network.resolvConf, '/etc/resolv.conf');
  const networkSetUp = plan.network ? ['--info-fd', '4', '--block-fd', '5'] : [];
  const cwd = plan.relativeCwd ? path.posix.join(SANDBOX_HOME, plan.relativeCwd) : SANDBOX_HOME;
  // As root, bwrap sets the sandbox up with root's reach (it mounts the folder wherever the data dir
  // is) and setpriv, inside, drops to the deployment's own uid before the program starts: no user
  // namespace is needed, and the program's uid is unprivileged on the host too. As another user,
  // bwrap makes a user namespace and the program runs as uid 1000 in it (Toolscope's uid outside).
  const namespaces =
    plan.hostUid === null
      ? ['--unshare-all', '--uid', '1000', '--gid', '1000']
      : ['--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-net', '--unshare-cgroup-try'];
  const dropToUid =
    plan.hostUid === null
      ? []
      : [
          tools.setpriv ?? '/usr/bin/setpriv',
          `--reuid=${plan.hostUid}`,
          `--regid=${plan.hostGid}`,
          '--clear-groups',
          '--no-new-privs',
          '--inh-caps=-all',
          '--bounding-set=-all',
          '--',
        ];
  const bwrap = [
    tools.bwrap,
    ...namespaces,
    ...networkSetUp,
    '--die-with-parent',
    '--new-session',
    '--hostname',
    SANDBOX_HOSTNAME,
    ...binds,
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--size',
    String(DEFAULT_LIMITS.tmpBytes),
    '--tmpfs',
    '/tmp',
    '--chmod',
    '1777',
    '/tmp',
    '--bind-fd',
    String(FOLDER_FD),
    SANDBOX_HOME,
    '--chdir',
    cwd,
    '--setenv',
    'HOME',
    SANDBOX_HOME,
    '--',
    ...dropToUid,
    plan.command,
    ...plan.args,
  ];
  const openFiles = plan.limits.openFiles ?? DEFAULT_LIMITS.openFiles;
  const limits = [
    tools.prlimit ?? 'prlimit',
    `--nproc=${DEFAULT_LIMITS.processes}:${DEFAULT_LIMITS.processes}`,
    `--nofile=${openFiles}:${openFiles}`,
    ...(plan.limits.memoryMb ? [`--as=${plan.limits.memoryMb * 1024 * 1024}`] : []),
    '--',
  ];
  return [...limits, ...bwrap];
}

/** Read-only folders by default: Toolscope's own node_modules (reference servers) and Node's install when it is not under /usr. */
export function defaultReadOnlyPaths(appRoot: string): string[] {
  const paths = [path.join(appRoot, 'node_modules')];
  const nodePrefix = path.dirname(path.dirname(fs.realpathSync(process.execPath)));
  if (!nodePrefix.startsWith('/usr/')) paths.push(nodePrefix);
  return paths;
}
