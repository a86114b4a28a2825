import { act, configure, screen, waitFor, within } from '@testing-library/react';
import { fromCallback } from 'xstate';
import { StorageKeys } from '../../../../src/contract/constants';
import { Paths } from '../../../../src/contract/routes';
import type { LiveMessage } from '../../../../src/contract/live';
import type { NotificationDto } from '../../../../src/contract/notifications';
import { LiveStatusDot } from '../../../../src/client/features/live/LiveStatusDot';
import { LiveStream } from '../../../../src/client/features/live/LiveStream';
import type { ConnectionEvent, ConnectionInput } from '../../../../src/client/features/live/liveStreamMachine';
import {
  selectLiveNotifications,
  selectLiveStreamConnected,
} from '../../../../src/client/features/notifications/notificationsSlice';
import ServersPage from '../../../../src/client/features/servers/pages/ServersPage';
import { serversApi } from '../../../../src/client/features/servers/serversApi';
import { workspaceSelected } from '../../../../src/client/features/workspaces/workspaceSlice';
import { fakeAccessToken } from '../../helpers/fakeApi';
import { renderShellApp, testServer } from '../../helpers/renderShellApp';

configure({ asyncUtilTimeout: 5_000 });
jest.setTimeout(30_000);

// Plays the server's side of the stream: the test opens it, sends messages or breaks it.
const connections: { input: ConnectionInput; sendBack: (event: ConnectionEvent) => void; closed: boolean }[] = [];
const fakeConnection = fromCallback<ConnectionEvent, ConnectionInput>(({ input, sendBack }) => {
  const record = { input, sendBack, closed: false };
  connections.push(record);
  return () => {
    record.closed = true;
  };
});
const latest = () => connections[connections.length - 1];
const send = (message: LiveMessage) =>
  act(() => {
    latest().sendBack({ type: 'MESSAGE', message });
    return Promise.resolve();
  });

function statusNotification(status: 'online' | 'offline'): NotificationDto {
  const now = new Date().toISOString();
  return {
    id: `n-${status}`,
    workspaceId: 'ws-1',
    title: status === 'offline' ? 'Server Offline' : 'Server Online',
    message: `Everything is ${status === 'offline' ? 'not ' : ''}responding to health checks`,
    severity: status === 'offline' ? 'error' : 'success',
    type: 'tool_server_status',
    isRead: false,
    isArchived: false,
    actionUrl: '/servers?serverId=srv-1',
    createdAt: now,
    updatedAt: now,
    occurrences: 1,
    metadata: { serverId: 'srv-1', status, serverName: 'Everything' },
  };
}

beforeEach(() => {
  connections.length = 0;
  localStorage.clear();
  sessionStorage.clear();
});

async function renderLive() {
  const rendered = renderShellApp(
    <>
      <LiveStatusDot />
      <LiveStream connection={fakeConnection} />
      <ServersPage />
    </>,
    { signedIn: true, path: '/servers', servers: [testServer()] },
  );
  await screen.findByRole('article', { name: 'Everything' });
  await waitFor(() => expect(connections).toHaveLength(1));
  act(() => latest().sendBack({ type: 'OPENED' }));
  return rendered;
}

