// The audit feature's surface: the workspace settings page renders this panel in its Audit log tab.
export { AuditLogPanel as WorkspaceAuditLogTab } from './components/AuditLogPanel';
