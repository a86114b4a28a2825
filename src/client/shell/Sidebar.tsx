import Drawer from '@mui/material/Drawer';
import { SIDEBAR_COLLAPSED_WIDTH, SIDEBAR_WIDTH } from '../app/theme';
import { SidebarContent } from './SidebarContent';

interface SidebarProps {
  /** Small screens: a temporary drawer opened from the header. */
  isSmallScreen: boolean;
  collapsed: boolean;
  mobileOpen: boolean;
  onMobileClose: () => void;
}

/** SPEC §2: a collapsible sidebar that becomes a drawer on small screens. */
export function Sidebar({ isSmallScreen, collapsed, mobileOpen, onMobileClose }: SidebarProps) {
  if (isSmallScreen) {
    return (
      <Drawer
        variant="temporary"
        open={mobileOpen}
        onClose={onMobileClose}
        ModalProps={{ keepMounted: true }}
        slotProps={{ paper: { sx: { width: SIDEBAR_WIDTH } } }}
      >
        <SidebarContent collapsed={false} onNavigate={onMobileClose} />
      </Drawer>
    );
  }
  const width = collapsed ? SIDEBAR_COLLAPSED_WIDTH : SIDEBAR_WIDTH;
  return (
    <Drawer
      variant="permanent"
      data-collapsed={collapsed}
      sx={(theme) => ({
        width,
        flexShrink: 0,
        transition: theme.transitions.create('width', { duration: theme.transitions.duration.shorter }),
      })}
      slotProps={{
        paper: {
          sx: (theme) => ({
            width,
            boxSizing: 'border-box',
            transition: theme.transitions.create('width', { duration: theme.transitions.duration.shorter }),
          }),
        },
      }}
    >
      <SidebarContent collapsed={collapsed} />
    </Drawer>
  );
}
