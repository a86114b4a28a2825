// A workspace's redaction settings (issue 35, docs/security.md): which built-in rules are on and
// hash, its custom patterns, JSON paths and allowlist, as one JSON document. No row: the defaults
// (secret rules on, personal-data rules off). The recorder holds every workspace's settings in
// memory; a change is announced on the `toolscope_redaction` channel so every instance reloads it.
// Changing settings never rewrites what was stored before.
export const m025_redaction_settings = `
create table workspace_redaction_settings (
  workspace_id uuid primary key references workspaces(id) on delete cascade,
  settings jsonb not null,
  updated_by uuid references users(id) on delete set null,
  updated_at timestamptz not null default now()
);
`;
