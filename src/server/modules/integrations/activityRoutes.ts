import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ActivitiesQuery, IntegrationActivityList } from '../../../contract/integrations';
import { badRequest, notFound } from '../../http/errors';
import { errorResponses } from '../../http/errorResponses';
import { requeueDelivery } from '../../integrations/deliveryQueue';
import { listActivities } from '../../data/integrations/store';
import { loadIntegration, UUID } from './integrationRules';

// An integration's delivery activity (kept 30 days), and sending a past delivery's event again.
// A workspace route like routes.ts (modules/index.ts: same prefix and membership guard).

const OneIntegration = z.object({ workspaceId: z.string(), integrationId: z.string() });
const OneActivity = OneIntegration.extend({ activityId: z.string() });

export const integrationActivityRoutes: FastifyPluginAsync = (scope) => {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const tags = ['integrations'];
  app.get(
    '/integrations/:integrationId/activities',
    {
      schema: {
        tags,
        summary: 'Delivery attempts, newest first (kept 30 days)',
        params: OneIntegration,
        querystring: ActivitiesQuery,
        response: { 200: IntegrationActivityList, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const row = await loadIntegration(app, request.params.workspaceId, request.params.integrationId);
      return { activities: await listActivities(app.db, row.id, request.query.limit) };
    },
  );

  app.post(
    '/integrations/:integrationId/activities/:activityId/resend',
    {
      config: { minRole: 'admin' },
      schema: {
        tags,
        summary: "Send a past delivery's event again",
        params: OneActivity,
        response: { 202: z.object({ deliveryId: z.string() }), ...errorResponses(403, 404, 409) },
      },
    },
    async (request, reply) => {
      const { workspaceId, integrationId, activityId } = request.params;
      const row = await loadIntegration(app, workspaceId, integrationId);
      if (!UUID.test(activityId)) throw notFound('Activity not found');
      const activity = (
        await app.db.query<{ delivery_id: string | null }>(
          'select delivery_id from integration_activities where id = $1 and integration_id = $2',
          [activityId, row.id],
        )
      ).at(0);
      if (!activity) throw notFound('Activity not found');
      if (!activity.delivery_id) throw badRequest('A test has no delivery to send again; send a new test instead');
      const deliveryId = await requeueDelivery(app.db, row.id, activity.delivery_id);
      if (!deliveryId) throw notFound('Activity not found');
      app.integrationDispatcher.kick();
      return reply.status(202).send({ deliveryId });
    },
  );
  return Promise.resolve();
};
