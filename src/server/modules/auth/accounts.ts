import type { Database } from '../../db/database';
import type { LoginResult, RegisterBody, UserDto } from '../../../contract/auth';
import { signAccessToken } from '../../auth/accessToken';
import { hashPassword, spendPasswordCheckTime, verifyPassword } from '../../auth/passwords';
import {
  issueRefreshToken,
  revokeAllRefreshTokens,
  rotateRefreshToken,
  type SignInOrigin,
} from '../../auth/refreshTokens';
import { REFRESH_TOKEN_TTL_SECONDS } from '../../../contract/constants';
import {
  clearAllLoginFailures,
  clearLoginFailures,
  lockedForSeconds,
  recordLoginFailure,
} from '../../auth/loginThrottle';
import {
  ACCOUNT_BACKOFF,
  accountBackoffSeconds,
  clearAccountBackoff,
  recordAccountFailure,
} from '../../auth/accountBackoff';
import { consumeEmailVerification } from '../../auth/emailVerifications';
import { queueVerificationMail, VerificationText } from './emailVerification';
import { consumePasswordReset, createPasswordReset } from '../../auth/passwordResets';
import { badRequest, conflict, HttpError, tooManyRequests, unauthorized } from '../../http/errors';
import { BREACHED_PASSWORD_TEXT, isBreachedPassword } from '../../auth/breachedPasswords';
import { enqueueMail } from '../../mail/outbox';
import { findUserByEmail, findUserById, insertUser, toUserDto, updatePasswordHash } from '../users/store';
import { insertWorkspace, personalWorkspaceName } from '../workspaces/store';
import { insertStarterSubscription } from '../billing/store';

// The account flows behind the auth routes. Every refusal here is an HttpError with the text
// the caller sees; the texts are chosen so that none of them tells whether an email exists
// (except sign-up's duplicate check, which the product needs).
export const AuthText = {
  invalidCredentials: 'Invalid email or password',
  emailTaken: 'An account with this email already exists',
  invalidRefreshToken: 'Invalid or expired refresh token',
  invalidResetToken: 'This password reset link is invalid or has expired',
  resetRequested: 'If an account exists for that email, a password reset link has been sent to it.',
  passwordChanged: 'Your password has been changed. Sign in with the new password.',
  signedOut: 'Signed out',
  tooManyAttempts: (seconds: number) =>
    `Too many sign-in attempts. Try again in ${Math.max(1, Math.ceil(seconds / 60))} minutes.`,
} as const;

const UNIQUE_VIOLATION = '23505';

/** A password from the bundled breach list is a field error, like one that is too short. */
function refuseBreachedPassword(password: string): void {
  if (isBreachedPassword(password)) {
    throw new HttpError(400, `password: ${BREACHED_PASSWORD_TEXT}`, 'validation_failed', {
      password: BREACHED_PASSWORD_TEXT,
    });
  }
}

/** What the routes do when sign-ins end or an account is locked (close streams, audit); never fails the flow. */
export interface AccountEvents {
  signInsEnded(
    userId: string,
    ended: { sid?: string; reason: 'signed_out' | 'password_changed' | 'token_reuse' },
  ): Promise<void>;
  /** `scope`: this client's lock-out, or the start of the account-wide backoff (many addresses). */
  lockedOut(email: string, lockSeconds: number, client: string, scope?: 'client' | 'account'): Promise<void>;
  emailVerified(userId: string, email: string): Promise<void>;
}

const NO_EVENTS: AccountEvents = {
  signInsEnded: () => Promise.resolve(),
  lockedOut: () => Promise.resolve(),
  emailVerified: () => Promise.resolve(),
};

export class Accounts {
  constructor(
    private readonly db: Database,
    private readonly secret: string,
    private readonly resetLinkBase: () => string,
    private readonly events: AccountEvents = NO_EVENTS,
  ) {}

