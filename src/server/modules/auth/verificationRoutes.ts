import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MessageResult } from '../../../contract/auth';
import { Paths } from '../../../contract/routes';
import { authRateLimit } from '../../auth/authRateLimits';
import { errorResponses } from '../../http/errorResponses';
import { mailLinkBase } from '../../http/publicUrl';
import { createOutboxDispatcher } from '../../mail/dispatcher';
import { Accounts } from './accounts';

// "Send the link again" (userRoutes, behind authenticate): a new verification mail for the
// signed-in account's address, a few per hour. Opening the link is public (auth/routes.ts): the
// token is the credential, and the mail may be opened on another device.
export const emailVerificationRoutes: FastifyPluginAsync = (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const mail = createOutboxDispatcher(app);
  const accounts = new Accounts(app.db, app.config.secret, () => mailLinkBase(app.config));

  app.post(
    Paths.verificationEmail,
    {
      config: authRateLimit(app.config.authRateLimitPerMinute),
      schema: {
        tags: ['users'],
        summary: 'Mail the verification link again',
        response: { 202: MessageResult, ...errorResponses(401, 409, 429) },
      },
    },
    async (request, reply) => {
      const message = await accounts.resendVerification(request.userId);
      mail.kick();
      return reply.status(202).send({ message });
    },
  );
  return Promise.resolve();
};
