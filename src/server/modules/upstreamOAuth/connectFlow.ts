import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as oauth from 'oauth4webapi';
import { publicBase } from '../../http/publicUrl';
import { badRequest } from '../../http/errors';
import { OutboundBlockedError } from '../../net/outboundClient';
import { discoverProtectedResource, OAuthSetupError } from '../../upstreamOAuth/protectedResource';
import { GrantRefused } from '../../upstreamOAuth/authorizationServer';
import {
  markRequired,
  openSecrets,
  saveAttempt,
  saveConnection,
  sealSecrets,
  takeAttempt,
} from '../../data/upstreamOAuth/connectionStore';
import type { ServerRow } from '../../data/servers/mapper';
import { UpstreamOAuthPaths } from '../../../contract/upstreamOAuth';

// Connecting a server that requires OAuth, as a workspace admin in the browser: discovery of the
// server's authorization server, a client for Toolscope there, the authorization URL (PKCE,
// resource indicator); then, at the callback, the code redeemed and the tokens sealed. The agent
// never takes part: the proxy adds the token upstream (upstreamOAuth/upstreamTokens.ts).

export const redirectUriOf = (app: FastifyInstance, request: FastifyRequest) =>
  `${publicBase(app.config, request)}${UpstreamOAuthPaths.callback}`;

/**
 * Toolscope's client ID metadata document (MCP 2025-11-25): its HTTPS URL is the client ID, so an
 * authorization server that supports them needs no registration. Only with an HTTPS public URL
 * (the server fetches the document from there).
 */
export function clientMetadataDocument(publicUrl: string | undefined) {
  if (!publicUrl?.startsWith('https://')) return undefined;
  const clientId = `${publicUrl}${UpstreamOAuthPaths.clientMetadata}`;
  return {
    client_id: clientId,
    client_name: 'Toolscope',
    client_uri: publicUrl,
    redirect_uris: [`${publicUrl}${UpstreamOAuthPaths.callback}`],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
}

/** A 400 a user can act on for what the server or its authorization server got wrong. */
function setupProblem(error: unknown): never {
  if (error instanceof OAuthSetupError || error instanceof OutboundBlockedError) throw badRequest(error.message);
  if (error instanceof oauth.OperationProcessingError || error instanceof oauth.ResponseBodyError)
    throw badRequest(`The server's authorization server answered in a way Toolscope cannot use: ${error.message}`);
  // fetch's own failure (refused, reset, DNS): the server or its authorization server is not there.
  if (error instanceof TypeError && error.message === 'fetch failed')
    throw badRequest('The server or its authorization server could not be reached');
  throw error;
}

export async function startConnection(
  app: FastifyInstance,
  request: FastifyRequest,
  server: ServerRow,
  options: { userId: string; clientId?: string; clientSecret?: string; returnPath: string },
): Promise<{ authorizationUrl: string; state: string }> {
  const servers = app.upstreamTokens.servers;
  const redirectUri = redirectUriOf(app, request);
  try {
    const resource = await discoverProtectedResource(server.url, app.outbound.fetch);
    if (!resource) throw badRequest('This server does not ask for OAuth: it answered without a sign-in');
    const as = await servers.server(resource.issuer);
    // A client registered by hand, else a metadata document where the server takes one, else
    // dynamic registration (which says what to do when the server offers none of them).
    const document = (as as { client_id_metadata_document_supported?: unknown }).client_id_metadata_document_supported
      ? clientMetadataDocument(app.config.publicUrl)
      : undefined;
    const client = options.clientId
      ? { clientId: options.clientId, clientSecret: options.clientSecret }
      : document
        ? { clientId: document.client_id, clientSecret: undefined }
        : await servers.register(as, redirectUri);
    const state = oauth.generateRandomState();
    const codeVerifier = oauth.generateRandomCodeVerifier();
    const scope = servers.scopeFor(as, resource.scopes);
    await markRequired(app.db, server.id, server.workspace_id);
    await saveAttempt(app.db, state, {
      serverId: server.id,
      userId: options.userId,
      codeVerifier,
      returnPath: options.returnPath,
      issuer: as.issuer,
      resource: resource.resource,
      clientId: client.clientId,
      secretsEnc: client.clientSecret ? sealSecrets({ clientSecret: client.clientSecret }, app.config.secret) : null,
      scope,
    });
    const authorizationUrl = await servers.authorizationUrl(as, {
      clientId: client.clientId,
      redirectUri,
      state,
      codeVerifier,
      scope,
      resource: resource.resource,
    });
    return { authorizationUrl, state };
  } catch (error) {
    return setupProblem(error);
  }
}

export type FinishOutcome =
  | { ok: true; serverId: string; returnPath: string }
  | { ok: false; error: 'state' | 'denied' | 'failed'; returnPath: string };

export async function finishConnection(
  app: FastifyInstance,
  request: FastifyRequest,
  callback: URLSearchParams,
  state: string,
): Promise<FinishOutcome> {
  const attempt = await takeAttempt(app.db, state);
  if (!attempt) return { ok: false, error: 'state', returnPath: '/servers' };
  const servers = app.upstreamTokens.servers;
  const clientSecret = openSecrets(attempt.secretsEnc, app.config.secret).clientSecret;
  try {
    const as = await servers.server(attempt.issuer);
    const tokens = await servers.exchange(as, { clientId: attempt.clientId, clientSecret }, callback, {
      state,
      redirectUri: redirectUriOf(app, request),
      codeVerifier: attempt.codeVerifier,
      resource: attempt.resource,
    });
    await saveConnection(app.db, {
      serverId: attempt.serverId,
      workspaceId: attempt.workspaceId,
      issuer: attempt.issuer,
      resource: attempt.resource,
      clientId: attempt.clientId,
      secretsEnc: sealSecrets(
        { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, clientSecret },
        app.config.secret,
      ),
      scope: tokens.scope ?? attempt.scope,
      expiresAt: tokens.expiresAt ?? null,
      connectedAs: tokens.subject ?? null,
      connectedBy: attempt.userId,
    });
    return { ok: true, serverId: attempt.serverId, returnPath: attempt.returnPath };
  } catch (error) {
    const denied = error instanceof GrantRefused && error.code === 'access_denied';
    if (!denied) request.log.warn({ err: error }, 'upstream OAuth connection failed');
    return { ok: false, error: denied ? 'denied' : 'failed', returnPath: attempt.returnPath };
  }
}
