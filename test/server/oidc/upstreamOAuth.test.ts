import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { LightMyRequestResponse } from 'fastify';
import { startProxyApp, type ProxyTestApp } from '../proxy/support/proxyApp';
import { bearer } from '../helpers/accounts';
import { buildTestApp } from '../helpers/testApp';
import {
  ProviderUserAgent,
  startProtectedMcpServer,
  type ProtectedMcpServer,
} from '../../fixtures/oidcProvider/testProvider';
import type { UpstreamOAuthConnectionDto } from '../../../src/contract/upstreamOAuth';
import { openSecrets } from '../../../src/server/data/upstreamOAuth/connectionStore';
import { startStreamableUpstream, type SdkUpstream } from '../proxy/support/sdkUpstream';

// Issue 34 item 2: an MCP server that requires OAuth 2.1 (the SDK's server behind its bearer
// middleware; its authorization server is oidc-provider with dynamic registration and resource
// indicators), connected through Toolscope's API and the authorization server's real pages, then
// called by an SDK client that holds no upstream token: the proxy adds it, refreshes it before it
// expires and after a 401, and asks for a new connection when the refresh is refused.

// Each test drives a provider or an MCP server in a child process: slow on a loaded machine.
jest.setTimeout(90_000);
const PUBLIC_URL = 'http://toolscope.test';

let upstream: ProtectedMcpServer;
let plainUpstream: SdkUpstream;
let t: ProxyTestApp;
let serverId: string;
let proxyUrl: URL;

