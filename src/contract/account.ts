import { z } from 'zod';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './constants';
import { NOTIFICATION_TYPES } from './notifications';

// The signed-in user's own settings (docs/settings.md): profile, password, sign-ins, preferences.

/** An avatar the user may store: a locally generated image (data:image/svg+xml) or an https URL. */
const AVATAR_DATA_URL = /^data:image\/svg\+xml(;[a-z0-9=-]+)*,/i;
export const MAX_AVATAR_URL_LENGTH = 40_000;
export function isStorableAvatarUrl(url: string): boolean {
  if (AVATAR_DATA_URL.test(url)) return true;
  try {
    return new URL(url).protocol === 'https:';
  } catch {
    return false;
  }
}

const personName = z.string().trim().min(1, 'Required').max(100, 'At most 100 characters');

/** PUT /users/me: the keys sent change, the others stay. avatarUrl null removes the avatar. */
export const UpdateProfileBody = z
  .object({
    firstName: personName.optional(),
    lastName: personName.optional(),
    avatarUrl: z
      .string()
      .max(MAX_AVATAR_URL_LENGTH, 'The avatar image is too large')
      .refine(isStorableAvatarUrl, 'The avatar must be a generated image or an https URL')
      .nullable()
      .optional(),
  })
  .strict();
export type UpdateProfileBody = z.infer<typeof UpdateProfileBody>;

export const ChangePasswordBody = z
  .object({
    currentPassword: z.string().min(1, 'Required').max(MAX_PASSWORD_LENGTH),
    newPassword: z
      .string()
      .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters`)
      .max(MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters`),
    newPasswordConfirmation: z.string().max(MAX_PASSWORD_LENGTH),
  })
  .refine((b) => b.newPassword === b.newPasswordConfirmation, {
    error: 'Passwords do not match',
    path: ['newPasswordConfirmation'],
  });
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

export const ChangePasswordResult = z.object({ message: z.string(), signedOutOthers: z.number().int() });

/** One active sign-in: a refresh-token family (one login, all its rotations). */
export const SignInDto = z.object({
  id: z.string(),
  device: z.string(),
  userAgent: z.string().nullable(),
  ip: z.string().nullable(),
  createdAt: z.string(),
  lastUsedAt: z.string(),
  current: z.boolean(),
});
export type SignInDto = z.infer<typeof SignInDto>;
export const SignInListResult = z.object({ signIns: z.array(SignInDto) });
export const SignInParams = z.object({ signInId: z.string().check(z.uuid('Unknown sign-in')) });
export const RevokeOthersResult = z.object({ revoked: z.number().int() });

export const AccountText = {
  wrongCurrentPassword: 'The current password is not correct',
  /** An account made by a provider sign-in has no password to give (docs/access.md). */
  noPasswordYet:
    'This account signs in with its identity provider and has no password yet: set one with "Forgot password"',
  samePassword: 'The new password must differ from the current one',
  passwordChanged: 'Your password has been changed. Every other sign-in has been signed out.',
  signInNotFound: 'Sign-in not found',
  wrongPassword: 'The password is not correct',
  sharedTeamWorkspaces: (names: string[]) =>
    `Delete your team workspaces that have other members first, or make someone else their owner: ${names.join(', ')}`,
} as const;

/** DELETE /users/me: the account, its personal workspace and every workspace it alone uses (docs/settings.md "Deleting the account"). */
export const DeleteAccountBody = z.strictObject({
  password: z.string({ error: 'Enter your password' }).min(1, { error: 'Enter your password' }).max(1024),
});
export type DeleteAccountBody = z.infer<typeof DeleteAccountBody>;

// ---- preferences (GET/PUT /users/preferences) ----

export const DATE_FORMATS = ['locale', 'iso', 'dmy', 'mdy'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];
export const TIME_FORMATS = ['locale', '24h', '12h'] as const;
export type TimeFormat = (typeof TIME_FORMATS)[number];
export const ACTIVITY_STREAM_DEFAULTS = ['live', 'paused'] as const;
export type ActivityStreamDefault = (typeof ACTIVITY_STREAM_DEFAULTS)[number];

/** Whether the runtime knows this IANA time zone (the same check on both sides). */
export function isKnownTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export const timeZoneField = z
  .string()
  .max(64)
  .refine(isKnownTimeZone, 'Unknown time zone (use an IANA name such as Europe/Paris)');
export const emailNotificationTypesField = z.array(z.enum(NOTIFICATION_TYPES)).max(NOTIFICATION_TYPES.length);
