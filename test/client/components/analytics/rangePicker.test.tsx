import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AnalyticsToolbar } from '../../../../src/client/components/analytics/AnalyticsToolbar';
import { useAnalyticsRange } from '../../../../src/client/components/analytics/useAnalyticsRange';
import { renderWithProviders } from '../../helpers/renderWithProviders';

// Issue 38: the shortest analytics range was 24 h. Now 1 h and 6 h, and a custom range of the
// user's own, kept in the URL like the presets.
function Screen() {
  const { range, filters, query, setRange, setFilters } = useAnalyticsRange();
  return (
    <>
      <AnalyticsToolbar range={range} onRange={setRange} filters={filters} onFilters={setFilters} />
      <output data-testid="query">{JSON.stringify(query)}</output>
    </>
  );
}
const query = () => JSON.parse(screen.getByTestId('query').textContent) as Record<string, string>;

it('offers 1 hour and 6 hours', async () => {
  renderWithProviders(<Screen />, { initialEntries: ['/analytics'] });
  await userEvent.click(screen.getByRole('button', { name: '1 hour' }));
  expect(query()).toEqual({ range: '1h' });
  await userEvent.click(screen.getByRole('button', { name: '6 hours' }));
  expect(query()).toEqual({ range: '6h' });
});

it('applies a custom range as from/to, and a preset takes over again', async () => {
  renderWithProviders(<Screen />, { initialEntries: ['/analytics?range=24h'] });
  await userEvent.click(screen.getByRole('button', { name: 'Custom' }));
  const form = await screen.findByRole('group', { name: 'Custom range' });
  fireEvent.change(within(form).getByLabelText('From'), { target: { value: '2026-11-27T08:00' } });
  fireEvent.change(within(form).getByLabelText('To'), { target: { value: '2026-11-27T06:00' } });
  expect(within(form).getByText('The end must be after the start')).toBeInTheDocument();
  expect(within(form).getByRole('button', { name: 'Apply' })).toBeDisabled();
  fireEvent.change(within(form).getByLabelText('To'), { target: { value: '2026-11-27T10:30' } });
  await userEvent.click(within(form).getByRole('button', { name: 'Apply' }));
  await waitFor(() => expect(query().from).toBe(new Date('2026-11-27T08:00').toISOString()));
  expect(query().to).toBe(new Date('2026-11-27T10:30').toISOString());
  expect(query().range).toBeUndefined();
  // No preset shows pressed while a custom range is on.
  expect(screen.getByRole('button', { name: '24 hours' })).toHaveAttribute('aria-pressed', 'false');

  await userEvent.click(screen.getByRole('button', { name: '7 days' }));
  expect(query()).toEqual({ range: '7d' });
});
