import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database';
import type { KeyRefusalReason } from '../../contract/keys';
import { insertRefusals, type RefusalEntry } from '../data/keys/platformKeyStore';

// Refused uses of platform keys, written off the hot path: refusals are merged per workspace, key,
// server and reason for a second and written in one statement. The buffer is bounded, so a flood of
// made-up keys costs at most MAX_ENTRIES rows a second (the excess is counted, not stored).
const FLUSH_MS = 1_000;
const MAX_ENTRIES = 500;

export class KeyRefusalLog {
  private pending = new Map<string, RefusalEntry>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  dropped = 0;

  constructor(
    private readonly db: Database,
    private readonly log?: FastifyBaseLogger,
  ) {}

  add(
    workspaceId: string,
    keyId: string | null,
    presentedPrefix: string | null,
    serverId: string | null,
    reason: KeyRefusalReason,
  ): void {
    const id = `${workspaceId}|${keyId}|${presentedPrefix}|${serverId}|${reason}`;
    const existing = this.pending.get(id);
    if (existing) {
      existing.count++;
      return;
    }
    if (this.pending.size >= MAX_ENTRIES) {
      this.dropped++;
      return;
    }
    this.pending.set(id, {
      workspaceId,
      keyId,
      presentedPrefix,
      serverId,
      reason,
      count: 1,
      at: new Date().toISOString(),
    });
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), FLUSH_MS);
      this.timer.unref();
    }
  }

  /** Writes what is buffered (the timer does it; shutdown and tests call it). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const entries = [...this.pending.values()];
    this.pending = new Map();
    this.writing = this.writing
      .then(() => insertRefusals(this.db, entries))
      .catch((error: unknown) => this.log?.error({ err: error }, 'platform key refusals not written'));
    return this.writing;
  }
}
