import type { RedactionSettingsInput } from '../../../contract/redaction';
import type { Queryable } from '../../db/queryable';

// Workspaces' redaction settings (migration 025): read by the recorder's cache at start and on
// change, written by the settings route. A workspace without a row has the defaults.

export interface StoredRedactionSettings {
  workspaceId: string;
  settings: RedactionSettingsInput;
  updatedAt: string;
}

interface Row {
  workspace_id: string;
  settings: RedactionSettingsInput | string;
  updated_at: Date | string;
}

const toStored = (row: Row): StoredRedactionSettings => ({
  workspaceId: row.workspace_id,
  settings: typeof row.settings === 'string' ? (JSON.parse(row.settings) as RedactionSettingsInput) : row.settings,
  updatedAt: (row.updated_at instanceof Date ? row.updated_at : new Date(row.updated_at)).toISOString(),
});

/** Every workspace's saved settings (or one workspace's). */
export async function loadRedactionSettings(db: Queryable, workspaceId?: string): Promise<StoredRedactionSettings[]> {
  const rows = await db.query<Row>(
    `select workspace_id, settings, updated_at from workspace_redaction_settings
      where $1::uuid is null or workspace_id = $1::uuid`,
    [workspaceId ?? null],
  );
  return rows.map(toStored);
}

export async function saveRedactionSettings(
  db: Queryable,
  workspaceId: string,
  settings: RedactionSettingsInput,
  userId: string,
): Promise<StoredRedactionSettings> {
  const [row] = await db.query<Row>(
    `insert into workspace_redaction_settings (workspace_id, settings, updated_by, updated_at)
     values ($1, $2::jsonb, $3, now())
     on conflict (workspace_id) do update set settings = excluded.settings, updated_by = excluded.updated_by, updated_at = now()
     returning workspace_id, settings, updated_at`,
    [workspaceId, JSON.stringify(settings), userId],
  );
  return toStored(row);
}
