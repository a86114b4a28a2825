// Every process a journey starts is recorded here the moment it is spawned, so afterAll can stop
// it even when a hook timed out before the handle reached the test.
type Stopper = () => Promise<void>;
const stoppers = new Set<Stopper>();

export function registerStopper(stop: Stopper): () => void {
  stoppers.add(stop);
  return () => stoppers.delete(stop);
}

/** Stops everything still running, newest first (the browser before the app it talks to). */
export async function stopEverythingStarted(): Promise<void> {
  for (const stop of [...stoppers].reverse()) {
    stoppers.delete(stop);
    await stop().catch((error: unknown) => console.error('could not stop a journey process', error));
  }
}
