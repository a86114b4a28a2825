import type { FastifyBaseLogger } from 'fastify';
import { LiveMessageTypes, type NotificationLiveMessage } from '../../contract/live';
import type { NotificationDto, NotificationSeverity, NotificationType } from '../../contract/notifications';
import type { Database, Queryable } from '../db/database';
import type { EventBus } from '../events/bus';
import type { NotificationSettingsStore } from './NotificationSettingsStore';
import { NOTIFICATION_COLUMNS, toNotificationDto, type NotificationRow } from './notificationRow';
import { enqueueNotificationMails } from './notificationMail';

declare module 'fastify' {
  interface FastifyInstance {
    /** Raises notifications (other modules call it; see docs/notifications.md). */
    notifications: NotificationService;
  }
}

export interface RaiseInput {
  workspaceId: string;
  type: NotificationType;
  severity: NotificationSeverity;
  title: string;
  message: string;
  /** An in-app path (e.g. /sessions/{id}) or an absolute URL the bell follows on click. */
  actionUrl?: string | null;
  metadata?: Record<string, unknown>;
  /**
   * Names the condition. Without it every raise adds a notification. With it:
   * 'group' (default): a repeat within the workspace's grouping window bumps the recipient's
   * unread notification of that key (occurrences + 1, latest text and time) instead of adding one;
   * 'once': a recipient who ever had a notification of that key gets no other.
   */
  groupKey?: string;
  repeat?: 'group' | 'once';
}

/** Account-level notifications (an invitation, plan usage) may belong to no workspace. */
export type UserRaiseInput = Omit<RaiseInput, 'workspaceId'> & { workspaceId?: string | null };

const DEFAULT_GROUPING_WINDOW_MINUTES = 60;

/** A workspace notification as stored anew (not a grouped repeat), for what else must hear of it. */
export interface RaisedNotification extends RaiseInput {
  raisedAt: Date;
}
/**
 * Runs in the transaction that stored the notification (integrations queue their deliveries
 * there, so a crash can neither lose one nor send one for a notification that was rolled back).
 */
export type NotificationOutlet = (tx: Queryable, raised: RaisedNotification) => Promise<AfterCommit | undefined>;
/** What an outlet wants done once its rows are committed (e.g. wake the sender). */
export type AfterCommit = () => void;

export interface NotificationServiceDeps {
  db: Database;
  bus: EventBus;
  settings: NotificationSettingsStore;
  clock?: () => Date;
  log?: FastifyBaseLogger;
}

/**
 * Stores notifications, one row per recipient (a user only ever sees their own), groups repeats
 * of one condition, and pushes each new or bumped notification on the live stream as
 * { type: 'notification', data, userId } so only the recipient's streams deliver it.
 */
export class NotificationService {
  private readonly clock: () => Date;
  private readonly outlets: NotificationOutlet[] = [];

  constructor(private readonly deps: NotificationServiceDeps) {
    this.clock = deps.clock ?? (() => new Date());
  }

  /** Workspace notifications raised from now on also reach `outlet` (account-level ones do not). */
  addOutlet(outlet: NotificationOutlet): void {
    this.outlets.push(outlet);
  }

  /** One notification for every member of the workspace (none when the workspace mutes the type). */
  async raise(input: RaiseInput): Promise<NotificationDto[]> {
    const settings = await this.deps.settings.get(input.workspaceId);
    if (settings.mutedTypes.includes(input.type)) return [];
    const afterCommit: AfterCommit[] = [];
    const rows = await this.store(
      input,
      input.workspaceId,
      settings.groupingWindowMinutes,
      (tx) =>
        tx
          .query<{ user_id: string }>('select user_id from workspace_members where workspace_id = $1', [
            input.workspaceId,
          ])
          .then((r) => r.map((m) => m.user_id)),
      (tx, raisedAt) => this.fanOut(tx, { ...input, raisedAt }, afterCommit),
    );
    for (const run of afterCommit) run();
    for (const row of rows) this.publish(input.workspaceId, row);
    return rows.map(toNotificationDto);
  }

  /** One notification for one user, e.g. an invitation to a workspace they are not a member of yet. */
  async raiseForUser(userId: string, input: UserRaiseInput): Promise<NotificationDto | null> {
    const workspaceId = input.workspaceId ?? null;
    const window = workspaceId
      ? (await this.deps.settings.get(workspaceId)).groupingWindowMinutes
      : DEFAULT_GROUPING_WINDOW_MINUTES;
    const row = (await this.store(input, workspaceId, window, () => Promise.resolve([userId]))).at(0);
    if (!row) return null;
    if (workspaceId) {
      this.publish(workspaceId, row);
    } else {
      // The user may be looking at any of their workspaces: every one of their streams gets it.
      const memberships = await this.deps.db.query<{ workspace_id: string }>(
        'select workspace_id from workspace_members where user_id = $1',
        [userId],
      );
      for (const m of memberships) this.publish(m.workspace_id, row);
    }
    return toNotificationDto(row);
  }

