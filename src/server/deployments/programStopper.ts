import type { ProgramProcess } from './processLauncher';

/**
 * MCP's stdio shutdown order: close the program's stdin and give it a moment to exit on its own,
 * then SIGTERM to its whole process group, then SIGKILL once the grace period is over. Resolves
 * when the watchdog reported the group gone.
 */
export async function stopProgram(program: ProgramProcess, graceMs: number): Promise<void> {
  if (!program.running) return;
  program.closeStdin();
  if (await exitsWithin(program, Math.min(graceMs, 2_000))) return;
  program.signalGroup('SIGTERM');
  if (await exitsWithin(program, graceMs)) return;
  program.signalGroup('SIGKILL');
  await program.exited;
}

async function exitsWithin(program: ProgramProcess, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    program.exited.then(() => true),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
  ]);
  clearTimeout(timer);
  return outcome;
}
