import { useCallback, useState, useSyncExternalStore } from 'react';

// Shared clocks: one timer per period for every component that shows a time relative to now,
// running only while someone listens (a list of 200 relative times costs one interval, not 200).
interface Clock {
  now: number;
  listeners: Set<() => void>;
  timer: ReturnType<typeof setInterval> | undefined;
}

const clocks = new Map<number, Clock>();

function clockOf(periodMs: number): Clock {
  let clock = clocks.get(periodMs);
  if (!clock) {
    clock = { now: Date.now(), listeners: new Set(), timer: undefined };
    clocks.set(periodMs, clock);
  }
  return clock;
}

function subscribe(periodMs: number, listener: () => void): () => void {
  const clock = clockOf(periodMs);
  clock.listeners.add(listener);
  if (!clock.timer) {
    clock.now = Date.now();
    clock.timer = setInterval(() => {
      clock.now = Date.now();
      for (const notify of clock.listeners) notify();
    }, periodMs);
  }
  return () => {
    clock.listeners.delete(listener);
    if (clock.listeners.size === 0 && clock.timer) {
      clearInterval(clock.timer);
      clock.timer = undefined;
    }
  };
}

/** The current time, updated every `periodMs` while the component is mounted. */
export function useClock(periodMs: number): number {
  // A stable subscribe (an inline one resubscribes every render, stopping and restarting the
  // timer) and a snapshot that only moves once per period: a snapshot read as Date.now() on every
  // call never settles, and React re-renders until it gives up ("Maximum update depth exceeded").
  const subscribeToClock = useCallback((listener: () => void) => subscribe(periodMs, listener), [periodMs]);
  return useSyncExternalStore(subscribeToClock, () => currentTime(periodMs));
}

/**
 * The current time to show `time` relative to: from the clock that redraws it as often as its label
 * needs (tickFor). The period is chosen from the clocks' own readings, not from Date.now() during
 * render; while `time` stays it only grows (an age only grows), so choosing settles in two steps.
 */
export function useClockFor(time: number): number {
  const [tick, setTick] = useState({ time, periodMs: 1_000 });
  const sameTime = Object.is(tick.time, time);
  const periodMs = sameTime ? tick.periodMs : 1_000;
  const now = useClock(periodMs);
  const wanted = Number.isFinite(time) ? tickFor(Math.abs(now - time)) : periodMs;
  if (!sameTime || wanted > periodMs) setTick({ time, periodMs: Math.max(wanted, periodMs) });
  return now;
}

/** The clock's time; a clock nobody runs is brought forward at most once per period. */
function currentTime(periodMs: number): number {
  const clock = clockOf(periodMs);
  if (!clock.timer && Date.now() - clock.now >= periodMs) clock.now = Date.now();
  return clock.now;
}

/** How often a time this old must be redrawn for its label ("12 seconds ago", "3 minutes ago") to stay true. */
export function tickFor(ageMs: number): number {
  if (ageMs < 60_000) return 1_000;
  if (ageMs < 3_600_000) return 15_000;
  return 300_000;
}
