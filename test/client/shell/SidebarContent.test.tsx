import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SidebarContent } from '../../../src/client/shell/SidebarContent';
import { selectOpenDialog } from '../../../src/client/app/dialogsSlice';
import { renderShellApp } from '../helpers/renderShellApp';

afterEach(() => localStorage.clear());

describe('SidebarContent', () => {
  it('follows the flags the server hands out', async () => {
    const { api } = renderShellApp(<SidebarContent collapsed={false} />, {
      signedIn: true,
      flags: { show_marketplace: false, show_cost_analytics: true, show_schema_studio: true },
    });
    expect(await screen.findByRole('link', { name: 'Cost Analytics' })).toHaveAttribute('href', '/cost-analytics');
    expect(screen.queryByRole('link', { name: 'Marketplace' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Schema Studio' })).toHaveAttribute('href', '/schema-studio');
    expect(screen.getByRole('link', { name: 'Tool Reasoning' })).toHaveAttribute('href', '/thought-tracing');
    expect(screen.queryByRole('link', { name: 'Cost Attribution' })).not.toBeInTheDocument();
    api.restore();
  });

  it('uses the default flags until the config arrives', () => {
    const { api } = renderShellApp(<SidebarContent collapsed={false} />, { signedIn: true });
    expect(screen.getByRole('link', { name: 'Marketplace' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Performance' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Cost Analytics' })).not.toBeInTheDocument();
    api.restore();
  });

  it('links Overview to / and Workspace Settings to the current workspace', () => {
    const { api } = renderShellApp(<SidebarContent collapsed={false} />, { signedIn: true, path: '/dashboard' });
    const overview = screen.getByRole('link', { name: 'Overview' });
    expect(overview).toHaveAttribute('href', '/');
    expect(overview).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Workspace Settings' })).toHaveAttribute(
      'href',
      '/workspace/ws-1/settings',
    );
    api.restore();
  });

  it("shows the 'Upgrade to Pro' card when show_upgrade_pro is on; 'Upgrade Now' opens the upgrade dialog", async () => {
    const { api, store } = renderShellApp(<SidebarContent collapsed={false} />, {
      signedIn: true,
      flags: { show_upgrade_pro: true },
    });
    const card = await screen.findByRole('region', { name: 'Upgrade to Pro' });
    await userEvent.click(within(card).getByRole('button', { name: 'Upgrade Now' }));
    expect(selectOpenDialog(store.getState())).toBe('upgrade');
    api.restore();
  });

  it('has no upgrade card when show_upgrade_pro is off', async () => {
    const { api } = renderShellApp(<SidebarContent collapsed={false} />, {
      signedIn: true,
      flags: { show_upgrade_pro: false },
    });
    await screen.findByRole('link', { name: 'Marketplace' });
    expect(screen.queryByText('Upgrade to Pro')).not.toBeInTheDocument();
    api.restore();
  });

  it('keeps every link reachable by name when collapsed to icons', () => {
    const { api } = renderShellApp(<SidebarContent collapsed />, { signedIn: true });
    expect(screen.getByRole('link', { name: 'Tool Servers' })).toHaveAttribute('href', '/servers');
    expect(screen.queryByText('Connections')).not.toBeInTheDocument();
    api.restore();
  });

  it('scrolls the sections and the upgrade card together, and hints when more lies below', async () => {
    const { api } = renderShellApp(<SidebarContent collapsed={false} />, {
      signedIn: true,
      flags: { show_upgrade_pro: true },
    });
    const scroller = screen.getByTestId('sidebar-scroll');
    // The card is inside the scrolling box, after the last section: it can never cover an item.
    expect(await within(scroller).findByRole('region', { name: 'Upgrade to Pro' })).toBeInTheDocument();
    expect(within(scroller).getByRole('link', { name: 'Integrations' })).toBeInTheDocument();
    expect(screen.queryByTestId('sidebar-more-below')).not.toBeInTheDocument();
    // A short screen (jsdom has no layout: the box's sizes are set by hand).
    Object.defineProperty(scroller, 'scrollHeight', { configurable: true, value: 900 });
    Object.defineProperty(scroller, 'clientHeight', { configurable: true, value: 600 });
    fireEvent.scroll(scroller);
    expect(screen.getByTestId('sidebar-more-below')).toBeInTheDocument();
    Object.defineProperty(scroller, 'scrollTop', { configurable: true, value: 300 });
    fireEvent.scroll(scroller);
    expect(screen.queryByTestId('sidebar-more-below')).not.toBeInTheDocument();
    api.restore();
  });
});
