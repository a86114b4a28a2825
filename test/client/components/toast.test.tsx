import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Button from '@mui/material/Button';
import { TOAST_DURATION_MS } from '../../../src/contract/constants';
import { showToast, TOAST_AREA_LABEL, toastBridge } from '../../../src/client/components/toast';
import { toastRegistry } from '../../../src/client/components/toast/toastRegistry';
import { renderWithProviders } from '../helpers/renderWithProviders';

afterEach(() => {
  toastRegistry.reset();
  jest.useRealTimers();
});

const toastArea = () => screen.getByRole('region', { name: TOAST_AREA_LABEL });

describe('toasts (SPEC §2 Shell, §4 Toasts)', () => {
  it('shows a title, a description, an action and a close button in the toast area', async () => {
    renderWithProviders(<p>page</p>);
    act(() => {
      showToast({
        title: 'Workspace Created',
        description: 'Team Alpha is ready',
        action: <Button size="small">Open</Button>,
      });
    });
    const toast = await within(toastArea()).findByRole('status');
    expect(toast).toHaveTextContent('Workspace Created');
    expect(toast).toHaveTextContent('Team Alpha is ready');
    expect(within(toast).getByRole('button', { name: 'Open' })).toBeInTheDocument();
    expect(within(toast).getByRole('button', { name: 'Close' })).toBeInTheDocument();
    expect(toast).toHaveAttribute('data-variant', 'default');
  });

  it('keeps toasts asked for before the toast area is up, and shows them once it is', async () => {
    showToast({ title: 'Early bird' });
    renderWithProviders(<p>page</p>);
    expect(await within(toastArea()).findByText('Early bird')).toBeInTheDocument();
  });

  it('shows one toast at a time: a new one replaces the previous', async () => {
    renderWithProviders(<p>page</p>);
    act(() => {
      showToast({ title: 'First' });
    });
    await screen.findByText('First');
    act(() => {
      showToast({ title: 'Second' });
    });
    await screen.findByText('Second');
    await waitFor(() => expect(screen.queryByText('First')).not.toBeInTheDocument());
    expect(within(toastArea()).getAllByRole('status')).toHaveLength(1);
  });

  it('replaces a toast that stays until closed, too (a Server Offline must not wait behind it)', async () => {
    renderWithProviders(<p>page</p>);
    act(() => {
      showToast({ title: 'Sticky', duration: null });
    });
    await screen.findByText('Sticky');
    act(() => {
      showToast({
        title: 'Server Offline',
        description: 'Everything is not responding to health checks',
        variant: 'destructive',
      });
    });
    expect(await screen.findByText('Server Offline')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Sticky')).not.toBeInTheDocument());
  });

  it('renders the destructive variant as an alert', async () => {
    renderWithProviders(<p>page</p>);
    act(() => {
      showToast({
        title: 'Server Offline',
        description: 'Everything is not responding to health checks',
        variant: 'destructive',
      });
    });
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveAttribute('data-variant', 'destructive');
    expect(toast).toHaveTextContent('Server Offline');
  });

  it('can be updated and dismissed by whoever showed it', async () => {
    renderWithProviders(<p>page</p>);
    let handle!: ReturnType<typeof showToast>;
    act(() => {
      handle = showToast({ title: 'Discovering schemas', description: 'Attempt 1 of 10' });
    });
    await screen.findByText('Attempt 1 of 10');
    act(() => handle.update({ title: 'Schemas discovered', description: 'Found 3 schema(s) for this server' }));
    expect(await screen.findByText('Found 3 schema(s) for this server')).toBeInTheDocument();
    expect(screen.getByText('Schemas discovered')).toBeInTheDocument();
    act(() => handle.dismiss());
    await waitFor(() => expect(screen.queryByText('Schemas discovered')).not.toBeInTheDocument());
  });

  it('closes with its close button', async () => {
    renderWithProviders(<p>page</p>);
    act(() => {
      showToast({ title: 'Saved' });
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByText('Saved')).not.toBeInTheDocument(), { timeout: 5_000 });
  });

  it('closes when swiped 50 px or more, not less', async () => {
    renderWithProviders(<p>page</p>);
    act(() => {
      showToast({ title: 'Swipe me' });
    });
    await screen.findByRole('status');
    // Each gesture is sent to the toast as it is then (queried anew, never a node held across
    // renders), and the exit slide may take longer than waitFor's default second on a busy CI.
    const swipe = (fromX: number, toX: number) => {
      const toast = screen.getByRole('status');
      fireEvent.touchStart(toast, { touches: [{ clientX: fromX }] });
      fireEvent.touchEnd(toast, { changedTouches: [{ clientX: toX }] });
    };
    swipe(100, 149);
    expect(screen.getByText('Swipe me')).toBeInTheDocument();
    swipe(100, 150);
    await waitFor(() => expect(screen.queryByText('Swipe me')).not.toBeInTheDocument(), { timeout: 5_000 });
  });

  it('hides by itself after 5 seconds', async () => {
    renderWithProviders(<p>page</p>);
    // The toast area's code loads after the first render; the clock is faked once it is up.
    let toastAreaReady = false;
    void toastBridge.whenReady().then(() => (toastAreaReady = true));
    await waitFor(() => expect(toastAreaReady).toBe(true));
    jest.useFakeTimers();
    act(() => {
      showToast({ title: 'Copied' });
    });
    act(() => jest.advanceTimersByTime(TOAST_DURATION_MS - 100));
    expect(screen.getByText('Copied')).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(100));
    // The exit slide and the collapse run on timers too, each scheduled after the previous.
    for (let step = 0; step < 10; step += 1) act(() => jest.advanceTimersByTime(200));
    expect(screen.queryByText('Copied')).not.toBeInTheDocument();
  });

  it('F8 moves the focus to the toast area', async () => {
    renderWithProviders(<button type="button">elsewhere</button>);
    screen.getByRole('button', { name: 'elsewhere' }).focus();
    await userEvent.keyboard('{F8}');
    expect(toastArea()).toHaveFocus();
  });
});
