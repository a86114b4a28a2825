import { act, screen, waitFor } from '@testing-library/react';
import { Paths } from '../../../src/contract/routes';
import { NoServersBanner } from '../../../src/client/shell/NoServersBanner';
import { serversApi } from '../../../src/client/features/servers/serversApi';
import { renderShellApp, testServer } from '../helpers/renderShellApp';

afterEach(() => localStorage.clear());

const BANNER = 'No tool servers connected';

describe("the 'No tool servers connected' banner", () => {
  it('shows once the list has loaded empty, linking to /servers', async () => {
    const { api } = renderShellApp(<NoServersBanner />, { signedIn: true, path: '/dashboard', servers: [] });
    expect(await screen.findByText(BANNER)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Connect a tool server' })).toHaveAttribute('href', '/servers');
    api.restore();
  });

  it('does not show on /servers itself', async () => {
    const { api, store } = renderShellApp(<NoServersBanner />, { signedIn: true, path: '/servers', servers: [] });
    await act(() => store.dispatch(serversApi.endpoints.getServers.initiate('ws-1')));
    expect(api.calls).toContain(`GET ${Paths.servers('ws-1')}`);
    expect(screen.queryByText(BANNER)).not.toBeInTheDocument();
    api.restore();
  });

  it('does not show when the workspace has servers', async () => {
    const { api, store } = renderShellApp(<NoServersBanner />, {
      signedIn: true,
      path: '/dashboard',
      servers: [testServer()],
    });
    await act(() => store.dispatch(serversApi.endpoints.getServers.initiate('ws-1')));
    expect(screen.queryByText(BANNER)).not.toBeInTheDocument();
    api.restore();
  });

  it('does not show while the list is still loading', async () => {
    let answer: (value: { body: unknown }) => void = () => undefined;
    const { api } = renderShellApp(<NoServersBanner />, {
      signedIn: true,
      path: '/dashboard',
      configureApi: (fake) => fake.on('GET', Paths.servers('ws-1'), () => new Promise((resolve) => (answer = resolve))),
    });
    // The request is in flight (the handler above holds it); nothing is known yet.
    await waitFor(() => expect(api.calls).toContain(`GET ${Paths.servers('ws-1')}`));
    expect(screen.queryByText(BANNER)).not.toBeInTheDocument();
    await act(() => {
      answer({ body: [] });
      return Promise.resolve();
    });
    expect(await screen.findByText(BANNER)).toBeInTheDocument();
    api.restore();
  });
});
