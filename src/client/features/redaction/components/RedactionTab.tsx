import Alert from '@mui/material/Alert';
import Skeleton from '@mui/material/Skeleton';
import type { WorkspaceDto } from '../../../../contract/workspaces';
import { errorMessage } from '../../../api/apiError';
import { useGetRedactionSettingsQuery } from '../redactionApi';
import { RedactionEditor } from './RedactionEditor';

/**
 * Workspace settings → Redaction (docs/security.md "Redaction before storage"): what the recorder
 * replaces before anything is stored. Owners and admins change it; every member reads it and
 * tests samples. Saving applies to messages recorded from then on; history is not rewritten.
 */
export function RedactionTab({ workspace }: { workspace: WorkspaceDto }) {
  const settings = useGetRedactionSettingsQuery(workspace.id);
  if (settings.isError && !settings.data) return <Alert severity="error">{errorMessage(settings.error)}</Alert>;
  if (!settings.data) return <Skeleton variant="rounded" height={320} aria-label="Loading redaction rules" />;
  // A new key after a save: the form starts again from what was stored.
  return <RedactionEditor key={settings.data.updatedAt ?? 'defaults'} workspace={workspace} settings={settings.data} />;
}
