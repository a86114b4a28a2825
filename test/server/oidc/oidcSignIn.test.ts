import type { LightMyRequestResponse } from 'fastify';
import { buildTestApp, type TestApp } from '../helpers/testApp';
import { bearer, registerAccount } from '../helpers/accounts';
import { startOidcProvider, ProviderUserAgent, type TestProvider } from '../../fixtures/oidcProvider/testProvider';
import type { PublicConfig } from '../../../src/contract/config';

// Sign-in with an OpenID Connect provider (issue 34 item 1) against a real provider
// (oidc-provider on loopback): Toolscope's redirect, the provider's login and consent pages, the
// callback, the tokens, and every way it must refuse.

// Each test drives a provider or an MCP server in a child process: slow on a loaded machine.
jest.setTimeout(90_000);
const PUBLIC_URL = 'http://toolscope.test';
const CALLBACK = `${PUBLIC_URL}/api/v1/auth/oidc/callback`;

let provider: TestProvider;
let t: TestApp;

beforeAll(async () => {
  provider = await startOidcProvider([
    { client_id: 'toolscope', client_secret: 'client-secret-1', redirect_uris: [CALLBACK] },
  ]);
  t = await buildTestApp({
    publicUrl: PUBLIC_URL,
    oidc: { issuer: provider.issuer, clientId: 'toolscope', clientSecret: 'client-secret-1', name: 'Example ID' },
  });
}, 120_000);
afterAll(async () => {
  await t.close();
  await provider.close();
});

const cookieOf = (response: LightMyRequestResponse) => String(response.headers['set-cookie']).split(';')[0];

/** Toolscope's start → the provider → the URL the browser is sent back to, with the state cookie. */
async function throughProvider(login: string, options: { redirect?: string; consent?: 'accept' | 'deny' } = {}) {
  const start = await t.app.inject({
    method: 'GET',
    url: `/api/v1/auth/oidc/start${options.redirect ? `?redirect=${encodeURIComponent(options.redirect)}` : ''}`,
  });
  expect(start.statusCode).toBe(302);
  const back = await new ProviderUserAgent().signIn(start.headers.location as string, login, options.consent);
  return { back, cookie: cookieOf(start) };
}

async function callback(back: URL, cookie: string | undefined) {
  expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
  return t.app.inject({
    method: 'GET',
    url: `${back.pathname}${back.search}`,
    headers: cookie ? { cookie } : {},
  });
}

function tokensOf(response: LightMyRequestResponse) {
  expect(response.statusCode).toBe(302);
  const location = new URL(response.headers.location as string, PUBLIC_URL);
  expect(location.pathname).toBe('/auth/callback/success');
  expect(location.search).toBe(''); // tokens never in the query (logs, Referer)
  const fragment = new URLSearchParams(location.hash.slice(1));
  return {
    accessToken: fragment.get('access_token')!,
    refreshToken: fragment.get('refresh_token')!,
    redirect: fragment.get('redirect'),
  };
}

const ssoError = (response: LightMyRequestResponse) => {
  expect(response.statusCode).toBe(302);
  return new URL(response.headers.location as string, PUBLIC_URL).searchParams.get('sso_error');
};

