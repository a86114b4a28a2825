// The redaction feature's surface: the workspace settings page renders this tab.
export { RedactionTab as WorkspaceRedactionTab } from './components/RedactionTab';