  /** User, personal workspace (owner) and starter subscription in one transaction; signs in. */
  async register(body: RegisterBody, origin: SignInOrigin = {}): Promise<LoginResult & { user: UserDto }> {
    refuseBreachedPassword(body.password);
    const passwordHash = await hashPassword(body.password);
    try {
      const userId = await this.db.transaction(async (tx) => {
        if (await findUserByEmail(tx, body.email)) throw conflict(AuthText.emailTaken, { email: AuthText.emailTaken });
        const id = await insertUser(tx, {
          email: body.email,
          passwordHash,
          firstName: body.firstName,
          lastName: body.lastName,
        });
        await insertWorkspace(tx, {
          ownerId: id,
          name: personalWorkspaceName(body.firstName),
          description: '',
          workspaceType: 'personal',
        });
        await insertStarterSubscription(tx, id);
        await queueVerificationMail(tx, { id, email: body.email, firstName: body.firstName }, this.resetLinkBase());
        return id;
      });
      return await this.signIn(userId, origin);
    } catch (error) {
      // Two sign-ups with one email at once: the unique index settles it.
      if ((error as { code?: string }).code === UNIQUE_VIOLATION)
        throw conflict(AuthText.emailTaken, { email: AuthText.emailTaken });
      throw error;
    }
  }

  /**
   * `client` is the caller's address (lock-outs hold per email and client, auth/loginThrottle.ts);
   * `device` the nonce of a device cookie this browser holds for the email (auth/knownDevice.ts):
   * a known device has its own lock-out bucket and is not held by the account-wide backoff.
   */
  async login(
    email: string,
    password: string,
    client: string,
    origin: SignInOrigin = {},
    device?: string,
  ): Promise<LoginResult & { user: UserDto }> {
    const throttleKey = device ? `device:${device}` : client;
    const locked = await lockedForSeconds(this.db, email, throttleKey);
    if (locked > 0) throw tooManyRequests(AuthText.tooManyAttempts(locked), locked);
    // Refused before the password is checked: during the backoff an unknown device learns nothing.
    const backoff = device ? 0 : await accountBackoffSeconds(this.db, email);
    if (backoff > 0) throw tooManyRequests(AuthText.tooManyAttempts(backoff), backoff);
    const user = await findUserByEmail(this.db, email);
    const valid = user
      ? await verifyPassword(user.password_hash, password)
      : (await spendPasswordCheckTime(password), false);
    if (!user || !valid) {
      const backoff = await recordAccountFailure(this.db, email);
      // The first wait of a backoff is news for the account's owners; the longer ones that follow are not.
      if (backoff === ACCOUNT_BACKOFF.firstDelaySeconds) await this.events.lockedOut(email, backoff, client, 'account');
      const lockSeconds = await recordLoginFailure(this.db, email, throttleKey);
      if (lockSeconds > 0) {
        await this.events.lockedOut(email, lockSeconds, client);
        throw tooManyRequests(AuthText.tooManyAttempts(lockSeconds), lockSeconds);
      }
      throw unauthorized(AuthText.invalidCredentials);
    }
    await clearLoginFailures(this.db, email, throttleKey);
    return this.signIn(user.id, origin);
  }

  /** Rotates the refresh token; a refusal is always the same 401, whatever the reason. */
  async refresh(
    refreshToken: string,
    origin: SignInOrigin = {},
  ): Promise<{ accessToken: string; refreshToken: string; user: UserDto }> {
    const rotation = await rotateRefreshToken(this.db, refreshToken, this.secret, origin);
    if (!rotation.ok) {
      // A replaced token shown again: two parties hold it. The sign-in is revoked (in
      // rotateRefreshToken); its streams close and the account's workspaces are told.
      if (rotation.reason === 'reused')
        await this.events.signInsEnded(rotation.userId, { sid: rotation.familyId, reason: 'token_reuse' });
      throw unauthorized(AuthText.invalidRefreshToken);
    }
    const user = await findUserById(this.db, rotation.userId);
    if (!user) throw unauthorized(AuthText.invalidRefreshToken);
    return {
      // Issued at the rotation's time with the new refresh token's id: a tab refreshing within the
      // grace window receives byte for byte the pair the first tab got.
      accessToken: signAccessToken(
        user.id,
        this.secret,
        rotation.familyId,
        rotation.issuedAtSeconds,
        undefined,
        rotation.tokenId,
      ),
      refreshToken: rotation.token,
      user: toUserDto(user),
    };
  }

