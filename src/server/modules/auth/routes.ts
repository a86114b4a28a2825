import type { FastifyPluginAsync } from 'fastify';
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
} from '../../../contract/auth';
import { ACCESS_TOKEN_TTL_SECONDS } from '../../../contract/constants';
import { Paths } from '../../../contract/routes';
import { revokeRefreshTokenFamily } from '../../auth/refreshTokens';
import { createOutboxDispatcher } from '../../mail/dispatcher';
import { Accounts, AuthText } from './accounts';
import { errorResponses } from '../../http/errorResponses';

// Sign-up, sign-in, token refresh (JSON and the OAuth form), sign-out and password reset.
// All public: the refresh token or the password is the credential.
export const authRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const mail = createOutboxDispatcher(app);
  // Links in mail come from configuration, never from the request's Host header, which a
  // caller controls (a forged Host would otherwise plant the attacker's site in a reset mail).
  const resetLinkBase = () => app.config.publicUrl ?? `http://localhost:${app.config.port}`;
  const accounts = new Accounts(app.db, app.config.secret, resetLinkBase);
  const tags = ['auth'];
  const security: Record<string, string[]>[] = [];

  app.post(
    Paths.register,
    { schema: { tags, security, summary: 'Create an account with a personal workspace and sign in', body: RegisterBody, response: { 201: LoginResult, ...errorResponses(400, 409) } } },
    async (request, reply) => reply.status(201).send(await accounts.register(request.body)),
  );

  app.post(
    Paths.login,
    { schema: { tags, security, summary: 'Sign in with email and password', body: LoginBody, response: { 200: LoginResult, ...errorResponses(400, 401, 429) } } },
    async (request) => accounts.login(request.body.email, request.body.password),
  );

  app.post(
    Paths.refresh,
    { schema: { tags, security, summary: 'Exchange a refresh token for new tokens (the old one is used up)', body: RefreshBody, response: { 200: RefreshResult, ...errorResponses(400, 401) } } },
    async (request) => accounts.refresh(request.body.refreshToken),
  );

  app.post(
    Paths.oauthToken,
    {
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
      const result = await accounts.refresh(request.body.refresh_token);
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
    { schema: { tags, security, summary: 'Sign out: revokes the given refresh token and its rotations', body: LogoutBody, response: { 200: MessageResult, ...errorResponses(400) } } },
    async (request) => {
      const token = request.body?.refreshToken;
      if (token) await revokeRefreshTokenFamily(app.db, token);
      return { message: AuthText.signedOut };
    },
  );

  app.post(
    Paths.forgotPassword,
    { schema: { tags, security, summary: 'Mail a password reset link (same answer whether the account exists or not)', body: ForgotPasswordBody, response: { 200: MessageResult, ...errorResponses(400) } } },
    async (request) => {
      if (await accounts.requestPasswordReset(request.body.email)) mail.kick();
      return { message: AuthText.resetRequested };
    },
  );

  app.post(
    Paths.resetPassword,
    { schema: { tags, security, summary: 'Set a new password with a one-time reset token', body: ResetPasswordBody, response: { 200: MessageResult, ...errorResponses(400) } } },
    async (request) => {
      await accounts.resetPassword(request.body.token, request.body.password);
      return { message: AuthText.passwordChanged };
    },
  );
};
