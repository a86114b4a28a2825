import { z } from 'zod';

// Accounts and tokens (SPEC §3, §7 Auth). Server validates with these; the client infers types.
// The limits live in constants.ts so screens can show them without loading zod.
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './constants';
import {
  ACTIVITY_STREAM_DEFAULTS,
  DATE_FORMATS,
  TIME_FORMATS,
  emailNotificationTypesField,
  timeZoneField,
} from './account';
import { NOTIFICATION_TYPES } from './notifications';
export { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH };

const email = z.string().trim().toLowerCase().check(z.email('Enter a valid email address')).max(254);
const password = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters`);
const name = z.string().trim().min(1, 'Required').max(100);

export const RegisterBody = z
  .object({
    email,
    password,
    passwordConfirmation: z.string().max(MAX_PASSWORD_LENGTH),
    firstName: name,
    lastName: name,
  })
  .refine((b) => b.password === b.passwordConfirmation, {
    error: 'Passwords do not match',
    path: ['passwordConfirmation'],
  });
export type RegisterBody = z.infer<typeof RegisterBody>;

export const LoginBody = z.object({
  email: z.string().trim().toLowerCase().min(1, 'Required').max(254),
  password: z.string().min(1, 'Required').max(MAX_PASSWORD_LENGTH),
});
export type LoginBody = z.infer<typeof LoginBody>;

export const RefreshBody = z.object({ refreshToken: z.string().min(1, 'Required').max(512) });
// Sign-out may come with no body at all (the client always clears its tokens anyway).
export const LogoutBody = z.object({ refreshToken: z.string().max(512).optional() }).nullish();

/** POST /api/auth/oauth/token (form-encoded). */
export const OAuthTokenForm = z.object({
  grant_type: z.literal('refresh_token'),
  refresh_token: z.string().min(1).max(512),
});

export const ForgotPasswordBody = z.object({ email });
/** Opening the link mailed at sign-up (docs/security.md, "Verified addresses"). */
export const VerifyEmailBody = z.object({ token: z.string().min(1).max(512) });
export const ResetPasswordBody = z
  .object({ token: z.string().min(1).max(512), password, passwordConfirmation: z.string().max(MAX_PASSWORD_LENGTH) })
  .refine((b) => b.password === b.passwordConfirmation, {
    error: 'Passwords do not match',
    path: ['passwordConfirmation'],
  });

/** The user as the API sends it (camelCase). The client also accepts snake_case (SPEC §3). */
export const UserDto = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  fullName: z.string(),
  avatarUrl: z.string().nullable(),
  /** The address proved by the link mailed at sign-up; invitations need it (docs/security.md). */
  emailVerified: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  workspaceCount: z.number().int(),
});
export type UserDto = z.infer<typeof UserDto>;

export const LoginResult = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  user: UserDto.optional(),
});
export type LoginResult = z.infer<typeof LoginResult>;

/** POST /auth/refresh. The server always rotates, so refreshToken is always sent; user too. */
export const RefreshResult = z.object({
  accessToken: z.string(),
  refreshToken: z.string().optional(),
  user: UserDto.optional(),
});
export type RefreshResult = z.infer<typeof RefreshResult>;

export const OAuthTokenResult = z.object({
  access_token: z.string(),
  refresh_token: z.string().optional(),
  token_type: z.string().optional(),
  expires_in: z.number().optional(),
  user: UserDto.optional(),
});
export type OAuthTokenResult = z.infer<typeof OAuthTokenResult>;

export const MessageResult = z.object({ message: z.string() });

/** Preferences as stored and returned. The interface is always dark (SPEC §1), whatever was sent. */
export const Preferences = z.looseObject({
  theme: z.literal('dark'),
  timezone: z.string().max(64).optional(),
  dateFormat: z.enum(DATE_FORMATS).optional(),
  timeFormat: z.enum(TIME_FORMATS).optional(),
  emailNotifications: z.boolean().optional(),
  /** Notification types that also come by email (docs/settings.md). */
  emailNotificationTypes: z.array(z.enum(NOTIFICATION_TYPES)).optional(),
  activityStreamDefault: z.enum(ACTIVITY_STREAM_DEFAULTS).optional(),
  defaultWorkspaceId: z.string().max(64).nullable().optional(),
});
export type Preferences = z.infer<typeof Preferences>;

export const MAX_PREFERENCES_BYTES = 16_384;

/**
 * PUT /users/preferences: the keys sent replace the stored ones, a key sent as null is removed,
 * other keys stay. Unknown keys are kept (the SPA may add its own) within a size cap.
 */
export const UpdatePreferencesBody = z
  .looseObject({
    theme: z.string().max(20).optional(),
    timezone: timeZoneField.nullable().optional(),
    dateFormat: z.enum(DATE_FORMATS).nullable().optional(),
    timeFormat: z.enum(TIME_FORMATS).nullable().optional(),
    emailNotifications: z.boolean().nullable().optional(),
    emailNotificationTypes: emailNotificationTypesField.nullable().optional(),
    activityStreamDefault: z.enum(ACTIVITY_STREAM_DEFAULTS).nullable().optional(),
    defaultWorkspaceId: z.string().max(64).nullable().optional(),
  })
  .refine((b) => JSON.stringify(b).length <= MAX_PREFERENCES_BYTES, {
    error: `Preferences must be at most ${MAX_PREFERENCES_BYTES} bytes`,
  });
export type UpdatePreferencesBody = z.infer<typeof UpdatePreferencesBody>;

/** Claims of the access token (a JWT, HS256). `exp` and `iat` in seconds. */
export interface AccessTokenClaims {
  sub: string;
  typ: 'access';
  exp: number;
  iat: number;
  jti: string;
  email?: string;
  /** The sign-in (refresh-token family) this token was issued to: once it ends, the token opens nothing. */
  sid: string;
}
