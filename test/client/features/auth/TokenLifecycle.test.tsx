import { act, waitFor } from '@testing-library/react';
import { StorageKeys } from '../../../../src/contract/constants';
import { Paths } from '../../../../src/contract/routes';
import { getAccessToken, setTokens } from '../../../../src/client/api/tokens';
import { TokenLifecycle } from '../../../../src/client/features/auth/TokenLifecycle';
import { selectAuthStatus, selectCurrentUser } from '../../../../src/client/features/auth/authSlice';
import { fakeJwt, installFakeFetch, jsonResponse, type FakeFetch } from '../../helpers/fakeFetch';
import { renderWithProviders } from '../../helpers/renderWithProviders';

const USER = {
  id: 'u-1',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  createdAt: '2026-01-01T00:00:00.000Z',
};

let fake: FakeFetch;
beforeEach(() => {
  localStorage.clear();
  fake = installFakeFetch();
  fake.on(`GET ${Paths.me}`, jsonResponse(USER));
  fake.on(`GET ${Paths.workspaces}`, jsonResponse([]));
});
afterEach(() => fake.restore());

it('signs in from stored tokens at start and loads the profile', async () => {
  setTokens({ accessToken: fakeJwt(900), refreshToken: 'r' });
  const { store } = renderWithProviders(<TokenLifecycle />);
  expect(selectAuthStatus(store.getState())).toBe('unknown');

  await waitFor(() => expect(selectAuthStatus(store.getState())).toBe('signedIn'));
  expect(selectCurrentUser(store.getState())?.fullName).toBe('Ada Lovelace');
});

it('is signed out at start without tokens, and asks the server nothing', async () => {
  const { store } = renderWithProviders(<TokenLifecycle />);
  await waitFor(() => expect(selectAuthStatus(store.getState())).toBe('signedOut'));
  expect(fake.requests).toHaveLength(0);
});

it('clears both tokens and signs out when the start-up refresh is refused', async () => {
  setTokens({ accessToken: fakeJwt(-60), refreshToken: 'revoked' });
  fake.on(`POST ${Paths.refresh}`, jsonResponse({ message: 'Refresh token revoked' }, 401));
  const { store } = renderWithProviders(<TokenLifecycle />);

  await waitFor(() => expect(selectAuthStatus(store.getState())).toBe('signedOut'));
  expect(localStorage.getItem(StorageKeys.accessToken)).toBeNull();
  expect(localStorage.getItem(StorageKeys.refreshToken)).toBeNull();
  expect(fake.count(`GET ${Paths.me}`)).toBe(0);
});

it('reloads the workspaces when another tab changes the access token', async () => {
  setTokens({ accessToken: fakeJwt(900), refreshToken: 'r' });
  const { store } = renderWithProviders(<TokenLifecycle />);
  await waitFor(() => expect(selectAuthStatus(store.getState())).toBe('signedIn'));
  const before = fake.count(`GET ${Paths.workspaces}`);

  const newToken = fakeJwt(900);
  localStorage.setItem(StorageKeys.accessToken, newToken);
  act(() => {
    window.dispatchEvent(
      new StorageEvent('storage', { key: StorageKeys.accessToken, newValue: newToken, storageArea: localStorage }),
    );
  });

  await waitFor(() => expect(fake.count(`GET ${Paths.workspaces}`)).toBe(before + 1));
  expect(getAccessToken()).toBe(newToken);
});

it('signs this tab out when another tab signs out', async () => {
  setTokens({ accessToken: fakeJwt(900), refreshToken: 'r' });
  const { store } = renderWithProviders(<TokenLifecycle />);
  await waitFor(() => expect(selectAuthStatus(store.getState())).toBe('signedIn'));

  localStorage.clear();
  act(() => {
    window.dispatchEvent(
      new StorageEvent('storage', { key: StorageKeys.accessToken, newValue: null, storageArea: localStorage }),
    );
  });

  await waitFor(() => expect(selectAuthStatus(store.getState())).toBe('signedOut'));
});

describe('activity in the page', () => {
  const MINUTE = 60_000;
  beforeEach(() => jest.useFakeTimers({ now: new Date('2026-11-21T08:00:00Z') }));
  afterEach(() => jest.useRealTimers());

  async function startWithTokenExpiringIn40Minutes() {
    setTokens({ accessToken: fakeJwt(40 * 60), refreshToken: 'r' });
    fake.on(`POST ${Paths.refresh}`, () => jsonResponse({ accessToken: fakeJwt(15 * 60) }));
    renderWithProviders(<TokenLifecycle />);
    await act(() => jest.advanceTimersByTimeAsync(0));
  }

  it.each(['keydown', 'mousemove', 'click', 'scroll'])(
    'a %s keeps the 5-minutes-before-expiry refresh',
    async (type) => {
      await startWithTokenExpiringIn40Minutes();
      await act(() => jest.advanceTimersByTimeAsync(20 * MINUTE));
      act(() => {
        window.dispatchEvent(new Event(type));
      });
      await act(() => jest.advanceTimersByTimeAsync(15 * MINUTE));
      expect(fake.count(`POST ${Paths.refresh}`)).toBe(1);
    },
  );

  it('without activity for 30 minutes the refresh waits', async () => {
    await startWithTokenExpiringIn40Minutes();
    await act(() => jest.advanceTimersByTimeAsync(35 * MINUTE));
    expect(fake.count(`POST ${Paths.refresh}`)).toBe(0);
  });
});
