import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StorageKeys } from '../../../../src/contract/constants';
import { Paths } from '../../../../src/contract/routes';
import type { ActivityEvent } from '../../../../src/contract/activity';
import ActivityStreamPage from '../../../../src/client/features/activity/pages/ActivityStreamPage';
import { ACTIVITY_POLL_MS } from '../../../../src/client/features/activity/useActivityPolling';
import { liveActivityReceived } from '../../../../src/client/features/activity/liveActivity';
import { LIVE_BATCH_MS } from '../../../../src/client/features/activity/useLiveActivity';
import { fakeAccessToken, installFakeApi, type FakeApi } from '../../helpers/fakeApi';
import { renderWithProviders } from '../../helpers/renderWithProviders';
import { SERVER_ID, session, toolCall, WORKSPACE_ID } from '../sessions/sessionFixtures';

const callEvent = (i: number, overrides: Parameters<typeof toolCall>[1] = {}): ActivityEvent => {
  const call = toolCall(i, overrides);
  return { kind: 'tool_call', at: call.startedAt, toolCall: call };
};

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
  api.on('GET', Paths.toolCallsTimeSeries(WORKSPACE_ID), {
    body: {
      period: '1h',
      interval: '1m',
      points: [{ bucket: '2026-11-21T10:00:00.000Z', calls: 3, errors: 1, avgDurationMs: 20, tokens: 0 }],
    },
  });
  api.on('GET', Paths.activityStream(WORKSPACE_ID), ({ url }) => {
    requests.push(url.searchParams);
    return { body: { events: answers.shift() ?? [] } };
  });
  // The tool filter's suggestions.
  api.on('GET', Paths.analytics(WORKSPACE_ID, 'tools'), { body: { tools: [] } });
});
afterEach(() => {
  api.restore();
  jest.useRealTimers();
});

const user = () => userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
const renderPage = () =>
  renderWithProviders(<ActivityStreamPage />, {
    preloadedState: { workspace: { currentWorkspaceId: WORKSPACE_ID } },
    initialEntries: ['/activity-stream'],
  });
const nextPoll = () => act(async () => jest.advanceTimersByTimeAsync(ACTIVITY_POLL_MS));
const rows = () => within(screen.getByRole('list', { name: 'Activity' })).getAllByRole('listitem');

it('shows loading, then the feed, and says it is polling while the live stream is closed', async () => {
  answers.push([callEvent(1), { kind: 'session_started', at: session(0).startedAt, session: session(0) }]);
  renderPage();
  expect(screen.getByRole('progressbar', { name: 'Loading activity' })).toBeInTheDocument();
  await screen.findByRole('list', { name: 'Activity' });
  expect(rows()).toHaveLength(2);
  expect(screen.getByText(/Live stream not connected: checking for new activity every 3 seconds/)).toBeInTheDocument();
  expect(within(rows()[0]).getByRole('link', { name: /Session of read_file/ })).toHaveAttribute(
    'href',
    `/sessions/${toolCall(1).sessionId}`,
  );
  expect(screen.getByRole('img', { name: 'Calls per minute, last hour: 3 calls, 1 errors' })).toBeInTheDocument();
});

it('adds new calls without a reload, newest first, asking only for what is new', async () => {
  answers.push([callEvent(1)]);
  renderPage();
  await screen.findByRole('list', { name: 'Activity' });
  answers.push([callEvent(2, { toolName: 'write_file' }), callEvent(1)]);
  await nextPoll();
  await waitFor(() => expect(rows()).toHaveLength(2));
  expect(rows()[0]).toHaveTextContent('write_file');
  expect(requests[1].get('since')).not.toBeNull();
});

it('sees a slow call finish: each poll names the calls shown as pending', async () => {
  const slow = callEvent(1, { status: 'pending', endedAt: null, durationMs: null });
  answers.push([slow]);
  renderPage();
  await screen.findByRole('list', { name: 'Activity' });
  expect(within(rows()[0]).getByText('pending')).toBeInTheDocument();
  // It started before the next poll's `since`: it comes back only because the poll names it.
  answers.push([callEvent(1, { status: 'ok', durationMs: 4_000 })]);
  await nextPoll();
  expect(requests[1].get('pendingCallIds')).toBe(slow.kind === 'tool_call' ? slow.toolCall.id : '');
  await waitFor(() => expect(within(rows()[0]).getByText('ok')).toBeInTheDocument());
  expect(rows()).toHaveLength(1);
  await nextPoll();
  expect(requests[2].get('pendingCallIds')).toBeNull();
});

