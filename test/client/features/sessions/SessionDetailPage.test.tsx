import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { StorageKeys } from '../../../../src/contract/constants';
import { Paths } from '../../../../src/contract/routes';
import type { MessageDto, ReplayResult } from '../../../../src/contract/sessions';
import SessionDetailPage from '../../../../src/client/features/sessions/pages/SessionDetailPage';
import { PAYLOAD_PREVIEW_CHARS } from '../../../../src/client/components/toolCalls/PayloadView';
import { LIVE_SESSION_REFRESH_MS } from '../../../../src/client/features/sessions/useLiveSessionRefresh';
import { liveActivityReceived } from '../../../../src/client/features/activity/liveActivity';
import { fakeAccessToken, installFakeApi, type FakeApi } from '../../helpers/fakeApi';
import { renderWithProviders } from '../../helpers/renderWithProviders';
import { session, toolCall, WORKSPACE_ID } from './sessionFixtures';

const SESSION = session(0, { errorCount: 1, messageCount: 4 });
const t0 = Date.parse(SESSION.startedAt);
const message = (seq: number, overrides: Partial<MessageDto>): MessageDto => ({
  seq,
  direction: 'client_to_server',
  kind: 'request',
  method: null,
  jsonrpcId: null,
  payload: {},
  sizeBytes: 80,
  truncated: false,
  createdAt: new Date(t0 + seq * 1000).toISOString(),
  ...overrides,
});
const failing = toolCall(2, {
  jsonrpcId: '2',
  toolName: 'delete_repo',
  status: 'error',
  errorMessage: 'permission denied',
  result: null,
});
const REPLAY: ReplayResult = {
  session: SESSION,
  total: 4,
  messages: [
    message(1, {
      method: 'tools/call',
      jsonrpcId: '1',
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'read_file' } },
    }),
    message(2, {
      direction: 'server_to_client',
      kind: 'response',
      jsonrpcId: '1',
      payload: { result: { text: 'x'.repeat(PAYLOAD_PREVIEW_CHARS + 500) } },
    }),
    message(3, {
      method: 'tools/call',
      jsonrpcId: '2',
      payload: { method: 'tools/call', params: { name: 'delete_repo' } },
    }),
    message(4, {
      direction: 'server_to_client',
      kind: 'error',
      jsonrpcId: '2',
      payload: { error: { message: '<script>alert(1)</script>' } },
    }),
  ],
  toolCalls: [toolCall(1, { jsonrpcId: '1' }), failing],
};

let api: FakeApi;
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem(StorageKeys.accessToken, fakeAccessToken());
  localStorage.setItem(StorageKeys.refreshToken, 'refresh-token');
  api = installFakeApi();
});
afterEach(() => {
  api.restore();
  jest.useRealTimers();
});

function renderPage() {
  return renderWithProviders(
    <Routes>
      <Route path="/sessions/:sessionId" element={<SessionDetailPage />} />
    </Routes>,
    {
      preloadedState: { workspace: { currentWorkspaceId: WORKSPACE_ID } },
      initialEntries: [`/sessions/${SESSION.id}`],
    },
  );
}

function answer() {
  api.on('GET', Paths.session(WORKSPACE_ID, SESSION.id), { body: SESSION });
  api.on('GET', Paths.sessionReplay(WORKSPACE_ID, SESSION.id), { body: REPLAY });
}

it('loads, then shows metadata, the timeline, and the tool calls with the failure highlighted', async () => {
  answer();
  const { container } = renderPage();
  expect(screen.getByRole('progressbar', { name: 'Loading page' })).toBeInTheDocument();
  const timeline = await screen.findByRole('list', { name: 'Messages' });
  expect(within(timeline).getAllByRole('listitem')).toHaveLength(4);
  expect(screen.getByRole('link', { name: 'files' })).toHaveAttribute('href', `/servers?serverId=${SESSION.serverId}`);
  expect(screen.getByText('claude-code 1.2.3')).toBeInTheDocument();
  const failed = screen.getByRole('article', { name: 'Tool call delete_repo' });
  expect(within(failed).getByRole('alert')).toHaveTextContent('permission denied');
  expect(screen.getByRole('link', { name: 'Tool reasoning' })).toHaveAttribute(
    'href',
    `/thought-tracing?sessionId=${SESSION.id}`,
  );
  // The error payload opens by itself and stays text.
  expect(screen.getByText(/<script>alert\(1\)<\/script>/)).toBeInTheDocument();
  expect(container.querySelector('script')).toBeNull();
  const calls = api.calls.filter((c) => c.includes('/replay'));
  expect(calls).toHaveLength(1);
});

it('cuts a large payload and shows it all on request', async () => {
  answer();
  renderPage();
  const timeline = await screen.findByRole('list', { name: 'Messages' });
  const response = within(timeline).getAllByRole('listitem')[1];
  await userEvent.click(within(response).getByRole('button', { name: /Payload/ }));
  expect(within(response).getByText(/Showing 4,000 of/)).toBeInTheDocument();
  await userEvent.click(within(response).getByRole('button', { name: 'Show all' }));
  expect(within(response).getByRole('button', { name: 'Show less' })).toBeInTheDocument();
});

