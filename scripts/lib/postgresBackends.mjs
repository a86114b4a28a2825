// The CPU a bench's own PostgreSQL database costs: the backends serving it, found by their process
// title (`postgres: user database host(port) state`), not every postgres process of the machine —
// other sessions' test suites use the same server, and counting their backends made the figure
// swing with them. The server's shared processes (WAL writer, checkpointer, autovacuum) serve every
// database and are left out. Backends are read every 250 ms and each one's last figure is kept, so
// one that exits during a phase (the pool closes idle connections) still counts what it spent.
import fs from 'node:fs';
import { processCpuMicros } from './ipcChild.mjs';

const SAMPLE_MS = 250;

export function trackDatabaseBackends(database) {
  const spent = new Map();
  const sample = () => {
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      let title;
      try {
        title = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      } catch {
        continue; // gone meanwhile
      }
      if (!title.startsWith('postgres: ') || !title.split(' ').includes(database)) continue;
      const micros = processCpuMicros(Number(entry));
      if (Number.isFinite(micros)) spent.set(entry, micros);
    }
  };
  sample();
  const timer = setInterval(sample, SAMPLE_MS);
  timer.unref();
  return {
    /** µs of CPU the database's backends have spent so far (since each started). */
    micros() {
      sample();
      let total = 0;
      for (const micros of spent.values()) total += micros;
      return total;
    },
    stop: () => clearInterval(timer),
  };
}
