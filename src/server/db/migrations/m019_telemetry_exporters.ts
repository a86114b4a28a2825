// Telemetry exporters: OTLP/HTTP destinations per workspace. Header values are encrypted
// (`headers_sealed`, AES-256-GCM like upstream credentials); the counters add up what every
// instance exported, so GET …/metrics is the same whichever instance answers.
// Never edit a landed migration.
export const m019_telemetry_exporters = `
create table telemetry_exporters (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references workspaces(id) on delete cascade,
  name text not null,
  endpoint text not null,
  protocol text not null check (protocol in ('http/protobuf', 'http/json')),
  header_names text[] not null default '{}',
  headers_sealed text,
  signals text[] not null default '{traces,metrics}',
  sampling_ratio double precision not null default 1 check (sampling_ratio >= 0 and sampling_ratio <= 1),
  enabled boolean not null default true,
  exported_spans bigint not null default 0,
  exported_metric_points bigint not null default 0,
  failed_exports bigint not null default 0,
  dropped_spans bigint not null default 0,
  last_success_at timestamptz,
  last_error text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index telemetry_exporters_workspace on telemetry_exporters (workspace_id, created_at);
`;
