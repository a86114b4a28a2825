import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Tooltip from '@mui/material/Tooltip';

interface SidebarNavItemProps {
  label: string;
  to: string;
  icon: ReactNode;
  selected: boolean;
  collapsed: boolean;
  onNavigate?: () => void;
}

/** One sidebar link; icon-only with a tooltip when the sidebar is collapsed. */
export function SidebarNavItem({ label, to, icon, selected, collapsed, onNavigate }: SidebarNavItemProps) {
  const button = (
    <ListItemButton
      component={RouterLink}
      to={to}
      selected={selected}
      aria-current={selected ? 'page' : undefined}
      aria-label={collapsed ? label : undefined}
      onClick={onNavigate}
      sx={{ minHeight: 40, justifyContent: collapsed ? 'center' : 'flex-start', px: collapsed ? 1 : 1.5 }}
    >
      <ListItemIcon sx={{ minWidth: collapsed ? 0 : 36, justifyContent: 'center' }}>{icon}</ListItemIcon>
      {!collapsed && (
        <ListItemText primary={label} slotProps={{ primary: { variant: 'body2', sx: { fontWeight: 500 } } }} />
      )}
    </ListItemButton>
  );
  // An <li> around the link: the section is a <ul>, which may hold list items only.
  return (
    <ListItem disablePadding sx={{ display: 'block' }}>
      {collapsed ? (
        <Tooltip title={label} placement="right">
          {button}
        </Tooltip>
      ) : (
        button
      )}
    </ListItem>
  );
}
