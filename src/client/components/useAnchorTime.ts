import { useState, useSyncExternalStore } from 'react';

// A relative time range ("last 24 hours") is anchored when what it belongs to changes (the
// filters), not on every render: the anchor is read like an external store (as useClock reads its
// clocks), so render stays pure and a query built from it stays the same until the key changes.

/** The time a key took its current value. */
class TimeAnchor {
  private key: string | undefined;
  private atMs = 0;

  timeFor(key: string): number {
    if (key !== this.key) {
      this.key = key;
      this.atMs = Date.now();
    }
    return this.atMs;
  }
}

/** Nothing moves the anchor but a new key, so nothing is subscribed to. */
function subscribeToNothing(): () => void {
  return () => undefined;
}

/** The time (ms) at which `key` took its current value in this component. */
export function useAnchorTime(key: string): number {
  const [anchor] = useState(() => new TimeAnchor());
  return useSyncExternalStore(subscribeToNothing, () => anchor.timeFor(key));
}
