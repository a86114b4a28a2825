import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Paths } from '../../../src/contract/routes';
import { StorageKeys } from '../../../src/contract/constants';
import { UserMenu } from '../../../src/client/shell/UserMenu';
import { selectAuthStatus } from '../../../src/client/features/auth/authSlice';
import { renderShellApp } from '../helpers/renderShellApp';

afterEach(() => localStorage.clear());

async function openMenu() {
  await userEvent.click(screen.getByRole('button', { name: 'Account menu' }));
  return screen.findByRole('menu');
}

describe('the avatar menu', () => {
  it('shows the name, the email, and Profile, Settings and Sign out', async () => {
    const { api } = renderShellApp(<UserMenu />, { signedIn: true });
    const menu = await openMenu();
    expect(within(menu).getByText('Ada Lovelace')).toBeInTheDocument();
    expect(within(menu).getByText('ada@example.com')).toBeInTheDocument();
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Profile', 'Settings', 'Sign out']);
    api.restore();
  });

  it("reads 'User' when the profile has no name", async () => {
    const { api } = renderShellApp(<UserMenu />, { signedIn: true, user: null });
    const menu = await openMenu();
    expect(within(menu).getByText('User')).toBeInTheDocument();
    api.restore();
  });

  it('opens the profile tab of the settings', async () => {
    const { api, location } = renderShellApp(<UserMenu />, { signedIn: true, path: '/dashboard' });
    const menu = await openMenu();
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Profile' }));
    expect(location()).toMatchObject({ pathname: '/settings', search: '?tab=profile' });
    api.restore();
  });

  it('opens the settings', async () => {
    const { api, location } = renderShellApp(<UserMenu />, { signedIn: true, path: '/dashboard' });
    const menu = await openMenu();
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Settings' }));
    expect(location()).toMatchObject({ pathname: '/settings', search: '' });
    api.restore();
  });

  it('signs out: tells the server, clears both tokens, and goes to /login', async () => {
    const { api, location, store } = renderShellApp(<UserMenu />, { signedIn: true, path: '/servers' });
    const menu = await openMenu();
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Sign out' }));
    await waitFor(() => expect(location().pathname).toBe('/login'));
    expect(api.calls).toContain(`POST ${Paths.logout}`);
    expect(localStorage.getItem(StorageKeys.accessToken)).toBeNull();
    expect(localStorage.getItem(StorageKeys.refreshToken)).toBeNull();
    expect(selectAuthStatus(store.getState())).toBe('signedOut');
    api.restore();
  });

  it('signs out even when the server cannot be reached', async () => {
    const { api, location } = renderShellApp(<UserMenu />, { signedIn: true, path: '/servers' });
    api.on('POST', Paths.logout, {
      status: 503,
      body: { message: 'Service unavailable', code: 'service_unavailable' },
    });
    const menu = await openMenu();
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Sign out' }));
    await waitFor(() => expect(location().pathname).toBe('/login'));
    expect(localStorage.getItem(StorageKeys.accessToken)).toBeNull();
    api.restore();
  });
});
