import { lazy, Suspense, type ComponentType } from 'react';
import { Route, Routes, useLocation } from 'react-router-dom';
import type { FlagName } from '../../contract/flags';
import { ErrorBoundary } from '../components/ErrorBoundary';
import { FlaggedPage } from '../features/flags/FlaggedPage';
import { PageSkeleton } from '../components/PageSkeleton';
import { RedirectIfSignedIn } from './RedirectIfSignedIn';
import { RequireAuth } from './RequireAuth';

// SPEC §2: every page is loaded lazily, with a skeleton while its code arrives.
const LandingPage = lazy(() => import('../features/auth/pages/LandingPage'));
const LoginPage = lazy(() => import('../features/auth/pages/LoginPage'));
const RegisterPage = lazy(() => import('../features/auth/pages/RegisterPage'));
const ForgotPasswordPage = lazy(() => import('../features/auth/pages/ForgotPasswordPage'));
const ResetPasswordPage = lazy(() => import('../features/auth/pages/ResetPasswordPage'));
const VerifyEmailPage = lazy(() => import('../features/auth/pages/VerifyEmailPage'));
const HomePage = lazy(() => import('../features/auth/pages/HomePage'));
const AuthCallbackSuccessPage = lazy(() => import('../features/auth/pages/AuthCallbackSuccessPage'));
const NotFoundPage = lazy(() => import('./pages/NotFoundPage'));
// The shell is lazy too: the sign-in screens should not pay for the dashboard's code.
const DashboardShell = lazy(() =>
  import('../shell/DashboardShell').then((module) => ({ default: module.DashboardShell })),
);

const DashboardPage = lazy(() => import('../features/dashboard/pages/DashboardPage'));
const ServersPage = lazy(() => import('../features/servers/pages/ServersPage'));
const AnalyticsPage = lazy(() => import('../features/analytics/pages/AnalyticsPage'));
const MembersPage = lazy(() => import('../features/members/pages/MembersPage'));
const SettingsPage = lazy(() => import('../features/settings/pages/SettingsPage'));
const ActivityStreamPage = lazy(() => import('../features/activity/pages/ActivityStreamPage'));
const SessionsPage = lazy(() => import('../features/sessions/pages/SessionsPage'));
const SessionDetailPage = lazy(() => import('../features/sessions/pages/SessionDetailPage'));
const ThoughtTracingPage = lazy(() => import('../features/reasoning/pages/ThoughtTracingPage'));
const SchemaStudioPage = lazy(() => import('../features/schemas/pages/SchemaStudioPage'));
const CostAnalyticsPage = lazy(() => import('../features/costs/pages/CostAnalyticsPage'));
const CostAttributionPage = lazy(() => import('../features/costs/pages/CostAttributionPage'));
const PerformancePage = lazy(() => import('../features/analytics/pages/PerformancePage'));
const IntegrationsPage = lazy(() => import('../features/integrations/pages/IntegrationsPage'));
const AlertRulesPage = lazy(() => import('../features/alertRules/pages/AlertRulesPage'));
const MarketplacePage = lazy(() => import('../features/marketplace/pages/MarketplacePage'));
const MarketplaceDetailPage = lazy(() => import('../features/marketplace/pages/MarketplaceDetailPage'));
const WorkspaceSettingsPage = lazy(() => import('../features/workspaces/pages/WorkspaceSettingsPage'));

/**
 * Protected routes of SPEC §2, in its order; the shell renders them in its content area. A route
 * with a `flag` (the same as its sidebar entry's) opens through FlaggedPage: reached by URL with
 * the flag off, it says "… is not enabled", the same on every flagged screen (issue 38).
 */
export const PROTECTED_ROUTES: {
  path: string;
  Page: ComponentType;
  flag?: FlagName;
  title?: string;
  description?: string;
}[] = [
  { path: '/dashboard', Page: DashboardPage },
  { path: '/servers', Page: ServersPage },
  { path: '/analytics', Page: AnalyticsPage },
  { path: '/members', Page: MembersPage },
  { path: '/settings', Page: SettingsPage },
  { path: '/activity-stream', Page: ActivityStreamPage },
  { path: '/sessions', Page: SessionsPage },
  { path: '/sessions/:sessionId', Page: SessionDetailPage },
  { path: '/thought-tracing', Page: ThoughtTracingPage, flag: 'show_thought_tracing', title: 'Tool Reasoning' },
  {
    path: '/schema-studio',
    Page: SchemaStudioPage,
    flag: 'show_schema_studio',
    title: 'Schema Studio',
    description:
      "Schema Studio is not enabled for this workspace. Your servers' schemas are still discovered and checked for drift.",
  },
  { path: '/cost-analytics', Page: CostAnalyticsPage, flag: 'show_cost_analytics', title: 'Cost Analytics' },
  { path: '/cost-attribution', Page: CostAttributionPage, flag: 'show_cost_attribution', title: 'Cost Attribution' },
  { path: '/performance', Page: PerformancePage, flag: 'show_performance', title: 'Performance' },
  { path: '/integrations', Page: IntegrationsPage, flag: 'show_integrations', title: 'Integrations' },
  { path: '/alert-rules', Page: AlertRulesPage },
  { path: '/marketplace', Page: MarketplacePage, flag: 'show_marketplace', title: 'Marketplace' },
  { path: '/marketplace/:slug', Page: MarketplaceDetailPage, flag: 'show_marketplace', title: 'Marketplace' },
  { path: '/workspace/:workspaceId/settings', Page: WorkspaceSettingsPage },
];

export function AppRoutes() {
  // The outer boundary catches what the shell's own cannot: the shell's chunk or a page outside it
  // (landing, sign-in) that failed to load. Without it React would unmount everything: a blank page.
  const { pathname } = useLocation();
  return (
    <ErrorBoundary resetKey={pathname}>
      <Suspense fallback={<PageSkeleton />}>
        <Routes>
          <Route path="/" element={<LandingPage />} />
          <Route element={<RedirectIfSignedIn />}>
            <Route path="/login" element={<LoginPage />} />
            <Route path="/register" element={<RegisterPage />} />
          </Route>
          <Route path="/forgot-password" element={<ForgotPasswordPage />} />
          <Route path="/reset-password" element={<ResetPasswordPage />} />
          <Route path="/verify-email" element={<VerifyEmailPage />} />
          <Route path="/home" element={<HomePage />} />
          <Route path="/auth/callback/success" element={<AuthCallbackSuccessPage />} />
          <Route element={<RequireAuth />}>
            <Route element={<DashboardShell />}>
              {PROTECTED_ROUTES.map(({ path, Page, flag, title, description }) => (
                <Route
                  key={path}
                  path={path}
                  element={
                    flag ? (
                      <FlaggedPage flag={flag} title={title ?? path} description={description}>
                        <Page />
                      </FlaggedPage>
                    ) : (
                      <Page />
                    )
                  }
                />
              ))}
            </Route>
          </Route>
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </Suspense>
    </ErrorBoundary>
  );
}
