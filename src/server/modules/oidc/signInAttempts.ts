import type { Queryable } from '../../db/database';
import { hashOpaqueToken } from '../../auth/opaqueToken';
import { OidcSignInClient, type AuthorizationRequest } from '../../auth/oidcClient';

// What one authorization request needs back at its callback, kept server-side so any instance
// behind a balancer can finish what another started. Named by the state's hash (the state itself
// travels in URLs); used once: taking it deletes it, so a replayed callback finds nothing.

const ATTEMPT_TTL_MINUTES = 10;

export interface SignInAttempt {
  codeVerifier: string;
  nonce: string;
  returnPath: string;
  /** Set when a signed-in user is linking the provider to their account. */
  linkUserId: string | null;
}

export async function beginSignInAttempt(
  db: Queryable,
  returnPath: string,
  linkUserId: string | null,
): Promise<Omit<AuthorizationRequest, 'redirectUri'>> {
  const secrets = OidcSignInClient.newSecrets();
  // Expired attempts of abandoned sign-ins go here rather than in a timer of their own.
  await db.query('delete from oidc_sign_in_attempts where expires_at < now()');
  await db.query(
    `insert into oidc_sign_in_attempts (state_hash, code_verifier, nonce, return_path, link_user_id, expires_at)
     values ($1, $2, $3, $4, $5, now() + make_interval(mins => $6))`,
    [hashOpaqueToken(secrets.state), secrets.codeVerifier, secrets.nonce, returnPath, linkUserId, ATTEMPT_TTL_MINUTES],
  );
  return secrets;
}

export async function takeSignInAttempt(db: Queryable, state: string): Promise<SignInAttempt | undefined> {
  const rows = await db.query<{
    code_verifier: string;
    nonce: string;
    return_path: string;
    link_user_id: string | null;
    expires_at: Date;
  }>(
    `delete from oidc_sign_in_attempts where state_hash = $1
     returning code_verifier, nonce, return_path, link_user_id, expires_at`,
    [hashOpaqueToken(state)],
  );
  const row = rows.at(0);
  if (!row || new Date(row.expires_at).getTime() < Date.now()) return undefined;
  return {
    codeVerifier: row.code_verifier,
    nonce: row.nonce,
    returnPath: row.return_path,
    linkUserId: row.link_user_id,
  };
}
