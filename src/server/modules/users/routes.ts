import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MAX_PREFERENCES_BYTES, Preferences, UpdatePreferencesBody, UserDto } from '../../../contract/auth';
import { Paths } from '../../../contract/routes';
import { badRequest, unauthorized } from '../../http/errors';
import { errorResponses } from '../../http/errorResponses';
import { findUserById, mergePreferences, readPreferences, toUserDto } from './store';
import { findMemberWorkspace } from '../workspaces/store';

// The signed-in user's profile and preferences (mounted behind `authenticate`).
export const userProfileRoutes: FastifyPluginAsync = (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const tags = ['users'];

  app.get(
    Paths.me,
    { schema: { tags, summary: 'The signed-in user', response: { 200: UserDto, ...errorResponses(401) } } },
    async (request) => {
      const user = await findUserById(app.db, request.userId);
      // A valid token of a deleted account: the client should sign in again.
      if (!user) throw unauthorized('Authentication required');
      return toUserDto(user);
    },
  );

  app.get(
    Paths.preferences,
    { schema: { tags, summary: 'The user’s preferences', response: { 200: Preferences, ...errorResponses(401) } } },
    async (request) => {
      const stored = await readPreferences(app.db, request.userId);
      if (!stored) throw unauthorized('Authentication required');
      return withDarkTheme(stored);
    },
  );

  app.put(
    Paths.preferences,
    {
      schema: {
        tags,
        summary: 'Change preferences (keys sent replace, null removes, others stay)',
        body: UpdatePreferencesBody,
        response: { 200: Preferences, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      // The interface is always dark (SPEC §1): a theme sent is accepted and has no effect.
      const changes = { ...request.body };
      delete changes.theme;
      // The default workspace must be one of the user's own (SPEC §4 selection reads it).
      if (
        typeof changes.defaultWorkspaceId === 'string' &&
        !(await findMemberWorkspace(app.db, request.userId, changes.defaultWorkspaceId).catch(() => undefined))
      ) {
        throw badRequest('Unknown workspace', { defaultWorkspaceId: 'Not one of your workspaces' });
      }
      const update = await mergePreferences(app.db, request.userId, changes, MAX_PREFERENCES_BYTES);
      if (!update.ok && update.reason === 'no_user') throw unauthorized('Authentication required');
      if (!update.ok) throw badRequest(`Preferences must be at most ${MAX_PREFERENCES_BYTES} bytes`);
      return withDarkTheme(update.preferences);
    },
  );
  return Promise.resolve();
};

function withDarkTheme(stored: Record<string, unknown>): Preferences {
  return { ...stored, theme: 'dark' };
}
