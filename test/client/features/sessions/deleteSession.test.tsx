import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { StorageKeys } from '../../../../src/contract/constants';
import { Paths } from '../../../../src/contract/routes';
import type { ReplayResult } from '../../../../src/contract/sessions';
import SessionDetailPage from '../../../../src/client/features/sessions/pages/SessionDetailPage';
import { fakeAccessToken, installFakeApi, type FakeApi } from '../../helpers/fakeApi';
import { renderWithProviders } from '../../helpers/renderWithProviders';
import { session, WORKSPACE_ID } from './sessionFixtures';

jest.setTimeout(60_000);

// Issue 33: a single session is deleted from its page, after a confirmation; an active one cannot be.

let api: FakeApi;
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem(StorageKeys.accessToken, fakeAccessToken());
  localStorage.setItem(StorageKeys.refreshToken, 'refresh-token');
  api = installFakeApi();
});
afterEach(() => api.restore());

function renderPage(status: 'ended' | 'active') {
  const shown = session(0, { status });
  const replay: ReplayResult = { session: shown, total: 0, messages: [], toolCalls: [] };
  api.on('GET', Paths.session(WORKSPACE_ID, shown.id), { body: shown });
  api.on('GET', Paths.sessionReplay(WORKSPACE_ID, shown.id), { body: replay });
  renderWithProviders(
    <Routes>
      <Route path="/sessions/:sessionId" element={<SessionDetailPage />} />
      <Route path="/sessions" element={<p>the sessions list</p>} />
    </Routes>,
    { preloadedState: { workspace: { currentWorkspaceId: WORKSPACE_ID } }, initialEntries: [`/sessions/${shown.id}`] },
  );
  return shown;
}

it('asks, deletes, and returns to the list', async () => {
  const shown = renderPage('ended');
  let deleted = false;
  api.on('DELETE', Paths.session(WORKSPACE_ID, shown.id), () => {
    deleted = true;
    return { status: 204 };
  });
  await userEvent.click(await screen.findByRole('button', { name: 'Delete session' }));
  const dialog = screen.getByRole('dialog', { name: 'Delete this session?' });
  expect(deleted).toBe(false);
  await userEvent.click(within(dialog).getByRole('button', { name: 'Delete session' }));
  expect(await screen.findByText('the sessions list')).toBeInTheDocument();
  await waitFor(() => expect(deleted).toBe(true));
});

it('keeps the dialog open with the server’s reason when the delete is refused', async () => {
  const shown = renderPage('ended');
  api.on('DELETE', Paths.session(WORKSPACE_ID, shown.id), {
    status: 403,
    body: { message: 'Only owners and admins can delete sessions', code: 'forbidden' },
  });
  await userEvent.click(await screen.findByRole('button', { name: 'Delete session' }));
  const dialog = screen.getByRole('dialog', { name: 'Delete this session?' });
  await userEvent.click(within(dialog).getByRole('button', { name: 'Delete session' }));
  expect(await within(dialog).findByText(/Only owners and admins can delete sessions/)).toBeInTheDocument();
});

it('cannot delete an active session', async () => {
  renderPage('active');
  expect(await screen.findByRole('button', { name: 'Delete session' })).toBeDisabled();
});