const api = (method: 'GET' | 'POST' | 'DELETE', path: string, payload?: unknown) =>
  t.app.inject({
    method,
    url: `/api/v1/workspaces/${t.account.workspaceId}${path}`,
    headers: bearer(t.account.accessToken),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

async function connection(): Promise<UpstreamOAuthConnectionDto | undefined> {
  const list = (await api('GET', '/upstream-oauth')).json<{ connections: UpstreamOAuthConnectionDto[] }>();
  return list.connections.find((c) => c.serverId === serverId);
}

async function connect(login: string): Promise<LightMyRequestResponse> {
  const start = await api('POST', `/servers/${serverId}/oauth/connect`, { returnPath: '/servers' });
  expect(start.statusCode).toBe(200);
  const back = await new ProviderUserAgent().signIn(start.json<{ authorizationUrl: string }>().authorizationUrl, login);
  expect(`${back.origin}${back.pathname}`).toBe(`${PUBLIC_URL}/api/v1/oauth/upstream/callback`);
  return t.app.inject({
    method: 'GET',
    url: `${back.pathname}${back.search}`,
    headers: { cookie: String(start.headers['set-cookie']).split(';')[0] },
  });
}

async function callWhoami(): Promise<string> {
  const client = new Client({ name: 'agent-without-upstream-token', version: '1.0.0' });
  // The agent's own Authorization (a token of another system) must never reach the upstream.
  const transport = new StreamableHTTPClientTransport(proxyUrl, {
    requestInit: { headers: { authorization: 'Bearer the-agents-own-token' } },
  });
  await client.connect(transport);
  try {
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    return (result.content as { text: string }[])[0].text;
  } finally {
    await client.close();
  }
}

async function storedAccessToken(): Promise<string | undefined> {
  const rows = await t.database.db.query<{ secrets_enc: string | null }>(
    'select secrets_enc from upstream_oauth_connections where server_id = $1',
    [serverId],
  );
  return openSecrets(rows[0].secrets_enc, t.config.secret).accessToken;
}

beforeAll(async () => {
  upstream = await startProtectedMcpServer();
  plainUpstream = await startStreamableUpstream({ json: true, stateful: true });
  t = await startProxyApp({ publicUrl: PUBLIC_URL });
  const registered = await t.register(upstream.mcpUrl);
  serverId = registered.server.id;
  proxyUrl = registered.proxyUrl;
}, 120_000);
afterAll(async () => {
  await t.close();
  await upstream.close();
  await plainUpstream.close();
});

describe('a server that requires OAuth', () => {
  it('is marked as needing a connection as soon as its discovery is refused with a challenge', async () => {
    // Registration runs schema discovery in the background; its 401 leads to the mark.
    const deadline = Date.now() + 60_000;
    while ((await connection())?.status !== 'required' && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await connection()).toMatchObject({ status: 'required', connectedBy: null, expiresAt: null });
    // A server whose discovery succeeds is not.
    const plain = await t.register(plainUpstream.url);
    await t.app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${t.account.workspaceId}/servers/${plain.server.id}/schemas/discover`,
      headers: bearer(t.account.accessToken),
    });
    const list = (await api('GET', '/upstream-oauth')).json<{ connections: UpstreamOAuthConnectionDto[] }>();
    expect(list.connections.map((c) => c.serverId)).not.toContain(plain.server.id);
  });

  it('refuses the agent before it is connected: the upstream answers 401 and nothing of the agent’s credential passes', async () => {
    await expect(callWhoami()).rejects.toThrow();
  });

  it('is connected by an admin through its authorization server (dynamic registration, PKCE, resource indicator)', async () => {
    const done = await connect('ada');
    expect(done.statusCode).toBe(302);
    expect(done.headers.location).toBe('/servers?oauth=connected');
    expect(await connection()).toMatchObject({
      status: 'connected',
      issuer: upstream.issuer,
      connectedBy: t.account.email,
      expiresAt: expect.any(String),
      scope: expect.stringContaining('mcp:tools'),
    });
    // Sealed at rest: no token in the row's text.
    const raw = await t.database.db.query<{ secrets_enc: string }>(
      'select secrets_enc from upstream_oauth_connections where server_id = $1',
      [serverId],
    );
    expect(raw[0].secrets_enc).toMatch(/^v1\./);
    expect(raw[0].secrets_enc).not.toContain((await storedAccessToken())!);
  });

  it('lets an agent with no upstream token call tools: the proxy adds the connection’s token for that resource', async () => {
    expect(await callWhoami()).toBe(`sub=ada aud=${upstream.mcpUrl}`);
  });

  it('refreshes the token before it expires', async () => {
    const before = await storedAccessToken();
    await t.database.db.query(
      "update upstream_oauth_connections set expires_at = now() + interval '10 seconds' where server_id = $1",
      [serverId],
    );
    t.app.upstreamTokens.forget(serverId);
    expect(await callWhoami()).toBe(`sub=ada aud=${upstream.mcpUrl}`);
    const after = await storedAccessToken();
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    expect(new Date((await connection())!.expiresAt!).getTime()).toBeGreaterThan(Date.now() + 60_000);
  });

  it('refreshes and retries once when the upstream refuses a token it has revoked', async () => {
    const before = await storedAccessToken();
    await upstream.revokeAccessTokens();
    expect(await callWhoami()).toBe(`sub=ada aud=${upstream.mcpUrl}`);
    expect(await storedAccessToken()).not.toBe(before);
  });

  it('asks for a new connection when the refresh is refused, and a reconnect brings it back', async () => {
    await upstream.revokeRefreshTokens();
    await upstream.revokeAccessTokens();
    await expect(callWhoami()).rejects.toThrow();
    expect(await connection()).toMatchObject({
      status: 'needs_reconnect',
      lastError: expect.stringContaining('refused the refresh'),
    });

    expect((await connect('ada')).headers.location).toBe('/servers?oauth=connected');
    expect((await connection())?.status).toBe('connected');
    expect(await callWhoami()).toBe(`sub=ada aud=${upstream.mcpUrl}`);
  });

  it('refuses a callback from another browser and a replayed one', async () => {
    const start = await api('POST', `/servers/${serverId}/oauth/connect`, {});
    const back = await new ProviderUserAgent().signIn(
      start.json<{ authorizationUrl: string }>().authorizationUrl,
      'ada',
    );
    const url = `${back.pathname}${back.search}`;
    const foreign = await t.app.inject({ method: 'GET', url });
    expect(foreign.headers.location).toBe('/servers?oauth_error=state');
    const cookie = String(start.headers['set-cookie']).split(';')[0];
    expect((await t.app.inject({ method: 'GET', url, headers: { cookie } })).headers.location).toBe(
      '/servers?oauth=connected',
    );
    expect((await t.app.inject({ method: 'GET', url, headers: { cookie } })).headers.location).toBe(
      '/servers?oauth_error=state',
    );
  });

  it('says so when a server cannot be reached or does not ask for OAuth', async () => {
    const gone = await t.register('http://127.0.0.1:9/mcp');
    const refused = await api('POST', `/servers/${gone.server.id}/oauth/connect`, {});
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ message: 'The server or its authorization server could not be reached' });
    const plain = await t.register(plainUpstream.url);
    const notOAuth = await api('POST', `/servers/${plain.server.id}/oauth/connect`, {});
    expect(notOAuth.statusCode).toBe(400);
    expect(notOAuth.json()).toMatchObject({
      message: 'This server does not ask for OAuth: it answered without a sign-in',
    });
  });

  it('connects with a client an admin registered by hand', async () => {
    // Registered at the authorization server directly, as an admin would in its console.
    const metadata = (await (await fetch(`${upstream.issuer}/.well-known/openid-configuration`)).json()) as {
      registration_endpoint: string;
    };
    const registered = (await (
      await fetch(metadata.registration_endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          redirect_uris: [`${PUBLIC_URL}/api/v1/oauth/upstream/callback`],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
        }),
      })
    ).json()) as { client_id: string; client_secret: string };
    const start = await api('POST', `/servers/${serverId}/oauth/connect`, {
      clientId: registered.client_id,
      clientSecret: registered.client_secret,
    });
    expect(start.statusCode).toBe(200);
    const authorizationUrl = new URL(start.json<{ authorizationUrl: string }>().authorizationUrl);
    expect(authorizationUrl.searchParams.get('client_id')).toBe(registered.client_id);
    const back = await new ProviderUserAgent().signIn(authorizationUrl.href, 'ada');
    const done = await t.app.inject({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      headers: { cookie: String(start.headers['set-cookie']).split(';')[0] },
    });
    expect(done.headers.location).toBe('/servers?oauth=connected');
    expect(await callWhoami()).toBe(`sub=ada aud=${upstream.mcpUrl}`);
  });

  it('forgets the tokens on disconnect: the agent is refused again', async () => {
    const dropped = await api('DELETE', `/servers/${serverId}/oauth`);
    expect(dropped.statusCode).toBe(204);
    expect((await connection())?.status).toBe('required');
    await expect(callWhoami()).rejects.toThrow();
  });
});

describe('Toolscope’s client ID metadata document', () => {
  it('is served under an HTTPS public URL, naming itself as the client and the callback as its redirect', async () => {
    const https = await buildTestApp({ publicUrl: 'https://toolscope.example.com' });
    try {
      const res = await https.app.inject({ method: 'GET', url: '/api/v1/oauth/upstream/client-metadata.json' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        client_id: 'https://toolscope.example.com/api/v1/oauth/upstream/client-metadata.json',
        client_name: 'Toolscope',
        client_uri: 'https://toolscope.example.com',
        redirect_uris: ['https://toolscope.example.com/api/v1/oauth/upstream/callback'],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      });
    } finally {
      await https.close();
    }
    // Over plain HTTP an authorization server could not fetch it safely: none.
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/oauth/upstream/client-metadata.json' })).statusCode).toBe(
      404,
    );
  });
});
