import { randomUUID } from 'node:crypto';
import type { LiveMessage } from '../../contract/live';
import type { Database } from '../db/database';
import type { EventBus } from './bus';

// Carries bus messages between Toolscope instances sharing one PostgreSQL, so a dashboard
// connected to instance A sees what instance B's proxy recorded. Every local publish goes out
// as NOTIFY; every NOTIFY from another instance is published on the local bus (marked, so it is
// not sent back out). NOTIFY payloads are limited to 8000 bytes: a larger message (a tool call
// with a big result) is not relayed — other instances' dashboards see it when they reload.
export const LIVE_CHANNEL = 'toolscope_live';
export const MAX_NOTIFY_PAYLOAD_BYTES = 7999;

interface RelayEnvelope {
  /** Instance that published it. */
  o: string;
  /** Workspace id. */
  w: string;
  m: LiveMessage;
}

export interface BusRelay {
  readonly instanceId: string;
  /** Messages too large for NOTIFY, skipped since start. */
  readonly oversizedSkipped: number;
  stop(): Promise<void>;
}

export async function startBusRelay(bus: EventBus, db: Database, onError: (error: unknown) => void = () => undefined): Promise<BusRelay> {
  const instanceId = randomUUID();
  const relayed = new WeakSet<LiveMessage>();
  let oversizedSkipped = 0;
  let stopped = false;

  const unlisten = await db.listen(LIVE_CHANNEL, (payload) => {
    let envelope: RelayEnvelope;
    try {
      envelope = JSON.parse(payload) as RelayEnvelope;
    } catch {
      return;
    }
    if (envelope.o === instanceId || typeof envelope.w !== 'string' || typeof envelope.m?.type !== 'string') return;
    const message: LiveMessage = { ...envelope.m, at: envelope.m.at ?? new Date().toISOString() };
    relayed.add(message);
    bus.publish(envelope.w, message);
  });

  const unsubscribe = bus.subscribeAll((workspaceId, message) => {
    if (stopped || relayed.has(message)) return;
    const payload = JSON.stringify({ o: instanceId, w: workspaceId, m: message } satisfies RelayEnvelope);
    if (Buffer.byteLength(payload) > MAX_NOTIFY_PAYLOAD_BYTES) {
      oversizedSkipped++;
      return;
    }
    db.notify(LIVE_CHANNEL, payload).catch(onError);
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
