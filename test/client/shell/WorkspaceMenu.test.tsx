import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Paths } from '../../../src/contract/routes';
import { WorkspaceMenu } from '../../../src/client/shell/WorkspaceMenu';
import { selectOpenDialog } from '../../../src/client/app/dialogsSlice';
import { selectCurrentWorkspaceId } from '../../../src/client/features/workspaces/workspaceSlice';
import { fakeAccessToken } from '../helpers/fakeApi';
import { renderShellApp } from '../helpers/renderShellApp';

afterEach(() => localStorage.clear());

async function openMenu() {
  await userEvent.click(await screen.findByRole('button', { name: 'Workspace menu' }));
  return screen.findByRole('menu');
}

describe('the workspace dropdown', () => {
  it('names the current workspace and lists them all', async () => {
    const { api } = renderShellApp(<WorkspaceMenu />, { signedIn: true });
    expect(await screen.findByText('Personal')).toBeInTheDocument();
    const menu = await openMenu();
    expect(within(menu).getByRole('menuitem', { name: /Platform Team/ })).toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: /Personal/ })).toHaveClass('Mui-selected');
    api.restore();
  });

  it('switches on click: saves the choice, then refreshes the token', async () => {
    const { api, store } = renderShellApp(<WorkspaceMenu />, { signedIn: true });
    api.on('POST', Paths.refresh, { body: { accessToken: fakeAccessToken(), refreshToken: 'rotated' } });
    await screen.findByText('Personal');
    const menu = await openMenu();
    await userEvent.click(within(menu).getByRole('menuitem', { name: /Platform Team/ }));
    expect(selectCurrentWorkspaceId(store.getState())).toBe('ws-2');
    await waitFor(() => expect(api.calls).toContain(`POST ${Paths.refresh}`));
    api.restore();
  });

  it('opens the create workspace dialog', async () => {
    const { api, store } = renderShellApp(<WorkspaceMenu />, { signedIn: true });
    const menu = await openMenu();
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Create Workspace' }));
    expect(selectOpenDialog(store.getState())).toBe('createWorkspace');
    api.restore();
  });

  it("goes to the current workspace's settings", async () => {
    const { api, location } = renderShellApp(<WorkspaceMenu />, { signedIn: true });
    const menu = await openMenu();
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Workspace Settings' }));
    expect(location().pathname).toBe('/workspace/ws-1/settings');
    api.restore();
  });
});
