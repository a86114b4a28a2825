import { z } from 'zod';
import { uuid } from './queryFields';

// SPEC §3 Notification. Owned by the notifications module; other modules raise them through
// the server's NotificationService and the live stream carries them as { type: 'notification' }.
export const NOTIFICATION_SEVERITIES = ['info', 'success', 'warning', 'error', 'critical'] as const;
export const NOTIFICATION_TYPES = [
  'session_alert',
  'tool_server_status',
  'billing_alert',
  'workspace_invite',
  'system_announcement',
  'security_alert',
  'performance_warning',
  'deployment_update',
  // Beyond SPEC §3 (issue 36): the risk check of tool definitions, and the workspace's alert rules.
  'tool_risk',
  'alert_rule',
] as const;
export type NotificationSeverity = (typeof NOTIFICATION_SEVERITIES)[number];
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export const NotificationDto = z.object({
  id: z.string(),
  /** null for account-level notifications (workspace invitation, plan usage). */
  workspaceId: z.string().nullable(),
  title: z.string(),
  message: z.string(),
  severity: z.enum(NOTIFICATION_SEVERITIES),
  type: z.enum(NOTIFICATION_TYPES),
  isRead: z.boolean(),
  isArchived: z.boolean(),
  actionUrl: z.string().nullable(),
  createdAt: z.string(),
  /** Time of the latest occurrence: repeats of one condition are grouped into one notification. */
  updatedAt: z.string(),
  /** How many times the condition occurred while this notification was unread (1 = once). */
  occurrences: z.number().int(),
  metadata: z.record(z.string(), z.unknown()),
});
export type NotificationDto = z.infer<typeof NotificationDto>;

// ---- calls of SPEC §7 Notifications (docs/notifications.md) ----

/** Query strings carry booleans as text; anything but true/false is a 400 naming the field. */
const queryBoolean = z.enum(['true', 'false'], { error: "Expected 'true' or 'false'" }).transform((v) => v === 'true');

export const NOTIFICATION_PAGE_MAX = 100;
export const NotificationListQuery = z.object({
  /** That workspace's notifications plus the account-level ones (workspaceId null). */
  workspaceId: uuid.optional(),
  /** Default false: the inbox. true lists the archive. */
  isArchived: queryBoolean.optional(),
  isRead: queryBoolean.optional(),
  limit: z.coerce
    .number({ error: 'Expected a number' })
    .int('Expected an integer')
    .min(1, 'Must be at least 1')
    .max(NOTIFICATION_PAGE_MAX, `Must be at most ${NOTIFICATION_PAGE_MAX}`)
    .default(20),
  offset: z.coerce
    .number({ error: 'Expected a number' })
    .int('Expected an integer')
    .min(0, 'Must be 0 or more')
    .max(10_000_000)
    .default(0),
});
export type NotificationListQuery = z.input<typeof NotificationListQuery>;
/** GET /workspaces/{id}/notifications: the same filter, the workspace comes from the path. */
export const WorkspaceNotificationListQuery = NotificationListQuery.omit({ workspaceId: true });

export const NotificationListResult = z.object({
  /** Latest occurrence first. */
  notifications: z.array(NotificationDto),
  /** All notifications matching the filter (every page). */
  total: z.number().int(),
});
export type NotificationListResult = z.infer<typeof NotificationListResult>;

export const UnreadCountQuery = z.object({ workspaceId: uuid.optional() });
export const UnreadCountResult = z.object({ count: z.number().int() });
export type UnreadCountResult = z.infer<typeof UnreadCountResult>;

export const NOTIFICATION_IDS_MAX = 500;
export const NotificationIdsBody = z.object({
  notificationIds: z
    .array(uuid)
    .min(1, 'At least one notification id')
    .max(NOTIFICATION_IDS_MAX, `At most ${NOTIFICATION_IDS_MAX} ids`),
});
export type NotificationIdsBody = z.infer<typeof NotificationIdsBody>;

/** An empty body (or none) marks everything of the caller read. */
export const MarkAllReadBody = z.object({ workspaceId: uuid.optional() });
export type MarkAllReadBody = z.infer<typeof MarkAllReadBody>;

/** Answer of the bulk changes: how many of the caller's notifications changed. */
export const NotificationUpdateResult = z.object({ updated: z.number().int() });
export type NotificationUpdateResult = z.infer<typeof NotificationUpdateResult>;

// ---- per-workspace thresholds (GET/PUT /workspaces/{id}/notification-settings) ----

export const NotificationSettings = z.object({
  /** A session alerts when this share of its calls failed (percent). */
  sessionErrorRatePercent: z.number().min(1, 'Must be at least 1').max(100, 'Must be at most 100'),
  /** A session warns when the 95th percentile of its call durations reaches this (ms). */
  sessionP95LatencyMs: z
    .number()
    .int('Expected an integer')
    .min(1, 'Must be at least 1')
    .max(600_000, 'Must be at most 600000'),
  /** Calls a session needs before its error rate or latency is judged. */
  sessionMinCalls: z
    .number()
    .int('Expected an integer')
    .min(1, 'Must be at least 1')
    .max(100_000, 'Must be at most 100000'),
  /** Repeats of one condition within this many minutes update the unread notification instead of adding one. */
  groupingWindowMinutes: z
    .number()
    .int('Expected an integer')
    .min(1, 'Must be at least 1')
    .max(10_080, 'Must be at most 10080'),
  /** Types this workspace does not notify about. */
  mutedTypes: z.array(z.enum(NOTIFICATION_TYPES)).max(NOTIFICATION_TYPES.length),
});
export type NotificationSettings = z.infer<typeof NotificationSettings>;

export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = {
  sessionErrorRatePercent: 25,
  sessionP95LatencyMs: 5_000,
  sessionMinCalls: 10,
  groupingWindowMinutes: 60,
  mutedTypes: [],
};

/** PUT body: any subset; omitted fields keep their value. */
export const UpdateNotificationSettingsBody = NotificationSettings.partial().strict();
export type UpdateNotificationSettingsBody = z.infer<typeof UpdateNotificationSettingsBody>;

/** Share of the plan's monthly agent calls at which the account owner is told (billing_alert). */
export const AGENT_CALL_USAGE_ALERT_PERCENTS = [80, 100] as const;

/** Texts of the bell's toasts (SPEC §8): errors carry the title 'Error' and a text of ErrorText. */
export const NotificationToastText = {
  errorTitle: 'Error',
  allMarkedRead: 'All notifications marked as read',
  archived: 'Notifications archived',
} as const;
