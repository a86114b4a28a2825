import { useState } from 'react';
import { act, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fromCallback } from 'xstate';
import { Paths } from '../../../../src/contract/routes';
import type { ToolCallDto } from '../../../../src/contract/sessions';
import type { DashboardOverview } from '../../../../src/contract/dashboard';
import DashboardPage from '../../../../src/client/features/dashboard/pages/DashboardPage';
import { LiveStream } from '../../../../src/client/features/live/LiveStream';
import type { ConnectionEvent, ConnectionInput } from '../../../../src/client/features/live/liveStreamMachine';
import { renderShellApp, testServer } from '../../helpers/renderShellApp';

configure({ asyncUtilTimeout: 5_000 });
jest.setTimeout(30_000);

function call(overrides: Partial<ToolCallDto> = {}): ToolCallDto {
  return {
    id: 'call-1',
    sessionId: 'sess-1',
    serverId: 'srv-1',
    serverName: 'Everything',
    jsonrpcId: '1',
    toolName: 'echo',
    arguments: { message: 'hi' },
    result: {},
    errorMessage: null,
    status: 'ok',
    startedAt: new Date(Date.now() - 30_000).toISOString(),
    endedAt: new Date().toISOString(),
    durationMs: 42,
    requestBytes: 10,
    responseBytes: 20,
    tokens: 8,
    meta: null,
    traceparent: null,
    ...overrides,
  };
}

