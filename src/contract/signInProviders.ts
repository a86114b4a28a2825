import { API } from './routes';

// Sign-in through an identity provider (issue 34, docs/access.md "Sign in with a provider").
// No zod here: the SPA loads this before it configures zod (its schemas: signInProviderSchemas.ts).

export const SignInProviderPaths = {
  /** GET (a browser navigation): starts the provider sign-in; ?redirect= a same-site path. */
  start: `${API}/auth/oidc/start`,
  /** GET: where the provider sends the browser back. */
  callback: `${API}/auth/oidc/callback`,
  /** GET the provider identities linked to the account; POST starts linking one. */
  identities: `${API}/users/me/identities`,
} as const;

/** GET /api/v1/config lists the providers a user can sign in with (SPEC §9: a public client id each). */
export interface SignInProvider {
  id: 'oidc';
  /** The button reads "Sign in with {name}". */
  name: string;
  clientId: string;
  startUrl: string;
}

/**
 * A provider sign-in that did not complete lands on /login?sso_error={code}; the page shows the
 * sentence. Codes only travel in the URL: a forged one shows a known sentence or the generic one.
 */
export const SIGN_IN_PROVIDER_ERRORS = {
  denied: 'The sign-in was cancelled at your identity provider.',
  state: 'That sign-in link was already used or has expired. Start again from the sign-in button.',
  unverified_email:
    'Your identity provider did not confirm your email address, so Toolscope cannot sign you in with it.',
  no_email: 'Your identity provider did not share an email address with Toolscope.',
  account_exists:
    'An account with this email already exists. Sign in with your password, then connect your identity provider under Account → Security.',
  linked_elsewhere: 'This identity is already connected to another Toolscope account.',
  failed: 'The identity provider could not be reached or its answer was not valid. Try again in a moment.',
} as const;
export type SignInProviderError = keyof typeof SIGN_IN_PROVIDER_ERRORS;

export function signInProviderErrorText(code: string | null): string | null {
  if (code === null) return null;
  return (SIGN_IN_PROVIDER_ERRORS as Record<string, string>)[code] ?? SIGN_IN_PROVIDER_ERRORS.failed;
}

export type { LinkedIdentityDto } from './signInProviderSchemas';
