import { mailLinkBase } from '../../http/publicUrl';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ForgotPasswordBody,
  LoginBody,
  LoginResult,
  LogoutBody,
  MessageResult,
  OAuthTokenForm,
  OAuthTokenResult,
  RefreshBody,
  RefreshResult,
  RegisterBody,
  ResetPasswordBody,
  VerifyEmailBody,
} from '../../../contract/auth';
import { ACCESS_TOKEN_TTL_SECONDS } from '../../../contract/constants';
import { Paths } from '../../../contract/routes';
import { revokeRefreshTokenFamily } from '../../auth/refreshTokens';
import { createOutboxDispatcher } from '../../mail/dispatcher';
import { Accounts, AuthText, type AccountEvents } from './accounts';
import { VerificationText } from './emailVerification';
import { errorResponses } from '../../http/errorResponses';
import { authRateLimit } from '../../auth/authRateLimits';
import { deviceCookie, recognisedDevice } from '../../auth/knownDevice';
import { revokeUserStreams } from '../../events/accessRevocation';
import { recordUserAuditEvent } from '../audit/store';
import { findUserByEmail } from '../users/store';
import { notifyPendingInvitations } from '../invitations/notifyInvitee';
import { createBackgroundQueue } from '../../http/backgroundQueue';

// Sign-up, sign-in, token refresh (JSON and the OAuth form), sign-out and password reset.
// All public: the refresh token or the password is the credential.
export const authRoutes: FastifyPluginAsync = (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const mail = createOutboxDispatcher(app);
  // Links in mail come from configuration, never from the request's Host header, which a
  // caller controls (a forged Host would otherwise plant the attacker's site in a reset mail).
  const resetLinkBase = () => mailLinkBase(app.config);
  const logFailure = (what: string) => (err: unknown) => app.log.error({ err }, what);
  const events: AccountEvents = {
    signInsEnded: async (userId, ended) => {
      await revokeUserStreams(app, userId, ended).catch(logFailure('closing live streams failed'));
      const action =
        ended.reason === 'token_reuse'
          ? 'auth.refresh_token_reused'
          : ended.reason === 'password_changed'
            ? 'auth.password_changed'
            : undefined;
      if (action)
        await recordUserAuditEvent(app.db, userId, { action, actorUserId: userId }).catch(
          logFailure('audit write failed'),
        );
    },
    lockedOut: async (email, lockSeconds, client, scope = 'client') => {
      const user = await findUserByEmail(app.db, email);
      if (user) {
        await recordUserAuditEvent(app.db, user.id, {
          action: 'auth.locked_out',
          target: email,
          details: { lockSeconds, scope },
          ip: client,
        }).catch(logFailure('audit write failed'));
      }
    },
    // Invitations kept for this address become the account's once it proved the address.
    emailVerified: async (userId, email) => {
      await notifyPendingInvitations(app, userId, email).catch(logFailure('invitation notifications failed'));
    },
  };
  const accounts = new Accounts(app.db, app.config.secret, resetLinkBase, events);
  // Forgot-password answers before any account lookup: the work (lookup, token, mail) runs after
  // the answer, so an existing and an unknown email look alike in body and in time.
  const resetRequests = createBackgroundQueue(app, 'password reset request failed');
  const tags = ['auth'];
  const originOf = (request: FastifyRequest) => ({ userAgent: request.headers['user-agent'] ?? null, ip: request.ip });
  const security: Record<string, string[]>[] = [];
  // The browser that signed in is a known device of the account from now on (auth/knownDevice.ts);
  // the cookie travels only to the sign-in route.
  const deviceCookieFor = (request: FastifyRequest, email: string, nonce: string | undefined) =>
    deviceCookie(app.config.secret, email, { nonce, path: Paths.login, secure: request.protocol === 'https' });
  const perMinute = app.config.authRateLimitPerMinute;

  app.post(
    Paths.register,
    {
      config: authRateLimit(perMinute),
      schema: {
        tags,
        security,
        summary: 'Create an account with a personal workspace and sign in',
        body: RegisterBody,
        response: { 201: LoginResult, ...errorResponses(400, 409) },
      },
    },
    async (request, reply) => {
      const result = await accounts.register(request.body, originOf(request));
      mail.kick(); // the verification link
      reply.header('set-cookie', deviceCookieFor(request, request.body.email, undefined));
      return reply.status(201).send(result);
    },
  );

  app.post(
    Paths.login,
    {
      config: authRateLimit(perMinute),
      schema: {
        tags,
        security,
        summary: 'Sign in with email and password',
        body: LoginBody,
        response: { 200: LoginResult, ...errorResponses(400, 401, 429) },
      },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      const device = recognisedDevice(app.config.secret, email, request.headers.cookie);
      const result = await accounts.login(email, password, request.ip, originOf(request), device);
      reply.header('set-cookie', deviceCookieFor(request, email, device));
      return result;
    },
  );

  app.post(
    Paths.refresh,
    {
      config: authRateLimit(perMinute * 3),
      schema: {
        tags,
        security,
        summary: 'Exchange a refresh token for new tokens (the old one is used up)',
        body: RefreshBody,
        response: { 200: RefreshResult, ...errorResponses(400, 401) },
      },
    },
    async (request) => accounts.refresh(request.body.refreshToken, originOf(request)),
  );

  app.post(
    Paths.oauthToken,
    {
      config: authRateLimit(perMinute * 3),
      schema: {
        tags,
        security,
        summary: 'OAuth 2.0 refresh grant (form-encoded)',
        consumes: ['application/x-www-form-urlencoded'],
        body: OAuthTokenForm,
        response: { 200: OAuthTokenResult, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      const result = await accounts.refresh(request.body.refresh_token, originOf(request));
      // RFC 6749 §5.1: token responses must not be cached.
      reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      return {
        access_token: result.accessToken,
        refresh_token: result.refreshToken,
        token_type: 'Bearer',
        expires_in: ACCESS_TOKEN_TTL_SECONDS,
        user: result.user,
      };
    },
  );

  app.post(
    Paths.logout,
    {
      schema: {
        tags,
        security,
        summary: 'Sign out: revokes the given refresh token and its rotations',
        body: LogoutBody,
        response: { 200: MessageResult, ...errorResponses(400) },
      },
    },
    async (request) => {
      const token = request.body?.refreshToken;
      const ended = token ? await revokeRefreshTokenFamily(app.db, token) : undefined;
      // The sign-in's access token stops opening workspace routes (guards.ts) and its live streams close now.
      if (ended) await events.signInsEnded(ended.userId, { sid: ended.familyId, reason: 'signed_out' });
      return { message: AuthText.signedOut };
    },
  );

  app.post(
    Paths.forgotPassword,
    {
      config: authRateLimit(perMinute),
      schema: {
        tags,
        security,
        summary: 'Mail a password reset link (same answer whether the account exists or not)',
        body: ForgotPasswordBody,
        response: { 200: MessageResult, ...errorResponses(400, 429) },
      },
    },
    (request) => {
      const email = request.body.email;
      resetRequests.push(async () => {
        if (await accounts.requestPasswordReset(email)) mail.kick();
      });
      return Promise.resolve({ message: AuthText.resetRequested });
    },
  );

  app.post(
    Paths.verifyEmail,
    {
      config: authRateLimit(perMinute),
      schema: {
        tags,
        security,
        summary: 'Verify the account’s email address with the link mailed at sign-up',
        body: VerifyEmailBody,
        response: { 200: MessageResult, ...errorResponses(400, 429) },
      },
    },
    async (request) => {
      await accounts.verifyEmail(request.body.token);
      return { message: VerificationText.verified };
    },
  );

  app.post(
    Paths.resetPassword,
    {
      schema: {
        tags,
        security,
        summary: 'Set a new password with a one-time reset token',
        body: ResetPasswordBody,
        response: { 200: MessageResult, ...errorResponses(400) },
      },
    },
    async (request) => {
      await accounts.resetPassword(request.body.token, request.body.password);
      return { message: AuthText.passwordChanged };
    },
  );
  return Promise.resolve();
};
