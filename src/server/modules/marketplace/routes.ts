import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CatalogDetail,
  CatalogListResult,
  CatalogSlugParams,
  summarizeServer,
  toolsOf,
} from '../../../contract/marketplace';
import { Paths } from '../../../contract/routes';
import { notFound } from '../../http/errors';
import { errorResponses } from '../../http/errorResponses';
import { catalogFor } from './catalogSource';

// The marketplace catalog for signed-in users (docs/marketplace.md). The list carries what the
// cards need for every entry at once (search and filters run in the browser: ~300 bytes an entry,
// 1,000 entries are one ~300 KB answer, compressed far less); the detail carries the server.json.
export const marketplaceRoutes: FastifyPluginAsync = (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const tags = ['marketplace'];
  const catalog = catalogFor(app.config);

  app.get(
    Paths.marketplace,
    {
      schema: {
        tags,
        summary: 'Every server of the catalog, as cards',
        response: { 200: CatalogListResult, ...errorResponses(401) },
      },
    },
    async () => {
      const loaded = await catalog.get();
      const servers = [...loaded.bySlug].map(([slug, server]) => summarizeServer(server, slug));
      return { servers, source: loaded.source, warning: loaded.warning };
    },
  );

  app.get(
    `${Paths.marketplace}/:slug`,
    {
      schema: {
        tags,
        summary: 'One catalog entry with its server.json',
        params: CatalogSlugParams,
        response: { 200: CatalogDetail, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const server = (await catalog.get()).bySlug.get(request.params.slug);
      if (!server) throw notFound('No server with that name in the marketplace');
      return { ...summarizeServer(server, request.params.slug), tools: toolsOf(server), server };
    },
  );
  return Promise.resolve();
};
