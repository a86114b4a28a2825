import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEFAULT_FLAGS } from '../../../../src/contract/flags';
import { PLANS, type Plan } from '../../../../src/contract/plans';
import { Paths } from '../../../../src/contract/routes';
import { AppDialogs } from '../../../../src/client/app/AppDialogs';
import { openDialog, selectOpenDialog } from '../../../../src/client/app/dialogsSlice';
import { installFakeApi, type FakeApi } from '../../helpers/fakeApi';
import { renderWithProviders } from '../../helpers/renderWithProviders';

// jest.config.ts gives the client project 15 s, but Jest reads testTimeout only globally.
jest.setTimeout(15_000);

/** The plans GET /api/v1/config serves once an operator has configured price ids. */
const CONFIGURED_PLANS: Plan[] = PLANS.map((plan) => ({
  ...plan,
  priceId: { monthly: `price_${plan.id}_m`, annually: `price_${plan.id}_y` },
}));

let api: FakeApi;

afterEach(() => {
  api.restore();
  jest.useRealTimers();
  jest.restoreAllMocks();
});

function openUpgradeDialog(plans: Plan[] = CONFIGURED_PLANS) {
  api = installFakeApi();
  api.on('GET', Paths.config, {
    body: { flags: DEFAULT_FLAGS, plans, environment: 'production', version: 'test', publicUrl: null },
  });
  const view = renderWithProviders(<AppDialogs />);
  act(() => {
    view.store.dispatch(openDialog('upgrade'));
  });
  return view;
}

const card = (name: string) => screen.getByRole('region', { name });
/** The config has loaded and the cards are on screen. */
const plansShown = () => screen.findByRole('button', { name: 'Current Plan' });

