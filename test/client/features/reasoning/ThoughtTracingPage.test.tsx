import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StorageKeys } from '../../../../src/contract/constants';
import { Paths } from '../../../../src/contract/routes';
import ThoughtTracingPage from '../../../../src/client/features/reasoning/pages/ThoughtTracingPage';
import { fakeAccessToken, installFakeApi, type FakeApi } from '../../helpers/fakeApi';
import { renderWithProviders } from '../../helpers/renderWithProviders';
import { session, toolCall, WORKSPACE_ID } from '../sessions/sessionFixtures';

let api: FakeApi;
let liveQueries: URLSearchParams[];
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem(StorageKeys.accessToken, fakeAccessToken());
  localStorage.setItem(StorageKeys.refreshToken, 'refresh-token');
  api = installFakeApi();
  liveQueries = [];
});
afterEach(() => api.restore());

const renderPage = (entry = '/thought-tracing') =>
  renderWithProviders(<ThoughtTracingPage />, {
    preloadedState: { workspace: { currentWorkspaceId: WORKSPACE_ID } },
    initialEntries: [entry],
  });

function answer(sessions = [session(0), session(1)]) {
  api.on('GET', Paths.sessions(WORKSPACE_ID), { body: { sessions, total: sessions.length, limit: 25, offset: 0 } });
  api.on('GET', Paths.toolCallsLive(WORKSPACE_ID), ({ url }) => {
    liveQueries.push(url.searchParams);
    // Newest first, as the endpoint answers.
    return {
      body: {
        toolCalls: [
          toolCall(3, {
            toolName: 'search_docs',
            meta: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' },
          }),
          toolCall(2, {
            toolName: 'fetch_url',
            status: 'error',
            errorMessage: 'timeout',
            arguments: { url: 'https://x' },
          }),
          toolCall(1, {
            toolName: 'fetch_url',
            arguments: { url: 'https://x' },
            meta: { reasoning: 'The user asked for <b>the</b> latest docs' },
          }),
        ],
      },
    };
  });
}

it('shows the chain of the newest session oldest first, with reasoning, trace context and what came next', async () => {
  answer();
  const { container } = renderPage();
  const chain = await screen.findByRole('list', { name: 'Tool call chain' });
  const steps = within(chain).getAllByRole('listitem');
  expect(steps.map((s) => s.getAttribute('aria-label'))).toEqual([
    'Call 1: fetch_url',
    'Call 2: fetch_url',
    'Call 3: search_docs',
  ]);
  expect(liveQueries[0].get('session_id')).toBe(session(0).id);
  expect(within(steps[0]).getByText('The user asked for <b>the</b> latest docs')).toBeInTheDocument();
  expect(container.querySelector('b')).toBeNull();
  expect(within(steps[1]).getByText('Switched to search_docs.')).toBeInTheDocument();
  expect(within(steps[2]).getByText(/trace 4bf92f35/)).toBeInTheDocument();
  expect(within(steps[2]).getByText('Last call of the session.')).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Open session' })).toHaveAttribute('href', `/sessions/${session(0).id}`);
});

it('opens a call to show its arguments and error', async () => {
  answer();
  renderPage();
  const chain = await screen.findByRole('list', { name: 'Tool call chain' });
  await userEvent.click(
    within(within(chain).getAllByRole('listitem')[1]).getByRole('button', { name: /2\. fetch_url/ }),
  );
  expect(screen.getByRole('article', { name: 'Tool call fetch_url' })).toHaveTextContent('timeout');
});

it('traces the session named in the URL', async () => {
  answer();
  renderPage(`/thought-tracing?sessionId=${session(1).id}`);
  await screen.findByRole('list', { name: 'Tool call chain' });
  expect(liveQueries[0].get('session_id')).toBe(session(1).id);
});

it('shows loading, then explains a workspace without sessions', async () => {
  answer([]);
  renderPage();
  expect(screen.getByRole('progressbar', { name: 'Loading tool calls' })).toBeInTheDocument();
  expect(await screen.findByRole('heading', { name: 'No sessions to trace yet' })).toBeInTheDocument();
});

it('shows an error', async () => {
  api.on('GET', Paths.sessions(WORKSPACE_ID), {
    status: 404,
    body: { message: 'Workspace not found', code: 'not_found' },
  });
  renderPage();
  expect(await screen.findByText('API Error 404: Workspace not found')).toBeInTheDocument();
});
