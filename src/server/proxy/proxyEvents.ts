import { EventEmitter } from 'node:events';

// What the proxy tells the monitor (schema drift) as traffic passes. Listeners must be cheap:
// they run on the proxy's path.
export interface ProxyEventMap {
  /** A tools/list result passed from the upstream (before any pinned-schema rewrite). */
  tools_list: [{ workspaceId: string; serverId: string; tools: unknown[]; nextCursor?: string }];
  /** notifications/{tools,prompts,resources}/list_changed passed from the upstream. */
  list_changed: [{ workspaceId: string; serverId: string; kind: 'tools' | 'prompts' | 'resources' }];
}

export class ProxyEvents extends EventEmitter<ProxyEventMap> {}
