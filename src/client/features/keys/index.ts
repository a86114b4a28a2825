// The keys feature's surface for other features: Workspace Settings renders this tab.
export { WorkspaceSecurityTab } from './components/WorkspaceSecurityTab';
