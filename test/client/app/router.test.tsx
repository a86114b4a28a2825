import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Paths } from '../../../src/contract/routes';
import { AppRoutes, PROTECTED_ROUTES } from '../../../src/client/app/router';
import { fakeAccessToken } from '../helpers/fakeApi';
import { renderShellApp, TEST_USER_DTO, testServer } from '../helpers/renderShellApp';

// With a server connected, neither the no-servers banner nor the onboarding dialog covers the page.
const SERVERS = [testServer()];

// Lazy pages and MUI make the first render of a file slow on a shared machine.
jest.setTimeout(30_000);
// The first lazy page of a file compiles its whole module tree; allow for a busy machine.
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => localStorage.clear());

describe('routes (SPEC §2)', () => {
  it('sends a signed-out visitor to /login, keeping where they were going, and brings them back after sign-in', async () => {
    const { api, location } = renderShellApp(<AppRoutes />, {
      path: '/servers?view=grid',
      servers: SERVERS,
      configureApi: (fake) =>
        fake.on('POST', Paths.login, ({ body }) =>
          (body as { password: string }).password === 'correct horse'
            ? { body: { accessToken: fakeAccessToken(), refreshToken: 'refresh-1', user: TEST_USER_DTO } }
            : { status: 401, body: { message: 'Invalid email or password', code: 'unauthorized' } },
        ),
    });
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(location().pathname).toBe('/login');
    expect(location().state).toMatchObject({ from: { pathname: '/servers', search: '?view=grid' } });

    fireEvent.change(screen.getByLabelText(/Email/), { target: { value: 'ada@example.com' } });
    fireEvent.change(screen.getByLabelText(/Password/), { target: { value: 'correct horse' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByRole('heading', { name: 'Tool Servers' })).toBeInTheDocument();
    expect(location()).toMatchObject({ pathname: '/servers', search: '?view=grid' });
    api.restore();
  });

  it('shows a not-found page for any other path', async () => {
    const { api } = renderShellApp(<AppRoutes />, { path: '/nope' });
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByText('/nope')).toBeInTheDocument();
    api.restore();
  });

  it('shows the not-found page to signed-in users too, outside the protected routes', async () => {
    const { api } = renderShellApp(<AppRoutes />, { path: '/servers/extra/deep', signedIn: true });
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    api.restore();
  });

  it('takes a signed-in user from / and /login to the dashboard', async () => {
    const first = renderShellApp(<AppRoutes />, { path: '/', signedIn: true, servers: SERVERS });
    await waitFor(() => expect(first.location().pathname).toBe('/dashboard'));
    first.api.restore();
    first.unmount();

    const second = renderShellApp(<AppRoutes />, { path: '/login', signedIn: true, servers: SERVERS });
    await waitFor(() => expect(second.location().pathname).toBe('/dashboard'));
    second.api.restore();
  });

  it('shows the landing page to visitors and /home to everyone', async () => {
    const landing = renderShellApp(<AppRoutes />, { path: '/' });
    expect(await screen.findByRole('link', { name: 'Create a free account' })).toHaveAttribute('href', '/register');
    landing.api.restore();
    landing.unmount();

    const home = renderShellApp(<AppRoutes />, { path: '/home', signedIn: true });
    expect((await screen.findAllByRole('link', { name: 'Open dashboard' }))[0]).toHaveAttribute('href', '/dashboard');
    expect(home.location().pathname).toBe('/home');
    home.api.restore();
  });

  it.each(PROTECTED_ROUTES.map((route) => route.path))('opens %s inside the shell', async (pattern) => {
    const path = pattern
      .replace(':sessionId', 'session-42')
      .replace(':slug', 'filesystem')
      .replace(':workspaceId', 'ws-1');
    const { api } = renderShellApp(<AppRoutes />, { path, signedIn: true, servers: SERVERS });
    const main = await screen.findByRole('main');
    expect(await within(main).findByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
    expect(screen.getByText('Dashboard')).toBeInTheDocument();
    expect(screen.queryByTestId('error-boundary')).not.toBeInTheDocument();
    api.restore();
  });

  it('redirects every protected route when signed out', async () => {
    for (const { path: pattern } of PROTECTED_ROUTES) {
      const path = pattern.replace(/:[a-zA-Z]+/g, 'x');
      const view = renderShellApp(<AppRoutes />, { path });
      await waitFor(() => expect(view.location().pathname).toBe('/login'));
      expect(view.location().state).toMatchObject({ from: { pathname: path } });
      view.api.restore();
      view.unmount();
    }
  });
});
