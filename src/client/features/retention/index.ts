// The retention feature's surface: the workspace settings page renders this panel in its Data tab.
export { WorkspaceDataTab } from './components/WorkspaceDataTab';
