import { StorageKeys } from '../../../src/contract/constants';
import { Paths } from '../../../src/contract/routes';
import { accessTokenRefreshed, sessionExpired } from '../../../src/client/api/authEvents';
import { authenticatedRequest } from '../../../src/client/api/baseQuery';
import { getAccessToken, getRefreshToken, setTokens } from '../../../src/client/api/tokens';
import { fakeJwt, installFakeFetch, jsonResponse, type FakeFetch } from '../helpers/fakeFetch';
import { fakeBaseQueryApi } from './baseQueryApi';

const REFRESH = `POST ${Paths.refresh}`;
const WORKSPACES = `GET ${Paths.workspaces}`;

let fake: FakeFetch;
beforeEach(() => {
  localStorage.clear();
  fake = installFakeFetch();
});
afterEach(() => fake.restore());

function bearerOf(index: number): string | null {
  return fake.requests[index].headers.get('Authorization');
}

describe('bearer header', () => {
  it('sends the stored access token on authorized calls', async () => {
    const token = fakeJwt(3600);
    setTokens({ accessToken: token, refreshToken: 'r1' });
    fake.on(WORKSPACES, jsonResponse([]));
    const { api } = fakeBaseQueryApi();

    const result = await authenticatedRequest(Paths.workspaces, api, {});

    expect(result).toEqual({ data: [] });
    expect(bearerOf(0)).toBe(`Bearer ${token}`);
    expect(fake.count(REFRESH)).toBe(0);
  });

  it('sends no bearer header and never refreshes on public calls', async () => {
    setTokens({ accessToken: fakeJwt(-60), refreshToken: 'r1' });
    fake.on(`POST ${Paths.login}`, jsonResponse({ accessToken: 'a', refreshToken: 'b' }));
    const { api } = fakeBaseQueryApi('mutation');

    await authenticatedRequest({ url: Paths.login, method: 'POST', body: { email: 'a@b.c', password: 'x' } }, api, {});

    expect(bearerOf(0)).toBeNull();
    expect(fake.count(REFRESH)).toBe(0);
  });

  it("refuses an authorized call without any token: 'No access token', nothing sent", async () => {
    const { api } = fakeBaseQueryApi();
    const result = await authenticatedRequest(Paths.workspaces, api, {});
    expect(result.error).toMatchObject({ message: 'No access token' });
    expect(fake.requests).toHaveLength(0);
  });
});

describe('refresh before use', () => {
  it.each([
    ['expired', -30],
    ['within 5 minutes of expiry', 4 * 60],
    ['exactly 5 minutes from expiry', 5 * 60],
  ])('refreshes first when the token is %s, then sends the new token', async (_label, secondsAhead) => {
    setTokens({ accessToken: fakeJwt(secondsAhead), refreshToken: 'refresh-1' });
    const fresh = fakeJwt(900);
    fake.on(REFRESH, jsonResponse({ accessToken: fresh, refreshToken: 'refresh-2' }));
    fake.on(WORKSPACES, jsonResponse([]));
    const { api, dispatched } = fakeBaseQueryApi();

    await authenticatedRequest(Paths.workspaces, api, {});

    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([REFRESH, WORKSPACES]);
    expect(fake.requests[0].body).toEqual({ refreshToken: 'refresh-1' });
    expect(bearerOf(1)).toBe(`Bearer ${fresh}`);
    expect(getAccessToken()).toBe(fresh);
    expect(getRefreshToken()).toBe('refresh-2');
    expect(dispatched).toContainEqual(accessTokenRefreshed({ accessToken: fresh }));
  });

  it('keeps the refresh token when the refresh answer carries none', async () => {
    setTokens({ accessToken: fakeJwt(-1), refreshToken: 'keep-me' });
    fake.on(REFRESH, jsonResponse({ accessToken: fakeJwt(900) }));
    fake.on(WORKSPACES, jsonResponse([]));
    await authenticatedRequest(Paths.workspaces, fakeBaseQueryApi().api, {});
    expect(getRefreshToken()).toBe('keep-me');
  });

  it('does not refresh a token with more than 5 minutes left', async () => {
    setTokens({ accessToken: fakeJwt(5 * 60 + 30), refreshToken: 'r' });
    fake.on(WORKSPACES, jsonResponse([]));
    await authenticatedRequest(Paths.workspaces, fakeBaseQueryApi().api, {});
    expect(fake.count(REFRESH)).toBe(0);
  });

  it('lets concurrent requests share one refresh', async () => {
    setTokens({ accessToken: fakeJwt(60), refreshToken: 'r' });
    const fresh = fakeJwt(900);
    fake.on(REFRESH, async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return jsonResponse({ accessToken: fresh });
    });
    fake.on(WORKSPACES, jsonResponse([]));

    await Promise.all(
      [1, 2, 3, 4].map(() => Promise.resolve(authenticatedRequest(Paths.workspaces, fakeBaseQueryApi().api, {}))),
    );

    expect(fake.count(REFRESH)).toBe(1);
    expect(fake.count(WORKSPACES)).toBe(4);
    for (const request of fake.requests.filter((r) => r.path === Paths.workspaces)) {
      expect(request.headers.get('Authorization')).toBe(`Bearer ${fresh}`);
    }
  });
});

