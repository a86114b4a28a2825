// The integrations feature's surface for other features: the workspace settings page renders
// this panel in its Integrations tab (flag show_workspace_integrations).
export { IntegrationsPanel as WorkspaceIntegrationsTab } from './components/IntegrationsPanel';
