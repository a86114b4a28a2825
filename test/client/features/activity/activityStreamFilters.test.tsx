import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router-dom';
import { StorageKeys } from '../../../../src/contract/constants';
import { Paths } from '../../../../src/contract/routes';
import type { ActivityEvent } from '../../../../src/contract/activity';
import ActivityStreamPage from '../../../../src/client/features/activity/pages/ActivityStreamPage';
import { liveActivityReceived } from '../../../../src/client/features/activity/liveActivity';
import { LIVE_BATCH_MS } from '../../../../src/client/features/activity/useLiveActivity';
import { fakeAccessToken, installFakeApi, type FakeApi } from '../../helpers/fakeApi';
import { renderWithProviders } from '../../helpers/renderWithProviders';
import { SERVER_ID, toolCall, WORKSPACE_ID } from '../sessions/sessionFixtures';

// Issue 38 item 7: the activity stream's filters live in the URL, the tool filter matches a part
// of the name in any case (with suggestions), an empty filtered feed says "No calls match", and a
// call in flight shows as pending before it ends.
let api: FakeApi;
let answers: ActivityEvent[][];
let requests: URLSearchParams[];

beforeEach(() => {
  jest.useFakeTimers();
  localStorage.clear();
  localStorage.setItem(StorageKeys.accessToken, fakeAccessToken());
  localStorage.setItem(StorageKeys.refreshToken, 'refresh-token');
  api = installFakeApi();
  answers = [];
  requests = [];
  api.on('GET', Paths.servers(WORKSPACE_ID), { body: [{ id: SERVER_ID, name: 'files' }] });
  api.on('GET', Paths.toolCallsTimeSeries(WORKSPACE_ID), { body: { period: '1h', interval: '1m', points: [] } });
  api.on('GET', Paths.activityStream(WORKSPACE_ID), ({ url }) => {
    requests.push(url.searchParams);
    return { body: { events: answers.shift() ?? [] } };
  });
  const known = (tool: string) => ({
    serverId: SERVER_ID,
    serverName: 'files',
    tool,
    calls: 3,
    errorRate: 0,
    p50Ms: 5,
    p95Ms: 9,
    avgResultTokens: 10,
    lastCalledAt: null,
  });
  api.on('GET', Paths.analytics(WORKSPACE_ID, 'tools'), {
    body: {
      range: { preset: '7d', from: '2026-11-21T00:00:00.000Z', to: '2026-11-28T00:00:00.000Z', step: '1h' },
      tools: [known('get-sum'), known('echo')],
    },
  });
});
afterEach(() => {
  api.restore();
  jest.useRealTimers();
});

const user = () => userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
function Search() {
  return <output data-testid="search">{useLocation().search}</output>;
}
const renderLive = (path = '/activity-stream') =>
  renderWithProviders(
    <>
      <ActivityStreamPage />
      <Search />
    </>,
    {
      preloadedState: { workspace: { currentWorkspaceId: WORKSPACE_ID }, live: { status: 'connected', error: null } },
      initialEntries: [path],
    },
  );
const rows = () => within(screen.getByRole('list', { name: 'Activity' })).getAllByRole('listitem');

it('opens with the filters of its URL and writes a change back to it', async () => {
  renderLive('/activity-stream?tool=sum&status=error');
  await waitFor(() => expect(requests[0]?.get('tool')).toBe('sum'));
  expect(requests[0].get('status')).toBe('error');
  expect(screen.getByRole('combobox', { name: 'Tool' })).toHaveValue('sum');
  expect(await screen.findByRole('heading', { name: 'No calls match' })).toBeInTheDocument();

  await user().click(screen.getByRole('combobox', { name: 'Status' }));
  await user().click(screen.getByRole('option', { name: 'Any status' }));
  await waitFor(() => expect(screen.getByTestId('search')).toHaveTextContent(/^\?tool=sum$/));
  await waitFor(() => expect(requests).toHaveLength(2));
  expect(requests[1].get('status')).toBeNull();
  await act(async () => jest.advanceTimersByTimeAsync(LIVE_BATCH_MS));
});

it('matches a part of the tool name in any case, suggests known names, and says when nothing matches', async () => {
  const { store } = renderLive();
  await screen.findByRole('heading', { name: 'No activity yet' });
  const tool = screen.getByRole('combobox', { name: 'Tool' });
  await user().type(tool, 'SUM');
  expect(await screen.findByRole('option', { name: 'get-sum' })).toBeInTheDocument();
  expect(screen.queryByRole('option', { name: 'echo' })).not.toBeInTheDocument();
  await waitFor(() => expect(requests.at(-1)?.get('tool')).toBe('SUM'));
  expect(screen.getByTestId('search')).toHaveTextContent('?tool=SUM');
  expect(await screen.findByRole('heading', { name: 'No calls match' })).toBeInTheDocument();

  act(() => {
    store.dispatch(liveActivityReceived({ type: 'tool_call', data: toolCall(2, { toolName: 'Get-Sum' }) }));
    store.dispatch(liveActivityReceived({ type: 'tool_call', data: toolCall(3, { toolName: 'echo' }) }));
  });
  await act(async () => jest.advanceTimersByTimeAsync(LIVE_BATCH_MS));
  expect(rows()).toHaveLength(1);
  expect(rows()[0]).toHaveTextContent('Get-Sum');
});

it('shows a call in flight as pending, then its end in its place', async () => {
  const { store } = renderLive();
  await screen.findByRole('heading', { name: 'No activity yet' });
  const slow = toolCall(5, {
    toolName: 'trigger-long-running-operation',
    status: 'pending',
    endedAt: null,
    durationMs: null,
  });
  act(() => void store.dispatch(liveActivityReceived({ type: 'tool_call_started', data: slow })));
  await act(async () => jest.advanceTimersByTimeAsync(LIVE_BATCH_MS));
  expect(rows()).toHaveLength(1);
  expect(rows()[0]).toHaveTextContent('pending');

  const done = { ...slow, status: 'ok' as const, endedAt: '2026-11-21T10:00:08.000Z', durationMs: 8_000 };
  act(() => void store.dispatch(liveActivityReceived({ type: 'tool_call', data: done })));
  await act(async () => jest.advanceTimersByTimeAsync(LIVE_BATCH_MS));
  expect(rows()).toHaveLength(1);
  expect(rows()[0]).not.toHaveTextContent('pending');
});
