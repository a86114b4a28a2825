import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  NotificationListResult,
  NotificationSettings,
  UpdateNotificationSettingsBody,
  WorkspaceNotificationListQuery,
} from '../../../contract/notifications';
import { listNotifications } from './store';

// GET …/workspaces/{workspaceId}/notifications (SPEC §7) and the workspace's notification
// thresholds, GET/PUT …/notification-settings. Mounted behind the workspace membership guard.

const WorkspaceParams = z.object({ workspaceId: z.string() });
const TAGS = ['notifications'];

export const workspaceNotificationRoutes: FastifyPluginAsync = (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/notifications',
    {
      schema: {
        tags: TAGS,
        summary: 'The caller’s notifications of this workspace only, latest first',
        params: WorkspaceParams,
        querystring: WorkspaceNotificationListQuery,
        response: { 200: NotificationListResult },
      },
    },
    async (request) => {
      const { isArchived, isRead, limit, offset } = request.query;
      return listNotifications(
        app.db,
        request.userId,
        { scope: { workspaceId: request.params.workspaceId, mode: 'only' }, isArchived: isArchived ?? false, isRead },
        { limit, offset },
      );
    },
  );

  app.get(
    '/notification-settings',
    {
      schema: {
        tags: TAGS,
        summary: 'Thresholds and grouping of this workspace’s notifications',
        params: WorkspaceParams,
        response: { 200: NotificationSettings },
      },
    },
    async (request) => app.notificationSettings.get(request.params.workspaceId),
  );

  app.put(
    '/notification-settings',
    {
      config: { minRole: 'admin' },
      schema: {
        tags: TAGS,
        summary: 'Change some thresholds (owners and admins); omitted fields keep their value',
        params: WorkspaceParams,
        body: UpdateNotificationSettingsBody,
        response: { 200: NotificationSettings },
      },
    },
    async (request) => {
      return app.notificationSettings.update(request.params.workspaceId, request.body);
    },
  );
  return Promise.resolve();
};
