import { screen } from '@testing-library/react';
import type { AnalyticsOverviewResult, OverviewTotals } from '../../../../src/contract/analytics';
import { OverviewKpis } from '../../../../src/client/features/analytics/components/OverviewKpis';
import { renderWithProviders } from '../../helpers/renderWithProviders';

const totals = (overrides: Partial<OverviewTotals>): OverviewTotals => ({
  calls: 0,
  errors: 0,
  errorRate: 0,
  sessions: 0,
  clients: 0,
  tokens: 0,
  definitionTokens: 0,
  cost: 0,
  p50Ms: null,
  p95Ms: null,
  ...overrides,
});

const overview: AnalyticsOverviewResult = {
  range: { preset: '7d', from: '2026-11-18T12:00:00.000Z', to: '2026-11-25T12:00:00.000Z', step: '1h' },
  totals: totals({
    calls: 200,
    errors: 10,
    sessions: 4,
    clients: 2,
    tokens: 5000,
    definitionTokens: 3000,
    cost: 0.5,
    p95Ms: 250,
  }),
  previous: totals({ calls: 100, errors: 5, sessions: 4, clients: 1, tokens: 5000, cost: 0.25 }),
  series: [],
};

it('shows the seven totals, each against the period before, a rise of errors or cost as bad news', () => {
  renderWithProviders(
    <OverviewKpis
      overview={overview}
      loading={false}
      tokenCorrection={{ model: 'Claude', factor: 1.2, exact: false }}
    />,
  );
  const shown = (label: string) => screen.getByTestId(`kpi-${label}`).textContent;
  expect(['Calls', 'Errors', 'Sessions', 'Clients', 'Tokens', 'Cost', 'p95 latency'].map(shown)).toEqual([
    '200',
    '10 · 5.0%',
    '4',
    '2',
    '5,000',
    '$0.5000',
    '250 ms',
  ]);
  expect(screen.getByTestId('kpi-detail-Tokens')).toHaveTextContent(
    'incl. 3,000 of tool definitions · ≈ 6,000 Claude tokens (×1.2, est.)',
  );
  expect(screen.queryByTestId('kpi-detail-Calls')).not.toBeInTheDocument();
  expect(screen.getByTestId('kpi-change-Calls')).toHaveTextContent('+100% vs previous');
  expect(screen.getByTestId('kpi-change-Sessions')).toHaveTextContent('0% vs previous');
  // No latency before: nothing to compare with.
  expect(screen.queryByTestId('kpi-change-p95 latency')).not.toBeInTheDocument();
  const calls = getComputedStyle(screen.getByTestId('kpi-change-Calls')).color;
  const errors = getComputedStyle(screen.getByTestId('kpi-change-Errors')).color;
  const cost = getComputedStyle(screen.getByTestId('kpi-change-Cost')).color;
  expect(errors).not.toBe(calls);
  expect(cost).toBe(errors);
});
