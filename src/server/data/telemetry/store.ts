import type { ExporterDto, ExporterMetrics, OtlpProtocol, TelemetrySignal } from '../../../contract/telemetry';
import type { Queryable } from '../../db/database';
import { decryptCredentials, encryptCredentials } from '../servers/credentials';

// Telemetry exporters of a workspace. Read by the routes and by the telemetry service, which
// opens the sealed headers only when it sends.

export interface ExporterRow {
  id: string;
  workspace_id: string;
  name: string;
  endpoint: string;
  protocol: OtlpProtocol;
  header_names: string[];
  headers_sealed: string | null;
  signals: TelemetrySignal[];
  sampling_ratio: number;
  enabled: boolean;
  exported_spans: number | string;
  exported_metric_points: number | string;
  failed_exports: number | string;
  dropped_spans: number | string;
  last_success_at: Date | string | null;
  last_error: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const iso = (t: Date | string) => (t instanceof Date ? t : new Date(t)).toISOString();
export const HEADER_MASK = '••••';

export function toExporterDto(row: ExporterRow): ExporterDto {
  return {
    id: row.id,
    name: row.name,
    endpoint: row.endpoint,
    protocol: row.protocol,
    headers: Object.fromEntries(row.header_names.map((name) => [name, HEADER_MASK])),
    signals: row.signals,
    samplingRatio: row.sampling_ratio,
    enabled: row.enabled,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

export function toExporterMetrics(row: ExporterRow): ExporterMetrics {
  return {
    exportedSpans: Number(row.exported_spans),
    exportedMetricPoints: Number(row.exported_metric_points),
    failedExports: Number(row.failed_exports),
    droppedSpans: Number(row.dropped_spans),
    lastSuccessAt: row.last_success_at ? iso(row.last_success_at) : null,
    lastError: row.last_error,
  };
}

export function sealHeaders(headers: Record<string, string>, secret: string): string | null {
  return Object.keys(headers).length > 0 ? encryptCredentials(headers, secret) : null;
}

export function openHeaders(row: Pick<ExporterRow, 'headers_sealed'>, secret: string): Record<string, string> {
  return decryptCredentials(row.headers_sealed, secret);
}

/** A header sent back masked keeps its stored value; any other set replaces the stored one. */
export function mergeHeaders(sent: Record<string, string>, stored: Record<string, string>): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const [name, value] of Object.entries(sent)) {
    if (value === HEADER_MASK) {
      const kept = Object.entries(stored).find(([n]) => n.toLowerCase() === name.toLowerCase());
      if (kept) merged[name] = kept[1];
    } else merged[name] = value;
  }
  return merged;
}

export async function listExporters(db: Queryable, workspaceId: string): Promise<ExporterRow[]> {
  return db.query<ExporterRow>('select * from telemetry_exporters where workspace_id = $1 order by created_at, id', [
    workspaceId,
  ]);
}

export async function findExporter(db: Queryable, workspaceId: string, id: string): Promise<ExporterRow | undefined> {
  return (
    await db.query<ExporterRow>('select * from telemetry_exporters where workspace_id = $1 and id = $2', [
      workspaceId,
      id,
    ])
  )[0];
}

/** Every enabled exporter, for the telemetry service's cache. */
export async function enabledExporters(db: Queryable): Promise<ExporterRow[]> {
  return db.query<ExporterRow>('select * from telemetry_exporters where enabled');
}

export interface ExporterFields {
  name: string;
  endpoint: string;
  protocol: OtlpProtocol;
  headerNames: string[];
  headersSealed: string | null;
  signals: TelemetrySignal[];
  samplingRatio: number;
  enabled: boolean;
}

export async function insertExporter(db: Queryable, workspaceId: string, f: ExporterFields): Promise<ExporterRow> {
  const rows = await db.query<ExporterRow>(
    `insert into telemetry_exporters (workspace_id, name, endpoint, protocol, header_names, headers_sealed, signals, sampling_ratio, enabled)
     values ($1, $2, $3, $4, $5::text[], $6, $7::text[], $8, $9) returning *`,
    [
      workspaceId,
      f.name,
      f.endpoint,
      f.protocol,
      f.headerNames,
      f.headersSealed,
      f.signals,
      f.samplingRatio,
      f.enabled,
    ],
  );
  return rows[0];
}

export async function updateExporter(
  db: Queryable,
  workspaceId: string,
  id: string,
  f: ExporterFields,
): Promise<ExporterRow | undefined> {
  const rows = await db.query<ExporterRow>(
    `update telemetry_exporters set name = $3, endpoint = $4, protocol = $5, header_names = $6::text[], headers_sealed = $7,
        signals = $8::text[], sampling_ratio = $9, enabled = $10, updated_at = now()
      where workspace_id = $1 and id = $2 returning *`,
    [
      workspaceId,
      id,
      f.name,
      f.endpoint,
      f.protocol,
      f.headerNames,
      f.headersSealed,
      f.signals,
      f.samplingRatio,
      f.enabled,
    ],
  );
  return rows[0];
}

export async function deleteExporter(db: Queryable, workspaceId: string, id: string): Promise<boolean> {
  return (
    (
      await db.query('delete from telemetry_exporters where workspace_id = $1 and id = $2 returning id', [
        workspaceId,
        id,
      ])
    ).length > 0
  );
}

export interface ExportTally {
  spans?: number;
  metricPoints?: number;
  failed?: number;
  dropped?: number;
  succeededAt?: Date;
  error?: string | null;
}

/** Adds one export's outcome to the exporter's counters (shared by every instance). */
export async function recordExportTally(db: Queryable, id: string, t: ExportTally): Promise<void> {
  await db.query(
    `update telemetry_exporters set exported_spans = exported_spans + $2, exported_metric_points = exported_metric_points + $3,
        failed_exports = failed_exports + $4, dropped_spans = dropped_spans + $5,
        last_success_at = coalesce($6, last_success_at),
        last_error = case when $7::boolean then $8 else last_error end
      where id = $1`,
    [
      id,
      t.spans ?? 0,
      t.metricPoints ?? 0,
      t.failed ?? 0,
      t.dropped ?? 0,
      t.succeededAt ?? null,
      t.error !== undefined,
      t.error ?? null,
    ],
  );
}
