import { useNavigate } from 'react-router-dom';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import ListSubheader from '@mui/material/ListSubheader';
import AddIcon from '@mui/icons-material/Add';
import CheckIcon from '@mui/icons-material/Check';
import SettingsOutlinedIcon from '@mui/icons-material/SettingsOutlined';
import UnfoldMoreIcon from '@mui/icons-material/UnfoldMore';
import WorkspacesOutlinedIcon from '@mui/icons-material/WorkspacesOutlined';
import { useAppDispatch, useAppSelector } from '../app/hooks';
import { openDialog } from '../app/dialogsSlice';
import { useGetWorkspacesQuery } from '../features/workspaces/workspacesApi';
import { selectCurrentWorkspaceId, switchWorkspace } from '../features/workspaces/workspaceSlice';
import { HeaderMenu, HeaderMenuItem, useHeaderMenu } from './HeaderMenu';

/** SPEC §2: the workspace dropdown: the list (click switches), Create Workspace, Workspace Settings. */
export function WorkspaceMenu() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { data: workspaces = [] } = useGetWorkspacesQuery();
  const currentId = useAppSelector(selectCurrentWorkspaceId);
  const current = workspaces.find((workspace) => workspace.id === currentId);
  const { anchor, close, triggerProps } = useHeaderMenu();

  const choose = (id: string) => {
    close();
    if (id !== currentId) void dispatch(switchWorkspace(id));
  };

  return (
    <>
      <Button
        color="inherit"
        variant="outlined"
        aria-label="Workspace menu"
        {...triggerProps}
        startIcon={<WorkspacesOutlinedIcon fontSize="small" />}
        endIcon={<UnfoldMoreIcon fontSize="small" />}
        // A phone shows the name, not just an icon: no leading icon there, and the name may shrink
        // (with an ellipsis) but keeps at least a few characters.
        sx={{
          borderColor: 'divider',
          minWidth: 0,
          flexShrink: 1,
          maxWidth: { xs: 180, sm: 260 },
          justifyContent: 'space-between',
          '& .MuiButton-startIcon': { display: { xs: 'none', sm: 'inherit' } },
          '& > span.workspace-name': { minWidth: '4ch' },
        }}
      >
        <span className="workspace-name" style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
          {current?.name ?? 'Workspace'}
        </span>
      </Button>
      <HeaderMenu anchor={anchor} onClose={close} minWidth={260}>
        <ListSubheader sx={{ lineHeight: '32px' }}>Workspaces</ListSubheader>
        {workspaces.map((workspace) => (
          <MenuItem key={workspace.id} selected={workspace.id === currentId} onClick={() => choose(workspace.id)}>
            <ListItemIcon>{workspace.id === currentId && <CheckIcon fontSize="small" />}</ListItemIcon>
            <ListItemText
              primary={workspace.name}
              secondary={workspace.workspaceType === 'team' ? 'Team' : 'Personal'}
            />
          </MenuItem>
        ))}
        <Divider />
        <HeaderMenuItem
          icon={<AddIcon fontSize="small" />}
          onClick={() => {
            close();
            dispatch(openDialog('createWorkspace'));
          }}
        >
          Create Workspace
        </HeaderMenuItem>
        <HeaderMenuItem
          icon={<SettingsOutlinedIcon fontSize="small" />}
          disabled={!currentId}
          onClick={() => {
            close();
            if (currentId) void navigate(`/workspace/${currentId}/settings`);
          }}
        >
          Workspace Settings
        </HeaderMenuItem>
      </HeaderMenu>
    </>
  );
}
