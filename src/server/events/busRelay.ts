import { randomUUID } from 'node:crypto';
import type { LiveMessage } from '../../contract/live';
import type { Database } from '../db/database';
import type { EventBus } from './bus';

// Carries bus messages between Toolscope instances sharing one PostgreSQL, so a dashboard
// connected to instance A sees what instance B's proxy recorded. Local publishes go out as
// NOTIFY; every NOTIFY from another instance is published on the local bus (marked, so it is not
// sent back out), in the order it was published. What is published in one turn of the event loop
// (a recorder flush announces its whole batch at once) travels packed into as few NOTIFYs as fit:
// one statement per message made the database pay a round trip for every recorded call. NOTIFY payloads are limited to 8000
// bytes: a larger message (a tool call with a big result) is not relayed — other instances'
// dashboards see it when they reload.
export const LIVE_CHANNEL = 'toolscope_live';
export const MAX_NOTIFY_PAYLOAD_BYTES = 7999;

interface RelayEntry {
  /** Workspace id. */
  w: string;
  m: LiveMessage;
}

/** An envelope as it arrives (another instance's JSON): each entry is checked before use. */
type ReceivedEnvelope = { [K in keyof RelayEnvelope]?: unknown };

interface RelayEnvelope {
  /** Instance that published it. */
  o: string;
  /** The messages, in publish order. */
  e: RelayEntry[];
}

export interface BusRelay {
  readonly instanceId: string;
  /** Messages too large for NOTIFY, skipped since start. */
  readonly oversizedSkipped: number;
  stop(): Promise<void>;
}

// Messages this process received from another instance. Module-wide so listeners that must act
// once per cluster (telemetry export) can tell a relayed copy from a local original.
const relayedMessages = new WeakSet<LiveMessage>();

/** Did this message come from another instance (the original was handled there)? */
export function isRelayedMessage(message: LiveMessage): boolean {
  return relayedMessages.has(message);
}

export async function startBusRelay(
  bus: EventBus,
  db: Database,
  onError: (error: unknown) => void = () => undefined,
): Promise<BusRelay> {
  const instanceId = randomUUID();
  const relayed = relayedMessages;
  let oversizedSkipped = 0;
  let stopped = false;

  const head = `{"o":${JSON.stringify(instanceId)},"e":[`;
  const unlisten = await db.listen(LIVE_CHANNEL, (payload) => {
    // PostgreSQL delivers our own NOTIFYs back to us: recognised by their start, not parsed.
    if (payload.startsWith(head)) return;
    let envelope: ReceivedEnvelope;
    try {
      envelope = JSON.parse(payload) as ReceivedEnvelope;
    } catch {
      return;
    }
    if (envelope.o === instanceId || !Array.isArray(envelope.e)) return;
    for (const entry of envelope.e as (Partial<RelayEntry> | null | undefined)[]) {
      if (typeof entry?.w !== 'string' || typeof entry.m?.type !== 'string') continue;
      const message: LiveMessage = { ...entry.m, at: entry.m.at ?? new Date().toISOString() };
      relayed.add(message);
      bus.publish(entry.w, message);
    }
  });

  // Entries (as JSON) waiting to be sent. One NOTIFY statement is in flight at a time: two on
  // separate pool connections could commit, and be delivered, out of order. What is published
  // meanwhile goes out in the next statement, packed into as few envelopes as fit.
  let pending: string[] = [];
  let scheduled = false;
  let sending = false;
  const headBytes = Buffer.byteLength(head) + 2;

  const pack = (entries: string[]): string[] => {
    const envelopes: string[] = [];
    let batch: string[] = [];
    let bytes = headBytes;
    const close = () => {
      if (batch.length) envelopes.push(`${head}${batch.join(',')}]}`);
      batch = [];
      bytes = headBytes;
    };
    for (const entry of entries) {
      const size = Buffer.byteLength(entry) + 1;
      if (headBytes + size > MAX_NOTIFY_PAYLOAD_BYTES) {
        oversizedSkipped++;
        continue;
      }
      if (bytes + size > MAX_NOTIFY_PAYLOAD_BYTES) close();
      batch.push(entry);
      bytes += size;
    }
    close();
    return envelopes;
  };

  const sendPending = () => {
    scheduled = false;
    if (stopped || sending || pending.length === 0) return;
    const envelopes = pack(pending);
    pending = [];
    if (envelopes.length === 0) return;
    sending = true;
    db.notify(LIVE_CHANNEL, ...envelopes)
      .catch(onError)
      .finally(() => {
        sending = false;
        sendPending();
      });
  };

  const unsubscribe = bus.subscribeAll((workspaceId, message) => {
    if (stopped || relayed.has(message)) return;
    pending.push(JSON.stringify({ w: workspaceId, m: message } satisfies RelayEntry));
    // The rest of this turn of the event loop (a recorder flush announcing its batch) joins it.
    if (!scheduled && !sending) {
      scheduled = true;
      setImmediate(sendPending);
    }
  });

  return {
    instanceId,
    get oversizedSkipped() {
      return oversizedSkipped;
    },
    async stop() {
      stopped = true;
      unsubscribe();
      await unlisten();
    },
  };
}
