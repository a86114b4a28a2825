import fs from 'node:fs';

// The processes a deployment consists of, read from /proc. A sandboxed program runs in a session
// of its own (bwrap --new-session) and may start more sessions, so its processes are found by
// descent from the watchdog, not by process group.
export interface ProcessEntry {
  pid: number;
  parentPid: number;
  /** The executable's short name (comm). */
  name: string;
}

export function listProcesses(): ProcessEntry[] {
  if (process.platform !== 'linux') return [];
  const entries: ProcessEntry[] = [];
  for (const name of safeReaddir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const open = stat.indexOf('(');
      const close = stat.lastIndexOf(')');
      const fields = stat.slice(close + 2).split(' ');
      if (fields[0] === 'Z') continue; // a zombie holds no resources and cannot be signalled away
      entries.push({ pid: Number(name), parentPid: Number(fields[1]), name: stat.slice(open + 1, close) });
    } catch {
      // The process ended while we looked.
    }
  }
  return entries;
}

/** Every descendant of `root` (not root itself). */
export function descendantsOf(root: number, processes = listProcesses()): ProcessEntry[] {
  const children = new Map<number, ProcessEntry[]>();
  for (const entry of processes) {
    const siblings = children.get(entry.parentPid);
    if (siblings) siblings.push(entry);
    else children.set(entry.parentPid, [entry]);
  }
  const found: ProcessEntry[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    for (const child of children.get(pid) ?? []) {
      found.push(child);
      queue.push(child.pid);
    }
  }
  return found;
}

export function readCommandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

export function safeReaddir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}
