import * as oauth from 'oauth4webapi';
import type { OidcProviderConfig } from '../oidcConfig';

// The relying party side of "Sign in with {provider}" (docs/access.md): authorization code with
// PKCE, state and nonce, on oauth4webapi (a maintained, certified implementation: no JWT is
// checked by hand here). The provider's metadata is discovered once and kept; a failed discovery
// is tried again on the next sign-in.

export interface AuthorizationRequest {
  redirectUri: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** What Toolscope takes from the provider about the person signing in. */
export interface ProviderIdentity {
  issuer: string;
  subject: string;
  email: string | undefined;
  emailVerified: boolean;
  givenName: string | undefined;
  familyName: string | undefined;
  name: string | undefined;
}

/** The provider said no (the user denied consent, or the request was refused). */
export class ProviderRefusal extends Error {
  constructor(readonly code: string) {
    super(`The identity provider refused: ${code}`);
  }
}

export class OidcSignInClient {
  private metadata: Promise<oauth.AuthorizationServer> | undefined;
  private readonly client: oauth.Client;
  private readonly clientAuth: oauth.ClientAuth;
  // Plain HTTP is allowed for a loopback issuer only (oidcConfig.ts refuses any other http issuer).
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- deprecated to stand out, as here: loopback issuers only
  private readonly http: { [oauth.allowInsecureRequests]?: boolean };

  constructor(private readonly config: OidcProviderConfig) {
    this.client = { client_id: config.clientId };
    this.clientAuth = config.clientSecret ? oauth.ClientSecretBasic(config.clientSecret) : oauth.None();
    this.http =
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- deprecated to stand out, as here: loopback issuers only
      new URL(config.issuer).protocol === 'http:' ? { [oauth.allowInsecureRequests]: true } : {};
  }

  static newSecrets(): Omit<AuthorizationRequest, 'redirectUri'> {
    return {
      state: oauth.generateRandomState(),
      nonce: oauth.generateRandomNonce(),
      codeVerifier: oauth.generateRandomCodeVerifier(),
    };
  }

  async authorizationUrl(request: AuthorizationRequest): Promise<string> {
    const as = await this.server();
    if (!as.authorization_endpoint) throw new Error('The identity provider has no authorization endpoint');
    const url = new URL(as.authorization_endpoint);
    url.searchParams.set('client_id', this.config.clientId);
    url.searchParams.set('redirect_uri', request.redirectUri);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('scope', 'openid email profile');
    url.searchParams.set('state', request.state);
    url.searchParams.set('nonce', request.nonce);
    url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(request.codeVerifier));
    url.searchParams.set('code_challenge_method', 'S256');
    return url.href;
  }

  /**
   * The callback's parameters → the verified identity. Checks the state, redeems the code with
   * the PKCE verifier, validates the ID token (issuer, audience, expiry, nonce, and its signature
   * against the provider's keys), then reads the user info endpoint for the claims a provider
   * keeps out of the ID token.
   */
  async identify(callback: URLSearchParams, expected: AuthorizationRequest): Promise<ProviderIdentity> {
    const as = await this.server();
    let params: URLSearchParams;
    try {
      params = oauth.validateAuthResponse(as, this.client, callback, expected.state);
    } catch (error) {
      if (error instanceof oauth.AuthorizationResponseError) throw new ProviderRefusal(error.error);
      throw error;
    }
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      this.client,
      this.clientAuth,
      params,
      expected.redirectUri,
      expected.codeVerifier,
      this.http,
    );
    const tokens = await oauth.processAuthorizationCodeResponse(as, this.client, response, {
      expectedNonce: expected.nonce,
      requireIdToken: true,
    });
    // Not required over TLS (the channel vouches for the issuer), checked anyway: it costs one
    // cached key set and covers a loopback provider reached over plain HTTP.
    await oauth.validateApplicationLevelSignature(as, response, this.http);
    const claims = oauth.getValidatedIdTokenClaims(tokens);
    if (!claims) throw new Error('The identity provider sent no ID token');
    let info: Record<string, unknown> = claims;
    if (as.userinfo_endpoint) {
      const answer = await oauth.userInfoRequest(as, this.client, tokens.access_token, this.http);
      info = { ...(await oauth.processUserInfoResponse(as, this.client, claims.sub, answer)), ...claims };
    }
    const text = (key: string) => {
      const value = info[key];
      return typeof value === 'string' ? value : undefined;
    };
    return {
      issuer: as.issuer,
      subject: claims.sub,
      email: text('email')?.trim().toLowerCase(),
      emailVerified: info.email_verified === true,
      givenName: text('given_name'),
      familyName: text('family_name'),
      name: text('name'),
    };
  }

  private server(): Promise<oauth.AuthorizationServer> {
    this.metadata ??= this.discover().catch((error: unknown) => {
      this.metadata = undefined;
      throw error;
    });
    return this.metadata;
  }

  private async discover(): Promise<oauth.AuthorizationServer> {
    const issuer = new URL(this.config.issuer);
    const response = await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...this.http });
    return oauth.processDiscoveryResponse(issuer, response);
  }
}
