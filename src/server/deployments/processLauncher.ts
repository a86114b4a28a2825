import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import type { Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { descendantsOf } from './processTree';
import { WATCHDOG_SOURCE } from './watchdog';

// Starts one program under the watchdog (watchdog.ts): no shell anywhere (argv goes to execve as
// is), a process group of its own (detached), exactly the environment it is given, a socket
// pair on fd 3 that ties the group's life to Toolscope's, and the deployment's folder as an open
// descriptor for the sandbox to mount (sandbox.ts).
export interface LaunchSpec {
  /** The program and its arguments (already wrapped in the sandbox). */
  argv: string[];
  env: Record<string, string>;
  /** Where the watchdog runs (outside the sandbox; the program's own cwd is set by the sandbox). */
  cwd: string;
  /** A folder handed to the program as fd 3 (bwrap --bind-fd 3). */
  folder?: string;
  /** The sandbox's egress set-up, done by the watchdog (watchdog.ts); undefined = no network. */
  network?: WatchdogNetwork;
}

export interface WatchdogNetwork {
  slirp: string;
  nsenter: string;
  ip: string;
  /** The sandbox has a user namespace of its own (Toolscope is not root). */
  userns: boolean;
  /** `ip -batch` lines (sandboxNetwork.ts). */
  routes: string[];
}

/** Sandbox plumbing between the watchdog and the program: signalled by neither SIGTERM nor memory figures. */
const PLUMBING = new Set(['bwrap', 'setpriv', 'prlimit']);

export interface ExitInfo {
  code: number | null;
  signal: string | null;
  /** Set when the program could not be started at all (e.g. not found). */
  error?: string;
}

const PAGE_SIZE = 4096;
const CLOSE_WAIT_MS = 2_000;

export class ProgramProcess {
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable;
  /** The watchdog's pid, which is also the process group id. */
  readonly groupId: number;
  /** The program's own pid, once the watchdog reported it. */
  pid: number | null = null;
  /** Resolves with the program's pid, or rejects if it could not start. */
  readonly started: Promise<number>;
  readonly exited: Promise<ExitInfo>;
  private ended = false;

  constructor(private readonly child: ChildProcess) {
    if (child.pid === undefined) throw new Error('The watchdog could not be started');
    this.groupId = child.pid;
    if (!child.stdin || !child.stdout || !child.stderr) throw new Error('The watchdog was started without pipes');
    this.stdin = child.stdin;
    this.stdout = child.stdout;
    this.stderr = child.stderr;
    // A program that exits while we write must not crash Toolscope with EPIPE.
    this.stdin.on('error', () => undefined);
    const control = child.stdio[3] as Socket;
    let report: ExitInfo | undefined;
    let resolveStarted!: (pid: number) => void;
    let rejectStarted!: (error: Error) => void;
    this.started = new Promise<number>((resolve, reject) => {
      resolveStarted = resolve;
      rejectStarted = reject;
    });
    this.started.catch(() => undefined);
    let buffered = '';
    control.setEncoding('utf8');
    control.on('error', () => undefined);
    control.on('data', (chunk: string) => {
      buffered += chunk;
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        try {
          const message = JSON.parse(line) as {
            pid?: number;
            exit?: { code: number | null; signal: string | null };
            error?: string;
          };
          if (typeof message.pid === 'number') {
            this.pid = message.pid;
            resolveStarted(message.pid);
          } else if (message.exit) report = { code: message.exit.code, signal: message.exit.signal };
          else if (typeof message.error === 'string') {
            report = { code: null, signal: null, error: message.error };
            rejectStarted(new Error(message.error));
          }
        } catch {
          // Only the watchdog writes here; a torn line is ignored.
        }
      }
    });
    this.exited = new Promise<ExitInfo>((resolve) => {
      let own: ExitInfo = { code: null, signal: null };
      let timer: NodeJS.Timeout | undefined;
      const finish = () => {
        if (this.ended) return;
        this.ended = true;
        clearTimeout(timer);
        control.destroy();
        const info = report ?? own;
        rejectStarted(new Error(info.error ?? 'The program exited before it started'));
        resolve(info);
      };
      child.on('exit', (code, signal) => {
        own = { code, signal };
        // Let stdout/stderr drain ('close'), but a descendant that escaped the group may hold them.
        timer = setTimeout(finish, CLOSE_WAIT_MS);
      });
      child.on('close', finish);
      child.on('error', (error) => {
        own = { code: null, signal: null, error: error.message };
        finish();
      });
    });
  }

  get running(): boolean {
    return !this.ended;
  }

  /** Ends the program's stdin: the first step of the MCP stdio shutdown. */
  closeStdin(): void {
    this.stdin.end();
  }

  /**
   * Signals the program and everything it started. SIGTERM goes to the program's own processes
   * (the sandbox's plumbing would die of it and take the program down without its grace period);
   * SIGKILL goes to the group, whose bwrap ends the sandbox's PID namespace, and to every descendant
   * (a process that left the group with setsid is still a descendant).
   */
  signalGroup(signal: NodeJS.Signals): void {
    const descendants = descendantsOf(this.groupId);
    if (signal === 'SIGKILL') {
      trySignal(-this.groupId, signal);
      for (const entry of descendants) trySignal(entry.pid, signal);
      return;
    }
    const programs = descendants.filter((entry) => !PLUMBING.has(entry.name));
    if (programs.length === 0) trySignal(-this.groupId, signal);
    for (const entry of programs) trySignal(entry.pid, signal);
  }

  /** Resident memory of the program's processes (without the watchdog and the sandbox's plumbing), from /proc (null off Linux). */
  memoryBytes(): number | null {
    if (this.ended || process.platform !== 'linux') return null;
    let total = 0;
    let found = false;
    for (const entry of descendantsOf(this.groupId)) {
      if (PLUMBING.has(entry.name)) continue;
      try {
        const statm = fs.readFileSync(`/proc/${entry.pid}/statm`, 'utf8').split(' ');
        total += Number(statm[1]) * PAGE_SIZE;
        found = true;
      } catch {
        // The process ended while we looked.
      }
    }
    return found ? total : null;
  }
}

function trySignal(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Gone already.
  }
}

export function launchProgram(spec: LaunchSpec): ProgramProcess {
  const [command, ...args] = spec.argv;
  const folderFd =
    spec.folder === undefined ? undefined : fs.openSync(spec.folder, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY);
  try {
    const child = spawn(
      process.execPath,
      [
        '-e',
        WATCHDOG_SOURCE,
        folderFd === undefined ? '-' : '3',
        spec.network ? JSON.stringify(spec.network) : '-',
        command,
        ...args,
      ],
      {
        cwd: spec.cwd,
        env: spec.env,
        detached: true,
        shell: false,
        stdio: ['pipe', 'pipe', 'pipe', 'pipe', ...(folderFd === undefined ? [] : [folderFd])],
        windowsHide: true,
      },
    );
    return new ProgramProcess(child);
  } finally {
    if (folderFd !== undefined) fs.closeSync(folderFd);
  }
}
