import type { FastifyPluginAsync } from 'fastify';
import { configRoutes } from './config/routes';

// Where each domain's routes plug in (app.ts registers the three lists):
// - publicRoutes: no authentication (health, config, sign-in, the proxy lives elsewhere);
// - userRoutes: authenticated, not tied to one workspace in the path (/users/me, /workspaces, /billing, /notifications);
// - workspaceRoutes: mounted under /api/v1/workspaces/:workspaceId behind the membership guard,
//   so a route added here is protected without doing anything.
export const publicRoutes: FastifyPluginAsync[] = [configRoutes];
export const userRoutes: FastifyPluginAsync[] = [];
export const workspaceRoutes: FastifyPluginAsync[] = [];
