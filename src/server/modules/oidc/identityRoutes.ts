import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { OidcSignInClient } from '../../auth/oidcClient';
import { notFound } from '../../http/errors';
import { errorResponses } from '../../http/errorResponses';
import { beginSignInAttempt } from './signInAttempts';
import { linkedIdentities } from './identities';
import { oidcStateCookie, redirectUri, returnPathOf } from './routes';
import { SignInProviderPaths } from '../../../contract/signInProviders';
import { LinkIdentityBody, LinkIdentityResult, LinkedIdentitiesResult } from '../../../contract/signInProviderSchemas';

// The provider identities of the signed-in account, and linking one: the user proves the account
// by being signed in to it, then proves the identity at the provider (docs/access.md).
export const identityRoutes: FastifyPluginAsync = (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const provider = app.config.oidc;
  const client = provider ? new OidcSignInClient(provider) : undefined;
  const tags = ['account'];

  app.get(
    SignInProviderPaths.identities,
    {
      schema: {
        tags,
        summary: "The identity provider sign-ins linked to the caller's account",
        response: { 200: LinkedIdentitiesResult, ...errorResponses(401) },
      },
    },
    async (request) => ({
      identities: provider ? await linkedIdentities(app.db, request.userId, provider.name) : [],
    }),
  );

  app.post(
    SignInProviderPaths.identities,
    {
      schema: {
        tags,
        summary: "Start linking the identity provider to the caller's account (the browser goes to authorizationUrl)",
        body: LinkIdentityBody.nullish(),
        response: { 200: LinkIdentityResult, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      if (!client) throw notFound('Sign-in with an identity provider is not configured');
      const secrets = await beginSignInAttempt(app.db, returnPathOf(request.body?.returnPath), request.userId);
      const authorizationUrl = await client.authorizationUrl({ ...secrets, redirectUri: redirectUri(app, request) });
      return reply.header('set-cookie', oidcStateCookie(request, secrets.state)).send({ authorizationUrl });
    },
  );
  return Promise.resolve();
};
