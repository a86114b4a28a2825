// The telemetry feature's surface for other features: the workspace settings page renders this
// panel in its Telemetry tab (flag show_workspace_telemetry).
export { TelemetryPanel as WorkspaceTelemetryTab } from './components/TelemetryPanel';
