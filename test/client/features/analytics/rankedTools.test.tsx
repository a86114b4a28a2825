import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AnalyticsToolsResult } from '../../../../src/contract/analytics';
import { SlowestTools } from '../../../../src/client/features/analytics/components/SlowestTools';
import { TopTools } from '../../../../src/client/features/analytics/components/TopTools';
import { renderWithProviders } from '../../helpers/renderWithProviders';

// /analytics' Top tools and /performance's Slowest tools are one ranked table with their own columns.
const calledTool = (index: number): AnalyticsToolsResult['tools'][number] => ({
  tool: `tool-${index}`,
  serverId: 'srv-1',
  serverName: 'Everything',
  calls: 100 - index,
  errorRate: 0.01,
  p50Ms: 10,
  p95Ms: 250,
  avgResultTokens: 40,
  lastCalledAt: null,
});

it('shows the first eight most called tools with their numbers; a name filters to the tool', async () => {
  const onTool = jest.fn();
  const tools = Array.from({ length: 10 }, (_, index) => calledTool(index));
  renderWithProviders(<TopTools tools={tools} onTool={onTool} />);
  const table = screen.getByRole('table', { name: 'Top tools' });
  expect(
    within(table)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent),
  ).toEqual(['Tool', 'Server', 'Calls', 'Errors', 'p95']);
  const rows = within(table).getAllByRole('row').slice(1);
  expect(rows).toHaveLength(8);
  expect(
    within(rows[0])
      .getAllByRole('cell')
      .map((cell) => cell.textContent),
  ).toEqual(['tool-0', 'Everything', '100', '1.0%', '250 ms']);
  await userEvent.click(within(rows[1]).getByRole('button', { name: 'tool-1' }));
  expect(onTool).toHaveBeenCalledWith('tool-1', 'srv-1');
});

it('says so when no tool was called, where the slowest tools keep their empty table', () => {
  renderWithProviders(<TopTools tools={[]} onTool={() => undefined} />);
  expect(screen.getByText('No tool was called in this range.')).toBeInTheDocument();
  expect(screen.queryByRole('table', { name: 'Top tools' })).not.toBeInTheDocument();

  renderWithProviders(<SlowestTools tools={[]} onTool={() => undefined} />);
  const table = screen.getByRole('table', { name: 'Slowest tools' });
  expect(
    within(table)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent),
  ).toEqual(['Tool', 'Server', 'Calls', 'p50', 'p95', 'p99', 'Max', 'Errors']);
  expect(within(table).getAllByRole('row')).toHaveLength(1);
});
