import * as oauth from 'oauth4webapi';
import type { FetchLike } from '../net/outboundClient';
import { OAuthSetupError } from './protectedResource';

// Toolscope as an OAuth client of an MCP server's authorization server, on oauth4webapi:
// metadata (RFC 8414, else OpenID discovery), a client (dynamic registration, RFC 7591, or one the
// admin registered by hand), authorization code with PKCE and the resource indicator (RFC 8707) on
// both the authorization and the token request, and refresh. Requests go through the guarded
// outbound fetch (the issuer comes from the MCP server); plain HTTP only on loopback.

export interface RegisteredClient {
  clientId: string;
  clientSecret: string | undefined;
}

export interface TokenSet {
  accessToken: string;
  refreshToken: string | undefined;
  expiresAt: Date | undefined;
  scope: string | undefined;
  /** Who the tokens act as, when the server said (an ID token's email or subject). */
  subject: string | undefined;
}

/** The authorization server refused (an `invalid_grant` refresh: someone must connect again). */
export class GrantRefused extends Error {
  constructor(readonly code: string) {
    super(`The authorization server refused: ${code}`);
  }
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

export class AuthorizationServers {
  private readonly metadata = new Map<string, Promise<oauth.AuthorizationServer>>();

  constructor(private readonly fetch: FetchLike) {}

  private options(url: string) {
    const { protocol, hostname } = new URL(url);
    if (protocol !== 'https:' && !(protocol === 'http:' && LOOPBACK.has(hostname)))
      throw new OAuthSetupError(`The authorization server ${url} is not served over HTTPS`);
    return {
      [oauth.customFetch]: this.fetch as typeof fetch,
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- deprecated to stand out, as here: loopback servers only
      ...(protocol === 'http:' ? { [oauth.allowInsecureRequests]: true } : {}),
    };
  }

  async server(issuer: string): Promise<oauth.AuthorizationServer> {
    let found = this.metadata.get(issuer);
    if (!found) {
      found = this.discover(issuer);
      found.catch(() => this.metadata.delete(issuer));
      this.metadata.set(issuer, found);
    }
    return found;
  }

  private async discover(issuer: string): Promise<oauth.AuthorizationServer> {
    const url = new URL(issuer);
    for (const algorithm of ['oauth2', 'oidc'] as const) {
      const response = await oauth.discoveryRequest(url, { algorithm, ...this.options(issuer) });
      if (response.status === 404) {
        await response.body?.cancel();
        continue;
      }
      return oauth.processDiscoveryResponse(url, response);
    }
    throw new OAuthSetupError(`The authorization server ${issuer} publishes no metadata`);
  }

  /** A client for Toolscope at this server: dynamic registration when it offers it. */
  async register(as: oauth.AuthorizationServer, redirectUri: string): Promise<RegisteredClient> {
    if (!as.registration_endpoint)
      throw new OAuthSetupError(
        'The authorization server does not register clients on its own: enter the client ID registered for Toolscope',
      );
    const response = await oauth.dynamicClientRegistrationRequest(
      as,
      {
        client_name: 'Toolscope',
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
      this.options(as.issuer),
    );
    const client = await oauth.processDynamicClientRegistrationResponse(response);
    return {
      clientId: client.client_id,
      clientSecret: typeof client.client_secret === 'string' ? client.client_secret : undefined,
    };
  }

  /** The scopes to ask for: the resource's, plus a refresh token and an identity when the server offers them. */
  scopeFor(as: oauth.AuthorizationServer, resourceScopes: string[]): string {
    const offered = new Set(as.scopes_supported ?? []);
    const scopes = new Set(resourceScopes);
    if (offered.has('offline_access')) scopes.add('offline_access');
    if (offered.has('openid')) scopes.add('openid');
    return [...scopes].join(' ');
  }

  async authorizationUrl(
    as: oauth.AuthorizationServer,
    request: {
      clientId: string;
      redirectUri: string;
      state: string;
      codeVerifier: string;
      scope: string;
      resource: string;
    },
  ): Promise<string> {
    if (!as.authorization_endpoint) throw new OAuthSetupError('The authorization server has no authorization endpoint');
    const url = new URL(as.authorization_endpoint);
    url.searchParams.set('client_id', request.clientId);
    url.searchParams.set('redirect_uri', request.redirectUri);
    url.searchParams.set('response_type', 'code');
    if (request.scope) url.searchParams.set('scope', request.scope);
    url.searchParams.set('state', request.state);
    url.searchParams.set('resource', request.resource);
    url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(request.codeVerifier));
    url.searchParams.set('code_challenge_method', 'S256');
    // Some servers (oidc-provider among them) show a consent screen only when asked.
    if (request.scope.includes('offline_access')) url.searchParams.set('prompt', 'consent');
    return url.href;
  }

  async exchange(
    as: oauth.AuthorizationServer,
    client: RegisteredClient,
    callback: URLSearchParams,
    expected: { state: string; redirectUri: string; codeVerifier: string; resource: string },
  ): Promise<TokenSet> {
    const params = this.validated(as, client, callback, expected.state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      { client_id: client.clientId },
      clientAuth(client),
      params,
      expected.redirectUri,
      expected.codeVerifier,
      { ...this.options(as.issuer), additionalParameters: { resource: expected.resource } },
    );
    const tokens = await oauth.processAuthorizationCodeResponse(as, { client_id: client.clientId }, response);
    return tokenSet(tokens);
  }

  async refresh(
    as: oauth.AuthorizationServer,
    client: RegisteredClient,
    refreshToken: string,
    resource: string,
  ): Promise<TokenSet> {
    const response = await oauth.refreshTokenGrantRequest(
      as,
      { client_id: client.clientId },
      clientAuth(client),
      refreshToken,
      { ...this.options(as.issuer), additionalParameters: { resource } },
    );
    try {
      return tokenSet(await oauth.processRefreshTokenResponse(as, { client_id: client.clientId }, response));
    } catch (error) {
      if (error instanceof oauth.ResponseBodyError) throw new GrantRefused(error.error);
      throw error;
    }
  }

  private validated(as: oauth.AuthorizationServer, client: RegisteredClient, callback: URLSearchParams, state: string) {
    try {
      return oauth.validateAuthResponse(as, { client_id: client.clientId }, callback, state);
    } catch (error) {
      if (error instanceof oauth.AuthorizationResponseError) throw new GrantRefused(error.error);
      throw error;
    }
  }
}

function clientAuth(client: RegisteredClient): oauth.ClientAuth {
  return client.clientSecret ? oauth.ClientSecretBasic(client.clientSecret) : oauth.None();
}

function tokenSet(tokens: oauth.TokenEndpointResponse): TokenSet {
  const claims = tokens.id_token ? oauth.getValidatedIdTokenClaims(tokens) : undefined;
  const email = typeof claims?.email === 'string' ? claims.email : undefined;
  return {
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token,
    expiresAt: typeof tokens.expires_in === 'number' ? new Date(Date.now() + tokens.expires_in * 1000) : undefined,
    scope: tokens.scope,
    subject: email ?? claims?.sub,
  };
}
