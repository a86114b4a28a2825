import { act, configure, screen } from '@testing-library/react';
import { Paths } from '../../../../src/contract/routes';
import { SERVERS_CACHE_TTL_MS } from '../../../../src/contract/constants';
import { makeStore } from '../../../../src/client/app/store';
import { signedOut } from '../../../../src/client/features/auth/authSlice';
import ServersPage from '../../../../src/client/features/servers/pages/ServersPage';
import { serversApi } from '../../../../src/client/features/servers/serversApi';
import {
  SERVERS_CACHE_STORAGE_KEY,
  selectFreshCachedServers,
  serversCached,
} from '../../../../src/client/features/servers/serversCacheSlice';
import { renderShellApp, testServer } from '../../helpers/renderShellApp';

configure({ asyncUtilTimeout: 5_000 });
jest.setTimeout(30_000);

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => jest.useRealTimers());

function storeCopy(savedAt: number) {
  sessionStorage.setItem(
    SERVERS_CACHE_STORAGE_KEY,
    JSON.stringify({ byWorkspace: { 'ws-1': { servers: [testServer({ name: 'Cached server' })], savedAt } } }),
  );
}

const never = () => new Promise<never>(() => undefined);

describe('servers cache', () => {
  it('keeps a workspace list for 5 minutes, per workspace, in session storage', () => {
    jest.useFakeTimers({ now: new Date('2026-03-01T10:00:00Z') });
    const store = makeStore();
    const t0 = Date.now();
    store.dispatch(serversCached({ workspaceId: 'ws-1', servers: [testServer()], savedAt: t0 }));

    expect(JSON.parse(sessionStorage.getItem(SERVERS_CACHE_STORAGE_KEY)!).byWorkspace['ws-1'].servers[0].id).toBe(
      'srv-1',
    );
    expect(selectFreshCachedServers(store.getState(), 'ws-2', Date.now())).toBeNull();

    jest.advanceTimersByTime(SERVERS_CACHE_TTL_MS - 1);
    expect(selectFreshCachedServers(store.getState(), 'ws-1', Date.now())).toHaveLength(1);
    jest.advanceTimersByTime(1);
    expect(selectFreshCachedServers(store.getState(), 'ws-1', Date.now())).toBeNull();
  });

  it('saves every list the server returns, and forgets everything on sign-out', async () => {
    const { api, store } = renderShellApp(<></>, { signedIn: true, servers: [testServer()] });
    await store.dispatch(serversApi.endpoints.getServers.initiate('ws-1'));
    expect(selectFreshCachedServers(store.getState(), 'ws-1', Date.now())).toEqual([testServer()]);

    store.dispatch(signedOut());
    expect(selectFreshCachedServers(store.getState(), 'ws-1', Date.now())).toBeNull();
    expect(sessionStorage.getItem(SERVERS_CACHE_STORAGE_KEY)).toBeNull();
    api.restore();
  });

  it('shows the cached list at once while the server is still answering', async () => {
    storeCopy(Date.now() - 60_000);
    const { api } = renderShellApp(<ServersPage />, {
      signedIn: true,
      path: '/servers',
      configureApi: (fake) => fake.on('GET', Paths.servers('ws-1'), never),
    });
    expect(await screen.findByRole('article', { name: 'Cached server' })).toBeInTheDocument();
    expect(screen.getByText('Refreshing…')).toBeInTheDocument();
    api.restore();
  });

  it('does not show a copy older than 5 minutes', async () => {
    storeCopy(Date.now() - SERVERS_CACHE_TTL_MS - 1);
    const { api } = renderShellApp(<ServersPage />, {
      signedIn: true,
      path: '/servers',
      configureApi: (fake) => fake.on('GET', Paths.servers('ws-1'), never),
    });
    expect(await screen.findByLabelText('Loading servers')).toBeInTheDocument();
    expect(screen.queryByRole('article', { name: 'Cached server' })).not.toBeInTheDocument();
    api.restore();
  });

  it("keeps a cached list on screen without the 'Failed to load servers' toast when loading fails", async () => {
    storeCopy(Date.now() - 60_000);
    const { api } = renderShellApp(<ServersPage />, {
      signedIn: true,
      path: '/servers',
      configureApi: (fake) =>
        fake.on('GET', Paths.servers('ws-1'), { status: 403, body: { message: 'Forbidden', code: 'forbidden' } }),
    });
    expect(await screen.findByRole('article', { name: 'Cached server' })).toBeInTheDocument();
    await act(() => new Promise((resolve) => setTimeout(resolve, 300)));
    expect(screen.queryByText('Failed to load servers')).not.toBeInTheDocument();
    expect(screen.getByRole('article', { name: 'Cached server' })).toBeInTheDocument();
    api.restore();
  });
});
