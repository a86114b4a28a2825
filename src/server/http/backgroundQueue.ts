import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

// Work a route hands off so its answer does not wait for (or reveal) it: run one at a time, in
// order, failures logged. `idle()` resolves once everything pushed so far has run (shutdown,
// tests). Bounded: past MAX_PENDING jobs new ones are dropped (the per-client rate limit keeps a
// single client far below it; this only guards memory against a distributed flood).
const MAX_PENDING = 1_000;

export class BackgroundQueue {
  private tail: Promise<void> = Promise.resolve();
  private pending = 0;

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly failureMessage: string,
  ) {}

  push(job: () => Promise<void>): boolean {
    if (this.pending >= MAX_PENDING) return false;
    this.pending++;
    this.tail = this.tail
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(job)
      .catch((err: unknown) => this.log.error({ err }, this.failureMessage))
      .finally(() => {
        this.pending--;
      });
    return true;
  }

  idle(): Promise<void> {
    return this.tail;
  }
}

// The queues of each app, by its HTTP server (shared by every encapsulated plugin scope), so
// tests can wait for handed-off work without reaching into a plugin.
const queuesByServer = new WeakMap<object, Set<BackgroundQueue>>();

export function createBackgroundQueue(app: FastifyInstance, failureMessage: string): BackgroundQueue {
  const queue = new BackgroundQueue(app.log, failureMessage);
  let set = queuesByServer.get(app.server);
  if (!set) queuesByServer.set(app.server, (set = new Set()));
  set.add(queue);
  app.addHook('onClose', () => queue.idle());
  return queue;
}

/** Resolves when every background queue of the app has run what was pushed so far. */
export async function backgroundWorkIdle(app: FastifyInstance): Promise<void> {
  await Promise.all([...(queuesByServer.get(app.server) ?? [])].map((queue) => queue.idle()));
}
