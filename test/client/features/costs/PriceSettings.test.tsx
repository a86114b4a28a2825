import { configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MODEL_PRICES, type PricingSettings } from '../../../../src/contract/pricing';
import { Paths } from '../../../../src/contract/routes';
import { PriceSettings } from '../../../../src/client/features/costs/components/PriceSettings';
import { renderShellApp } from '../../helpers/renderShellApp';

configure({ asyncUtilTimeout: 5_000 });

// Issue 38: the model picker seemed to do nothing until "Save prices" — no hint, no toast.
function settings(model: string): PricingSettings {
  const entry = MODEL_PRICES.find((m) => m.id === model)!;
  return {
    prices: {
      tableDate: '2025-10-01',
      tokenizer: 'o200k_base',
      model,
      modelName: entry.name,
      inputPerMillion: entry.inputPerMillion,
      outputPerMillion: entry.outputPerMillion,
      correctionFactor: entry.correctionFactor,
      exactTokenizer: entry.exactTokenizer,
      sampledAboveChars: 4096,
      overridden: { inputPerMillion: false, outputPerMillion: false, correctionFactor: false },
      toolPrices: [],
    },
    table: MODEL_PRICES.map((m) => ({ ...m })),
  };
}

it('says a changed model is unsaved, and confirms a save with a toast', async () => {
  let stored = settings('gpt-5');
  const puts: unknown[] = [];
  const user = userEvent.setup();
  const { api } = renderShellApp(<PriceSettings workspaceId="ws-1" />, {
    signedIn: true,
    configureApi: (fake) => {
      fake.on('GET', Paths.analyticsPricing('ws-1'), () => ({ body: stored }));
      fake.on('PUT', Paths.analyticsPricing('ws-1'), ({ body }) => {
        puts.push(body);
        stored = settings((body as { model: string }).model);
        return { body: stored };
      });
    },
  });
  const picker = await screen.findByRole('combobox', { name: 'Model' });
  expect(screen.queryByText(/Unsaved changes/)).not.toBeInTheDocument();
  await user.click(picker);
  await user.click(screen.getByRole('option', { name: /^GPT-4o ·/ }));
  expect(screen.getByText('Unsaved changes: the charts use the saved prices until you save.')).toBeInTheDocument();

  await user.click(screen.getByRole('button', { name: 'Save prices' }));
  expect(await screen.findByText('Prices saved')).toBeInTheDocument();
  expect(puts).toEqual([expect.objectContaining({ model: 'gpt-4o' })]);
  await waitFor(() => expect(screen.queryByText(/Unsaved changes/)).not.toBeInTheDocument());
  api.restore();
});
