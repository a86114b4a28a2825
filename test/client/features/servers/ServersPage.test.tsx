import { act, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Paths } from '../../../../src/contract/routes';
import type { ServerDto } from '../../../../src/contract/servers';
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
    const { api } = renderPage([testServer({ lastChecked: checked }), testServer({ id: 'srv-2', name: 'Weather', status: 'offline', lastHealthStatus: false, lastChecked: checked, schemaCount: 1 })]);

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
    expect(within(card).getByLabelText('Claude Code configuration')).toHaveTextContent('claude mcp add --transport http everything http://localhost/mcp/key');
    await userEvent.click(within(card).getByRole('tab', { name: 'VS Code' }));
    expect(JSON.parse(within(card).getByLabelText('VS Code configuration').textContent ?? '')).toEqual({
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
    expect(sent).toEqual({ url: 'https://search.example.com/mcp', name: 'Search', description: '', transport: 'streamable-http' });
    expect(screen.queryByRole('dialog', { name: 'Add tool server' })).not.toBeInTheDocument();
    expect(await screen.findByText('Server added')).toBeInTheDocument();
    api.restore();
  });

  it("shows the server's field errors at the field and keeps the dialog open", async () => {
    const { api } = renderPage([], (fake) =>
      fake.on('POST', Paths.servers('ws-1'), {
        status: 400,
        body: { message: 'url: Requests to private addresses are not allowed', code: 'validation_failed', fields: { url: 'Requests to private addresses are not allowed' } },
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
    expect(sent).toEqual({ url: 'http://127.0.0.1:3001/mcp', name: 'Everything (staging)', description: '', transport: 'streamable-http' });
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
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Delete Everything?' })).getByRole('button', { name: 'Delete server' }));
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Everything' })).not.toBeInTheDocument());
    expect(api.calls).toContain(`DELETE ${Paths.server('ws-1', 'srv-1')}`);
    api.restore();
  });

  it('checks health on demand and shows the outcome', async () => {
    const { api } = renderPage([testServer()], (fake) =>
      fake.on('POST', Paths.serverHealth('ws-1', 'srv-1'), {
        body: { healthy: false, latencyMs: null, error: 'connect ECONNREFUSED 127.0.0.1:3001', server: testServer({ status: 'offline', lastHealthStatus: false, lastChecked: new Date().toISOString() }) },
      }),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Check health now' }));
    expect(await screen.findByText('Health check failed')).toBeInTheDocument();
    expect(screen.getByText('connect ECONNREFUSED 127.0.0.1:3001')).toBeInTheDocument();
    expect(within(screen.getByRole('article', { name: 'Everything' })).getByTestId('server-status')).toHaveTextContent('Offline');
    api.restore();
  });

  it("says 'Authentication required' when no workspace is selected", async () => {
    const { api, store } = renderPage([testServer()]);
    await act(async () => {
      store.dispatch(workspaceSelected(null));
    });
    expect(await screen.findByText('Authentication required')).toBeInTheDocument();
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
    api.restore();
  });

  it("raises 'Failed to load servers' when the list cannot load and nothing is cached", async () => {
    const { api } = renderPage([], (fake) => fake.on('GET', Paths.servers('ws-1'), { status: 403, body: { message: 'Not a member of this workspace', code: 'forbidden' } }));
    expect(await screen.findByText('Failed to load servers')).toBeInTheDocument();
    expect(screen.getAllByText('API Error 403: Not a member of this workspace').length).toBeGreaterThan(0);
    api.restore();
  });
});