describe('401 handling', () => {
  it('refreshes once and retries once', async () => {
    const old = fakeJwt(3600);
    const fresh = fakeJwt(3600);
    setTokens({ accessToken: old, refreshToken: 'r' });
    fake.on(REFRESH, jsonResponse({ accessToken: fresh }));
    fake.on(WORKSPACES, (request) =>
      request.headers.get('Authorization') === `Bearer ${fresh}`
        ? jsonResponse([{ id: 'w' }])
        : jsonResponse({ message: 'Token expired' }, 401),
    );

    const result = await authenticatedRequest(Paths.workspaces, fakeBaseQueryApi().api, {});

    expect(result).toEqual({ data: [{ id: 'w' }] });
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([WORKSPACES, REFRESH, WORKSPACES]);
  });

  it('gives up after the one retry when the server still answers 401', async () => {
    setTokens({ accessToken: fakeJwt(3600), refreshToken: 'r' });
    fake.on(REFRESH, () => jsonResponse({ accessToken: fakeJwt(3600) }));
    fake.on(WORKSPACES, jsonResponse({ message: 'Nope' }, 401));

    const result = await authenticatedRequest(Paths.workspaces, fakeBaseQueryApi().api, {});

    expect(result.error).toMatchObject({ status: 401, message: 'API Error 401: Nope' });
    expect(fake.count(REFRESH)).toBe(1);
    expect(fake.count(WORKSPACES)).toBe(2);
  });

  it('lets concurrent 401s share one refresh', async () => {
    const old = fakeJwt(3600);
    const fresh = fakeJwt(3600);
    setTokens({ accessToken: old, refreshToken: 'r' });
    fake.on(REFRESH, async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return jsonResponse({ accessToken: fresh });
    });
    fake.on(WORKSPACES, (request) =>
      request.headers.get('Authorization') === `Bearer ${fresh}`
        ? jsonResponse([])
        : jsonResponse({ message: 'expired' }, 401),
    );

    const results = await Promise.all(
      [1, 2, 3].map(() => Promise.resolve(authenticatedRequest(Paths.workspaces, fakeBaseQueryApi().api, {}))),
    );

    expect(results.every((r) => !r.error)).toBe(true);
    expect(fake.count(REFRESH)).toBe(1);
  });
});

describe('refresh failure', () => {
  it("clears both tokens and signs out with 'Token refresh failed: {status}'", async () => {
    setTokens({ accessToken: fakeJwt(3600), refreshToken: 'revoked' });
    fake.on(REFRESH, jsonResponse({ message: 'Refresh token revoked', code: 'unauthorized' }, 401));
    fake.on(WORKSPACES, jsonResponse({ message: 'expired' }, 401));
    const { api, dispatched } = fakeBaseQueryApi();

    const result = await authenticatedRequest(Paths.workspaces, api, {});

    expect(result.error).toMatchObject({ status: 401, message: 'Token refresh failed: 401', sessionEnded: true });
    expect(localStorage.getItem(StorageKeys.accessToken)).toBeNull();
    expect(localStorage.getItem(StorageKeys.refreshToken)).toBeNull();
    expect(dispatched).toContainEqual(sessionExpired({ reason: 'Token refresh failed: 401' }));
  });

  it("signs out with 'No refresh token available' when only an expiring access token is stored", async () => {
    localStorage.setItem(StorageKeys.accessToken, fakeJwt(30));
    const { api, dispatched } = fakeBaseQueryApi();

    const result = await authenticatedRequest(Paths.workspaces, api, {});

    expect(result.error).toMatchObject({ message: 'No refresh token available' });
    expect(fake.requests).toHaveLength(0);
    expect(getAccessToken()).toBeNull();
    expect(dispatched).toContainEqual(sessionExpired({ reason: 'No refresh token available' }));
  });

  it('keeps the session when the refresh cannot reach the server', async () => {
    const token = fakeJwt(3600);
    setTokens({ accessToken: token, refreshToken: 'r' });
    fake.on(REFRESH, () => Promise.reject(new TypeError('Failed to fetch')));
    fake.on(WORKSPACES, jsonResponse({ message: 'expired' }, 401));
    const { api, dispatched } = fakeBaseQueryApi();

    const result = await authenticatedRequest(Paths.workspaces, api, {});

    expect(result.error).toMatchObject({ status: 401 });
    expect(getAccessToken()).toBe(token);
    expect(dispatched.some((a) => sessionExpired.match(a))).toBe(false);
  });
});

describe('several tabs', () => {
  it('uses the tokens another tab stored when it spent the refresh token first', async () => {
    setTokens({ accessToken: fakeJwt(60), refreshToken: 'shared' });
    const fromOtherTab = fakeJwt(900);
    fake.on(REFRESH, () => {
      // The other tab's refresh lands while ours is on the way; the server refuses the used token.
      setTokens({ accessToken: fromOtherTab, refreshToken: 'rotated' });
      return jsonResponse({ message: 'Refresh token already used' }, 401);
    });
    fake.on(WORKSPACES, jsonResponse([]));
    const { api, dispatched } = fakeBaseQueryApi();

    const result = await authenticatedRequest(Paths.workspaces, api, {});

    expect(result).toEqual({ data: [] });
    expect(bearerOf(1)).toBe(`Bearer ${fromOtherTab}`);
    expect(getRefreshToken()).toBe('rotated');
    expect(dispatched.some((a) => sessionExpired.match(a))).toBe(false);
  });
});

describe('logout call', () => {
  it('is sent as it is, without refreshing a token that is about to expire', async () => {
    setTokens({ accessToken: fakeJwt(30), refreshToken: 'r' });
    fake.on(`POST ${Paths.logout}`, jsonResponse({ message: 'Signed out' }));
    await authenticatedRequest(
      { url: Paths.logout, method: 'POST', body: { refreshToken: 'r' } },
      fakeBaseQueryApi('mutation').api,
      {},
    );
    expect(fake.count(REFRESH)).toBe(0);
  });
});
