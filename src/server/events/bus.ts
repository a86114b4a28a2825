import type { LiveMessage } from '../../contract/live';

// The in-process event bus: publishers (proxy recorder, health monitor, notifications) send a
// message to a workspace; the live stream of that workspace and any other listener receive it.
// Delivery to a slow subscriber must never block a publisher, so handlers are called
// synchronously and are expected to only enqueue.
export type BusHandler = (message: LiveMessage) => void;

export class EventBus {
  private readonly byWorkspace = new Map<string, Set<BusHandler>>();
  private readonly everything = new Set<(workspaceId: string, message: LiveMessage) => void>();

  publish(workspaceId: string, message: LiveMessage): void {
    if (!this.isListened(workspaceId)) return;
    const stamped = message.at ? message : { ...message, at: new Date().toISOString() };
    for (const handler of this.byWorkspace.get(workspaceId) ?? []) this.safely(() => handler(stamped));
    for (const handler of this.everything) this.safely(() => handler(workspaceId, stamped));
  }

  subscribe(workspaceId: string, handler: BusHandler): () => void {
    let set = this.byWorkspace.get(workspaceId);
    if (!set) this.byWorkspace.set(workspaceId, (set = new Set()));
    set.add(handler);
    return () => {
      set.delete(handler);
      if (set.size === 0) this.byWorkspace.delete(workspaceId);
    };
  }

  /** Every message of every workspace (cross-instance relays, tests). */
  subscribeAll(handler: (workspaceId: string, message: LiveMessage) => void): () => void {
    this.everything.add(handler);
    return () => this.everything.delete(handler);
  }

  /** Whether a message to this workspace would reach anyone (publishers may skip building it). */
  isListened(workspaceId: string): boolean {
    return this.everything.size > 0 || this.byWorkspace.has(workspaceId);
  }

  /** Subscriptions to single workspaces, all of them together (live streams and exporters). */
  totalSubscribers(): number {
    let total = 0;
    for (const set of this.byWorkspace.values()) total += set.size;
    return total;
  }

  subscriberCount(workspaceId: string): number {
    return this.byWorkspace.get(workspaceId)?.size ?? 0;
  }

  private safely(fn: () => void): void {
    try {
      fn();
    } catch {
      // A failing subscriber must not break the publisher or the other subscribers.
    }
  }
}
