import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { IntegrationActivityDto, IntegrationDto } from '../../../../src/contract/integrations';
import { Paths } from '../../../../src/contract/routes';
import IntegrationsPage from '../../../../src/client/features/integrations/pages/IntegrationsPage';
import { renderShellApp, TEST_WORKSPACES, type ShellTestOptions } from '../../helpers/renderShellApp';
import type { FakeApi } from '../../helpers/fakeApi';

configure({ asyncUtilTimeout: 5_000 });
jest.setTimeout(30_000);

const BASE = `${Paths.workspace('ws-1')}/integrations`;
const SLACK: IntegrationDto = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Slack #ops',
  kind: 'slack',
  config: { webhookUrl: '••••/B/x' },
  rules: { types: ['tool_server_status'], minSeverity: 'error' },
  enabled: true,
  disabledReason: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
  lastDeliveryAt: null,
  lastDeliveryStatus: null,
};

let api: FakeApi | undefined;
beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => api?.restore());

function renderPage(options: Partial<ShellTestOptions> & { integrations?: () => IntegrationDto[] } = {}) {
  const listed = options.integrations ?? (() => [SLACK]);
  const context = renderShellApp(<IntegrationsPage />, {
    signedIn: true,
    path: '/integrations',
    ...options,
    configureApi: (fake) => {
      fake.on('GET', BASE, () => ({ body: { integrations: listed() } }));
      options.configureApi?.(fake);
    },
  });
  api = context.api;
  return context;
}

describe('Integrations page', () => {
  it('explains what integrations do when there are none, and lets an owner add one', async () => {
    renderPage({ integrations: () => [] });
    expect(await screen.findByText('No integrations yet')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add integration' })).toBeInTheDocument();
  });

  it('lists each integration with its target, rules and the last delivery', async () => {
    renderPage({
      integrations: () => [
        {
          ...SLACK,
          lastDeliveryAt: new Date().toISOString(),
          lastDeliveryStatus: 'failed',
          disabledReason: 'The receiver answered 410 Gone',
        },
      ],
    });
    const card = await screen.findByRole('article', { name: 'Slack #ops integration' });
    expect(within(card).getByText('••••/B/x')).toBeInTheDocument();
    expect(within(card).getByText(/tool_server_status · error and above/)).toBeInTheDocument();
    expect(within(card).getByText(/Last delivery failed/)).toBeInTheDocument();
    expect(within(card).getByText('The receiver answered 410 Gone')).toBeInTheDocument();
  });

  it('shows every problem of the form at once before any round trip', async () => {
    renderPage({ integrations: () => [] });
    await userEvent.click(await screen.findByRole('button', { name: 'Add integration' }));
    const dialog = screen.getByRole('dialog', { name: 'Add integration' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add integration' }));
    expect(within(dialog).getByText('Name the integration')).toBeInTheDocument();
    expect(within(dialog).getByText('Required')).toBeInTheDocument();
    expect(api?.calls).not.toContain(`POST ${BASE}`);
  });

  it('adds a webhook, shows its generated signing secret once, and sends the chosen rules', async () => {
    let sent: Record<string, unknown> | undefined;
    let listed: IntegrationDto[] = [];
    renderPage({
      integrations: () => listed,
      configureApi: (fake) =>
        fake.on('POST', BASE, ({ body }) => {
          sent = body as Record<string, unknown>;
          const created = {
            ...SLACK,
            id: '22222222-2222-4222-8222-222222222222',
            kind: 'webhook' as const,
            name: 'Ops hook',
            config: { url: 'https://hooks.example.com/t', secret: '••••abcd' },
          };
          listed = [created];
          return {
            status: 201,
            body: { ...created, revealedSecret: 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0YWJjZA==' },
          };
        }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Add integration' }));
    const dialog = screen.getByRole('dialog', { name: 'Add integration' });
    await userEvent.click(within(dialog).getByLabelText('Kind'));
    await userEvent.click(await screen.findByRole('option', { name: 'Webhook' }));
    await userEvent.type(within(dialog).getByLabelText(/Name/), 'Ops hook');
    await userEvent.type(within(dialog).getByLabelText(/Receiver URL/), 'https://hooks.example.com/t');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Server status' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add integration' }));

    const reveal = await screen.findByRole('dialog', { name: 'Copy the signing secret' });
    expect(within(reveal).getByDisplayValue(/^whsec_/)).toBeInTheDocument();
    expect(sent).toEqual({
      kind: 'webhook',
      name: 'Ops hook',
      config: { url: 'https://hooks.example.com/t' },
      rules: { types: ['tool_server_status'], minSeverity: 'warning' },
      enabled: true,
    });
    await userEvent.click(within(reveal).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByDisplayValue(/^whsec_/)).not.toBeInTheDocument());
    expect(await screen.findByRole('article', { name: 'Ops hook integration' })).toBeInTheDocument();
  });

  it('sends a test from the card and says what came back', async () => {
    renderPage({
      configureApi: (fake) =>
        fake.on('POST', `${BASE}/${SLACK.id}/test`, {
          body: { ok: false, statusCode: 404, latencyMs: 12.3, error: 'HTTP 404: no_service' },
        }),
    });
    const card = await screen.findByRole('article', { name: 'Slack #ops integration' });
    await userEvent.click(within(card).getByRole('button', { name: 'Send test' }));
    expect(await screen.findByText('HTTP 404: no_service')).toBeInTheDocument();
  });

  it('shows the activity log with retries and sends a past delivery again', async () => {
    const activities: IntegrationActivityDto[] = [
      {
        id: 'a2',
        deliveryId: 'd1',
        createdAt: new Date().toISOString(),
        event: 'tool_server_status',
        status: 'delivered',
        statusCode: 200,
        latencyMs: 31,
        error: null,
        attempt: 2,
        summary: 'error · Server Offline: weather',
      },
      {
        id: 'a1',
        deliveryId: 'd1',
        createdAt: new Date().toISOString(),
        event: 'tool_server_status',
        status: 'retrying',
        statusCode: 500,
        latencyMs: 12,
        error: 'HTTP 500',
        attempt: 1,
        summary: 'error · Server Offline: weather',
      },
    ];
    let resent = false;
    renderPage({
      configureApi: (fake) => {
        fake.on('GET', `${BASE}/${SLACK.id}/activities`, { body: { activities } });
        fake.on('POST', `${BASE}/${SLACK.id}/activities/a2/resend`, () => {
          resent = true;
          return { status: 202, body: { deliveryId: 'd2' } };
        });
      },
    });
    const card = await screen.findByRole('article', { name: 'Slack #ops integration' });
    await userEvent.click(within(card).getByRole('button', { name: 'Activity' }));
    const table = await screen.findByRole('table', { name: 'Delivery attempts' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(within(rows[0]).getByText('delivered')).toBeInTheDocument();
    expect(within(rows[1]).getByText('retrying')).toBeInTheDocument();
    expect(within(rows[1]).getByText('HTTP 500')).toBeInTheDocument();
    await userEvent.click(within(rows[0]).getByRole('button', { name: 'Send again' }));
    await waitFor(() => expect(resent).toBe(true));
  });

  it('lets a member see integrations but not change them', async () => {
    renderPage({ workspaces: TEST_WORKSPACES.map((w) => ({ ...w, role: 'member' as const })) });
    const card = await screen.findByRole('article', { name: 'Slack #ops integration' });
    expect(within(card).queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Send test' })).not.toBeInTheDocument();
    expect(within(card).getByRole('switch', { name: /Disable Slack #ops/ })).toBeDisabled();
  });
});