it('pauses (holding new events) and resumes', async () => {
  answers.push([callEvent(1)]);
  renderPage();
  await screen.findByRole('list', { name: 'Activity' });
  await user().click(screen.getByRole('button', { name: 'Pause' }));
  answers.push([callEvent(2), callEvent(3)]);
  await nextPoll();
  expect(await screen.findByText('Paused. 2 new events waiting.')).toBeInTheDocument();
  expect(rows()).toHaveLength(1);
  await user().click(screen.getByRole('button', { name: 'Resume (2 new)' }));
  expect(rows()).toHaveLength(3);
});

it('filters by status and starts over', async () => {
  answers.push([callEvent(1)]);
  renderPage();
  await screen.findByRole('list', { name: 'Activity' });
  await user().click(screen.getByRole('combobox', { name: 'Status' }));
  answers.push([callEvent(4, { status: 'error', errorMessage: 'boom <b>x</b>' })]);
  await user().click(screen.getByRole('option', { name: 'Error' }));
  await waitFor(() => expect(requests.at(-1)?.get('status')).toBe('error'));
  await waitFor(() => expect(rows()).toHaveLength(1));
  expect(rows()[0]).toHaveTextContent('boom <b>x</b>');
  expect(requests.at(-1)?.get('since')).toBeNull();
});

it("shows only matching rows after a filter change: the old filter's pending calls are neither asked for nor shown", async () => {
  answers.push([
    callEvent(1, { toolName: 'echo', status: 'pending', endedAt: null, durationMs: null }),
    callEvent(2, { toolName: 'get-sum', status: 'pending', endedAt: null, durationMs: null }),
  ]);
  renderPage();
  await screen.findByRole('list', { name: 'Activity' });
  expect(rows()).toHaveLength(2);
  // A server answer that still carries a non-matching call (as a pending refresh did) is filtered too.
  answers.push([callEvent(3, { toolName: 'get-tiny-image' }), callEvent(1, { toolName: 'echo', status: 'ok' })]);
  await user().type(screen.getByRole('combobox', { name: 'Tool' }), 'get-tiny-image');
  await waitFor(() => expect(requests.at(-1)?.get('tool')).toBe('get-tiny-image'));
  expect(requests.at(-1)?.get('pendingCallIds')).toBeNull();
  await waitFor(() => expect(rows()).toHaveLength(1));
  expect(rows()[0]).toHaveTextContent('get-tiny-image');
});

it('drops a row whose newer copy no longer matches the status filter', async () => {
  answers.push([
    callEvent(1, { status: 'pending', endedAt: null, durationMs: null }),
    callEvent(2, { status: 'pending', endedAt: null, durationMs: null }),
  ]);
  renderPage();
  await screen.findByRole('list', { name: 'Activity' });
  await user().click(screen.getByRole('combobox', { name: 'Status' }));
  answers.push([
    callEvent(1, { status: 'pending', endedAt: null, durationMs: null }),
    callEvent(2, { status: 'pending', endedAt: null, durationMs: null }),
  ]);
  await user().click(screen.getByRole('option', { name: 'Pending' }));
  await waitFor(() => expect(requests.at(-1)?.get('status')).toBe('pending'));
  await waitFor(() => expect(rows()).toHaveLength(2));
  answers.push([callEvent(1, { status: 'ok', durationMs: 30 })]);
  await nextPoll();
  await waitFor(() => expect(rows()).toHaveLength(1));
  expect(within(rows()[0]).getByText('pending')).toBeInTheDocument();
});

