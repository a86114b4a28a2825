// What other features may use of workspaces besides its slice and API: the remembered default.
export { saveDefaultWorkspaceId } from './workspaceSelection';
