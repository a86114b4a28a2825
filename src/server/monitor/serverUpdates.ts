import type { FastifyInstance } from 'fastify';
import { LiveMessageTypes, type ServerChecked } from '../../contract/live';
import type { ServerTransport } from '../../contract/servers';
import { toServerDto, type ServerRow } from '../data/servers/mapper';
import { ON_THE_BUS } from '../http/publicUrl';

// Shared by the health monitor and schema discovery: load a server by id (no request, so no
// workspace in hand) and tell the workspace's live streams what it looks like now.
const COLUMNS = `id, workspace_id, name, url, description, transport, proxy_key, credentials_enc, status,
  last_health_status, last_checked, last_error, schema_count, risk_finding_count, kind, created_at, updated_at`;

export async function loadServerById(app: FastifyInstance, serverId: string): Promise<ServerRow | undefined> {
  const rows = await app.db.query<ServerRow>(`select ${COLUMNS} from servers where id = $1`, [serverId]);
  return rows[0];
}

export function transportOf(row: ServerRow): ServerTransport {
  return row.transport === 'sse' ? 'sse' : 'streamable-http';
}

/** The proxy URL travels as a path; each live stream completes it with its connection's base (http/publicUrl.ts). */
export function publishServerUpdated(app: FastifyInstance, row: ServerRow): void {
  app.bus.publish(row.workspace_id, { type: LiveMessageTypes.serverUpdated, data: toServerDto(row, ON_THE_BUS) });
}

/** A check that changed nothing but its time: streams move the server's "checked … ago" on. */
export function publishServerChecked(app: FastifyInstance, row: ServerRow): void {
  if (!app.bus.isListened(row.workspace_id) || row.last_checked === null) return;
  const lastChecked =
    row.last_checked instanceof Date ? row.last_checked.toISOString() : new Date(row.last_checked).toISOString();
  app.bus.publish(row.workspace_id, {
    type: LiveMessageTypes.serverChecked,
    data: { serverId: row.id, lastChecked } satisfies ServerChecked,
  });
}
