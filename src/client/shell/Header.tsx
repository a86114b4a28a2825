import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import MenuIcon from '@mui/icons-material/Menu';
import MenuOpenIcon from '@mui/icons-material/MenuOpen';
import { LiveStatusDot } from '../features/live/LiveStatusDot';
import { NotificationBell } from '../features/notifications/NotificationBell';
import { UserMenu } from './UserMenu';
import { WorkspaceMenu } from './WorkspaceMenu';

interface HeaderProps {
  isSmallScreen: boolean;
  sidebarCollapsed: boolean;
  onToggleSidebar: () => void;
}

/** SPEC §2 Header: the title Dashboard, the workspace dropdown, the bell and the avatar menu. */
export function Header({ isSmallScreen, sidebarCollapsed, onToggleSidebar }: HeaderProps) {
  const toggleLabel = isSmallScreen ? 'Open navigation' : sidebarCollapsed ? 'Expand sidebar' : 'Collapse sidebar';
  return (
    <AppBar position="sticky">
      <Toolbar sx={{ gap: 1, minHeight: { xs: 64 } }}>
        <IconButton edge="start" aria-label={toggleLabel} onClick={onToggleSidebar}>
          {isSmallScreen || sidebarCollapsed ? <MenuIcon /> : <MenuOpenIcon />}
        </IconButton>
        {/* On a phone the page's own title says where you are: the room goes to the workspace name. */}
        <Typography variant="h6" component="div" sx={{ fontWeight: 600, mr: 1, display: { xs: 'none', sm: 'block' } }}>
          Dashboard
        </Typography>
        <Box sx={{ flex: 1 }} />
        <WorkspaceMenu />
        <LiveStatusDot />
        <NotificationBell />
        <UserMenu />
      </Toolbar>
    </AppBar>
  );
}
