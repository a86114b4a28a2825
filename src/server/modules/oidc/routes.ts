import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { publicBase } from '../../http/publicUrl';
import { cookieValue, safeReturnPath, stateCookie } from '../../http/stateCookie';
import { OidcSignInClient, ProviderRefusal } from '../../auth/oidcClient';
import { authRateLimit } from '../../auth/authRateLimits';
import { notFound } from '../../http/errors';
import { Accounts } from '../auth/accounts';
import { mailLinkBase } from '../../http/publicUrl';
import { recordUserAuditEvent } from '../audit/store';
import { notifyPendingInvitations } from '../invitations/notifyInvitee';
import { beginSignInAttempt, takeSignInAttempt } from './signInAttempts';
import { accountForIdentity, linkIdentity } from './identities';
import { SignInProviderPaths, type SignInProviderError } from '../../../contract/signInProviders';

// "Sign in with {provider}" (issue 34, docs/access.md): GET start → the provider → GET callback →
// the SPA's /auth/callback/success with the tokens in the fragment (a fragment never reaches a
// server log or a Referer), or /login?sso_error=… with a sentence the login page shows.
//
// Login CSRF: the state is bound to the browser that started the sign-in (http/stateCookie.ts); a
// callback whose state is not the cookie's is refused before anything else.

const STATE_COOKIE = 'toolscope_oidc_state';
const AFTER_SIGN_IN_DEFAULT = '/dashboard';

export const returnPathOf = (value: unknown) => safeReturnPath(value, AFTER_SIGN_IN_DEFAULT);

export function oidcStateCookie(request: FastifyRequest, state: string, maxAgeSeconds?: number): string {
  return stateCookie(request, STATE_COOKIE, SignInProviderPaths.callback, state, maxAgeSeconds);
}

export function redirectUri(app: FastifyInstance, request: FastifyRequest): string {
  return `${publicBase(app.config, request)}${SignInProviderPaths.callback}`;
}

export const oidcSignInRoutes: FastifyPluginAsync = (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const provider = app.config.oidc;
  const client = provider ? new OidcSignInClient(provider) : undefined;
  const accounts = new Accounts(app.db, app.config.secret, () => mailLinkBase(app.config));
  const tags = ['auth'];
  const security: Record<string, string[]>[] = [];
  const perMinute = app.config.authRateLimitPerMinute;

  const toLogin = (reply: FastifyReply, error: SignInProviderError) =>
    reply
      .header('set-cookie', oidcStateCookie(reply.request, '', 0))
      .redirect(`/login?sso_error=${encodeURIComponent(error)}`, 302);

  app.get(
    SignInProviderPaths.start,
    {
      config: authRateLimit(perMinute),
      schema: {
        tags,
        security,
        summary: 'Start signing in with the identity provider (a browser navigation; redirects to it)',
        querystring: z.object({ redirect: z.string().max(2000).optional() }),
      },
    },
    async (request, reply) => {
      if (!client) throw notFound('Sign-in with an identity provider is not configured');
      const secrets = await beginSignInAttempt(app.db, returnPathOf(request.query.redirect), null);
      let url: string;
      try {
        url = await client.authorizationUrl({ ...secrets, redirectUri: redirectUri(app, request) });
      } catch (err) {
        request.log.error({ err }, 'identity provider discovery failed');
        return toLogin(reply, 'failed');
      }
      return reply.header('set-cookie', oidcStateCookie(request, secrets.state)).redirect(url, 302);
    },
  );

  app.get(
    SignInProviderPaths.callback,
    {
      config: authRateLimit(perMinute),
      schema: {
        tags,
        security,
        summary: 'Where the identity provider returns the browser (signs in, or links the identity)',
        querystring: z.record(z.string(), z.string()),
      },
    },
    async (request, reply) => {
      if (!client) throw notFound('Sign-in with an identity provider is not configured');
      const query = new URLSearchParams(request.query);
      const state = query.get('state') ?? '';
      // Before the attempt is taken: a forged callback must not use up the real one.
      if (!state || cookieValue(request, STATE_COOKIE) !== state) return toLogin(reply, 'state');
      const attempt = await takeSignInAttempt(app.db, state);
      if (!attempt) return toLogin(reply, 'state');
      let identity;
      try {
        identity = await client.identify(query, { ...attempt, state, redirectUri: redirectUri(app, request) });
      } catch (err) {
        if (err instanceof ProviderRefusal) return toLogin(reply, err.code === 'access_denied' ? 'denied' : 'failed');
        request.log.warn({ err }, 'identity provider sign-in failed');
        return toLogin(reply, 'failed');
      }
      if (attempt.linkUserId) {
        const linked = await linkIdentity(app.db, identity, attempt.linkUserId);
        if (!linked.ok) return toLogin(reply, linked.error);
        await recordUserAuditEvent(app.db, attempt.linkUserId, {
          action: 'auth.identity_linked',
          actorUserId: attempt.linkUserId,
          target: identity.email ?? identity.subject,
          details: { provider: provider?.name },
          ip: request.ip,
        });
        const back = new URL(attempt.returnPath, 'http://x');
        back.searchParams.set('sso_linked', '1');
        return reply
          .header('set-cookie', oidcStateCookie(request, '', 0))
          .redirect(`${back.pathname}${back.search}`, 302);
      }
      const match = await accountForIdentity(app.db, identity);
      if (!match.ok) return toLogin(reply, match.error);
      if (match.created)
        await notifyPendingInvitations(app, match.userId, match.email).catch((err: unknown) =>
          request.log.error({ err }, 'invitation notifications failed'),
        );
      const tokens = await accounts.signIn(match.userId, {
        userAgent: request.headers['user-agent'] ?? null,
        ip: request.ip,
      });
      const fragment = new URLSearchParams({
        access_token: tokens.accessToken,
        refresh_token: tokens.refreshToken,
        redirect: attempt.returnPath,
      });
      return reply
        .header('set-cookie', oidcStateCookie(request, '', 0))
        .header('cache-control', 'no-store')
        .redirect(`/auth/callback/success#${fragment.toString()}`, 302);
    },
  );
  return Promise.resolve();
};
