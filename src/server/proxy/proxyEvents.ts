import { EventEmitter } from 'node:events';

// What the proxy tells the monitor (schema drift) as traffic passes. Listeners must be cheap:
// they run on the proxy's path.
export interface ProxyEventMap {
  /** A tools/list result passed from the upstream (before any pinned-schema rewrite). */
  tools_list: [{ workspaceId: string; serverId: string; tools: unknown[]; nextCursor?: string }];
  /** notifications/{tools,prompts,resources}/list_changed passed from the upstream. */
  list_changed: [{ workspaceId: string; serverId: string; kind: 'tools' | 'prompts' | 'resources' }];
  /** A request other than tools/call was answered (tool calls are announced once recorded): for its span. */
  mcp_request: [McpRequestEvent];
}

export interface McpRequestEvent {
  workspaceId: string;
  serverId: string;
  /** Where the proxy sent the request (its span's server.address/port, known without any lookup). */
  serverUrl: string;
  /** The recorded session (null while recording is off). */
  sessionId: string | null;
  mcpSessionId: string | null;
  /** The recorded session's transport and start: the id the agent holds is sealed from them (telemetry). */
  transport: string | null;
  sessionStartedAt: string | null;
  protocolVersion: string | null;
  clientName: string | null;
  method: string;
  jsonrpcId: string;
  traceparent: string | null;
  startedMs: number;
  endedMs: number;
  /** The JSON-RPC error code when the answer was an error. */
  errorCode: number | null;
  errorMessage: string | null;
}

export class ProxyEvents extends EventEmitter<ProxyEventMap> {}