it('steps through the messages and plays them in recorded time', async () => {
  answer();
  renderPage();
  const timeline = await screen.findByRole('list', { name: 'Messages' });
  const toolbar = screen.getByRole('toolbar', { name: 'Replay' });
  expect(within(toolbar).getByText('4 / 4')).toBeInTheDocument();
  fireEvent.click(within(toolbar).getByRole('button', { name: 'Step' }));
  expect(within(toolbar).getByText('1 / 4')).toBeInTheDocument();
  expect(within(timeline).getAllByRole('listitem')).toHaveLength(1);
  fireEvent.click(within(toolbar).getByRole('button', { name: 'Step' }));
  fireEvent.click(within(toolbar).getByRole('button', { name: 'Step back' }));
  expect(within(toolbar).getByText('1 / 4')).toBeInTheDocument();

  jest.useFakeTimers();
  fireEvent.click(within(toolbar).getByRole('button', { name: 'Play' }));
  act(() => jest.advanceTimersByTime(999));
  expect(within(toolbar).getByText('1 / 4')).toBeInTheDocument();
  act(() => jest.advanceTimersByTime(1));
  expect(within(toolbar).getByText('2 / 4')).toBeInTheDocument();
  fireEvent.click(within(toolbar).getByRole('button', { name: 'Pause' }));
  act(() => jest.advanceTimersByTime(5000));
  expect(within(toolbar).getByText('2 / 4')).toBeInTheDocument();
});

it('asks the replay endpoint for a time window', async () => {
  answer();
  renderPage();
  await screen.findByRole('list', { name: 'Messages' });
  fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-21T09:30:00' } });
  await screen.findByRole('button', { name: 'Whole session' });
  expect(api.calls.filter((c) => c.includes('/replay')).length).toBeGreaterThanOrEqual(2);
});

it('says when the session does not exist', async () => {
  api.on('GET', Paths.session(WORKSPACE_ID, SESSION.id), {
    status: 404,
    body: { message: 'Session not found', code: 'not_found' },
  });
  api.on('GET', Paths.sessionReplay(WORKSPACE_ID, SESSION.id), {
    status: 404,
    body: { message: 'Session not found', code: 'not_found' },
  });
  renderPage();
  expect(await screen.findByText('This session does not exist in this workspace.')).toBeInTheDocument();
});

it('shows a server failure with a retry', async () => {
  api.on('GET', Paths.session(WORKSPACE_ID, SESSION.id), {
    status: 500,
    body: { message: 'Internal server error', code: 'internal' },
  });
  api.on('GET', Paths.sessionReplay(WORKSPACE_ID, SESSION.id), { body: REPLAY });
  renderPage();
  expect(await screen.findByText('API Error 500: Internal server error', {}, { timeout: 10_000 })).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
});

it('follows an active session: a live call of this session refreshes the page, others do not', async () => {
  const active = { ...SESSION, status: 'active' as const, endedAt: null };
  api.on('GET', Paths.session(WORKSPACE_ID, SESSION.id), { body: active });
  api.on('GET', Paths.sessionReplay(WORKSPACE_ID, SESSION.id), { body: { ...REPLAY, session: active } });
  const { store } = renderPage();
  await screen.findByRole('list', { name: 'Messages' });
  const replays = () => api.calls.filter((c) => c.includes('/replay')).length;
  expect(replays()).toBe(1);
  jest.useFakeTimers();
  act(() => {
    store.dispatch(liveActivityReceived({ type: 'tool_call', data: toolCall(9, { sessionId: 'another-session' }) }));
  });
  await act(async () => jest.advanceTimersByTimeAsync(LIVE_SESSION_REFRESH_MS));
  expect(replays()).toBe(1);
  act(() => {
    store.dispatch(liveActivityReceived({ type: 'tool_call', data: toolCall(9, { sessionId: SESSION.id }) }));
    store.dispatch(liveActivityReceived({ type: 'tool_call', data: toolCall(10, { sessionId: SESSION.id }) }));
  });
  await act(async () => jest.advanceTimersByTimeAsync(LIVE_SESSION_REFRESH_MS));
  expect(replays()).toBe(2);
});

it('numbers messages by their place, never shows a negative offset, and says progress is grouped (issue 38)', async () => {
  // A session any instance may record numbers its messages by the clock: seq reads as ms.
  const progress = (seq: number, progressCount?: number) =>
    message(seq, {
      direction: 'server_to_client',
      kind: 'notification',
      method: 'notifications/progress',
      progressCount,
    });
  const replay: ReplayResult = {
    ...REPLAY,
    total: 3,
    messages: [
      { ...message(1_204, { method: 'initialize' }), createdAt: new Date(t0 - 19).toISOString() },
      progress(2_950),
      progress(4_811, 4),
    ],
    toolCalls: [],
  };
  api.on('GET', Paths.session(WORKSPACE_ID, SESSION.id), { body: { ...SESSION, messageCount: 5 } });
  api.on('GET', Paths.sessionReplay(WORKSPACE_ID, SESSION.id), { body: replay });
  renderPage();
  const timeline = await screen.findByRole('list', { name: 'Messages' });
  const rows = within(timeline).getAllByRole('listitem');
  expect(rows[0]).toHaveTextContent('+0.000 s');
  expect(rows[0]).not.toHaveTextContent('+-');
  expect(rows.map((row) => /#(\d+)/.exec(row.textContent)?.[1])).toEqual(['1', '2', '3']);
  expect(screen.getByRole('toolbar', { name: 'Replay' })).toHaveTextContent(
    '3 / 3 · 2 more progress notifications grouped',
  );
});
