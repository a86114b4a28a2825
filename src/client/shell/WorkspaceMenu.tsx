import { useState, type MouseEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
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

/** SPEC §2: the workspace dropdown: the list (click switches), Create Workspace, Workspace Settings. */
export function WorkspaceMenu() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { data: workspaces = [] } = useGetWorkspacesQuery();
  const currentId = useAppSelector(selectCurrentWorkspaceId);
  const current = workspaces.find((workspace) => workspace.id === currentId);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);

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
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event: MouseEvent<HTMLElement>) => setAnchor(event.currentTarget)}
        startIcon={<WorkspacesOutlinedIcon fontSize="small" />}
        endIcon={<UnfoldMoreIcon fontSize="small" />}
        sx={{ borderColor: 'divider', maxWidth: { xs: 150, sm: 260 }, justifyContent: 'space-between' }}
      >
        <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
          {current?.name ?? 'Workspace'}
        </span>
      </Button>
      <Menu
        anchorEl={anchor}
        open={anchor !== null}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { minWidth: 260, mt: 1 } } }}
      >
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
        <MenuItem
          onClick={() => {
            close();
            dispatch(openDialog('createWorkspace'));
          }}
        >
          <ListItemIcon>
            <AddIcon fontSize="small" />
          </ListItemIcon>
          Create Workspace
        </MenuItem>
        <MenuItem
          disabled={!currentId}
          onClick={() => {
            close();
            if (currentId) navigate(`/workspace/${currentId}/settings`);
          }}
        >
          <ListItemIcon>
            <SettingsOutlinedIcon fontSize="small" />
          </ListItemIcon>
          Workspace Settings
        </MenuItem>
      </Menu>
    </>
  );
}