it('loads older matching calls from the server', async () => {
  answers.push([callEvent(5)]);
  renderPage();
  await screen.findByRole('list', { name: 'Activity' });
  await user().click(screen.getByRole('combobox', { name: 'Status' }));
  answers.push([callEvent(5, { status: 'error', errorMessage: 'newest failure' })]);
  await user().click(screen.getByRole('option', { name: 'Error' }));
  await waitFor(() => expect(rows()).toHaveLength(1));
  answers.push([callEvent(2, { status: 'error', errorMessage: 'an hour ago' }), callEvent(1, { status: 'ok' })]);
  await user().click(screen.getByRole('button', { name: 'Load older matching activity' }));
  await waitFor(() => expect(rows()).toHaveLength(2));
  const olderRequest = requests.at(-1)!;
  expect(olderRequest.get('before')).toBe(toolCall(5).startedAt);
  expect(olderRequest.get('status')).toBe('error');
  expect(rows()[1]).toHaveTextContent('an hour ago');
  answers.push([]);
  await user().click(screen.getByRole('button', { name: 'Load older matching activity' }));
  expect(await screen.findByText('No older activity matches these filters. Showing 2.')).toBeInTheDocument();
});

it('explains an empty feed', async () => {
  api.on('GET', Paths.toolCallsTimeSeries(WORKSPACE_ID), {
    body: {
      period: '1h',
      interval: '1m',
      points: [{ bucket: '2026-11-21T10:00:00.000Z', calls: 0, errors: 0, avgDurationMs: null, tokens: 0 }],
    },
  });
  renderPage();
  expect(await screen.findByRole('heading', { name: 'No activity yet' })).toBeInTheDocument();
  expect(await screen.findByText('No calls in this period.')).toBeInTheDocument();
});

it('reports a failing poll and keeps trying', async () => {
  api.on('GET', Paths.activityStream(WORKSPACE_ID), { status: 403, body: { message: 'Forbidden', code: 'forbidden' } });
  renderPage();
  expect(await screen.findByText('API Error 403: Forbidden. Trying again in 3 seconds.')).toBeInTheDocument();
  answers.push([callEvent(1)]);
  api.on('GET', Paths.activityStream(WORKSPACE_ID), () => ({ body: { events: answers.shift() ?? [] } }));
  await nextPoll();
  await screen.findByRole('list', { name: 'Activity' });
});

describe('with the live stream connected', () => {
  const renderLive = () =>
    renderWithProviders(<ActivityStreamPage />, {
      preloadedState: { workspace: { currentWorkspaceId: WORKSPACE_ID }, live: { status: 'connected', error: null } },
      initialEntries: ['/activity-stream'],
    });

  it('catches up once, then shows pushed calls as they arrive, in batches, without polling', async () => {
    answers.push([callEvent(1)]);
    const { store } = renderLive();
    await screen.findByRole('list', { name: 'Activity' });
    expect(screen.getByText('Live: new calls appear as they happen.')).toBeInTheDocument();
    act(() => {
      store.dispatch(liveActivityReceived({ type: 'tool_call', data: toolCall(2, { toolName: 'write_file' }) }));
      store.dispatch(liveActivityReceived({ type: 'tool_call', data: toolCall(3, { toolName: 'list_directory' }) }));
      store.dispatch(liveActivityReceived({ type: 'heartbeat', data: {} }));
    });
    expect(rows()).toHaveLength(1);
    await act(async () => jest.advanceTimersByTimeAsync(LIVE_BATCH_MS));
    expect(rows().map((row) => row.textContent)).toEqual([
      expect.stringContaining('list_directory'),
      expect.stringContaining('write_file'),
      expect.stringContaining('read_file'),
    ]);
    await act(async () => jest.advanceTimersByTimeAsync(ACTIVITY_POLL_MS * 3));
    expect(requests).toHaveLength(1);
  });

  it('applies the filters to pushed events', async () => {
    const { store } = renderLive();
    await screen.findByRole('heading', { name: 'No activity yet' });
    await user().click(screen.getByRole('combobox', { name: 'Status' }));
    await user().click(screen.getByRole('option', { name: 'Error' }));
    await waitFor(() => expect(requests.at(-1)?.get('status')).toBe('error'));
    act(() => {
      store.dispatch(liveActivityReceived({ type: 'tool_call', data: toolCall(2) }));
      store.dispatch(
        liveActivityReceived({ type: 'tool_call', data: toolCall(3, { status: 'error', errorMessage: 'denied' }) }),
      );
      store.dispatch(liveActivityReceived({ type: 'session_started', data: session(0) }));
    });
    await act(async () => jest.advanceTimersByTimeAsync(LIVE_BATCH_MS));
    expect(rows()).toHaveLength(1);
    expect(rows()[0]).toHaveTextContent('denied');
  });
});
