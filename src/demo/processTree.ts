import fs from 'node:fs';

// The processes below a pid, read from /proc (Linux). The demo notes them while they run and checks
// after its shutdown that none is left; elsewhere (no /proc) the list is empty and the check says so.

export function hasProcFs(): boolean {
  return fs.existsSync('/proc/self/stat');
}

/** A process as /proc shows it; `startTicks` tells a pid reused later from the one noted. */
export interface ProcessEntry {
  pid: number;
  parent: number;
  state: string;
  startTicks: string;
}

function readEntry(pid: number): ProcessEntry | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: fields after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { pid, state: fields[0], parent: Number(fields[1]), startTicks: fields[19] };
  } catch {
    return undefined;
  }
}

/** Every living descendant of `root` (children, grandchildren, …). */
export function descendantsOf(root: number): ProcessEntry[] {
  if (!hasProcFs()) return [];
  const children = new Map<number, ProcessEntry[]>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const entry = readEntry(Number(name));
    if (!entry || entry.state === 'Z') continue;
    children.set(entry.parent, [...(children.get(entry.parent) ?? []), entry]);
  }
  const found: ProcessEntry[] = [];
  const queue = [root];
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    for (const child of children.get(pid) ?? []) {
      found.push(child);
      queue.push(child.pid);
    }
  }
  return found;
}

/** Whether the process noted as `entry` still runs (a zombie has exited: it counts as gone). */
export function isStillRunning(entry: ProcessEntry): boolean {
  const now = readEntry(entry.pid);
  return now !== undefined && now.startTicks === entry.startTicks && now.state !== 'Z';
}
