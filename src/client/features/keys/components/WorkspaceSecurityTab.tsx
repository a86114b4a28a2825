import Box from '@mui/material/Box';
import type { WorkspaceDto } from '../../../../contract/workspaces';
import { useGetServersQuery } from '../../servers/serversApi';
import { PlatformKeysSection } from './PlatformKeysSection';
import { RequirePlatformKeySwitch } from './RequirePlatformKeySwitch';
import { WorkspaceKeysSection } from './WorkspaceKeysSection';

/** Workspace Settings → Security (flag show_workspace_security): who may call through the proxy, and the secrets servers use. */
export function WorkspaceSecurityTab({ workspace }: { workspace: WorkspaceDto }) {
  const canManage = workspace.role === 'owner' || workspace.role === 'admin';
  const servers = useGetServersQuery(workspace.id);
  const serverChoices = (servers.data ?? []).map((s) => ({ id: s.id, name: s.name }));
  return (
    <Box>
      <RequirePlatformKeySwitch
        workspaceId={workspace.id}
        required={workspace.requirePlatformKey === true}
        canManage={canManage}
      />
      <PlatformKeysSection workspaceId={workspace.id} canManage={canManage} servers={serverChoices} />
      <WorkspaceKeysSection workspaceId={workspace.id} canManage={canManage} />
    </Box>
  );
}
