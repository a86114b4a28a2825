import { CallPacer, type QuotaReading } from './callPacer';

// The demo's trickle paced to its plan (callPacer.ts): before every episode the month's count is
// read again, the pacer says when the next one may start (or that the agent pauses), and what the
// pacer notes — slowing down, pausing — is printed once.

/** Timers cannot wait a month (setTimeout's limit is ~24.8 days), and a pause re-reads the count hourly. */
const LONGEST_WAIT_MS = 60 * 60_000;

export interface PacedTrickle {
  stop(): void;
}

export function startPacedTrickle(options: {
  launch: () => void;
  readQuota: () => Promise<QuotaReading>;
  baseEveryMs: number;
  callsPerEpisode: number;
  print: (line: string) => void;
  now?: () => number;
}): PacedTrickle {
  const now = options.now ?? Date.now;
  const pacer = new CallPacer({ baseEveryMs: options.baseEveryMs, callsPerEpisode: options.callsPerEpisode });
  let stopRequested = false;
  // A function, not the variable: a stop() during an await is seen after it (and lint agrees).
  const stopped = () => stopRequested;
  let timer: NodeJS.Timeout | undefined;
  const sleep = (ms: number) => new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));

  const run = async () => {
    while (!stopped()) {
      let decision;
      try {
        decision = pacer.decide(await options.readQuota(), now());
      } catch {
        // Toolscope busy or restarting: ask again at the lively pace rather than run blind.
        await sleep(options.baseEveryMs);
        continue;
      }
      if (decision.note) options.print(decision.note);
      if (decision.kind === 'pause') {
        await sleep(Math.max(1_000, Math.min(LONGEST_WAIT_MS, decision.untilMs - now())));
        continue;
      }
      // ±30 %, so the sessions do not tick like a clock.
      const launchAt = now() + decision.delayMs * (0.7 + Math.random() * 0.6);
      while (!stopped() && now() < launchAt) await sleep(Math.min(LONGEST_WAIT_MS, launchAt - now()));
      if (!stopped()) options.launch();
    }
  };
  void run();
  return {
    stop() {
      stopRequested = true;
      clearTimeout(timer);
    },
  };
}
