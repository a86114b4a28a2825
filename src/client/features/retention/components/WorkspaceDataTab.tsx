import Stack from '@mui/material/Stack';
import { ExportCard } from './ExportCard';
import { RetentionCard } from './RetentionCard';

/** Workspace Settings → Data: retention, export. */
export function WorkspaceDataTab({
  workspaceId,
  canManage,
  isOwner,
}: {
  workspaceId: string;
  canManage: boolean;
  isOwner: boolean;
}) {
  return (
    <Stack spacing={3}>
      <RetentionCard workspaceId={workspaceId} canManage={canManage} />
      <ExportCard workspaceId={workspaceId} canManage={canManage} isOwner={isOwner} />
    </Stack>
  );
}