  private async store(
    input: UserRaiseInput,
    workspaceId: string | null,
    groupingWindowMinutes: number,
    recipientsOf: (tx: Queryable) => Promise<string[]>,
    onStoredAnew?: (tx: Queryable, raisedAt: Date) => Promise<void>,
  ): Promise<NotificationRow[]> {
    const now = this.clock();
    return this.deps.db.transaction(async (tx) => {
      const groupKey = input.groupKey ?? null;
      if (groupKey) {
        // Two raises of one condition at once must not both insert.
        await tx.query('select pg_advisory_xact_lock(hashtext($1))', [`notification:${workspaceId ?? ''}:${groupKey}`]);
      }
      let recipients = await recipientsOf(tx);
      if (recipients.length === 0) return [];
      const stored: NotificationRow[] = [];
      if (groupKey && input.repeat === 'once') {
        const already = await tx.query<{ user_id: string }>(
          `select distinct user_id from notifications
            where user_id = any($1::uuid[]) and group_key = $2 and workspace_id is not distinct from $3::uuid`,
          [recipients, groupKey, workspaceId],
        );
        const skip = new Set(already.map((r) => r.user_id));
        recipients = recipients.filter((id) => !skip.has(id));
      } else if (groupKey) {
        const cutoff = new Date(now.getTime() - groupingWindowMinutes * 60_000);
        const bumped = await tx.query<NotificationRow>(
          `update notifications
              set occurrences = occurrences + 1, updated_at = $4, title = $5, message = $6, severity = $7,
                  action_url = $8, metadata = $9::jsonb
            where user_id = any($1::uuid[]) and group_key = $2 and workspace_id is not distinct from $3::uuid
              and not is_read and not is_archived and updated_at >= $10
          returning ${NOTIFICATION_COLUMNS}`,
          [
            recipients,
            groupKey,
            workspaceId,
            now,
            input.title,
            input.message,
            input.severity,
            input.actionUrl ?? null,
            JSON.stringify(input.metadata ?? {}),
            cutoff,
          ],
        );
        stored.push(...bumped);
        const grouped = new Set(bumped.map((r) => r.user_id));
        recipients = recipients.filter((id) => !grouped.has(id));
      }
      if (recipients.length > 0) {
        const inserted = await tx.query<NotificationRow>(
          `insert into notifications (user_id, workspace_id, title, message, severity, type, action_url, metadata, group_key, created_at, updated_at)
           select recipient, $2::uuid, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $10 from unnest($1::uuid[]) as recipient
           returning ${NOTIFICATION_COLUMNS}`,
          [
            recipients,
            workspaceId,
            input.title,
            input.message,
            input.severity,
            input.type,
            input.actionUrl ?? null,
            JSON.stringify(input.metadata ?? {}),
            groupKey,
            now,
          ],
        );
        stored.push(...inserted);
        await enqueueNotificationMails(
          tx,
          input,
          inserted.map((row) => row.user_id),
        );
      }
      // Outlets hear of a new condition, not of a repeat the bell groups — except a server's status:
      // the monitor raises it on each change, and offline → online → offline is an incident again.
      const repeat = stored.length > 0 && stored.length !== stored.filter((r) => r.occurrences === 1).length;
      if (stored.length > 0 && (!repeat || input.type === 'tool_server_status')) await onStoredAnew?.(tx, now);
      return stored;
    });
  }

  /** Each outlet behind a savepoint: one that fails is logged and never undoes the notification. */
  private async fanOut(tx: Queryable, raised: RaisedNotification, afterCommit: AfterCommit[]): Promise<void> {
    for (const outlet of this.outlets) {
      await tx.query('savepoint notification_outlet');
      try {
        const then = await outlet(tx, raised);
        if (then) afterCommit.push(then);
        await tx.query('release savepoint notification_outlet');
      } catch (err) {
        await tx.query('rollback to savepoint notification_outlet');
        this.deps.log?.error({ err, workspaceId: raised.workspaceId }, 'a notification outlet failed');
      }
    }
  }

  private publish(workspaceId: string, row: NotificationRow): void {
    const message: NotificationLiveMessage = {
      type: LiveMessageTypes.notification,
      data: toNotificationDto(row),
      userId: row.user_id,
    };
    this.deps.bus.publish(workspaceId, message);
  }
}
