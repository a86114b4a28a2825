import { useRef } from 'react';
import { useLocation } from 'react-router-dom';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListSubheader from '@mui/material/ListSubheader';
import Typography from '@mui/material/Typography';
import KeyboardArrowDownIcon from '@mui/icons-material/KeyboardArrowDown';
import SettingsOutlinedIcon from '@mui/icons-material/SettingsOutlined';
import HubOutlinedIcon from '@mui/icons-material/HubOutlined';
import { useAppSelector } from '../app/hooks';
import { useFlags } from '../features/flags/useFlag';
import { selectCurrentWorkspaceId } from '../features/workspaces/workspaceSlice';
import { isNavItemActive, visibleSections } from './navigation';
import { SidebarNavItem } from './SidebarNavItem';
import { UpgradeCard } from './UpgradeCard';
import { useScrollsFurther } from './useScrollsFurther';

interface SidebarContentProps {
  collapsed: boolean;
  /** Called after a link is followed (closes the drawer on small screens). */
  onNavigate?: () => void;
}

/** The sidebar's inside: brand, the five sections, the upgrade card and Workspace Settings. */
export function SidebarContent({ collapsed, onNavigate }: SidebarContentProps) {
  const { pathname } = useLocation();
  const flags = useFlags();
  const workspaceId = useAppSelector(selectCurrentWorkspaceId);
  const workspaceSettingsPath = workspaceId ? `/workspace/${workspaceId}/settings` : '/settings';
  const scroller = useRef<HTMLDivElement>(null);
  const scrollsFurther = useScrollsFurther(scroller);

  return (
    <Box
      component="nav"
      aria-label="Main"
      sx={{ display: 'flex', flexDirection: 'column', height: '100%', overflowX: 'hidden' }}
    >
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          gap: 1.25,
          px: collapsed ? 0 : 2.5,
          height: 64,
          justifyContent: collapsed ? 'center' : 'flex-start',
        }}
      >
        <HubOutlinedIcon color="primary" />
        {!collapsed && (
          <Typography variant="h6" component="span" sx={{ fontWeight: 700, letterSpacing: '-0.01em' }}>
            Toolscope
          </Typography>
        )}
      </Box>
      {/*
        The sections and the upgrade card scroll together: on a short screen (900 px, a phone's
        drawer) the card no longer covers the last items; where there is room, mt: auto keeps the
        card at the bottom. A fade and an arrow say when more lies below.
      */}
      <Box sx={{ position: 'relative', flex: 1, minHeight: 0 }}>
        <Box
          ref={scroller}
          data-testid="sidebar-scroll"
          sx={{ height: '100%', overflowY: 'auto', display: 'flex', flexDirection: 'column' }}
        >
          <Box sx={{ pb: 1, flexShrink: 0 }}>
            {visibleSections(flags).map((section) => (
              <List
                key={section.title ?? 'top'}
                dense
                disablePadding
                aria-label={section.title ?? 'Overview'}
                subheader={
                  section.title && !collapsed ? (
                    <ListSubheader component="li" sx={{ px: 2.5, mt: 1 }}>
                      {section.title}
                    </ListSubheader>
                  ) : undefined
                }
                sx={{ mt: section.title && collapsed ? 1.5 : 0 }}
              >
                {section.items.map((item) => (
                  <SidebarNavItem
                    key={item.to}
                    label={item.label}
                    to={item.to}
                    icon={item.icon}
                    selected={isNavItemActive(item, pathname)}
                    collapsed={collapsed}
                    onNavigate={onNavigate}
                  />
                ))}
              </List>
            ))}
          </Box>
          {flags.show_upgrade_pro && !collapsed && (
            <Box sx={{ mt: 'auto', flexShrink: 0 }}>
              <UpgradeCard />
            </Box>
          )}
        </Box>
        {scrollsFurther && (
          <Box
            aria-hidden
            data-testid="sidebar-more-below"
            sx={(theme) => ({
              position: 'absolute',
              left: 0,
              right: 0,
              bottom: 0,
              height: 40,
              pointerEvents: 'none',
              display: 'flex',
              alignItems: 'flex-end',
              justifyContent: 'center',
              background: `linear-gradient(to bottom, transparent, ${theme.palette.background.paper})`,
              color: 'text.secondary',
            })}
          >
            <KeyboardArrowDownIcon fontSize="small" />
          </Box>
        )}
      </Box>
      <Divider />
      <List dense sx={{ py: 1 }}>
        <SidebarNavItem
          label="Workspace Settings"
          to={workspaceSettingsPath}
          icon={<SettingsOutlinedIcon />}
          selected={/^\/workspace\/[^/]+\/settings$/.test(pathname)}
          collapsed={collapsed}
          onNavigate={onNavigate}
        />
      </List>
    </Box>
  );
}
