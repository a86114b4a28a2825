import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StorageKeys } from '../../../../src/contract/constants';
import { Paths } from '../../../../src/contract/routes';
import SessionsPage from '../../../../src/client/features/sessions/pages/SessionsPage';
import { fakeAccessToken, installFakeApi, type FakeApi } from '../../helpers/fakeApi';
import { renderWithProviders } from '../../helpers/renderWithProviders';
import { SERVER_ID, session, WORKSPACE_ID } from './sessionFixtures';


let api: FakeApi;
let queries: URLSearchParams[];

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem(StorageKeys.accessToken, fakeAccessToken());
  localStorage.setItem(StorageKeys.refreshToken, 'refresh-token');
  queries = [];
  api = installFakeApi();
  api.on('GET', Paths.servers(WORKSPACE_ID), { body: [{ id: SERVER_ID, name: 'files' }] });
});
afterEach(() => api.restore());

function renderPage(entry = '/sessions') {
  return renderWithProviders(<SessionsPage />, { preloadedState: { workspace: { currentWorkspaceId: WORKSPACE_ID } }, initialEntries: [entry] });
}

function answerSessions(total: number, make = (offset: number, limit: number) => Array.from({ length: Math.min(limit, total - offset) }, (_, i) => session(offset + i))) {
  api.on('GET', Paths.sessions(WORKSPACE_ID), ({ url }) => {
    queries.push(url.searchParams);
    const limit = Number(url.searchParams.get('limit'));
    const offset = Number(url.searchParams.get('offset'));
    return { body: { sessions: make(offset, limit), total, limit, offset } };
  });
}

it('shows a loading state, then the page of sessions with server, client, duration and errors', async () => {
  answerSessions(120);
  renderPage();
  expect(screen.getByRole('progressbar', { name: 'Loading sessions' })).toBeInTheDocument();
  const list = await screen.findByRole('list', { name: 'Sessions' });
  const rows = within(list).getAllByRole('listitem');
  expect(rows.length).toBeGreaterThan(5);
  expect(within(rows[0]).getByRole('link', { name: 'files' })).toHaveAttribute('href', `/servers?serverId=${SERVER_ID}`);
  expect(within(rows[0]).getByRole('link', { name: /Open session claude-code 1\.2\.3/ })).toHaveAttribute('href', `/sessions/${session(0).id}`);
  expect(within(rows[0]).getByText('5.00 s')).toBeInTheDocument();
  expect(screen.getByText('1–50 of 120')).toBeInTheDocument();
  expect(queries[0].get('limit')).toBe('50');
  expect(queries[0].get('offset')).toBe('0');
});

it('pages on the server', async () => {
  answerSessions(120);
  renderPage();
  await screen.findByText('1–50 of 120');
  await userEvent.click(screen.getByRole('button', { name: 'Next' }));
  await screen.findByText('51–100 of 120');
  expect(queries.at(-1)?.get('offset')).toBe('50');
  await userEvent.click(screen.getByRole('button', { name: 'Next' }));
  await screen.findByText('101–120 of 120');
  expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
});

it('sends the filters and the search from the URL and from the controls', async () => {
  answerSessions(3);
  renderPage('/sessions?status=active&range=24h');
  await screen.findByRole('list', { name: 'Sessions' });
  expect(queries[0].get('status')).toBe('active');
  expect(Date.parse(queries[0].get('from') ?? '')).toBeGreaterThan(Date.now() - 86_400_000 - 60_000);
  await userEvent.type(screen.getByRole('textbox', { name: 'Search tool calls' }), 'read_file');
  await waitFor(() => expect(queries.at(-1)?.get('q')).toBe('read_file'));
  expect(queries.filter((q) => q.get('q') !== null)).toHaveLength(1);
});

it('explains an empty workspace', async () => {
  answerSessions(0);
  renderPage();
  expect(await screen.findByRole('heading', { name: 'No sessions recorded' })).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Connect a tool server' })).toHaveAttribute('href', '/servers');
});

it('says when no session matches the filters and clears them', async () => {
  answerSessions(0);
  renderPage('/sessions?q=nothing');
  expect(await screen.findByText(/No sessions match these filters/)).toBeInTheDocument();
  await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
  expect(await screen.findByRole('heading', { name: 'No sessions recorded' })).toBeInTheDocument();
});

it('shows the error and retries', async () => {
  let fail = true;
  api.on('GET', Paths.sessions(WORKSPACE_ID), () =>
    fail ? { status: 400, body: { message: 'q: Too big', code: 'validation_failed' } } : { body: { sessions: [session(0)], total: 1, limit: 50, offset: 0 } },
  );
  renderPage();
  expect(await screen.findByText('API Error 400: q: Too big')).toBeInTheDocument();
  fail = false;
  await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
  expect(await screen.findByRole('list', { name: 'Sessions' })).toBeInTheDocument();
});

it('renders agent-supplied text inert', async () => {
  answerSessions(1, () => [session(0, { clientName: '<img src=x onerror=alert(1)>' })]);
  const { container } = renderPage();
  expect(await screen.findByText(/<img src=x onerror=alert\(1\)>/)).toBeInTheDocument();
  expect(container.querySelector('img')).toBeNull();
});