describe('sign in with an OpenID Connect provider', () => {
  it('lists the provider for the login page, with its public client id', async () => {
    const config = (await t.app.inject({ method: 'GET', url: '/api/v1/config' })).json<PublicConfig>();
    expect(config.signInProviders).toEqual([
      { id: 'oidc', name: 'Example ID', clientId: 'toolscope', startUrl: '/api/v1/auth/oidc/start' },
    ]);
  });

  it('sends the browser to the provider with PKCE (S256), state and nonce, and binds the state to the browser', async () => {
    const start = await t.app.inject({ method: 'GET', url: '/api/v1/auth/oidc/start?redirect=/servers' });
    expect(start.statusCode).toBe(302);
    const url = new URL(start.headers.location as string);
    expect(url.origin).toBe(provider.issuer);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get('redirect_uri')).toBe(CALLBACK);
    expect(url.searchParams.get('nonce')).toBeTruthy();
    const state = url.searchParams.get('state')!;
    expect(String(start.headers['set-cookie'])).toMatch(
      new RegExp(`^toolscope_oidc_state=${state}; Path=/api/v1/auth/oidc/callback; .*HttpOnly; SameSite=Lax`),
    );
  });

  it('creates an account for a new verified email, signs it in, and the tokens work (refresh through the OAuth form too)', async () => {
    const { back, cookie } = await throughProvider('alice', { redirect: '/servers?tab=1' });
    const tokens = tokensOf(await callback(back, cookie));
    expect(tokens.redirect).toBe('/servers?tab=1');
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: bearer(tokens.accessToken) });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ email: 'alice@example.test', firstName: 'Alice', emailVerified: true });
    const workspaces = await t.app.inject({
      method: 'GET',
      url: '/api/v1/workspaces',
      headers: bearer(tokens.accessToken),
    });
    expect(workspaces.json<{ workspaces: { workspaceType: string }[] }>().workspaces).toEqual([
      expect.objectContaining({ workspaceType: 'personal' }),
    ]);

    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refreshToken }).toString(),
    });
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.json()).toMatchObject({ access_token: expect.any(String), refresh_token: expect.any(String) });

    // The same person again: the same account, not a second one.
    const again = await throughProvider('alice');
    const second = tokensOf(await callback(again.back, again.cookie));
    const meAgain = await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: bearer(second.accessToken) });
    expect(meAgain.json<{ id: string }>().id).toBe(me.json<{ id: string }>().id);

    // No password was ever set: the password form does not open the account.
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: 'alice@example.test', password: 'any password' },
    });
    expect(login.statusCode).toBe(401);
    // Forms that ask for the current password say how to get one.
    const noPassword = /has no password yet: set one with "Forgot password"/;
    const change = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/me/password',
      headers: bearer(second.accessToken),
      payload: {
        currentPassword: 'any password',
        newPassword: 'a brand new password 1',
        newPasswordConfirmation: 'a brand new password 1',
      },
    });
    expect(change.statusCode).toBe(400);
    expect(change.json().message).toMatch(noPassword);
    const remove = await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/users/me',
      headers: bearer(second.accessToken),
      payload: { password: 'any password' },
    });
    expect(remove.statusCode).toBe(400);
    expect(remove.json().message).toMatch(noPassword);
  });

  it('refuses a callback whose state is not the browser’s, without using up the real one', async () => {
    const { back, cookie } = await throughProvider('erin');
    const forged = new URL(back);
    forged.searchParams.set('state', 'forged-state');
    expect(ssoError(await callback(forged, cookie))).toBe('state');
    expect(ssoError(await callback(back, undefined))).toBe('state'); // another browser (no cookie)
    expect(ssoError(await callback(back, 'toolscope_oidc_state=someone-else'))).toBe('state');
    // The real browser still completes.
    expect(tokensOf(await callback(back, cookie)).accessToken).toBeTruthy();
  });

  it('refuses a replayed callback, and a code replayed under a fresh attempt', async () => {
    const { back, cookie } = await throughProvider('frank');
    tokensOf(await callback(back, cookie));
    expect(ssoError(await callback(back, cookie))).toBe('state');

    // The stolen code with a new attempt's state: the code was bound to the first attempt's PKCE verifier.
    const fresh = await t.app.inject({ method: 'GET', url: '/api/v1/auth/oidc/start' });
    const freshState = new URL(fresh.headers.location as string).searchParams.get('state')!;
    const replay = new URL(back);
    replay.searchParams.set('state', freshState);
    expect(ssoError(await callback(replay, cookieOf(fresh)))).toBe('failed');
  });

  it('refuses an unverified email and a missing one, creating nothing', async () => {
    const unverified = await throughProvider('unverified-carol');
    expect(ssoError(await callback(unverified.back, unverified.cookie))).toBe('unverified_email');
    const noEmail = await throughProvider('noemail-dave');
    expect(ssoError(await callback(noEmail.back, noEmail.cookie))).toBe('no_email');
    const users = await t.database.db.query<{ n: number }>(
      "select count(*)::int as n from users where email like 'unverified-carol%' or email like 'noemail-dave%'",
    );
    expect(users[0].n).toBe(0);
  });

  it('lands on the login page when the user cancels at the provider', async () => {
    const { back, cookie } = await throughProvider('grace', { consent: 'deny' });
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(ssoError(await callback(back, cookie))).toBe('denied');
  });

  it('never takes over a password account by email; its owner links the provider after signing in, and then it signs in', async () => {
    const owner = await registerAccount(t.app, { email: 'heidi@example.test' });
    const takeover = await throughProvider('heidi');
    expect(ssoError(await callback(takeover.back, takeover.cookie))).toBe('account_exists');

    const link = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/me/identities',
      headers: bearer(owner.accessToken),
      payload: { returnPath: '/settings' },
    });
    expect(link.statusCode).toBe(200);
    const back = await new ProviderUserAgent().signIn(
      link.json<{ authorizationUrl: string }>().authorizationUrl,
      'heidi',
    );
    const linked = await callback(back, cookieOf(link));
    expect(linked.statusCode).toBe(302);
    expect(linked.headers.location).toBe('/settings?sso_linked=1');

    const identities = await t.app.inject({
      method: 'GET',
      url: '/api/v1/users/me/identities',
      headers: bearer(owner.accessToken),
    });
    expect(identities.json()).toEqual({
      identities: [expect.objectContaining({ provider: 'Example ID', email: 'heidi@example.test' })],
    });

    const signIn = await throughProvider('heidi');
    const tokens = tokensOf(await callback(signIn.back, signIn.cookie));
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: bearer(tokens.accessToken) });
    expect(me.json<{ id: string }>().id).toBe(owner.user.id);

    // An identity already linked elsewhere cannot be linked to a second account.
    const other = await registerAccount(t.app);
    const secondLink = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/me/identities',
      headers: bearer(other.accessToken),
      payload: {},
    });
    const again = await new ProviderUserAgent().signIn(
      secondLink.json<{ authorizationUrl: string }>().authorizationUrl,
      'heidi',
    );
    expect(ssoError(await callback(again, cookieOf(secondLink)))).toBe('linked_elsewhere');
  });

  it('keeps the return path on this site', async () => {
    for (const hostile of ['https://evil.test/x', '//evil.test/x', '/\\evil.test']) {
      const { back, cookie } = await throughProvider('ivan', { redirect: hostile });
      expect(tokensOf(await callback(back, cookie)).redirect).toBe('/dashboard');
    }
  });
});

describe('without a provider configured', () => {
  it('lists none and answers the sign-in routes with 404', async () => {
    const plain = await buildTestApp();
    try {
      expect(
        (await plain.app.inject({ method: 'GET', url: '/api/v1/config' })).json<PublicConfig>().signInProviders,
      ).toEqual([]);
      const start = await plain.app.inject({ method: 'GET', url: '/api/v1/auth/oidc/start' });
      expect(start.statusCode).toBe(404);
      expect(start.json()).toMatchObject({ message: 'Sign-in with an identity provider is not configured' });
    } finally {
      await plain.close();
    }
  });
});
