import { act, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Paths } from '../../../../src/contract/routes';
import type { ServerDto } from '../../../../src/contract/servers';
import { UpstreamOAuthPaths, type UpstreamOAuthConnectionDto } from '../../../../src/contract/upstreamOAuth';
import ServersPage from '../../../../src/client/features/servers/pages/ServersPage';
import { workspaceSelected } from '../../../../src/client/features/workspaces/workspaceSlice';
import { renderShellApp, testServer, type ShellTestOptions } from '../../helpers/renderShellApp';

configure({ asyncUtilTimeout: 5_000 });
jest.setTimeout(30_000);

const WRITE_TEXT = jest.fn<Promise<void>, [string]>();

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  WRITE_TEXT.mockReset().mockResolvedValue(undefined);
  Object.defineProperty(navigator, 'clipboard', { value: { writeText: WRITE_TEXT }, configurable: true });
});

function renderPage(servers: ServerDto[], configureApi?: ShellTestOptions['configureApi']) {
  return renderShellApp(<ServersPage />, { signedIn: true, path: '/servers', servers, configureApi });
}

describe('Tool Servers page', () => {
  it('shows each server with its status, last check, schema count and a proxy URL that copies', async () => {
    const checked = new Date(Date.now() - 2 * 60_000).toISOString();
    const { api } = renderPage([
      testServer({ lastChecked: checked }),
      testServer({
        id: 'srv-2',
        name: 'Weather',
        status: 'offline',
        lastHealthStatus: false,
        lastChecked: checked,
        schemaCount: 1,
      }),
    ]);

    const everything = await screen.findByRole('article', { name: 'Everything' });
    expect(within(everything).getByTestId('server-status')).toHaveTextContent('Online');
    expect(within(everything).getByText('2 minutes ago')).toBeInTheDocument();
    expect(within(everything).getByText('3 schemas')).toBeInTheDocument();
    expect(within(everything).getByTestId('proxy-url')).toHaveTextContent('http://localhost/mcp/key');
    const weather = screen.getByRole('article', { name: 'Weather' });
    expect(within(weather).getByTestId('server-status')).toHaveTextContent('Offline');
    expect(within(weather).getByText('1 schema')).toBeInTheDocument();

    await userEvent.click(within(everything).getByRole('button', { name: 'Copy proxy URL' }));
    expect(WRITE_TEXT).toHaveBeenCalledWith('http://localhost/mcp/key');
    api.restore();
  });

  it("names the risk check's high findings on the card, with the text that triggered them", async () => {
    const finding = {
      ruleId: 'credential_path' as const,
      title: 'Path of a credential file',
      severity: 'high' as const,
      path: '/description',
      match: '~/.ssh/id_rsa',
      excerpt: 'Read ~/.ssh/id_rsa first',
    };
    const { api } = renderPage([testServer({ riskFindingCount: 1 })], (fake) =>
      fake.on('GET', Paths.schemas('ws-1', 'srv-1'), {
        body: {
          schemas: [
            {
              id: 'sch-1',
              serverId: 'srv-1',
              kind: 'tool',
              name: 'add',
              currentVersion: 2,
              pinnedVersion: 1,
              definition: { name: 'add' },
              drifted: true,
              riskFindings: [finding, { ...finding, ruleId: 'before_using', severity: 'low', title: 'Low one' }],
              riskHeld: true,
              createdAt: '2026-11-20T10:00:00.000Z',
              updatedAt: '2026-11-20T10:00:00.000Z',
            },
          ],
          total: 1,
        },
      }),
    );
    const card = await screen.findByRole('article', { name: 'Everything' });
    expect(within(card).getByText('1 risk finding')).toBeInTheDocument();
    const list = await within(card).findByRole('list', { name: 'Risk findings' });
    expect(list).toHaveTextContent('add: Path of a credential file — “~/.ssh/id_rsa” (change held)');
    expect(list).not.toHaveTextContent('Low one');
    api.restore();
  });

  it('marks the server a link points at (?serverId=, as in status notifications)', async () => {
    const { api } = renderShellApp(<ServersPage />, {
      signedIn: true,
      path: '/servers?serverId=srv-2',
      servers: [testServer(), testServer({ id: 'srv-2', name: 'Weather' })],
    });
    expect(await screen.findByRole('article', { name: 'Weather' })).toHaveAttribute('aria-current', 'true');
    expect(screen.getByRole('article', { name: 'Everything' })).not.toHaveAttribute('aria-current');
    api.restore();
  });

  it('gives ready-to-paste configuration for each client', async () => {
    const { api } = renderPage([testServer()]);
    const card = await screen.findByRole('article', { name: 'Everything' });
    await userEvent.click(within(card).getByRole('button', { name: 'Connect a client' }));

    expect(within(card).getByLabelText('Claude Desktop configuration')).toHaveTextContent('"mcp-remote"');
    await userEvent.click(within(card).getByRole('tab', { name: 'Claude Code' }));
    expect(within(card).getByLabelText('Claude Code configuration')).toHaveTextContent(
      'claude mcp add --transport http everything http://localhost/mcp/key',
    );
    await userEvent.click(within(card).getByRole('tab', { name: 'VS Code' }));
    expect(JSON.parse(within(card).getByLabelText('VS Code configuration').textContent)).toEqual({
      servers: { everything: { type: 'http', url: 'http://localhost/mcp/key' } },
    });
    await userEvent.click(within(card).getByRole('button', { name: 'Copy VS Code configuration' }));
    expect(WRITE_TEXT).toHaveBeenCalledWith(expect.stringContaining('"type": "http"'));
    api.restore();
  });

  it('registers a server with url, name and description and shows it', async () => {
    const added = testServer({ id: 'srv-new', name: 'Search', url: 'https://search.example.com/mcp', schemaCount: 2 });
    let listed: ServerDto[] = [];
    let sent: unknown;
    const { api } = renderShellApp(<ServersPage />, {
      signedIn: true,
      path: '/servers',
      configureApi: (fake) => {
        fake.on('GET', Paths.servers('ws-1'), () => ({ body: listed }));
        fake.on('POST', Paths.servers('ws-1'), ({ body }) => {
          sent = body;
          listed = [added];
          return { status: 201, body: added };
        });
      },
    });

    await userEvent.click(await screen.findByRole('button', { name: 'Add server' }));
    const dialog = screen.getByRole('dialog', { name: 'Add tool server' });
    const submit = within(dialog).getByRole('button', { name: 'Add server' });
    expect(submit).toBeDisabled();
    await userEvent.type(within(dialog).getByLabelText(/Server URL/), 'https://search.example.com/mcp');
    await userEvent.type(within(dialog).getByLabelText(/^Name/), 'Search');
    await userEvent.click(submit);

    expect(await screen.findByRole('article', { name: 'Search' })).toBeInTheDocument();
    expect(sent).toEqual({
      url: 'https://search.example.com/mcp',
      name: 'Search',
      description: '',
      transport: 'streamable-http',
    });
    expect(screen.queryByRole('dialog', { name: 'Add tool server' })).not.toBeInTheDocument();
    expect(await screen.findByText('Server added')).toBeInTheDocument();
    api.restore();
  });

  it("shows the server's field errors at the field and keeps the dialog open", async () => {
    const { api } = renderPage([], (fake) =>
      fake.on('POST', Paths.servers('ws-1'), {
        status: 400,
        body: {
          message: 'url: Requests to private addresses are not allowed',
          code: 'validation_failed',
          fields: { url: 'Requests to private addresses are not allowed' },
        },
      }),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Add server' }));
    const dialog = screen.getByRole('dialog', { name: 'Add tool server' });
    await userEvent.type(within(dialog).getByLabelText(/Server URL/), 'http://10.0.0.1/mcp');
    await userEvent.type(within(dialog).getByLabelText(/^Name/), 'Internal');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add server' }));

    expect(await within(dialog).findByText('Requests to private addresses are not allowed')).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/Server URL/)).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByLabelText(/Server URL/)).toHaveValue('http://10.0.0.1/mcp');
    api.restore();
  });

  it('edits a server', async () => {
    let sent: unknown;
    let listed = [testServer()];
    const { api } = renderPage([], (fake) => {
      fake.on('GET', Paths.servers('ws-1'), () => ({ body: listed }));
      fake.on('PUT', Paths.server('ws-1', 'srv-1'), ({ body }) => {
        sent = body;
        listed = [testServer({ name: 'Everything (staging)' })];
        return { body: listed[0] };
      });
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Everything' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Everything' });
    await userEvent.type(within(dialog).getByLabelText(/^Name/), ' (staging)');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByRole('article', { name: 'Everything (staging)' })).toBeInTheDocument();
    expect(sent).toEqual({
      url: 'http://127.0.0.1:3001/mcp',
      name: 'Everything (staging)',
      description: '',
      transport: 'streamable-http',
      allowedOrigins: [],
    });
    api.restore();
  });

  it('deletes a server only after confirmation', async () => {
    const { api } = renderPage([testServer()], (fake) =>
      fake.on('DELETE', Paths.server('ws-1', 'srv-1'), () => {
        // Once deleted, the server is gone from the list the page reloads.
        fake.on('GET', Paths.servers('ws-1'), { body: [] });
        return { status: 204 };
      }),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Everything' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Everything?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.calls).not.toContain(`DELETE ${Paths.server('ws-1', 'srv-1')}`);

    await userEvent.click(screen.getByRole('button', { name: 'Delete Everything' }));
    await userEvent.click(
      within(screen.getByRole('dialog', { name: 'Delete Everything?' })).getByRole('button', { name: 'Delete server' }),
    );
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Everything' })).not.toBeInTheDocument());
    expect(api.calls).toContain(`DELETE ${Paths.server('ws-1', 'srv-1')}`);
    api.restore();
  });

  it('checks health on demand and shows the outcome', async () => {
    const { api } = renderPage([testServer()], (fake) =>
      fake.on('POST', Paths.serverHealth('ws-1', 'srv-1'), {
        body: {
          healthy: false,
          latencyMs: null,
          error: 'connect ECONNREFUSED 127.0.0.1:3001',
          server: testServer({ status: 'offline', lastHealthStatus: false, lastChecked: new Date().toISOString() }),
        },
      }),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Check health now' }));
    expect(await screen.findByText('Health check failed')).toBeInTheDocument();
    expect(screen.getByText('connect ECONNREFUSED 127.0.0.1:3001')).toBeInTheDocument();
    expect(within(screen.getByRole('article', { name: 'Everything' })).getByTestId('server-status')).toHaveTextContent(
      'Offline',
    );
    api.restore();
  });

  it("says 'Authentication required' when no workspace is selected", async () => {
    const { api, store } = renderPage([testServer()]);
    await act(() => {
      store.dispatch(workspaceSelected(null));
      return Promise.resolve();
    });
    expect(await screen.findByText('Authentication required')).toBeInTheDocument();
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
    api.restore();
  });

  it("raises 'Failed to load servers' when the list cannot load and nothing is cached", async () => {
    const { api } = renderPage([], (fake) =>
      fake.on('GET', Paths.servers('ws-1'), {
        status: 403,
        body: { message: 'Not a member of this workspace', code: 'forbidden' },
      }),
    );
    expect(await screen.findByText('Failed to load servers')).toBeInTheDocument();
    expect(screen.getAllByText('API Error 403: Not a member of this workspace').length).toBeGreaterThan(0);
    api.restore();
  });
});

