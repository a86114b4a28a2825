// A bench's helper process driven over IPC: `fork`ed with the bench's own node flags (plus
// `extraNodeArgs`), it says `{type: 'ready'}` when it can be asked, answers each `ask` with a
// message of the type named, and exits when sent `{type: 'exit'}`. Also reads a process's CPU.
import fs from 'node:fs';
import { fork } from 'node:child_process';

export function forkChild(script, args, { env = {}, extraNodeArgs = [] } = {}) {
  const name = args.join(' ');
  const proc = fork(script, args, {
    execArgv: [...process.execArgv, ...extraNodeArgs],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = (type) =>
    new Promise((resolve, reject) => {
      const onExit = (code) => reject(new Error(`${name} exited (${code})`));
      const onMessage = (message) => {
        if (message.type !== type) return;
        proc.off('message', onMessage);
        proc.off('exit', onExit);
        resolve(message);
      };
      proc.on('message', onMessage);
      proc.once('exit', onExit);
    });
  return {
    pid: proc.pid,
    ready: next('ready'),
    ask(message, reply) {
      const answer = next(reply);
      proc.send(message);
      return answer;
    },
    exit: () =>
      new Promise((resolve) => {
        proc.once('exit', resolve);
        proc.send({ type: 'exit' });
      }),
  };
}

/** BENCH_TOOLSCOPE_NODE_ARGS as a list of node flags. */
export const toolscopeNodeArgs = () => (process.env.BENCH_TOOLSCOPE_NODE_ARGS ?? '').split(' ').filter(Boolean);

/** CPU time of a process so far in µs (Linux /proc; user + system, all threads), or NaN elsewhere. */
export function processCpuMicros(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * (1_000_000 / 100);
  } catch {
    return Number.NaN;
  }
}
