import { screen } from '@testing-library/react';
import { ErrorText } from '../../../../src/contract/errors';
import { AnalyticsPageFrame } from '../../../../src/client/components/analytics/AnalyticsPageFrame';
import { renderWithProviders } from '../../helpers/renderWithProviders';

// The frame of /analytics, /performance, /cost-analytics and /cost-attribution: what stands in
// place of a screen's charts. The screens' own tests cover an empty range and a working screen.
const empty = { when: true, icon: null, title: 'No calls in this range', description: 'Calls will show here.' };
const serverName = (id: string) => (id === 'srv-1' ? 'Everything' : id);

function Frame({ workspaceId = 'ws-1', isError = false }: { workspaceId?: string | null; isError?: boolean }) {
  return (
    <AnalyticsPageFrame
      title="Performance"
      subtitle="Latency and reliability of every tool"
      serverName={serverName}
      workspaceId={workspaceId}
      query={{ isError, error: { status: 500, message: 'API Error 500: Internal error' } }}
      empty={empty}
    >
      {(shown) => <p>Charts of {shown}</p>}
    </AnalyticsPageFrame>
  );
}

it('keeps the charts of an empty range when a filter narrows it, so the filter can be removed', () => {
  renderWithProviders(<Frame />, { initialEntries: ['/performance?serverId=srv-1'] });
  expect(screen.getByText('Charts of ws-1')).toBeInTheDocument();
  expect(screen.queryByText('No calls in this range')).not.toBeInTheDocument();
  expect(screen.getByText('Server: Everything')).toBeInTheDocument();
});

it('shows the empty state of an unfiltered empty range, leading to /servers', () => {
  renderWithProviders(<Frame />, { initialEntries: ['/performance'] });
  expect(screen.getByText('No calls in this range')).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Connect a tool server' })).toHaveAttribute('href', '/servers');
  expect(screen.queryByText(/Charts of/)).not.toBeInTheDocument();
});

it('shows the query error, or the missing workspace, under the header instead of the screen', () => {
  const { unmount } = renderWithProviders(<Frame isError />, { initialEntries: ['/performance'] });
  expect(screen.getByRole('heading', { level: 1, name: 'Performance' })).toBeInTheDocument();
  expect(screen.getByText('API Error 500: Internal error')).toBeInTheDocument();
  expect(screen.queryByText(/Charts of/)).not.toBeInTheDocument();
  unmount();

  renderWithProviders(<Frame workspaceId={null} />, { initialEntries: ['/performance'] });
  expect(screen.getByText(ErrorText.noWorkspace)).toBeInTheDocument();
  expect(screen.getByRole('button', { name: '7 days' })).toBeInTheDocument();
  expect(screen.queryByText(/Charts of/)).not.toBeInTheDocument();
});
