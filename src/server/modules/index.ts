import type { FastifyPluginAsync } from 'fastify';
import { configRoutes } from './config/routes';
import { authRoutes } from './auth/routes';
import { healthRoutes } from './health/routes';
import { userProfileRoutes } from './users/routes';
import { workspaceListRoutes } from './workspaces/routes';
import { workspaceRoute } from './workspaces/workspaceRoute';
import { billingRoutes } from './billing/routes';
import { notificationRoutes } from './notifications/routes';
import { workspaceNotificationRoutes } from './notifications/workspaceRoutes';
import { sessionRoutes } from './sessions/routes';
import { toolCallRoutes } from './toolCalls/routes';
import { liveStreamRoutes } from '../events/liveStream';
import { schemaRoutes } from './schemas/routes';
import { serverRoutes } from './servers/routes';
import { memberRoutes } from './members/routes';
import { integrationRoutes } from './integrations/routes';
import { telemetryRoutes } from './telemetry/routes';

// Where each domain's routes plug in (app.ts registers the three lists):
// - publicRoutes: no authentication (health, config, sign-in, the proxy lives elsewhere);
// - userRoutes: authenticated, not tied to one workspace in the path (/users/me, /workspaces, /billing, /notifications);
// - workspaceRoutes: mounted under /api/v1/workspaces/:workspaceId behind the membership guard,
//   so a route added here is protected without doing anything.
export const publicRoutes: FastifyPluginAsync[] = [configRoutes, healthRoutes, authRoutes];
export const userRoutes: FastifyPluginAsync[] = [userProfileRoutes, workspaceListRoutes, billingRoutes, notificationRoutes];
export const workspaceRoutes: FastifyPluginAsync[] = [workspaceRoute, sessionRoutes, toolCallRoutes, liveStreamRoutes, workspaceNotificationRoutes, schemaRoutes, serverRoutes, memberRoutes, integrationRoutes, telemetryRoutes];