describe('live stream wiring', () => {
  it('connects with the stored token and the current workspace, and shows it in the header dot', async () => {
    const { api, store } = await renderLive();
    expect(latest().input).toEqual({ workspaceId: 'ws-1', token: localStorage.getItem(StorageKeys.accessToken) });
    expect(screen.getByRole('status', { name: 'Live: connected' })).toBeInTheDocument();
    expect(selectLiveStreamConnected(store.getState())).toBe(true);

    act(() => latest().sendBack({ type: 'FAILED' }));
    expect(screen.getByRole('status', { name: 'Live: reconnecting' })).toBeInTheDocument();
    expect(selectLiveStreamConnected(store.getState())).toBe(false);
    api.restore();
  });

  it("turns a server offline and raises 'Server Offline' once, however many messages report it", async () => {
    const { api, store } = await renderLive();
    const offline = testServer({ status: 'offline', lastHealthStatus: false, lastChecked: new Date().toISOString() });

    await send({ type: 'server_updated', data: offline });
    await send({ type: 'notification', data: statusNotification('offline') });

    const card = screen.getByRole('article', { name: 'Everything' });
    expect(within(card).getByTestId('server-status')).toHaveTextContent('Offline');
    expect(await screen.findByText('Server Offline')).toBeInTheDocument();
    expect(screen.getByText('Everything is not responding to health checks')).toBeInTheDocument();
    expect(screen.getAllByText('Server Offline')).toHaveLength(1);
    // The notification also goes to the bell's live buffer.
    expect(selectLiveNotifications(store.getState()).map((n) => n.id)).toEqual(['n-offline']);
    api.restore();
  });

  it("raises 'Server Offline' from the status notification when a refetch already showed the server offline", async () => {
    const { api, store } = await renderLive();
    // The servers list was fetched again (a reconnect, a navigation) after the server went down,
    // before the live messages about it arrived: the page shows it offline already.
    act(() => {
      store.dispatch(
        serversApi.util.updateQueryData('getServers', 'ws-1', (draft) => {
          const server = draft.find((s) => s.id === 'srv-1');
          if (server)
            Object.assign(server, {
              status: 'offline',
              lastHealthStatus: false,
              lastChecked: new Date().toISOString(),
            });
        }),
      );
    });
    await send({
      type: 'server_updated',
      data: testServer({ status: 'offline', lastHealthStatus: false, lastChecked: new Date().toISOString() }),
    });
    await send({ type: 'notification', data: statusNotification('offline') });
    expect(await screen.findByText('Server Offline')).toBeInTheDocument();
    expect(screen.getAllByText('Server Offline')).toHaveLength(1);
    api.restore();
  });

  it('keeps a live status change when a list fetched before it answers after it', async () => {
    const { api, store } = await renderLive();
    const offline = testServer({ status: 'offline', lastHealthStatus: false, lastChecked: new Date().toISOString() });
    // The list is being fetched again; the server read it before the server went down, and answers late.
    let answerStale: () => void = () => undefined;
    let fetches = 0;
    api.on('GET', Paths.servers('ws-1'), () => {
      fetches += 1;
      if (fetches > 1) return { body: [offline] };
      return new Promise((resolve) => (answerStale = () => resolve({ body: [testServer()] })));
    });
    act(() => {
      store.dispatch(serversApi.util.invalidateTags([{ type: 'Servers', id: 'ws-1' }]));
    });
    await waitFor(() => expect(fetches).toBe(1));

    await send({ type: 'server_updated', data: offline });
    const card = screen.getByRole('article', { name: 'Everything' });
    expect(within(card).getByTestId('server-status')).toHaveTextContent('Offline');
    await act(() => {
      answerStale();
      return Promise.resolve();
    });

    // Fetched once more after the stale answer: the card ends offline, as the server is.
    await waitFor(() => expect(fetches).toBe(2));
    await waitFor(() =>
      expect(
        within(screen.getByRole('article', { name: 'Everything' })).getByTestId('server-status'),
      ).toHaveTextContent('Offline'),
    );
    api.restore();
  });

  it('fetches the servers list again when the stream reopens: a change in the gap is not lost', async () => {
    const { api } = await renderLive();
    let fetches = 0;
    api.on('GET', Paths.servers('ws-1'), () => {
      fetches += 1;
      return {
        body: [testServer({ status: 'offline', lastHealthStatus: false, lastChecked: new Date().toISOString() })],
      };
    });
    // The stream breaks; the server goes down while it is away (no message can tell the page).
    act(() => latest().sendBack({ type: 'FAILED' }));
    await waitFor(() => expect(connections).toHaveLength(2), { timeout: 10_000 });
    expect(fetches).toBe(0);
    act(() => latest().sendBack({ type: 'OPENED' }));
    await waitFor(() => expect(fetches).toBe(1));
    await waitFor(() =>
      expect(
        within(screen.getByRole('article', { name: 'Everything' })).getByTestId('server-status'),
      ).toHaveTextContent('Offline'),
    );
    api.restore();
  });

  it('does not call a just-registered server offline before its first health check', async () => {
    const { api } = await renderLive();
    await send({
      type: 'server_updated',
      data: testServer({
        id: 'srv-new',
        name: 'Fresh',
        status: 'offline',
        lastHealthStatus: null,
        lastChecked: null,
        schemaCount: 0,
      }),
    });
    expect(await screen.findByRole('article', { name: 'Fresh' })).toBeInTheDocument();
    await act(() => new Promise((resolve) => setTimeout(resolve, 200)));
    expect(screen.queryByText('Server Offline')).not.toBeInTheDocument();
    // Its first check finds it down: that is news.
    await send({
      type: 'server_updated',
      data: testServer({
        id: 'srv-new',
        name: 'Fresh',
        status: 'offline',
        lastHealthStatus: false,
        lastChecked: new Date().toISOString(),
        schemaCount: 0,
      }),
    });
    expect(await screen.findByText('Fresh is not responding to health checks')).toBeInTheDocument();
    api.restore();
  });

  it('moves a card\'s "checked … ago" on with each server_checked, never back', async () => {
    const { api } = await renderLive();
    const card = () => screen.getByRole('article', { name: 'Everything' });
    // testServer() was never checked; a probe five minutes ago, then one just now.
    await send({
      type: 'server_checked',
      data: { serverId: 'srv-1', lastChecked: new Date(Date.now() - 5 * 60_000).toISOString() },
    });
    await waitFor(() => expect(card()).toHaveTextContent(/checked 5 minutes ago/));
    await send({
      type: 'server_checked',
      data: { serverId: 'srv-1', lastChecked: new Date(Date.now() - 1_000).toISOString() },
    });
    await waitFor(() => expect(card()).toHaveTextContent(/checked (1 second|\d+ seconds) ago|checked (just )?now/));
    // An older check arriving late (another instance) does not move the label back.
    await send({
      type: 'server_checked',
      data: { serverId: 'srv-1', lastChecked: new Date(Date.now() - 10 * 60_000).toISOString() },
    });
    expect(card()).not.toHaveTextContent(/checked \d+ minutes ago/);
    api.restore();
  });

  it('brings a server back online from a status notification alone', async () => {
    const { api } = await renderLive();
    await send({ type: 'notification', data: statusNotification('offline') });
    expect(within(screen.getByRole('article', { name: 'Everything' })).getByTestId('server-status')).toHaveTextContent(
      'Offline',
    );
    await send({ type: 'notification', data: statusNotification('online') });
    expect(within(screen.getByRole('article', { name: 'Everything' })).getByTestId('server-status')).toHaveTextContent(
      'Online',
    );
    api.restore();
  });

  it('reconnects when another tab stores a new token, and stops when the token is removed', async () => {
    const { api } = await renderLive();
    const newToken = fakeAccessToken(7200);
    act(() => {
      localStorage.setItem(StorageKeys.accessToken, newToken);
      window.dispatchEvent(new StorageEvent('storage', { key: StorageKeys.accessToken, newValue: newToken }));
    });
    await waitFor(() => expect(connections).toHaveLength(2));
    expect(connections[0].closed).toBe(true);
    expect(latest().input.token).toBe(newToken);

    act(() => {
      localStorage.removeItem(StorageKeys.accessToken);
      window.dispatchEvent(new StorageEvent('storage', { key: StorageKeys.accessToken, newValue: null }));
    });
    expect(latest().closed).toBe(true);
    expect(screen.getByRole('status', { name: 'Live: off' })).toBeInTheDocument();
    api.restore();
  });

  it('lets the stream go when the page is hidden, and reconnects when the back-forward cache restores it', async () => {
    const { api } = await renderLive();
    act(() => {
      window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: true }));
    });
    expect(latest().closed).toBe(true);
    act(() => {
      window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
    });
    await waitFor(() => expect(connections).toHaveLength(2));
    expect(latest().closed).toBe(false);
    api.restore();
  });

  it('reconnects to the new workspace after a switch', async () => {
    const { api, store } = await renderLive();
    act(() => {
      store.dispatch(workspaceSelected('ws-2'));
    });
    await waitFor(() => expect(connections).toHaveLength(2));
    expect(latest().input.workspaceId).toBe('ws-2');
    expect(connections[0].closed).toBe(true);
    api.restore();
  });
});
