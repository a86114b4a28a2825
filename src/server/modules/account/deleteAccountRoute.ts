import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AccountText, DeleteAccountBody } from '../../../contract/account';
import { Paths } from '../../../contract/routes';
import { verifyPassword } from '../../auth/passwords';
import { badRequest, conflict, unauthorized } from '../../http/errors';
import { errorResponses } from '../../http/errorResponses';
import { findUserById } from '../users/store';
import { deleteWorkspaceData } from '../workspaces/workspaceDeletion';

// DELETE /api/v1/users/me (docs/settings.md "Deleting the account"): the account goes with its
// personal workspace and every workspace it owns that nobody else is a member of — each through
// the workspace deletion (rows, recorder, journal). A team workspace others still use is not
// taken from them: the deletion is refused, naming it, until it is deleted or handed over.

interface OwnedWorkspace {
  id: string;
  name: string;
  others: number;
}

export const deleteAccountRoute: FastifyPluginAsync = (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();

  app.delete(
    Paths.me,
    {
      schema: {
        tags: ['users'],
        summary:
          'Delete the account with its personal workspace and the workspaces only it uses, with all their data (password required)',
        body: DeleteAccountBody,
        response: { 204: z.null(), ...errorResponses(400, 401, 409) },
      },
    },
    async (request, reply) => {
      const user = await findUserById(app.db, request.userId);
      if (!user) throw unauthorized();
      // An account made by a provider sign-in proves itself with a password it sets first.
      if (user.password_hash === null)
        throw badRequest(AccountText.noPasswordYet, { password: AccountText.noPasswordYet });
      if (!(await verifyPassword(user.password_hash, request.body.password)))
        throw badRequest(AccountText.wrongPassword, { password: AccountText.wrongPassword });
      const owned = await app.db.query<OwnedWorkspace>(
        `select w.id, w.name,
           (select count(*)::int from workspace_members m where m.workspace_id = w.id and m.user_id <> $1) as others
         from workspaces w where w.owner_id = $1 order by w.created_at`,
        [user.id],
      );
      const shared = owned.filter((w) => w.others > 0);
      if (shared.length > 0) throw conflict(AccountText.sharedTeamWorkspaces(shared.map((w) => w.name)));
      for (const workspace of owned) await deleteWorkspaceData(app, workspace.id);
      await app.db.transaction(async (tx) => {
        // Rows keyed by the address rather than the user: pending invitations to it, mail to it, sign-in throttles.
        await tx.query('delete from workspace_invitations where lower(email) = lower($1)', [user.email]);
        await tx.query('delete from outbox where lower(recipient) = lower($1)', [user.email]);
        await tx.query('delete from login_throttle where lower(email) = lower($1)', [user.email]);
        await tx.query('delete from login_account_backoff where lower(email) = lower($1)', [user.email]);
        await tx.query('delete from users where id = $1', [user.id]);
      });
      return reply.status(204).send(null);
    },
  );
  return Promise.resolve();
};
