import { Suspense, useState } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import Box from '@mui/material/Box';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { AppDialogs } from '../app/AppDialogs';
import { ErrorBoundary } from '../components/ErrorBoundary';
import { PageSkeleton } from '../components/PageSkeleton';
import { LiveStream } from '../features/live/LiveStream';
import { OnboardingDialog } from '../features/onboarding/OnboardingDialog';
import { Header } from './Header';
import { NoServersBanner } from './NoServersBanner';
import { Sidebar } from './Sidebar';
import { useSidebarCollapsed } from './useSidebarCollapsed';

/** The signed-in layout of SPEC §2: sidebar, header, banner, the page, and the app dialogs. */
export function DashboardShell() {
  const theme = useTheme();
  const isSmallScreen = useMediaQuery(theme.breakpoints.down('md'));
  const [collapsed, setCollapsed] = useSidebarCollapsed();
  const [mobileOpen, setMobileOpen] = useState(false);
  const { pathname } = useLocation();

  const toggleSidebar = () => (isSmallScreen ? setMobileOpen((open) => !open) : setCollapsed(!collapsed));

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh', bgcolor: 'background.default' }}>
      <Sidebar
        isSmallScreen={isSmallScreen}
        collapsed={collapsed}
        mobileOpen={mobileOpen}
        onMobileClose={() => setMobileOpen(false)}
      />
      <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        <Header isSmallScreen={isSmallScreen} sidebarCollapsed={collapsed} onToggleSidebar={toggleSidebar} />
        <NoServersBanner />
        <Box
          component="main"
          sx={{ flex: 1, p: { xs: 2, md: 3 }, maxWidth: 1440, width: '100%', minWidth: 0, mx: 'auto' }}
        >
          <ErrorBoundary resetKey={pathname}>
            <Suspense fallback={<PageSkeleton />}>
              <Outlet />
            </Suspense>
          </ErrorBoundary>
        </Box>
      </Box>
      <AppDialogs />
      <LiveStream />
      <OnboardingDialog />
    </Box>
  );
}
