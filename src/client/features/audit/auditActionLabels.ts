import type { AuditAction } from '../../../contract/audit';

/** What each security event says in the audit log, in words an owner reads at a glance. */
export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  'member.invited': 'Member invited',
  'member.joined': 'Member joined',
  'member.removed': 'Member removed',
  'member.left': 'Member left',
  'member.role_changed': 'Role changed',
  'invitation.declined': 'Invitation declined',
  'invitation.revoked': 'Invitation revoked',
  'server.credentials_dropped': 'Server credentials dropped',
  'upstream.refused_private': 'Private upstream refused',
  'auth.locked_out': 'Sign-in locked',
  'auth.refresh_token_reused': 'Stolen sign-in detected',
  'auth.password_changed': 'Password changed',
  'auth.identity_linked': 'Identity provider connected',
  'key.created': 'Platform key created',
  'key.revoked': 'Platform key revoked',
  'workspace_key.created': 'Workspace key created',
  'workspace_key.rotated': 'Workspace key changed',
  'workspace_key.hosts_changed': 'Workspace key hosts changed',
  'workspace_key.deleted': 'Workspace key deleted',
  'server.credentials_changed': 'Server credentials changed',
  'integration.created': 'Integration added',
  'integration.updated': 'Integration changed',
  'integration.deleted': 'Integration removed',
  'exporter.created': 'Telemetry exporter added',
  'exporter.updated': 'Telemetry exporter changed',
  'exporter.deleted': 'Telemetry exporter removed',
  'deployment.started': 'Deployment started',
  'deployment.stopped': 'Deployment stopped',
  'session.deleted': 'Session deleted',
  'data.exported': 'Data exported',
};

/** An action the server added after this client was built still shows, as its code. */
export function auditActionLabel(action: string): string {
  return (AUDIT_ACTION_LABELS as Record<string, string>)[action] ?? action;
}

/** The event's details as "key: value" pairs, for the row's second line. */
export function auditDetailsText(details: Record<string, unknown>): string {
  return Object.entries(details)
    .filter(([, value]) => value !== null && value !== undefined && value !== '')
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' · ');
}
