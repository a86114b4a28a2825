import type { FastifyPluginAsync } from 'fastify';
import { configRoutes } from './config/routes';
import { authRoutes } from './auth/routes';
import { healthRoutes } from './health/routes';
import { userProfileRoutes } from './users/routes';
import { workspaceListRoutes } from './workspaces/routes';
import { workspaceRoute } from './workspaces/workspaceRoute';
import { redactionRoutes } from './workspaces/redactionRoutes';
import { billingRoutes } from './billing/routes';
import { notificationRoutes } from './notifications/routes';
import { workspaceNotificationRoutes } from './notifications/workspaceRoutes';
import { sessionRoutes } from './sessions/routes';
import { sessionDataRoutes } from './sessions/sessionDataRoutes';
import { toolCallRoutes } from './toolCalls/routes';
import { liveStreamRoutes } from '../events/liveStream';
import { schemaRoutes } from './schemas/routes';
import { serverRoutes } from './servers/routes';
import { memberRoutes } from './members/routes';
import { accountRoutes } from './account/routes';
import { deleteAccountRoute } from './account/deleteAccountRoute';
import { emailVerificationRoutes } from './auth/verificationRoutes';
import { memberRoleRoutes } from './members/roleRoutes';
import { marketplaceRoutes } from './marketplace/routes';
import { marketplaceDeployRoute } from './marketplace/deployRoute';
import { deploymentConfigRoutes } from './deployments/configRoutes';
import { deploymentRoutes } from './deployments/deploymentRoutes';
import { analyticsRoutes } from './analytics/routes';
import { invitationRoutes, workspaceInvitationRoutes } from './invitations/routes';
import { auditRoutes } from './audit/routes';
import { integrationRoutes } from './integrations/routes';
import { integrationActivityRoutes } from './integrations/activityRoutes';
import { telemetryRoutes } from './telemetry/routes';
import { platformKeyRoutes } from './keys/platformKeyRoutes';
import { workspaceKeyRoutes } from './keys/workspaceKeyRoutes';
import { oidcSignInRoutes } from './oidc/routes';
import { identityRoutes } from './oidc/identityRoutes';
import { upstreamOAuthCallbackRoute, upstreamOAuthRoutes } from './upstreamOAuth/routes';
import { alertRuleRoutes } from './alertRules/routes';
import { retentionRoutes } from './retention/routes';
import { exportScheduleRoutes } from './retention/exportScheduleRoutes';

// Where each domain's routes plug in (app.ts registers the three lists):
// - publicRoutes: no authentication (health, config, sign-in, the proxy lives elsewhere);
// - userRoutes: authenticated, not tied to one workspace in the path (/users/me, /workspaces, /billing, /notifications);
// - workspaceRoutes: mounted under /api/v1/workspaces/:workspaceId behind the membership guard,
//   so a route added here is protected without doing anything.
export const publicRoutes: FastifyPluginAsync[] = [
  configRoutes,
  healthRoutes,
  authRoutes,
  oidcSignInRoutes,
  upstreamOAuthCallbackRoute,
];
export const userRoutes: FastifyPluginAsync[] = [
  userProfileRoutes,
  accountRoutes,
  identityRoutes,
  deleteAccountRoute,
  emailVerificationRoutes,
  workspaceListRoutes,
  billingRoutes,
  notificationRoutes,
  invitationRoutes,
  marketplaceRoutes,
  deploymentConfigRoutes,
  deploymentRoutes,
];
export const workspaceRoutes: FastifyPluginAsync[] = [
  workspaceRoute,
  redactionRoutes,
  retentionRoutes,
  exportScheduleRoutes,
  sessionRoutes,
  sessionDataRoutes,
  toolCallRoutes,
  liveStreamRoutes,
  workspaceNotificationRoutes,
  schemaRoutes,
  serverRoutes,
  alertRuleRoutes,
  memberRoutes,
  memberRoleRoutes,
  workspaceInvitationRoutes,
  auditRoutes,
  integrationRoutes,
  integrationActivityRoutes,
  telemetryRoutes,
  analyticsRoutes,
  platformKeyRoutes,
  workspaceKeyRoutes,
  marketplaceDeployRoute,
  upstreamOAuthRoutes,
];
