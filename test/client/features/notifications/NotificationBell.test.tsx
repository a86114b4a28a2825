import { act, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router-dom';
import { StorageKeys } from '../../../../src/contract/constants';
import type { NotificationDto } from '../../../../src/contract/notifications';
import { Paths } from '../../../../src/contract/routes';
import { NotificationBell } from '../../../../src/client/features/notifications/NotificationBell';
import {
  liveStreamConnectionChanged,
  notificationReceived,
} from '../../../../src/client/features/notifications/notificationsSlice';
import { workspaceSelected } from '../../../../src/client/features/workspaces/workspaceSlice';
import { fakeAccessToken, installFakeApi, type FakeApi } from '../../helpers/fakeApi';
import { renderWithProviders } from '../../helpers/renderWithProviders';
import { notification, OTHER_WORKSPACE_ID, WORKSPACE_ID } from './notificationFixtures';

// Requests, retries and toasts go through real timers; a loaded CI machine needs more than 1 s.
configure({ asyncUtilTimeout: 5_000 });
jest.setTimeout(30_000);

function LocationProbe() {
  const location = useLocation();
  return <output aria-label="Current location">{`${location.pathname}${location.search}`}</output>;
}

let api: FakeApi;
let listed: NotificationDto[];
let unreadCount: number;
let bodies: { path: string; body: unknown }[];

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem(StorageKeys.accessToken, fakeAccessToken());
  localStorage.setItem(StorageKeys.refreshToken, 'refresh-token');
  listed = [notification(0)];
  unreadCount = 1;
  bodies = [];
  api = installFakeApi();
  api.on('GET', Paths.notifications, () => ({ body: { notifications: listed, total: listed.length } }));
  api.on('GET', Paths.unreadCount, () => ({ body: { count: unreadCount } }));
  const record = (path: string, answer: unknown) => (request: { url: URL; body: unknown }) => {
    bodies.push({ path: request.url.pathname, body: request.body });
    return { body: answer };
  };
  api.on('POST', Paths.markRead, record(Paths.markRead, { updated: 2 }));
  api.on('POST', Paths.markAllRead, record(Paths.markAllRead, { updated: 1 }));
  api.on('POST', Paths.archive, record(Paths.archive, { updated: 2 }));
});

afterEach(() => {
  api.restore();
  jest.useRealTimers();
});

function renderBell() {
  return renderWithProviders(
    <>
      <NotificationBell />
      <LocationProbe />
    </>,
    { preloadedState: { workspace: { currentWorkspaceId: WORKSPACE_ID } }, initialEntries: ['/dashboard'] },
  );
}

async function openBell() {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: /^Notifications/ }));
  const panel = await screen.findByRole('dialog', { name: 'Notifications' });
  return { user, panel };
}

const items = () => screen.queryAllByTestId('notification-item');
const requestsOf = (key: string) => api.calls.filter((c) => c === key).length;

