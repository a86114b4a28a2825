import { Route, Routes } from 'react-router-dom';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MemberDto } from '../../../../src/contract/members';
import { Paths } from '../../../../src/contract/routes';
import WorkspaceSettingsPage from '../../../../src/client/features/workspaces/pages/WorkspaceSettingsPage';
import { renderShellApp, TEST_WORKSPACES } from '../../helpers/renderShellApp';
import type { FakeApi } from '../../helpers/fakeApi';

configure({ asyncUtilTimeout: 5_000 });
jest.setTimeout(120_000);

let api: FakeApi | undefined;
beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => api?.restore());

const TEAM = { ...TEST_WORKSPACES[1], id: 'ws-2', name: 'Platform Team', role: 'owner' as const };
const ME: MemberDto = {
  userId: 'user-1',
  email: 'ada@example.com',
  fullName: 'Ada Lovelace',
  role: 'owner',
  joinedAt: new Date().toISOString(),
};

function renderSettings(path: string, configure: (fake: FakeApi) => void) {
  const context = renderShellApp(
    <Routes>
      <Route path="/workspace/:workspaceId/settings" element={<WorkspaceSettingsPage />} />
      <Route path="*" element={<p>elsewhere</p>} />
    </Routes>,
    { signedIn: true, path, workspaces: [TEST_WORKSPACES[0], TEAM], configureApi: configure },
  );
  api = context.api;
  return context;
}

describe('Workspace settings', () => {
  it('deletes a workspace only once its name is typed, then switches to another workspace', async () => {
    let deleted = false;
    const context = renderSettings('/workspace/ws-2/settings', (fake) => {
      fake.on('GET', Paths.workspace('ws-2'), () =>
        deleted ? { status: 404, body: { message: 'Workspace not found', code: 'not_found' } } : { body: TEAM },
      );
      fake.on('DELETE', Paths.workspace('ws-2'), () => {
        deleted = true;
        return { status: 204 };
      });
      fake.on('POST', Paths.refresh, { body: { accessToken: 'a.b.c', refreshToken: 'r' } });
    });
    context.store.dispatch({ type: 'workspace/workspaceSelected', payload: 'ws-2' });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete workspace' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete workspace' });
    const confirm = within(dialog).getByRole('button', { name: 'Delete workspace' });
    expect(confirm).toBeDisabled();
    await userEvent.type(within(dialog).getByRole('textbox'), 'Platform');
    expect(confirm).toBeDisabled();
    expect(deleted).toBe(false);
    await userEvent.type(within(dialog).getByRole('textbox'), ' Team');
    expect(confirm).toBeEnabled();
    await userEvent.click(confirm);
    await waitFor(() => expect(context.location().pathname).toBe('/dashboard'));
    expect(deleted).toBe(true);
    expect(context.store.getState().workspace.currentWorkspaceId).toBe('ws-1');
    expect(await screen.findByText('Workspace deleted')).toBeInTheDocument();
  });

  it('never offers to delete or leave the personal workspace', async () => {
    renderSettings('/workspace/ws-1/settings', (fake) =>
      fake.on('GET', Paths.workspace('ws-1'), { body: TEST_WORKSPACES[0] }),
    );
    expect(await screen.findByText('Your personal workspace cannot be deleted or left.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete workspace' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Leave workspace' })).toBeNull();
  });

  it('the last owner cannot be demoted: the server refuses and the role stays', async () => {
    const puts: unknown[] = [];
    renderSettings('/workspace/ws-2/settings?tab=members', (fake) => {
      fake.on('GET', Paths.workspace('ws-2'), { body: TEAM });
      fake.on('GET', `${Paths.workspace('ws-2')}/members`, { body: { members: [ME] } });
      fake.on('PUT', Paths.workspaceMember('ws-2', 'user-1'), ({ body }) => {
        puts.push(body);
        return {
          status: 409,
          body: { message: 'A workspace needs at least one owner: make someone else owner first', code: 'conflict' },
        };
      });
    });
    const role = await screen.findByRole('combobox', { name: 'Role of Ada Lovelace' });
    await userEvent.click(role);
    await userEvent.click(await screen.findByRole('option', { name: 'Member' }));
    expect(
      await screen.findByText(/A workspace needs at least one owner: make someone else owner first/),
    ).toBeInTheDocument();
    expect(puts).toEqual([{ role: 'member' }]);
    expect(screen.getByRole('combobox', { name: 'Role of Ada Lovelace' })).toHaveTextContent('Owner');
  });

  it('an invitee who follows the invitation link accepts it in place and switches to the workspace', async () => {
    let accepted = false;
    const context = renderSettings('/workspace/ws-3/settings', (fake) => {
      fake.on('GET', Paths.workspace('ws-3'), () =>
        accepted
          ? { body: { ...TEAM, id: 'ws-3', name: 'Research', role: 'member' } }
          : { status: 404, body: { message: 'Workspace not found', code: 'not_found' } },
      );
      fake.on('GET', Paths.myInvitations, () => ({
        body: {
          invitations: accepted
            ? []
            : [
                {
                  id: 'inv-1',
                  workspaceId: 'ws-3',
                  workspaceName: 'Research',
                  role: 'member',
                  invitedByName: 'Grace Hopper',
                  createdAt: new Date().toISOString(),
                  expiresAt: new Date().toISOString(),
                },
              ],
        },
      }));
      fake.on('POST', Paths.acceptInvitation('inv-1'), () => {
        accepted = true;
        return { body: { workspace: { ...TEAM, id: 'ws-3', name: 'Research', role: 'member' } } };
      });
      fake.on('POST', Paths.refresh, { body: { accessToken: 'a.b.c', refreshToken: 'r' } });
    });
    expect(await screen.findByText('Grace Hopper invited you to join Research as member.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Accept' }));
    expect(await screen.findByText('Invitation accepted')).toBeInTheDocument();
    expect(context.store.getState().workspace.currentWorkspaceId).toBe('ws-3');
  });
});
