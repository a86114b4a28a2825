import type { ServerDto, ServerKind, ServerStatus, ServerTransport } from '../../../contract/servers';
import { Paths } from '../../../contract/routes';

/** A row of the servers table (m002_tracing). */
export interface ServerRow {
  id: string;
  workspace_id: string;
  name: string;
  url: string;
  description: string;
  transport: string;
  proxy_key: string;
  credentials_enc: string | null;
  /** m014: null = the instance's default. Absent where the health monitor's queries leave it out. */
  timeout_ms?: number | null;
  status: string;
  last_health_status: boolean | null;
  last_checked: Date | string | null;
  last_error: string | null;
  schema_count: number;
  /** m029: high risk findings of its definitions. Absent where a query leaves it out. */
  risk_finding_count?: number;
  kind: string;
  /** m028. Absent where the health monitor's queries leave it out. */
  allowed_origins?: string[];
  created_at: Date | string;
  updated_at: Date | string;
}

const iso = (t: Date | string) => (t instanceof Date ? t : new Date(t)).toISOString();

/** `publicBase` is TOOLSCOPE_PUBLIC_URL or the request's own origin (no trailing slash). */
export function toServerDto(row: ServerRow, publicBase: string): ServerDto {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    description: row.description,
    workspaceId: row.workspace_id,
    schemaCount: row.schema_count,
    riskFindingCount: row.risk_finding_count ?? 0,
    status: (row.status === 'online' ? 'online' : 'offline') satisfies ServerStatus,
    lastHealthStatus: row.last_health_status,
    lastChecked: row.last_checked === null ? null : iso(row.last_checked),
    updatedAt: iso(row.updated_at),
    createdAt: iso(row.created_at),
    proxyUrl: `${publicBase.replace(/\/+$/, '')}${Paths.proxy(row.proxy_key)}`,
    transport: (row.transport === 'sse' ? 'sse' : 'streamable-http') satisfies ServerTransport,
    hasCredentials: row.credentials_enc !== null,
    timeoutMs: row.timeout_ms ?? null,
    kind: (row.kind === 'deployment' ? 'deployment' : 'remote') satisfies ServerKind,
    allowedOrigins: row.allowed_origins ?? [],
  };
}
