import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AccountText,
  ChangePasswordBody,
  ChangePasswordResult,
  RevokeOthersResult,
  SignInListResult,
  SignInParams,
  UpdateProfileBody,
} from '../../../contract/account';
import { UserDto } from '../../../contract/auth';
import { Paths } from '../../../contract/routes';
import { hashPassword, verifyPassword } from '../../auth/passwords';
import { revokeOtherRefreshTokens, revokeUserRefreshTokenFamily } from '../../auth/refreshTokens';
import { badRequest, notFound, unauthorized } from '../../http/errors';
import { errorResponses } from '../../http/errorResponses';
import { findUserById, toUserDto, updatePasswordHash, updateProfile } from '../users/store';
import { listActiveSignIns } from './signInStore';

// The signed-in user's account (mounted behind `authenticate`): profile edits, password change
// and the active sign-ins (docs/settings.md). "This sign-in" is the one the access token names.
export const accountRoutes: FastifyPluginAsync = (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const tags = ['users'];

  app.put(
    Paths.me,
    {
      schema: {
        tags,
        summary: 'Change first name, last name or avatar (keys sent change, others stay)',
        body: UpdateProfileBody,
        response: { 200: UserDto, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const row = await updateProfile(app.db, request.userId, request.body);
      if (!row) throw unauthorized('Authentication required');
      return toUserDto(row);
    },
  );

  app.post(
    Paths.password,
    {
      schema: {
        tags,
        summary: 'Change the password (current one required); every other sign-in is signed out',
        body: ChangePasswordBody,
        response: { 200: ChangePasswordResult, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const { currentPassword, newPassword } = request.body;
      const user = await findUserById(app.db, request.userId);
      if (!user) throw unauthorized('Authentication required');
      if (user.password_hash === null)
        throw badRequest(AccountText.noPasswordYet, { currentPassword: AccountText.noPasswordYet });
      // A wrong current password is the caller's mistake on this form, not a failed sign-in: 400 at the field.
      if (!(await verifyPassword(user.password_hash, currentPassword))) {
        throw badRequest(AccountText.wrongCurrentPassword, { currentPassword: AccountText.wrongCurrentPassword });
      }
      if (currentPassword === newPassword)
        throw badRequest(AccountText.samePassword, { newPassword: AccountText.samePassword });
      const passwordHash = await hashPassword(newPassword);
      const signedOutOthers = await app.db.transaction(async (tx) => {
        await updatePasswordHash(tx, request.userId, passwordHash);
        return revokeOtherRefreshTokens(tx, request.userId, request.accessTokenSid);
      });
      return { message: AccountText.passwordChanged, signedOutOthers };
    },
  );

  app.get(
    Paths.signIns,
    {
      schema: {
        tags,
        summary: 'Active sign-ins (device, address, created, last used; the current one marked)',
        response: { 200: SignInListResult, ...errorResponses(401) },
      },
    },
    async (request) => ({ signIns: await listActiveSignIns(app.db, request.userId, request.accessTokenSid) }),
  );

  app.post(
    Paths.revokeOtherSignIns,
    {
      schema: {
        tags,
        summary: 'Sign out everywhere else: ends every sign-in but this one',
        response: { 200: RevokeOthersResult, ...errorResponses(401) },
      },
    },
    async (request) => ({ revoked: await revokeOtherRefreshTokens(app.db, request.userId, request.accessTokenSid) }),
  );

  app.delete(
    `${Paths.signIns}/:signInId`,
    { schema: { tags, summary: 'End one sign-in (its refresh token stops working)', params: SignInParams } },
    async (request, reply) => {
      const revoked = await revokeUserRefreshTokenFamily(app.db, request.userId, request.params.signInId);
      if (!revoked) throw notFound(AccountText.signInNotFound);
      return reply.status(204).send();
    },
  );
  return Promise.resolve();
};