describe('servers that require OAuth', () => {
  const connection = (overrides: Partial<UpstreamOAuthConnectionDto>): UpstreamOAuthConnectionDto => ({
    serverId: 'srv-1',
    status: 'required',
    issuer: 'https://auth.example.com',
    scope: null,
    expiresAt: null,
    connectedAs: null,
    connectedBy: null,
    lastError: null,
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  });

  it('offers Connect on a server that asks for OAuth and starts the trip to its authorization server', async () => {
    const sent: unknown[] = [];
    const { api } = renderPage([testServer()], (fake) => {
      fake.on('GET', UpstreamOAuthPaths.list('ws-1'), { body: { connections: [connection({})] } });
      fake.on('POST', UpstreamOAuthPaths.connect('ws-1', 'srv-1'), ({ body }) => {
        sent.push(body);
        return {
          status: 400,
          body: { message: 'The server or its authorization server could not be reached', code: 'bad_request' },
        };
      });
    });
    const card = await screen.findByRole('article', { name: 'Everything' });
    const panel = await within(card).findByRole('group', { name: 'OAuth connection of Everything' });
    expect(within(panel).getByText('OAuth: not connected')).toBeInTheDocument();
    await userEvent.click(within(panel).getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(sent).toEqual([{ returnPath: '/servers' }]));
    expect(await screen.findByText(/The server or its authorization server could not be reached/)).toBeInTheDocument();
    api.restore();
  });

  it('asks for a client registered by hand when the authorization server registers none, and connects with it', async () => {
    const sent: unknown[] = [];
    const { api } = renderPage([testServer()], (fake) => {
      fake.on('GET', UpstreamOAuthPaths.list('ws-1'), { body: { connections: [connection({})] } });
      fake.on('POST', UpstreamOAuthPaths.connect('ws-1', 'srv-1'), ({ body }) => {
        sent.push(body);
        return sent.length === 1
          ? {
              status: 400,
              body: {
                message:
                  'The authorization server does not register clients on its own: enter the client ID registered for Toolscope',
                code: 'bad_request',
              },
            }
          : { status: 400, body: { message: 'Stop here', code: 'bad_request' } };
      });
    });
    const panel = await screen.findByRole('group', { name: 'OAuth connection of Everything' });
    await userEvent.click(within(panel).getByRole('button', { name: 'Connect' }));
    const dialog = await screen.findByRole('dialog', { name: 'Client for Everything' });
    expect(within(dialog).getByLabelText('Redirect URI')).toHaveValue(
      'http://localhost/api/v1/oauth/upstream/callback',
    );
    await userEvent.type(within(dialog).getByLabelText(/Client ID/), 'toolscope-client');
    await userEvent.type(within(dialog).getByLabelText(/Client secret/), 's3cret');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Connect' }));
    await waitFor(() =>
      expect(sent).toEqual([
        { returnPath: '/servers' },
        { returnPath: '/servers', clientId: 'toolscope-client', clientSecret: 's3cret' },
      ]),
    );
    api.restore();
  });

  it('shows who a connection acts as, and asks to sign in again when its refresh was refused', async () => {
    const { api } = renderPage([testServer(), testServer({ id: 'srv-2', name: 'Weather' })], (fake) =>
      fake.on('GET', UpstreamOAuthPaths.list('ws-1'), {
        body: {
          connections: [
            connection({
              status: 'connected',
              connectedAs: 'ada@corp.test',
              connectedBy: 'admin@corp.test',
              expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
            }),
            connection({
              serverId: 'srv-2',
              status: 'needs_reconnect',
              lastError: 'The authorization server refused the refresh (invalid_grant)',
            }),
          ],
        },
      }),
    );
    const connected = await screen.findByRole('group', { name: 'OAuth connection of Everything' });
    expect(within(connected).getByText('OAuth: connected')).toBeInTheDocument();
    expect(
      within(connected).getByText(/As ada@corp.test · by admin@corp.test · token renews in 1 hour/),
    ).toBeInTheDocument();
    expect(within(connected).getByRole('button', { name: 'Disconnect' })).toBeInTheDocument();
    const expired = screen.getByRole('group', { name: 'OAuth connection of Weather' });
    expect(within(expired).getByText('OAuth: sign in again')).toBeInTheDocument();
    expect(
      within(expired).getByText('The authorization server refused the refresh (invalid_grant)'),
    ).toBeInTheDocument();
    expect(within(expired).getByRole('button', { name: 'Reconnect' })).toBeInTheDocument();
    api.restore();
  });

  it('says how the trip went when the browser comes back', async () => {
    const { api, location } = renderShellApp(<ServersPage />, {
      signedIn: true,
      path: '/servers?oauth_error=denied',
      servers: [testServer()],
    });
    expect(
      await screen.findByText('The sign-in at the server’s authorization server was cancelled.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(location().search).toBe(''));
    api.restore();
  });
});
