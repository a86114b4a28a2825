import { z } from 'zod';

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
] as const;
export type NotificationSeverity = (typeof NOTIFICATION_SEVERITIES)[number];
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export const NotificationDto = z.object({
  id: z.string(),
  workspaceId: z.string().nullable(),
  title: z.string(),
  message: z.string(),
  severity: z.enum(NOTIFICATION_SEVERITIES),
  type: z.enum(NOTIFICATION_TYPES),
  isRead: z.boolean(),
  isArchived: z.boolean(),
  actionUrl: z.string().nullable(),
  createdAt: z.string(),
  metadata: z.record(z.string(), z.unknown()),
});
export type NotificationDto = z.infer<typeof NotificationDto>;
