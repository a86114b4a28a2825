import { z } from 'zod';

// Sign-in through an OpenID Connect provider (docs/access.md "Sign in with a provider"): the
// operator names the issuer and the client Toolscope is registered as. Off unless both are set.
// Read from the environment with the rest (config.ts).

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

export const oidcEnv = {
  // HTTPS, as OpenID Connect requires; plain HTTP only for a provider on this machine (tests, a
  // local identity provider during development).
  TOOLSCOPE_OIDC_ISSUER: z
    .url()
    .refine((value) => {
      const url = new URL(value);
      return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
    }, 'must be an https URL (http only on loopback)')
    .optional(),
  TOOLSCOPE_OIDC_CLIENT_ID: z.string().min(1).max(512).optional(),
  /** Absent: a public client (PKCE only, token endpoint auth "none"). */
  TOOLSCOPE_OIDC_CLIENT_SECRET: z.string().min(1).max(2048).optional(),
  /** The button reads "Sign in with {name}". */
  TOOLSCOPE_OIDC_NAME: z.string().min(1).max(60).optional(),
};

export interface OidcProviderConfig {
  issuer: string;
  clientId: string;
  clientSecret: string | undefined;
  name: string;
}

export interface OidcConfig {
  /** undefined: no provider sign-in on this instance. */
  oidc: OidcProviderConfig | undefined;
}

type OidcEnv = z.infer<z.ZodObject<typeof oidcEnv>>;

export function oidcConfigOf(e: OidcEnv): OidcConfig {
  const issuer = e.TOOLSCOPE_OIDC_ISSUER;
  const clientId = e.TOOLSCOPE_OIDC_CLIENT_ID;
  if (!issuer || !clientId) return { oidc: undefined };
  return {
    oidc: {
      // Issuer identifiers compare exactly (OpenID Connect Discovery §4.3): kept as given.
      issuer,
      clientId,
      clientSecret: e.TOOLSCOPE_OIDC_CLIENT_SECRET,
      name: e.TOOLSCOPE_OIDC_NAME ?? 'SSO',
    },
  };
}
