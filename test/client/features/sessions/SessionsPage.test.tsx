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
  return renderWithProviders(<SessionsPage />, {
    preloadedState: { workspace: { currentWorkspaceId: WORKSPACE_ID } },
    initialEntries: [entry],
  });
}

function answerSessions(
  total: number,
  make = (offset: number, limit: number) =>
    Array.from({ length: Math.min(limit, total - offset) }, (_, i) => session(offset + i)),
) {
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
  expect(within(rows[0]).getByRole('link', { name: 'files' })).toHaveAttribute(
    'href',
    `/servers?serverId=${SERVER_ID}`,
  );
  expect(within(rows[0]).getByRole('link', { name: /Open session claude-code 1\.2\.3/ })).toHaveAttribute(
    'href',
    `/sessions/${session(0).id}`,
  );
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
  await userEvent.type(screen.getByRole('textbox', { name: 'Search tool calls, prompts and resources' }), 'read_file');
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
    fail
      ? { status: 400, body: { message: 'q: Too big', code: 'validation_failed' } }
      : { body: { sessions: [session(0)], total: 1, limit: 50, offset: 0 } },
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

describe('a trace tool’s list (issue 14 item 11)', () => {
  it('shows tokens and cost as columns, and labels every value on a phone-width card', async () => {
    answerSessions(1, () => [session(0, { tokens: 48_210, cost: 0.7215, callCount: 101, errorCount: 25 })]);
    renderPage();
    const row = within(await screen.findByRole('list', { name: 'Sessions' })).getAllByRole('listitem')[0];
    expect(within(row).getByText('48,210')).toBeInTheDocument();
    expect(within(row).getByText('$0.7215')).toBeInTheDocument();
    // Each number carries its name (shown where there is no header row).
    expect(row).toHaveTextContent('Calls101');
    expect(row).toHaveTextContent('Errors25');
    expect(row).toHaveTextContent('Tokens48,210');
    expect(row).toHaveTextContent('MCP 2025-06-18');
  });

  it('sorts by a column header, reverses on a second click, and keeps the sort in the URL', async () => {
    answerSessions(3);
    renderPage();
    await screen.findByRole('list', { name: 'Sessions' });
    expect(queries[0].get('sort')).toBe('startedAt');
    expect(queries[0].get('order')).toBe('desc');
    await userEvent.click(screen.getByRole('button', { name: 'Sort by Cost' }));
    await waitFor(() => expect(queries.at(-1)?.get('sort')).toBe('cost'));
    expect(queries.at(-1)?.get('order')).toBe('desc');
    await userEvent.click(screen.getByRole('button', { name: 'Sort by Cost, highest first' }));
    await waitFor(() => expect(queries.at(-1)?.get('order')).toBe('asc'));
    expect(screen.getByRole('button', { name: 'Sort by Cost, lowest first' })).toBeInTheDocument();
    for (const column of ['Duration', 'Calls', 'Errors', 'Tokens']) {
      await userEvent.click(screen.getByRole('button', { name: `Sort by ${column}` }));
      await waitFor(() => expect(queries.at(-1)?.get('sort')).toBe(column.toLowerCase()));
    }
  });

  it('sorts on a phone too, where the headers are hidden: a column picker and a reverse button (issue 38)', async () => {
    answerSessions(3);
    renderPage();
    await screen.findByRole('list', { name: 'Sessions' });
    await userEvent.click(screen.getByRole('combobox', { name: 'Sort by' }));
    await userEvent.click(screen.getByRole('option', { name: 'Calls' }));
    await waitFor(() => expect(queries.at(-1)?.get('sort')).toBe('calls'));
    expect(queries.at(-1)?.get('order')).toBe('desc');
    await userEvent.click(screen.getByRole('button', { name: 'Lowest first (now highest first)' }));
    await waitFor(() => expect(queries.at(-1)?.get('order')).toBe('asc'));
    expect(queries.at(-1)?.get('sort')).toBe('calls');
  });

  it('filters to sessions with errors and by a custom date range from the URL', async () => {
    answerSessions(2);
    renderPage('/sessions?errors=with&range=custom&from=2026-11-20T08:00:00.000Z&to=2026-11-21T18:30:00.000Z');
    await screen.findByRole('list', { name: 'Sessions' });
    expect(queries[0].get('hasErrors')).toBe('true');
    expect(queries[0].get('from')).toBe('2026-11-20T08:00:00.000Z');
    expect(queries[0].get('to')).toBe('2026-11-21T18:30:00.000Z');
    expect(screen.getByRole('group', { name: 'Custom range' })).toBeInTheDocument();
    expect(screen.getByLabelText('Started from')).toHaveValue(localInput('2026-11-20T08:00:00.000Z'));
  });

  it('chooses "Without errors" and a custom range from the controls; an end before the start is not asked for', async () => {
    answerSessions(2);
    renderPage();
    await screen.findByRole('list', { name: 'Sessions' });
    await userEvent.click(screen.getByRole('combobox', { name: 'Errors' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Without errors' }));
    await waitFor(() => expect(queries.at(-1)?.get('hasErrors')).toBe('false'));
    await userEvent.click(screen.getByRole('combobox', { name: 'Started' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Custom range…' }));
    const from = await screen.findByLabelText('Started from');
    await userEvent.type(from, '2026-11-21T10:00');
    await waitFor(() => expect(queries.at(-1)?.get('from')).toBe(new Date('2026-11-21T10:00').toISOString()));
    const asked = queries.length;
    await userEvent.type(screen.getByLabelText('Started until'), '2026-11-20T10:00');
    expect(await screen.findByText('The end is before the start')).toBeInTheDocument();
    expect(queries).toHaveLength(asked);
  });

  it('exports the filtered, sorted list (not just this page) as CSV and as JSON', async () => {
    answerSessions(120);
    const exports: URLSearchParams[] = [];
    api.on('GET', Paths.sessionsExport(WORKSPACE_ID), ({ url }) => {
      exports.push(url.searchParams);
      return url.searchParams.get('format') === 'csv'
        ? { text: 'id,status\r\nabc,ended\r\n', contentType: 'text/csv' }
        : { body: { exportedAt: 'x', total: 120, sessions: [] } };
    });
    const saved: Blob[] = [];
    const createObjectURL = jest.fn((blob: Blob) => {
      saved.push(blob);
      return 'blob:sessions';
    });
    // eslint-disable-next-line @typescript-eslint/unbound-method -- the very originals are kept to be put back on URL afterwards; a bound copy would restore a different function
    const original = { createObjectURL: URL.createObjectURL, revokeObjectURL: URL.revokeObjectURL };
    Object.assign(URL, { createObjectURL, revokeObjectURL: jest.fn() });
    // jsdom does not download: the hidden link's click is what the browser would follow.
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    renderPage('/sessions?errors=with&sort=tokens&order=asc&q=haskell&page=1');
    await screen.findByRole('list', { name: 'Sessions' });

    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(exports[0].get('format')).toBe('csv');
    expect(exports[0].get('hasErrors')).toBe('true');
    expect(exports[0].get('sort')).toBe('tokens');
    expect(exports[0].get('order')).toBe('asc');
    expect(exports[0].get('q')).toBe('haskell');
    expect(exports[0].has('limit')).toBe(false);
    expect(exports[0].has('offset')).toBe(false);
    await expect(saved[0].text()).resolves.toBe('id,status\r\nabc,ended\r\n');

    await userEvent.click(screen.getByRole('button', { name: 'Export JSON' }));
    await waitFor(() => expect(saved).toHaveLength(2));
    expect(exports[1].get('format')).toBe('json');
    expect(JSON.parse(await saved[1].text())).toMatchObject({ total: 120 });
    expect(click).toHaveBeenCalledTimes(2);
    click.mockRestore();
    Object.assign(URL, original);
  });
});

/** The datetime-local value of an ISO time in this test run's time zone. */
function localInput(iso: string): string {
  const date = new Date(iso);
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}
