import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  MarkAllReadBody,
  NotificationDto,
  NotificationIdsBody,
  NotificationListQuery,
  NotificationListResult,
  NotificationUpdateResult,
  UnreadCountQuery,
  UnreadCountResult,
} from '../../../contract/notifications';
import { Paths } from '../../../contract/routes';
import { notFound } from '../../http/errors';
import { acceptEmptyJsonBodies } from '../../http/emptyJsonBody';
import { archive, countUnread, findNotification, listNotifications, markAllRead, markOneRead, markRead } from './store';

// The user-level calls of SPEC §7 Notifications, mounted under /api/v1 (docs/notifications.md).
// A workspaceId filter means that workspace plus the account-level notifications.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const IdParams = z.object({ id: z.string() });
const TAGS = ['notifications'];

export const notificationRoutes: FastifyPluginAsync = (plugin) => {
  acceptEmptyJsonBodies(plugin);
  const app = plugin.withTypeProvider<ZodTypeProvider>();

  app.get(
    Paths.notifications,
    {
      schema: {
        tags: TAGS,
        summary: 'The caller’s notifications, latest first, filtered and paged',
        querystring: NotificationListQuery,
        response: { 200: NotificationListResult },
      },
    },
    async (request) => {
      const { workspaceId, isArchived, isRead, limit, offset } = request.query;
      return listNotifications(
        app.db,
        request.userId,
        {
          scope: workspaceId ? { workspaceId, mode: 'withAccount' } : undefined,
          isArchived: isArchived ?? false,
          isRead,
        },
        { limit, offset },
      );
    },
  );

  app.get(
    Paths.unreadCount,
    {
      schema: {
        tags: TAGS,
        summary: 'How many of the caller’s inbox notifications are unread',
        querystring: UnreadCountQuery,
        response: { 200: UnreadCountResult },
      },
    },
    async (request) => {
      const { workspaceId } = request.query;
      return {
        count: await countUnread(
          app.db,
          request.userId,
          workspaceId ? { workspaceId, mode: 'withAccount' } : undefined,
        ),
      };
    },
  );

  app.post(
    Paths.markRead,
    {
      schema: {
        tags: TAGS,
        summary: 'Mark the caller’s notifications read (other ids are ignored)',
        body: NotificationIdsBody,
        response: { 200: NotificationUpdateResult },
      },
    },
    async (request) => ({ updated: await markRead(app.db, request.userId, dedupe(request.body.notificationIds)) }),
  );

  app.post(
    Paths.markAllRead,
    {
      schema: {
        tags: TAGS,
        summary: 'Mark all of the caller’s notifications read, or those of one workspace',
        body: MarkAllReadBody,
        response: { 200: NotificationUpdateResult },
      },
      // A POST without any body at all means the same as {}.
      preValidation: (request) => {
        // Runs before validation: a POST without a body has none yet, whatever the type says.
        const received: unknown = request.body;
        if (received === undefined || received === null) request.body = {};
        return Promise.resolve();
      },
    },
    async (request) => {
      const { workspaceId } = request.body;
      return {
        updated: await markAllRead(
          app.db,
          request.userId,
          workspaceId ? { workspaceId, mode: 'withAccount' } : undefined,
        ),
      };
    },
  );

  app.post(
    Paths.archive,
    {
      schema: {
        tags: TAGS,
        summary: 'Archive the caller’s notifications (other ids are ignored)',
        body: NotificationIdsBody,
        response: { 200: NotificationUpdateResult },
      },
    },
    async (request) => ({ updated: await archive(app.db, request.userId, dedupe(request.body.notificationIds)) }),
  );

  app.get(
    `${Paths.notifications}/:id`,
    {
      schema: {
        tags: TAGS,
        summary: 'One of the caller’s notifications',
        params: IdParams,
        response: { 200: NotificationDto },
      },
    },
    async (request) => {
      const found = UUID.test(request.params.id)
        ? await findNotification(app.db, request.userId, request.params.id)
        : null;
      if (!found) throw notFound('Notification not found');
      return found;
    },
  );

  app.post(
    `${Paths.notifications}/:id/read`,
    {
      schema: {
        tags: TAGS,
        summary: 'Mark one of the caller’s notifications read; answers it',
        params: IdParams,
        response: { 200: NotificationDto },
      },
    },
    async (request) => {
      const updated = UUID.test(request.params.id)
        ? await markOneRead(app.db, request.userId, request.params.id)
        : null;
      if (!updated) throw notFound('Notification not found');
      return updated;
    },
  );
  return Promise.resolve();
};

function dedupe(ids: string[]): string[] {
  return [...new Set(ids.map((id) => id.toLowerCase()))];
}
