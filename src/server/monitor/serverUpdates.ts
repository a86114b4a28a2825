import type { FastifyInstance } from 'fastify';
import { LiveMessageTypes } from '../../contract/live';
import type { ServerTransport } from '../../contract/servers';
import { toServerDto, type ServerRow } from '../modules/servers/mapper';

// Shared by the health monitor and schema discovery: load a server by id (no request, so no
// workspace in hand) and tell the workspace's live streams what it looks like now.
const COLUMNS = `id, workspace_id, name, url, description, transport, proxy_key, credentials_enc, status,
  last_health_status, last_checked, last_error, schema_count, created_at, updated_at`;

export async function loadServerById(app: FastifyInstance, serverId: string): Promise<ServerRow | undefined> {
  const rows = await app.db.query<ServerRow>(`select ${COLUMNS} from servers where id = $1`, [serverId]);
  return rows[0];
}

export function transportOf(row: ServerRow): ServerTransport {
  return row.transport === 'sse' ? 'sse' : 'streamable-http';
}

/**
 * Background work has no request to take the public origin from: the proxy URL in a live
 * message uses TOOLSCOPE_PUBLIC_URL, else this instance's own port on localhost.
 */
export function backgroundPublicBase(app: FastifyInstance): string {
  return app.config.publicUrl ?? `http://localhost:${app.config.port}`;
}

export function publishServerUpdated(app: FastifyInstance, row: ServerRow): void {
  app.bus.publish(row.workspace_id, { type: LiveMessageTypes.serverUpdated, data: toServerDto(row, backgroundPublicBase(app)) });
}
