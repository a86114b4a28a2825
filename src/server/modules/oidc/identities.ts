import type { Database, Queryable } from '../../db/database';
import type { ProviderIdentity } from '../../auth/oidcClient';
import type { SignInProviderError } from '../../../contract/signInProviders';
import type { LinkedIdentityDto } from '../../../contract/signInProviders';
import { findUserByEmail, insertUser } from '../users/store';
import { insertWorkspace, personalWorkspaceName } from '../workspaces/store';
import { insertStarterSubscription } from '../billing/store';

// Which account a provider identity signs in to (docs/access.md "Sign in with a provider"):
// 1. the account the identity was linked to (issuer + subject: an address can change at the
//    provider, a subject cannot);
// 2. else, with a verified email only: an account of that email that has no password (made by
//    a provider sign-in); one with a password is not taken over by whoever controls the address
//    at a provider — its owner links the provider after signing in with the password;
// 3. else a new account (verified address, personal workspace, Starter), like a sign-up.

export type AccountMatch =
  { ok: true; userId: string; created: boolean; email: string } | { ok: false; error: SignInProviderError };

export async function accountForIdentity(db: Database, identity: ProviderIdentity): Promise<AccountMatch> {
  const linked = await linkedUser(db, identity);
  if (linked) {
    await touchIdentity(db, identity);
    return { ok: true, userId: linked.userId, created: false, email: linked.email };
  }
  if (!identity.email) return { ok: false, error: 'no_email' };
  if (!identity.emailVerified) return { ok: false, error: 'unverified_email' };
  const email = identity.email;
  return db.transaction(async (tx) => {
    const existing = await findUserByEmail(tx, email);
    if (existing && existing.password_hash !== null) return { ok: false, error: 'account_exists' } as const;
    const userId = existing?.id ?? (await createAccount(tx, identity, email));
    await insertIdentity(tx, identity, userId, email);
    return { ok: true, userId, created: !existing, email } as const;
  });
}

/** Links the identity to a signed-in user's account (they proved the account by signing in to it). */
export async function linkIdentity(
  db: Queryable,
  identity: ProviderIdentity,
  userId: string,
): Promise<{ ok: true } | { ok: false; error: SignInProviderError }> {
  const linked = await linkedUser(db, identity);
  if (linked && linked.userId !== userId) return { ok: false, error: 'linked_elsewhere' };
  if (!linked) await insertIdentity(db, identity, userId, identity.email ?? '');
  return { ok: true };
}

export async function linkedIdentities(
  db: Queryable,
  userId: string,
  providerName: string,
): Promise<LinkedIdentityDto[]> {
  const rows = await db.query<{ email: string; created_at: Date; last_sign_in_at: Date | null }>(
    'select email, created_at, last_sign_in_at from user_identities where user_id = $1 order by created_at',
    [userId],
  );
  return rows.map((row) => ({
    provider: providerName,
    email: row.email,
    linkedAt: new Date(row.created_at).toISOString(),
    lastSignInAt: row.last_sign_in_at ? new Date(row.last_sign_in_at).toISOString() : null,
  }));
}

async function linkedUser(db: Queryable, identity: ProviderIdentity) {
  const rows = await db.query<{ user_id: string; email: string }>(
    `select i.user_id, u.email from user_identities i join users u on u.id = i.user_id
     where i.issuer = $1 and i.subject = $2`,
    [identity.issuer, identity.subject],
  );
  return rows[0] ? { userId: rows[0].user_id, email: rows[0].email } : undefined;
}

async function touchIdentity(db: Queryable, identity: ProviderIdentity): Promise<void> {
  await db.query(
    `update user_identities set last_sign_in_at = now(), email = coalesce($3, email)
     where issuer = $1 and subject = $2`,
    [identity.issuer, identity.subject, identity.email ?? null],
  );
}

async function insertIdentity(db: Queryable, identity: ProviderIdentity, userId: string, email: string): Promise<void> {
  await db.query(
    `insert into user_identities (issuer, subject, user_id, email, last_sign_in_at) values ($1, $2, $3, $4, now())
     on conflict (issuer, subject) do nothing`,
    [identity.issuer, identity.subject, userId, email],
  );
}

async function createAccount(tx: Queryable, identity: ProviderIdentity, email: string): Promise<string> {
  const parts = (identity.name ?? '').trim().split(/\s+/).filter(Boolean);
  const firstName = (identity.givenName ?? (parts.length > 0 ? parts[0] : email.split('@')[0])).slice(0, 100);
  const lastName = (identity.familyName ?? parts.slice(1).join(' ')).slice(0, 100);
  const userId = await insertUser(tx, { email, passwordHash: null, firstName, lastName });
  // The provider verified the address: no verification mail.
  await tx.query('update users set email_verified_at = now() where id = $1', [userId]);
  await insertWorkspace(tx, {
    ownerId: userId,
    name: personalWorkspaceName(firstName),
    description: '',
    workspaceType: 'personal',
  });
  await insertStarterSubscription(tx, userId);
  return userId;
}