  /** Queues a reset mail when the account exists; the caller answers the same either way. */
  async requestPasswordReset(email: string): Promise<boolean> {
    const user = await findUserByEmail(this.db, email);
    if (!user) return false;
    return this.db.transaction(async (tx) => {
      const token = await createPasswordReset(tx, user.id);
      if (!token) return false;
      const link = `${this.resetLinkBase()}/reset-password?token=${encodeURIComponent(token)}`;
      await enqueueMail(tx, {
        to: user.email,
        subject: 'Reset your Toolscope password',
        text: [
          `Hello ${user.first_name},`,
          '',
          'Someone (hopefully you) asked to reset the password of your Toolscope account.',
          `Open this link within an hour to choose a new password: ${link}`,
          '',
          'If you did not ask for this, ignore this mail: your password stays as it is.',
        ].join('\n'),
      });
      return true;
    });
  }

  /** Sets the new password, ends every sign-in of the account and lifts a sign-in lock. */
  async resetPassword(token: string, password: string): Promise<void> {
    refuseBreachedPassword(password);
    const passwordHash = await hashPassword(password);
    const userId = await this.db.transaction(async (tx) => {
      const userId = await consumePasswordReset(tx, token);
      if (!userId) throw badRequest(AuthText.invalidResetToken, { token: AuthText.invalidResetToken });
      await updatePasswordHash(tx, userId, passwordHash);
      await revokeAllRefreshTokens(tx, userId);
      const user = await findUserById(tx, userId);
      if (user) {
        await clearAllLoginFailures(tx, user.email);
        await clearAccountBackoff(tx, user.email);
      }
      return userId;
    });
    await this.events.signInsEnded(userId, { reason: 'password_changed' });
  }

  /** Opens a verification link: the account's address is proved, its invitations become its own. */
  async verifyEmail(token: string): Promise<void> {
    const userId = await consumeEmailVerification(this.db, token);
    if (!userId) throw badRequest(VerificationText.invalidToken, { token: VerificationText.invalidToken });
    const user = await findUserById(this.db, userId);
    if (user) await this.events.emailVerified(userId, user.email);
  }

  /** "Send the link again" for the signed-in account. */
  async resendVerification(userId: string): Promise<string> {
    const user = await findUserById(this.db, userId);
    if (!user) throw unauthorized('Authentication required');
    if (user.email_verified_at) throw conflict(VerificationText.alreadyVerified);
    const queued = await this.db.transaction((tx) =>
      queueVerificationMail(tx, { id: user.id, email: user.email, firstName: user.first_name }, this.resetLinkBase()),
    );
    if (!queued) throw tooManyRequests(VerificationText.tooMany, 60 * 60);
    return VerificationText.sent(user.email);
  }

  async currentUser(userId: string): Promise<UserDto> {
    const user = await findUserById(this.db, userId);
    // A valid token of a deleted account: the client should sign in again.
    if (!user) throw unauthorized('Authentication required');
    return toUserDto(user);
  }

  /** A new sign-in of the user (password checked, or a provider vouched for them: modules/oidc). */
  async signIn(userId: string, origin: SignInOrigin): Promise<LoginResult & { user: UserDto }> {
    const user = await this.currentUser(userId);
    const refresh = await issueRefreshToken(this.db, userId, undefined, REFRESH_TOKEN_TTL_SECONDS, origin);
    return { accessToken: this.accessToken(userId, refresh.familyId), refreshToken: refresh.token, user };
  }

  /** Access tokens name their sign-in (`sid`), so signing out ends that sign-in's workspace access at once. */
  private accessToken(userId: string, familyId: string): string {
    return signAccessToken(userId, this.secret, familyId);
  }
}