describe('UpgradeDialog', () => {
  it('shows the three plans with features, the popular badge and the current plan', async () => {
    openUpgradeDialog();
    await plansShown();
    expect(screen.getByRole('dialog', { name: 'Upgrade your plan' })).toBeInTheDocument();

    const starter = card('Starter');
    const pro = card('Pro');
    const enterprise = card('Enterprise');
    expect(within(starter).getByRole('button', { name: 'Current Plan' })).toBeDisabled();
    expect(within(pro).getByRole('button', { name: 'Upgrade to Pro' })).toBeEnabled();
    expect(within(enterprise).getByRole('button', { name: 'Upgrade to Enterprise' })).toBeEnabled();

    expect(within(pro).getByText('Most Popular')).toBeInTheDocument();
    expect(within(starter).queryByText('Most Popular')).not.toBeInTheDocument();
    expect(within(starter).getByText('$0')).toBeInTheDocument();
    expect(within(pro).getByText('$29')).toBeInTheDocument();
    expect(within(enterprise).getByText('$99')).toBeInTheDocument();
    expect(within(pro).getAllByText('/month')).toHaveLength(1);

    expect(within(starter).getByText('Agent calls per month: 1,000')).toBeInTheDocument();
    expect(within(pro).getByText('Agent calls per month: 100,000')).toBeInTheDocument();
    expect(within(enterprise).getByText('Workspaces: Unlimited')).toBeInTheDocument();
    // Starter lacks only team workspaces; drift alerts are everyone's (docs/settings.md "Plans").
    expect(within(starter).getAllByTitle('Not included')).toHaveLength(1);
    expect(within(pro).queryAllByTitle('Not included')).toHaveLength(0);
  });

  it("switches to annual prices with the 'Save 17%' badge and the per-month saving", async () => {
    const user = userEvent.setup();
    openUpgradeDialog();
    await plansShown();

    const annual = screen.getByRole('button', { name: /Annual/ });
    expect(within(annual).getByText('Save 17%')).toBeInTheDocument();
    await user.click(annual);

    expect(annual).toHaveAttribute('aria-pressed', 'true');
    expect(within(card('Pro')).getByText('$290')).toBeInTheDocument();
    expect(within(card('Pro')).getByText('/year')).toBeInTheDocument();
    expect(within(card('Pro')).getByText('Save $4.83/month')).toBeInTheDocument();
    expect(within(card('Enterprise')).getByText('Save $16.50/month')).toBeInTheDocument();
    expect(within(card('Starter')).queryByText(/Save \$/)).not.toBeInTheDocument();
  });

  it('takes prices from the configuration', async () => {
    const repriced = CONFIGURED_PLANS.map((plan) =>
      plan.id === 'pro' ? { ...plan, price: { monthly: 50, annually: 480 } } : plan,
    );
    openUpgradeDialog(repriced);
    await plansShown();
    expect(within(card('Pro')).getByText('$50')).toBeInTheDocument();
  });

  it('goes to the payment summary for Pro and Back returns to the selection, keeping the interval', async () => {
    const user = userEvent.setup();
    openUpgradeDialog();
    await plansShown();
    await user.click(screen.getByRole('button', { name: /Annual/ }));
    await user.click(screen.getByRole('button', { name: 'Upgrade to Pro' }));

    expect(screen.getByRole('heading', { name: 'Payment summary' })).toBeInTheDocument();
    expect(screen.getByText('Billed annually')).toBeInTheDocument();
    expect(screen.getByText('$290/year')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Pay $290' })).toBeEnabled();

    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByRole('button', { name: 'Upgrade to Pro' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Annual/ })).toHaveAttribute('aria-pressed', 'true');
  });

  it("pays through the stub: 'Processing', a fake checkout after 1 s, an alert instead of the redirect, then 'Payment Successful!'", async () => {
    jest.useFakeTimers();
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    const alert = jest.spyOn(window, 'alert').mockImplementation(() => undefined);
    const { store } = openUpgradeDialog();
    await plansShown();
    await user.click(screen.getByRole('button', { name: 'Upgrade to Pro' }));
    await user.click(screen.getByRole('button', { name: 'Pay $29' }));

    expect(screen.getByRole('button', { name: 'Processing' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Back' })).toBeDisabled();
    await act(async () => {
      await jest.advanceTimersByTimeAsync(999);
    });
    expect(alert).not.toHaveBeenCalled();

    await act(async () => {
      await jest.advanceTimersByTimeAsync(1);
    });
    expect(alert).toHaveBeenCalledWith(expect.stringContaining('cs_simulated_pro_monthly'));
    expect(await screen.findByText('Payment Successful!')).toBeInTheDocument();
    expect(selectOpenDialog(store.getState())).toBeNull();
    expect(screen.queryByRole('dialog', { name: 'Upgrade your plan' })).not.toBeInTheDocument();
    expect(api.calls.filter((call) => call.includes('checkout'))).toEqual([]);
  });

  it("fails with 'Price ID not configured for this plan' inline and in a 'Payment Failed' toast", async () => {
    const user = userEvent.setup();
    const withoutAnnualPro = CONFIGURED_PLANS.map((plan) =>
      plan.id === 'pro' ? { ...plan, priceId: { monthly: 'price_pro_m', annually: '' } } : plan,
    );
    openUpgradeDialog(withoutAnnualPro);
    await plansShown();
    await user.click(screen.getByRole('button', { name: /Annual/ }));
    await user.click(screen.getByRole('button', { name: 'Upgrade to Pro' }));
    await user.click(screen.getByRole('button', { name: 'Pay $290' }));

    const dialog = screen.getByRole('dialog', { name: 'Upgrade your plan' });
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Price ID not configured for this plan');
    expect(await screen.findByText('Payment Failed')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Pay $290' })).toBeEnabled();
  });

  it('resets when closed and reopened', async () => {
    const user = userEvent.setup();
    const { store } = openUpgradeDialog();
    await plansShown();
    await user.click(screen.getByRole('button', { name: /Annual/ }));
    await user.click(screen.getByRole('button', { name: 'Upgrade to Enterprise' }));
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(selectOpenDialog(store.getState())).toBeNull());

    act(() => {
      store.dispatch(openDialog('upgrade'));
    });
    expect(await screen.findByRole('button', { name: 'Upgrade to Enterprise' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Monthly' })).toHaveAttribute('aria-pressed', 'true');
  });
});
