import type { NotificationType } from '../../../contract/notifications';

/** How each notification type is named in the email preferences. */
export const NOTIFICATION_TYPE_LABELS: Record<NotificationType, string> = {
  session_alert: 'Session alerts',
  tool_server_status: 'Tool server status (online / offline)',
  billing_alert: 'Billing and plan usage',
  workspace_invite: 'Workspace invitations',
  system_announcement: 'System announcements',
  security_alert: 'Security alerts',
  performance_warning: 'Performance warnings',
  deployment_update: 'Deployment updates',
  tool_risk: 'Risky tool definitions',
  alert_rule: 'Alert rules (firing and resolved)',
};
