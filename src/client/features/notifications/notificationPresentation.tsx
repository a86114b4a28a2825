import type { ReactElement } from 'react';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlineOutlined';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import ReportOutlinedIcon from '@mui/icons-material/ReportOutlined';
import WarningAmberOutlinedIcon from '@mui/icons-material/WarningAmberOutlined';
import type { NotificationSeverity, NotificationType } from '../../../contract/notifications';

// How a notification's severity and type read at a glance in the bell.
export const SEVERITY_LOOK: Record<
  NotificationSeverity,
  { label: string; color: 'info' | 'success' | 'warning' | 'error'; icon: ReactElement }
> = {
  info: { label: 'Info', color: 'info', icon: <InfoOutlinedIcon fontSize="small" /> },
  success: { label: 'Success', color: 'success', icon: <CheckCircleOutlineIcon fontSize="small" /> },
  warning: { label: 'Warning', color: 'warning', icon: <WarningAmberOutlinedIcon fontSize="small" /> },
  error: { label: 'Error', color: 'error', icon: <ErrorOutlineIcon fontSize="small" /> },
  critical: { label: 'Critical', color: 'error', icon: <ReportOutlinedIcon fontSize="small" /> },
};

export const TYPE_LABEL: Record<NotificationType, string> = {
  session_alert: 'Session',
  tool_server_status: 'Server status',
  billing_alert: 'Billing',
  workspace_invite: 'Invitation',
  system_announcement: 'Announcement',
  security_alert: 'Security',
  performance_warning: 'Performance',
  deployment_update: 'Deployment',
  tool_risk: 'Tool risk',
  alert_rule: 'Alert rule',
};

/** In-app paths go through the router; absolute http(s) URLs open in a new tab; anything else is ignored. */
export function actionTarget(
  actionUrl: string | null,
): { kind: 'route'; to: string } | { kind: 'external'; href: string } | null {
  if (!actionUrl) return null;
  if (actionUrl.startsWith('/') && !actionUrl.startsWith('//')) return { kind: 'route', to: actionUrl };
  if (/^https?:\/\//i.test(actionUrl)) return { kind: 'external', href: actionUrl };
  return null;
}