describe('NotificationBell', () => {
  it('shows the unread count on the badge, capped at 99+', async () => {
    unreadCount = 7;
    const first = renderBell();
    await waitFor(() => expect(screen.getByTestId('notification-badge')).toHaveTextContent('7'));
    expect(screen.getByRole('button', { name: 'Notifications, 7 unread' })).toBeInTheDocument();
    first.unmount();

    unreadCount = 250;
    renderBell();
    await waitFor(() => expect(screen.getByTestId('notification-badge')).toHaveTextContent('99+'));
  });

  it('asks for the current workspace’s latest 10 and lists them in a 400px list with severity, type and time', async () => {
    listed = Array.from({ length: 10 }, (_, i) =>
      notification(
        i,
        i === 0 ? { severity: 'error', type: 'tool_server_status', title: 'Server Offline', occurrences: 3 } : {},
      ),
    );
    renderBell();
    const { panel } = await openBell();
    await waitFor(() => expect(items()).toHaveLength(10));

    expect(within(panel).getByTestId('notification-list')).toHaveStyle({ height: '400px' });
    const first = items()[0];
    expect(within(first).getByText('Server Offline')).toBeInTheDocument();
    expect(within(first).getByRole('img', { name: 'Error' })).toBeInTheDocument();
    expect(within(first).getByText('Server status')).toBeInTheDocument();
    expect(within(first).getByText('×3')).toBeInTheDocument();
    expect(first.querySelector('time')).toHaveTextContent(/ago$|now$/);
  });

  it('sends the workspace and the limit of 10 with the list, and the workspace with the unread count', async () => {
    const seen: URL[] = [];
    api.on('GET', Paths.notifications, ({ url }) => {
      seen.push(url);
      return { body: { notifications: [], total: 0 } };
    });
    renderBell();
    await waitFor(() => expect(seen).toHaveLength(1));
    expect(Object.fromEntries(seen[0].searchParams)).toEqual({
      workspaceId: WORKSPACE_ID,
      isArchived: 'false',
      limit: '10',
    });
  });

  it('shows "Mark all as read" only when something is unread, and confirms with a toast', async () => {
    listed = [notification(0, { isRead: true })];
    unreadCount = 0;
    const first = renderBell();
    const { panel } = await openBell();
    await waitFor(() => expect(items()).toHaveLength(1));
    expect(within(panel).queryByRole('button', { name: 'Mark all as read' })).not.toBeInTheDocument();
    first.unmount();

    listed = [notification(0), notification(1)];
    unreadCount = 2;
    renderBell();
    const { user, panel: second } = await openBell();
    await user.click(await within(second).findByRole('button', { name: 'Mark all as read' }));
    expect(await screen.findByText('All notifications marked as read')).toBeInTheDocument();
    expect(bodies).toEqual([{ path: Paths.markAllRead, body: { workspaceId: WORKSPACE_ID } }]);
  });

  it('marks the selected ones read or archives them', async () => {
    listed = [notification(0), notification(1), notification(2)];
    renderBell();
    const { user, panel } = await openBell();
    await waitFor(() => expect(items()).toHaveLength(3));

    expect(within(panel).queryByRole('toolbar')).not.toBeInTheDocument();
    await user.click(within(panel).getByRole('checkbox', { name: 'Select Notification 0' }));
    await user.click(within(panel).getByRole('checkbox', { name: 'Select Notification 2' }));
    const toolbar = within(panel).getByRole('toolbar', { name: 'Selected notifications' });
    expect(toolbar).toHaveTextContent('2 selected');
    await user.click(within(toolbar).getByRole('button', { name: 'Mark read' }));
    await waitFor(() => expect(within(panel).queryByRole('toolbar')).not.toBeInTheDocument());
    expect(bodies).toEqual([
      { path: Paths.markRead, body: { notificationIds: [notification(0).id, notification(2).id] } },
    ]);

    await user.click(within(panel).getByRole('checkbox', { name: 'Select Notification 1' }));
    await user.click(within(panel).getByRole('button', { name: 'Archive' }));
    expect(await screen.findByText('Notifications archived')).toBeInTheDocument();
    expect(bodies[1]).toEqual({ path: Paths.archive, body: { notificationIds: [notification(1).id] } });
  });

  it('marks a clicked notification read and follows its actionUrl in the app', async () => {
    const target = notification(0, { title: 'Server Offline', actionUrl: '/servers?serverId=abc' });
    listed = [target];
    const readCalls: string[] = [];
    api.on('POST', Paths.notificationRead(target.id), ({ url }) => {
      readCalls.push(url.pathname);
      return { body: { ...target, isRead: true } };
    });
    renderBell();
    const { user } = await openBell();
    await user.click(await screen.findByText('Server Offline'));
    await waitFor(() => expect(readCalls).toEqual([Paths.notificationRead(target.id)]));
    expect(screen.getByRole('status', { name: 'Current location', hidden: true })).toHaveTextContent(
      '/servers?serverId=abc',
    );
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Notifications' })).not.toBeInTheDocument());
  });

  it('stays on the page for a notification without actionUrl, and does not mark a read one again', async () => {
    listed = [notification(0, { isRead: true })];
    renderBell();
    const { user } = await openBell();
    await user.click(await screen.findByText('Notification 0'));
    expect(screen.getByRole('status', { name: 'Current location', hidden: true })).toHaveTextContent('/dashboard');
    expect(api.calls.filter((c) => c.startsWith('POST'))).toEqual([]);
  });

  it.each([
    ['Mark read', Paths.markRead, 'Failed to mark notifications as read'],
    ['Archive', Paths.archive, 'Failed to archive notifications'],
  ])('shows the error toast when %s fails', async (button, path, text) => {
    api.on('POST', path, { status: 400, body: { message: 'nope', code: 'bad_request' } });
    renderBell();
    const { user, panel } = await openBell();
    await user.click(await within(panel).findByRole('checkbox', { name: 'Select Notification 0' }));
    await user.click(within(panel).getByRole('button', { name: button }));
    expect(await screen.findByText(text)).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
    // The selection stays so the user can try again.
    expect(within(panel).getByRole('toolbar')).toHaveTextContent('1 selected');
  });

  it('shows the error toasts of mark all and of a single notification', async () => {
    api.on('POST', Paths.markAllRead, { status: 400, body: { message: 'nope', code: 'bad_request' } });
    api.on('POST', Paths.notificationRead(notification(0).id), {
      status: 404,
      body: { message: 'Notification not found', code: 'not_found' },
    });
    renderBell();
    const { user, panel } = await openBell();
    await user.click(await within(panel).findByRole('button', { name: 'Mark all as read' }));
    expect(await screen.findByText('Failed to mark all notifications as read')).toBeInTheDocument();
    await user.click(within(panel).getByText('Notification 0'));
    expect(await screen.findByText('Failed to mark notification as read')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
  });

  it('shows pushed notifications at once and refreshes the unread count', async () => {
    const view = renderBell();
    const { panel } = await openBell();
    await waitFor(() => expect(items()).toHaveLength(1));
    const countsBefore = requestsOf(`GET ${Paths.unreadCount}`);

    unreadCount = 2;
    act(() => {
      view.store.dispatch(
        notificationReceived(
          notification(-1, { title: 'Server Back Online', severity: 'success', type: 'tool_server_status' }),
        ),
      );
      view.store.dispatch(
        notificationReceived(notification(-2, { title: 'Other workspace', workspaceId: OTHER_WORKSPACE_ID })),
      );
    });
    expect(within(panel).getAllByTestId('notification-item')[0]).toHaveTextContent('Server Back Online');
    expect(within(panel).queryByText('Other workspace')).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('notification-badge')).toHaveTextContent('2'));
    expect(requestsOf(`GET ${Paths.unreadCount}`)).toBeGreaterThan(countsBefore);
  });

  it('polls the unread count every 15 s and the list every 30 s, and the list not at all while the live stream is connected', async () => {
    jest.useFakeTimers();
    const view = renderBell();
    await act(() => jest.advanceTimersByTimeAsync(0));
    const lists = () => requestsOf(`GET ${Paths.notifications}`);
    const counts = () => requestsOf(`GET ${Paths.unreadCount}`);
    expect([lists(), counts()]).toEqual([1, 1]);

    await act(() => jest.advanceTimersByTimeAsync(15_000));
    expect([lists(), counts()]).toEqual([1, 2]);
    await act(() => jest.advanceTimersByTimeAsync(15_000));
    expect([lists(), counts()]).toEqual([2, 3]);

    act(() => {
      view.store.dispatch(liveStreamConnectionChanged(true));
    });
    await act(() => jest.advanceTimersByTimeAsync(60_000));
    expect(lists()).toBe(2);
    expect(counts()).toBe(7);

    act(() => {
      view.store.dispatch(liveStreamConnectionChanged(false));
    });
    // RTK Query applies a changed interval on its next tick, so the first poll lands a few ms past 30 s.
    await act(() => jest.advanceTimersByTimeAsync(29_000));
    expect(lists()).toBe(2);
    await act(() => jest.advanceTimersByTimeAsync(1_050));
    expect(lists()).toBe(3);
  });

  it('fetches the list as soon as the polled unread count goes up', async () => {
    jest.useFakeTimers();
    renderBell();
    await act(() => jest.advanceTimersByTimeAsync(0));
    const lists = () => requestsOf(`GET ${Paths.notifications}`);
    expect(lists()).toBe(1);

    unreadCount = 3;
    listed = [notification(-1, { title: 'Server Offline' }), notification(0)];
    await act(() => jest.advanceTimersByTimeAsync(15_000));
    await act(() => jest.advanceTimersByTimeAsync(10));
    expect(lists()).toBe(2);
  });

  it('fetches the list and the count again for a newly selected workspace', async () => {
    const asked: (string | null)[] = [];
    api.on('GET', Paths.notifications, ({ url }) => {
      asked.push(url.searchParams.get('workspaceId'));
      return { body: { notifications: [], total: 0 } };
    });
    const view = renderBell();
    await waitFor(() => expect(asked).toEqual([WORKSPACE_ID]));
    act(() => {
      view.store.dispatch(workspaceSelected(OTHER_WORKSPACE_ID));
    });
    await waitFor(() => expect(asked).toEqual([WORKSPACE_ID, OTHER_WORKSPACE_ID]));
  });
});