function overview(overrides: Partial<DashboardOverview> = {}): DashboardOverview {
  return {
    since: new Date().toISOString(),
    servers: { total: 2, online: 1, offline: 1 },
    sessions: { today: 3, active: 1 },
    toolCalls: { today: 120, errors: 6, tokens: 5400, definitionTokens: 0, cost: 0 },
    errorRate: 0.05,
    latencyP95Ms: 870,
    tokenCorrection: { model: 'Claude Sonnet 4.5', factor: 1.2, exact: false },
    latestActivity: [
      call(),
      call({ id: 'call-2', toolName: 'get-weather', status: 'error', errorMessage: 'Upstream timed out' }),
    ],
    lastActivityAt: new Date().toISOString(),
    ...overrides,
  };
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

const stat = (label: string) => within(screen.getByRole('group', { name: label })).getByTestId(`stat-${label}`);

describe('dashboard overview', () => {
  it("shows today's numbers and the latest activity from the overview endpoint", async () => {
    let since: string | null = null;
    const { api } = renderShellApp(<DashboardPage />, {
      signedIn: true,
      path: '/dashboard',
      servers: [testServer(), testServer({ id: 'srv-2', name: 'Weather', status: 'offline' })],
      configureApi: (fake) =>
        fake.on('GET', Paths.dashboardOverview('ws-1'), ({ url }) => {
          since = url.searchParams.get('since');
          return { body: overview() };
        }),
    });
    await waitFor(() => expect(stat('Servers online')).toHaveTextContent('1 / 2'));
    expect(screen.getByRole('group', { name: 'Servers online' })).toHaveTextContent('1 offline');
    expect(stat('Sessions today')).toHaveTextContent('3');
    expect(stat('Tool calls today')).toHaveTextContent('120');
    expect(stat('Error rate')).toHaveTextContent('5.0%');
    expect(stat('Latency p95')).toHaveTextContent('870');
    const latest = screen.getByRole('list', { name: 'Latest tool calls' });
    expect(within(latest).getByRole('link', { name: 'echo' })).toHaveAttribute('href', '/sessions/sess-1');
    expect(within(latest).getByText(/Upstream timed out/)).toBeInTheDocument();
    // "Today" is the viewer's day: the local midnight.
    const midnight = new Date();
    midnight.setHours(0, 0, 0, 0);
    expect(since).toBe(midnight.toISOString());
    api.restore();
  });

  it('shows skeletons while loading', async () => {
    const { api } = renderShellApp(<DashboardPage />, {
      signedIn: true,
      path: '/dashboard',
      configureApi: (fake) => fake.on('GET', Paths.dashboardOverview('ws-1'), () => new Promise(() => undefined)),
    });
    expect(await screen.findByRole('group', { name: 'Tool calls today' })).toBeInTheDocument();
    expect(screen.queryByTestId('stat-Tool calls today')).not.toBeInTheDocument();
    api.restore();
  });

  it('leads to /servers when the workspace has no servers', async () => {
    const { api } = renderShellApp(<DashboardPage />, {
      signedIn: true,
      path: '/dashboard',
      configureApi: (fake) =>
        fake.on('GET', Paths.dashboardOverview('ws-1'), {
          body: overview({
            servers: { total: 0, online: 0, offline: 0 },
            sessions: { today: 0, active: 0 },
            toolCalls: { today: 0, errors: 0, tokens: 0, definitionTokens: 0, cost: 0 },
            errorRate: 0,
            latencyP95Ms: null,
            latestActivity: [],
            lastActivityAt: null,
          }),
        }),
    });
    expect(await screen.findByText('Connect your first tool server')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Connect a tool server' })).toHaveAttribute('href', '/servers');
    api.restore();
  });

  it('refreshes its numbers when the live stream reports a tool call', async () => {
    let calls = 120;
    const connections: ((event: ConnectionEvent) => void)[] = [];
    const connection = fromCallback<ConnectionEvent, ConnectionInput>(({ sendBack }) => {
      connections.push(sendBack);
      return () => undefined;
    });
    const { api } = renderShellApp(
      <>
        <LiveStream connection={connection} />
        <DashboardPage />
      </>,
      {
        signedIn: true,
        path: '/dashboard',
        configureApi: (fake) =>
          fake.on('GET', Paths.dashboardOverview('ws-1'), () => ({
            body: overview({ toolCalls: { today: calls, errors: 6, tokens: 5400, definitionTokens: 0, cost: 0 } }),
          })),
      },
    );
    await waitFor(() => expect(stat('Tool calls today')).toHaveTextContent('120'));
    await waitFor(() => expect(connections).toHaveLength(1));
    calls = 121;
    act(() => {
      connections[0]({ type: 'OPENED' });
      connections[0]({ type: 'MESSAGE', message: { type: 'tool_call', data: call({ id: 'call-3' }) } });
    });
    await waitFor(() => expect(stat('Tool calls today')).toHaveTextContent('121'));
    api.restore();
  });

  it("asks again at once for a returning user's cached numbers and says they are being refreshed", async () => {
    // The store keeps the first visit's answer (as the persisted cache does across visits).
    let answer: (value: { body: DashboardOverview }) => void = () => undefined;
    let asked = 0;
    function Revisit() {
      const [shown, setShown] = useState(true);
      return (
        <>
          <button type="button" onClick={() => setShown((s) => !s)}>
            toggle
          </button>
          {shown && <DashboardPage />}
        </>
      );
    }
    const { api } = renderShellApp(<Revisit />, {
      signedIn: true,
      path: '/dashboard',
      configureApi: (fake) =>
        fake.on('GET', Paths.dashboardOverview('ws-1'), () => {
          asked += 1;
          if (asked === 1)
            return {
              body: overview({
                sessions: { today: 12, active: 0 },
                toolCalls: { today: 315, errors: 3, tokens: 100, definitionTokens: 0, cost: 0 },
              }),
            };
          return new Promise((resolve) => (answer = resolve));
        }),
    });
    await waitFor(() => expect(stat('Tool calls today')).toHaveTextContent('315'));
    expect(screen.queryByText(/Refreshing numbers/)).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'toggle' }));
    await userEvent.click(screen.getByRole('button', { name: 'toggle' }));
    // Asked at once (not after a stale time or the live stream), the old numbers kept meanwhile.
    await waitFor(() => expect(asked).toBe(2));
    expect(stat('Tool calls today')).toHaveTextContent('315');
    expect(screen.getAllByRole('status').some((el) => /Refreshing numbers from ./.test(el.textContent))).toBe(true);

    act(() =>
      answer({
        body: overview({
          sessions: { today: 15, active: 1 },
          toolCalls: { today: 825, errors: 9, tokens: 900, definitionTokens: 0, cost: 0 },
        }),
      }),
    );
    await waitFor(() => expect(stat('Tool calls today')).toHaveTextContent('825'));
    expect(screen.queryByText(/Refreshing numbers/)).not.toBeInTheDocument();
    api.restore();
  });
});
