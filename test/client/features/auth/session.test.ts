import { StorageKeys } from '../../../../src/contract/constants';
import { Paths } from '../../../../src/contract/routes';
import { sessionExpired } from '../../../../src/client/api/authEvents';
import { getAccessToken, getRefreshToken, setTokens } from '../../../../src/client/api/tokens';
import { makeStore } from '../../../../src/client/app/store';
import { selectAuthStatus, selectCurrentUser } from '../../../../src/client/features/auth/authSlice';
import { login, logout } from '../../../../src/client/features/auth/session';
import { selectCurrentWorkspaceId } from '../../../../src/client/features/workspaces/workspaceSlice';
import { workspacesApi } from '../../../../src/client/features/workspaces/workspacesApi';
import { fakeJwt, installFakeFetch, jsonResponse, type FakeFetch } from '../../helpers/fakeFetch';

const USER = {
  id: 'u-1',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  fullName: 'Ada Lovelace',
  avatarUrl: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  workspaceCount: 1,
};
const WORKSPACES = [
  {
    id: 'ws-1',
    name: 'Personal',
    description: '',
    workspaceType: 'personal',
    role: 'owner',
    createdAt: '2026-01-01T00:00:00.000Z',
  },
];

let fake: FakeFetch;
beforeEach(() => {
  localStorage.clear();
  fake = installFakeFetch();
  fake.on(`GET ${Paths.workspaces}`, jsonResponse(WORKSPACES));
  fake.on(`GET ${Paths.me}`, jsonResponse(USER));
});
afterEach(() => fake.restore());

describe('login', () => {
  it('with email and password: stores the tokens and the user, then loads and selects a workspace', async () => {
    const accessToken = fakeJwt(900);
    fake.on(`POST ${Paths.login}`, jsonResponse({ accessToken, refreshToken: 'refresh-1', user: USER }));
    const store = makeStore();

    const user = await store.dispatch(login({ email: 'ada@example.com', password: 'correct horse' })).unwrap();

    expect(fake.requests[0].body).toEqual({ email: 'ada@example.com', password: 'correct horse' });
    expect(user?.fullName).toBe('Ada Lovelace');
    expect(getAccessToken()).toBe(accessToken);
    expect(getRefreshToken()).toBe('refresh-1');
    expect(selectAuthStatus(store.getState())).toBe('signedIn');
    expect(selectCurrentUser(store.getState())?.email).toBe('ada@example.com');
    expect(fake.count(`GET ${Paths.workspaces}`)).toBe(1);
    expect(selectCurrentWorkspaceId(store.getState())).toBe('ws-1');
  });

  it('with a ready login result: loads the profile when the result has no user', async () => {
    const store = makeStore();
    await store.dispatch(login({ accessToken: fakeJwt(900), refreshToken: 'r' })).unwrap();
    expect(fake.count(`POST ${Paths.login}`)).toBe(0);
    expect(fake.count(`GET ${Paths.me}`)).toBe(1);
    expect(selectCurrentUser(store.getState())?.fullName).toBe('Ada Lovelace');
  });

  it("accepts the OAuth form's names (access_token, refresh_token)", async () => {
    const accessToken = fakeJwt(900);
    const store = makeStore();
    await store.dispatch(login({ access_token: accessToken, refresh_token: 'r2', user: USER })).unwrap();
    expect(getAccessToken()).toBe(accessToken);
    expect(getRefreshToken()).toBe('r2');
  });

  it.each([[{}], [{ email: 'a@b.c' }], [{ accessToken: 'only-one' }], [null], ['text']])(
    "refuses %p with 'Invalid login parameters' and changes nothing",
    async (input) => {
      const store = makeStore();
      const result = await store.dispatch(login(input as never));
      expect(result.payload).toMatchObject({ message: 'Invalid login parameters' });
      expect(fake.requests).toHaveLength(0);
      expect(getAccessToken()).toBeNull();
    },
  );

  it('reports a refused sign-in with the server text and its fields, storing nothing', async () => {
    fake.on(`POST ${Paths.login}`, jsonResponse({ message: 'Invalid email or password', code: 'unauthorized' }, 401));
    const store = makeStore();

    const result = await store.dispatch(login({ email: 'ada@example.com', password: 'wrong' }));

    expect(result.payload).toMatchObject({ status: 401, message: 'API Error 401: Invalid email or password' });
    expect(fake.count(`POST ${Paths.refresh}`)).toBe(0);
    expect(getAccessToken()).toBeNull();
    expect(selectAuthStatus(store.getState())).toBe('signedOut');
  });
});

describe('logout', () => {
  it('tells the server (revoking the refresh token), then clears tokens, user and cache', async () => {
    setTokens({ accessToken: fakeJwt(900), refreshToken: 'refresh-1' });
    fake.on(`POST ${Paths.logout}`, jsonResponse({ message: 'Signed out' }));
    const store = makeStore();
    await store.dispatch(login({ accessToken: fakeJwt(900), refreshToken: 'refresh-1', user: USER }));
    localStorage.setItem(StorageKeys.tempAvatar, 'https://avatars.example/picked.png');

    await store.dispatch(logout());

    expect(fake.requests.find((r) => r.path === Paths.logout)?.body).toEqual({ refreshToken: 'refresh-1' });
    expect(localStorage.getItem(StorageKeys.accessToken)).toBeNull();
    expect(localStorage.getItem(StorageKeys.refreshToken)).toBeNull();
    // The next account to sign in on this browser must not wear the avatar this one picked.
    expect(localStorage.getItem(StorageKeys.tempAvatar)).toBeNull();
    expect(selectCurrentUser(store.getState())).toBeNull();
    expect(selectAuthStatus(store.getState())).toBe('signedOut');
    expect(workspacesApi.endpoints.getWorkspaces.select()(store.getState()).data).toBeUndefined();
  });

  it('clears everything even when the server call fails, without retrying it', async () => {
    fake.on(`POST ${Paths.logout}`, jsonResponse({ message: 'Internal error' }, 500));
    const store = makeStore();
    await store.dispatch(login({ accessToken: fakeJwt(900), refreshToken: 'r', user: USER }));

    await store.dispatch(logout());

    expect(fake.count(`POST ${Paths.logout}`)).toBe(1);
    expect(getAccessToken()).toBeNull();
    expect(selectAuthStatus(store.getState())).toBe('signedOut');
  });
});

describe('a session that expires inside a request', () => {
  it('signs the user out and drops their cached answers', async () => {
    const store = makeStore();
    await store.dispatch(login({ accessToken: fakeJwt(900), refreshToken: 'r', user: USER }));
    expect(workspacesApi.endpoints.getWorkspaces.select()(store.getState()).data).toHaveLength(1);

    store.dispatch(sessionExpired({ reason: 'Token refresh failed: 401' }));
    await new Promise((resolve) => setTimeout(resolve, 0));

    expect(selectAuthStatus(store.getState())).toBe('signedOut');
    expect(workspacesApi.endpoints.getWorkspaces.select()(store.getState()).data).toBeUndefined();
  });
});
