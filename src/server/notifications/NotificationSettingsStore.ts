import {
  DEFAULT_NOTIFICATION_SETTINGS,
  NotificationSettings,
  type UpdateNotificationSettingsBody,
} from '../../contract/notifications';
import type { Database } from '../db/database';

// Thresholds live in workspaces.settings under "notifications". The evaluators read them on the
// tool-call path, so reads are cached briefly; a PUT on this instance refreshes at once, other
// instances within CACHE_TTL_MS.
const CACHE_TTL_MS = 30_000;
const StoredSettings = NotificationSettings.partial();

export class NotificationSettingsStore {
  /** A read in flight is shared: a burst of calls (32 sessions' first flush) asks the database once. */
  private readonly cache = new Map<string, { settings: Promise<NotificationSettings>; expiresAt: number }>();

  constructor(
    private readonly db: Database,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  get(workspaceId: string): Promise<NotificationSettings> {
    const now = this.clock().getTime();
    const cached = this.cache.get(workspaceId);
    if (cached && cached.expiresAt > now) return cached.settings;
    const settings = this.db
      .query<{ stored: unknown }>("select settings->'notifications' as stored from workspaces where id = $1", [
        workspaceId,
      ])
      .then((rows) => withDefaults(rows[0]?.stored));
    const entry = { settings, expiresAt: now + CACHE_TTL_MS };
    this.cache.set(workspaceId, entry);
    // A failed read is not kept: the next caller asks again.
    settings.catch(() => {
      if (this.cache.get(workspaceId) === entry) this.cache.delete(workspaceId);
    });
    return settings;
  }

  async update(workspaceId: string, patch: UpdateNotificationSettingsBody): Promise<NotificationSettings> {
    // Merged onto the stored row, locked, not onto this instance's cache: two admins (or two
    // instances) changing different fields at once must not undo each other's change.
    const next = await this.db.transaction(async (tx) => {
      const rows = await tx.query<{ stored: unknown }>(
        "select settings->'notifications' as stored from workspaces where id = $1 for update",
        [workspaceId],
      );
      const merged = { ...withDefaults(rows[0]?.stored), ...patch };
      merged.mutedTypes = [...new Set(merged.mutedTypes)];
      await tx.query(
        `update workspaces
            set settings = settings || jsonb_build_object('notifications', $2::jsonb), updated_at = now()
          where id = $1`,
        [workspaceId, JSON.stringify(merged)],
      );
      return merged;
    });
    this.cache.set(workspaceId, { settings: Promise.resolve(next), expiresAt: this.clock().getTime() + CACHE_TTL_MS });
    return next;
  }
}

/** Stored values that no longer validate (an older format, a hand edit) fall back to the defaults. */
function withDefaults(stored: unknown): NotificationSettings {
  const parsed = StoredSettings.safeParse(stored ?? {});
  return { ...DEFAULT_NOTIFICATION_SETTINGS, ...(parsed.success ? stripUndefined(parsed.data) : {}) };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
