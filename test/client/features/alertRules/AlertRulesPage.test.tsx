import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AlertRulePaths, type AlertRuleDto } from '../../../../src/contract/alertRules';
import AlertRulesPage from '../../../../src/client/features/alertRules/pages/AlertRulesPage';
import { renderShellApp, testServer } from '../../helpers/renderShellApp';
import type { FakeApi } from '../../helpers/fakeApi';

configure({ asyncUtilTimeout: 5_000 });
jest.setTimeout(30_000);

const FIRING: AlertRuleDto = {
  id: '22222222-2222-4222-8222-222222222222',
  workspaceId: 'ws-1',
  name: 'Charge failing',
  metric: 'error_rate',
  scope: { serverId: 'srv-1', tool: 'charge' },
  condition: 'above',
  threshold: 5,
  windowMinutes: 10,
  forMinutes: 5,
  severity: 'error',
  quietHours: null,
  notifyIntegrations: true,
  enabled: true,
  state: 'firing',
  stateSince: '2026-11-20T10:05:00.000Z',
  lastValue: 40,
  lastEvaluatedAt: '2026-11-20T10:06:00.000Z',
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
};

let api: FakeApi | undefined;
beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => api?.restore());

function renderPage(rules: () => AlertRuleDto[], configure?: (fake: FakeApi) => void) {
  const context = renderShellApp(<AlertRulesPage />, {
    signedIn: true,
    path: '/alert-rules',
    servers: [testServer()],
    configureApi: (fake) => {
      fake.on('GET', AlertRulePaths.list('ws-1'), () => ({ body: { rules: rules() } }));
      configure?.(fake);
    },
  });
  api = context.api;
  return context;
}

describe('Alert Rules page', () => {
  it('shows each rule with what it watches, its state, and its firing history', async () => {
    renderPage(
      () => [FIRING],
      (fake) =>
        fake.on('GET', AlertRulePaths.firings('ws-1', FIRING.id), {
          body: {
            firings: [
              { id: 'f1', ruleId: FIRING.id, firedAt: '2026-11-20T10:05:00.000Z', resolvedAt: null, value: 40 },
            ],
          },
        }),
    );
    const card = await screen.findByRole('article', { name: 'Charge failing' });
    expect(within(card).getByText('Firing')).toBeInTheDocument();
    expect(within(card).getByText('Error rate (%) above 5 over 10 min for 5 min')).toBeInTheDocument();
    expect(within(card).getByText(/tool charge/)).toBeInTheDocument();
    await userEvent.click(within(card).getByRole('button', { name: 'History' }));
    const history = await within(card).findByRole('list', { name: 'Firing history' });
    expect(within(history).getByText('Still firing')).toBeInTheDocument();
  });

  it('previews a new rule over 7 days and creates it', async () => {
    let created: Record<string, unknown> | undefined;
    let previewed: Record<string, unknown> | undefined;
    let listed: AlertRuleDto[] = [];
    renderPage(
      () => listed,
      (fake) => {
        fake.on('POST', AlertRulePaths.preview('ws-1'), ({ body }) => {
          previewed = body as Record<string, unknown>;
          return {
            body: {
              from: '2026-11-13T10:00:00.000Z',
              to: '2026-11-20T10:00:00.000Z',
              evaluations: 10080,
              firings: 3,
              episodes: [],
            },
          };
        });
        fake.on('POST', AlertRulePaths.list('ws-1'), ({ body }) => {
          created = body as Record<string, unknown>;
          listed = [{ ...FIRING, name: 'Slow p95', state: 'ok' }];
          return { status: 201, body: listed[0] };
        });
      },
    );
    expect(await screen.findByText('No alert rules yet')).toBeInTheDocument();
    // The button waits for the member's role, which the workspaces call brings — it may answer after the rules.
    await userEvent.click(await screen.findByRole('button', { name: 'New rule' }));
    const dialog = screen.getByRole('dialog', { name: 'New alert rule' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Slow p95');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Preview last 7 days' }));
    expect(await within(dialog).findByText(/Would have fired 3 times in the last 7 days/)).toBeInTheDocument();
    expect(previewed).toMatchObject({ name: 'Slow p95', metric: 'error_rate', threshold: 5, windowMinutes: 10 });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create rule' }));
    await waitFor(() => expect(created).toMatchObject({ name: 'Slow p95', forMinutes: 5, quietHours: null }));
    expect(await screen.findByRole('article', { name: 'Slow p95' })).toBeInTheDocument();
  });
});
