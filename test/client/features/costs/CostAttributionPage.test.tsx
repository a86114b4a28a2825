import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Paths } from '../../../../src/contract/routes';
import type { AnalyticsCostsResult } from '../../../../src/contract/analytics';
import { MODEL_PRICES } from '../../../../src/contract/pricing';
import CostAttributionPage from '../../../../src/client/features/costs/pages/CostAttributionPage';
import { attributionCsv, attributionRows } from '../../../../src/client/features/costs/attributionRows';
import { renderShellApp } from '../../helpers/renderShellApp';

configure({ asyncUtilTimeout: 5_000 });
jest.setTimeout(120_000);

const prices = {
  tableDate: '2025-10-01',
  tokenizer: 'o200k_base',
  model: 'gpt-4o',
  modelName: 'GPT-4o',
  inputPerMillion: 2.5,
  outputPerMillion: 10,
  correctionFactor: 1,
  exactTokenizer: true,
  sampledAboveChars: 4096,
  overridden: { inputPerMillion: false, outputPerMillion: false, correctionFactor: false },
  toolPrices: [],
};

function costs(overrides: Partial<AnalyticsCostsResult> = {}): AnalyticsCostsResult {
  return {
    range: { preset: '7d', from: '2026-11-18T12:00:00.000Z', to: '2026-11-25T12:00:00.000Z', step: '1h' },
    currency: 'USD',
    total: 0.0125,
    byDay: [],
    byServer: [
      { id: 'srv-1', name: 'Everything', serverId: 'srv-1', calls: 30, tokens: 4000, cost: 0.01 },
      { id: 'srv-2', name: 'Weather', serverId: 'srv-2', calls: 5, tokens: 1000, cost: 0.0025 },
    ],
    byTool: [
      { id: 'srv-1/echo', name: 'echo', serverId: 'srv-1', calls: 20, tokens: 3000, cost: 0.0075 },
      { id: 'srv-1/get-sum', name: 'get-sum', serverId: 'srv-1', calls: 10, tokens: 1000, cost: 0.0025 },
      { id: 'srv-2/=cmd', name: '=cmd, "quoted"', serverId: 'srv-2', calls: 5, tokens: 1000, cost: 0.0025 },
    ],
    byClient: [{ id: 'claude-code', name: 'claude-code', serverId: null, calls: 35, tokens: 5000, cost: 0.0125 }],
    byKey: [{ id: 'none', name: 'No platform key', serverId: null, calls: 35, tokens: 5000, cost: 0.0125 }],
    bySession: [],
    tokens: { definitions: 3000, arguments: 500, results: 1500 },
    contextWeight: [],
    monthToDate: {
      monthStart: '2026-11-01T00:00:00.000Z',
      cost: 0.02,
      projectedMonthEnd: 0.024,
      basisFrom: '2026-11-01T00:00:00.000Z',
      basisHours: 100,
    },
    prices,
    ...overrides,
  };
}

describe('cost attribution', () => {
  it('exports exactly the rows shown, spreadsheet-safe', () => {
    const rows = attributionRows(costs(), 'tool');
    const csv = attributionCsv(rows, 'tool').split('\r\n');
    expect(csv[0]).toBe('tool,id,server,calls,tokens,cost_usd,share_percent');
    expect(csv[1]).toBe('echo,srv-1/echo,Everything,20,3000,0.007500,60.00');
    expect(csv[3]).toBe(`"'=cmd, ""quoted""",srv-2/=cmd,Weather,5,1000,0.002500,20.00`);
    expect(csv).toHaveLength(5); // header, three rows, the final line break
  });

  it('breaks the spend down by a dimension kept in the URL, and drills from a server to its tools', async () => {
    const asked: URLSearchParams[] = [];
    const user = userEvent.setup();
    const { api } = renderShellApp(<CostAttributionPage />, {
      signedIn: true,
      path: '/cost-attribution?range=30d',
      configureApi: (fake) =>
        fake.on('GET', Paths.analytics('ws-1', 'costs'), ({ url }) => {
          asked.push(url.searchParams);
          return { body: costs() };
        }),
    });
    const table = await screen.findByRole('table', { name: 'Cost attribution' });
    expect(
      within(table)
        .getAllByTestId('attribution-row')
        .map((row) => row.textContent),
    ).toEqual([expect.stringContaining('Everything'), expect.stringContaining('Weather')]);
    expect(asked[0].get('range')).toBe('30d');
    expect(screen.getByRole('button', { name: '30 days' })).toHaveAttribute('aria-pressed', 'true');

    await user.click(within(table).getByRole('button', { name: 'Everything' }));
    await waitFor(() => expect(asked.some((params) => params.get('serverId') === 'srv-1')).toBe(true));
    expect(screen.getByRole('button', { name: 'Tool', pressed: true })).toBeInTheDocument();
    expect(await screen.findByText('Server: Everything')).toBeInTheDocument();
    api.restore();
  });

  it('drills down from anywhere on a row, as its caption says (issue 38)', async () => {
    const asked: URLSearchParams[] = [];
    const user = userEvent.setup();
    const { api } = renderShellApp(<CostAttributionPage />, {
      signedIn: true,
      path: '/cost-attribution?range=30d',
      configureApi: (fake) =>
        fake.on('GET', Paths.analytics('ws-1', 'costs'), ({ url }) => {
          asked.push(url.searchParams);
          return { body: costs() };
        }),
    });
    const table = await screen.findByRole('table', { name: 'Cost attribution' });
    const everything = within(table).getAllByTestId('attribution-row')[0];
    // Not the name: the last cell, the share bar.
    await user.click(within(everything).getAllByRole('cell').at(-1)!);
    await waitFor(() => expect(asked.some((params) => params.get('serverId') === 'srv-1')).toBe(true));
    expect(await screen.findByText('Server: Everything')).toBeInTheDocument();
    api.restore();
  });

  it('leads to /servers when nothing was spent', async () => {
    const { api } = renderShellApp(<CostAttributionPage />, {
      signedIn: true,
      path: '/cost-attribution',
      configureApi: (fake) =>
        fake.on('GET', Paths.analytics('ws-1', 'costs'), {
          body: costs({ byServer: [], byTool: [], byClient: [], byKey: [], total: 0 }),
        }),
    });
    expect(await screen.findByText('Nothing to attribute yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Connect a tool server' })).toHaveAttribute('href', '/servers');
    expect(MODEL_PRICES.length).toBeGreaterThan(5);
    api.restore();
  });
});
