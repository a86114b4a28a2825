import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Paths } from '../../../../src/contract/routes';
import type { ExporterDto } from '../../../../src/contract/telemetry';
import { StorageKeys } from '../../../../src/contract/constants';
import { WorkspaceTelemetryTab } from '../../../../src/client/features/telemetry';
import { telemetryApi } from '../../../../src/client/features/telemetry/telemetryApi';
import { renderShellApp, type ShellTestOptions } from '../../helpers/renderShellApp';
import type { FakeApi } from '../../helpers/fakeApi';

configure({ asyncUtilTimeout: 5_000 });
jest.setTimeout(30_000);

const BASE = `${Paths.workspace('ws-1')}/telemetry/exporters`;
const HONEYCOMB: ExporterDto = {
  id: '33333333-3333-4333-8333-333333333333',
  name: 'Honeycomb',
  endpoint: 'https://api.honeycomb.io',
  protocol: 'http/protobuf',
  headers: { 'x-honeycomb-team': '••••' },
  signals: ['traces', 'metrics'],
  samplingRatio: 1,
  enabled: true,
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
};

let api: FakeApi | undefined;
beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => api?.restore());

function renderTab(options: Partial<ShellTestOptions> & { exporters?: () => ExporterDto[] } = {}) {
  const listed = options.exporters ?? (() => [HONEYCOMB]);
  const context = renderShellApp(<WorkspaceTelemetryTab workspaceId="ws-1" canManage />, {
    signedIn: true,
    path: '/workspace/ws-1/settings',
    ...options,
    configureApi: (fake) => {
      fake.on('GET', BASE, () => ({ body: { exporters: listed() } }));
      fake.on('GET', `${BASE}/${HONEYCOMB.id}/metrics`, {
        body: {
          exportedSpans: 42,
          exportedMetricPoints: 7,
          failedExports: 1,
          droppedSpans: 0,
          lastSuccessAt: new Date().toISOString(),
          lastError: 'traces: HTTP 503',
        },
      });
      options.configureApi?.(fake);
    },
  });
  api = context.api;
  return context;
}

describe('Telemetry exporters tab', () => {
  it('lists exporters with their counters and masked headers', async () => {
    renderTab();
    const card = await screen.findByRole('article', { name: 'Honeycomb exporter' });
    expect(within(card).getByText('https://api.honeycomb.io')).toBeInTheDocument();
    expect(await within(card).findByText('42')).toBeInTheDocument();
    expect(within(card).getByText('traces: HTTP 503')).toBeInTheDocument();
  });

  it('adds an exporter from a preset with a write-only header', async () => {
    let sent: unknown;
    renderTab({
      exporters: () => [],
      configureApi: (fake) =>
        fake.on('POST', BASE, ({ body }) => {
          sent = body;
          return { status: 201, body: HONEYCOMB };
        }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Add exporter' }));
    const dialog = screen.getByRole('dialog', { name: 'Add exporter' });
    await userEvent.click(within(dialog).getByLabelText('Start from'));
    await userEvent.click(await screen.findByRole('option', { name: 'Honeycomb' }));
    await userEvent.type(within(dialog).getByLabelText('Value'), 'hc-key');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add exporter' }));
    await waitFor(() => expect(sent).toBeDefined());
    expect(sent).toMatchObject({
      name: 'Honeycomb',
      endpoint: 'https://api.honeycomb.io',
      protocol: 'http/protobuf',
      headers: { 'x-honeycomb-team': 'hc-key' },
      signals: ['traces', 'metrics'],
      samplingRatio: 1,
    });
  });

  it("refuses every exporter action without a stored token: 'No authentication token'", async () => {
    const { store } = renderTab();
    await screen.findByRole('article', { name: 'Honeycomb exporter' });
    localStorage.removeItem(StorageKeys.accessToken);
    const calls = api!.calls.length;
    const result = await store.dispatch(
      telemetryApi.endpoints.testExporter.initiate({ workspaceId: 'ws-1', id: HONEYCOMB.id }),
    );
    expect('error' in result && result.error).toMatchObject({ message: 'No authentication token' });
    expect(api!.calls.slice(calls).filter((c) => c.includes('/telemetry/'))).toEqual([]);
  });
});
