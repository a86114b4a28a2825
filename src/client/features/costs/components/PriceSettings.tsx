import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { errorMessage } from '../../../api/apiError';
import { useGetPricingQuery, useUpdatePricingMutation } from '../../../api/analyticsApi';
import { ChartCard } from '../../../components/analytics/ChartCard';
import { useToast } from '../../../components/toast';
import type { PricingSettings } from '../../../../contract/pricing';

interface Draft {
  model: string;
  input: string;
  output: string;
  factor: string;
}

/** Blank means "the table's price"; anything else must be a number. */
function parsed(text: string): number | null | undefined {
  if (text.trim() === '') return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

type Prices = PricingSettings['prices'];

/** The form as the stored prices fill it: an override shows its number, the table's price a blank. */
function draftOf(prices: Prices): Draft {
  return {
    model: prices.model,
    input: prices.overridden.inputPerMillion ? String(prices.inputPerMillion) : '',
    output: prices.overridden.outputPerMillion ? String(prices.outputPerMillion) : '',
    factor: prices.overridden.correctionFactor ? String(prices.correctionFactor) : '',
  };
}

/** The price table with the workspace's model; overrides of its prices and of the token correction factor. */
export function PriceSettings({ workspaceId }: { workspaceId: string }) {
  const pricing = useGetPricingQuery(workspaceId);
  const [save, saving] = useUpdatePricingMutation();
  const { toast } = useToast();
  const data = pricing.data;
  const prices = data?.prices;
  // Edits belong to the prices they started from: new prices (loaded, or saved and fetched again) start the form over.
  const [edit, setEdit] = useState<{ basis: Prices; draft: Draft } | null>(null);
  const draft = prices ? (edit?.basis === prices ? edit.draft : draftOf(prices)) : null;
  const setDraft = (next: Draft) => {
    if (prices) setEdit({ basis: prices, draft: next });
  };

  const model = data?.table.find((entry) => entry.id === draft?.model);
  const values = draft
    ? { input: parsed(draft.input), output: parsed(draft.output), factor: parsed(draft.factor) }
    : null;
  const invalid = !values || values.input === undefined || values.output === undefined || values.factor === undefined;
  const submit = () => {
    if (!draft || !values || invalid) return;
    void save({
      workspaceId,
      body: {
        model: draft.model,
        inputPerMillion: values.input,
        outputPerMillion: values.output,
        correctionFactor: values.factor,
      },
    })
      .unwrap()
      .then(
        () => toast({ title: 'Prices saved', description: 'Every chart is re-priced from the stored token counts.' }),
        () => undefined, // shown in the form (saving.isError)
      );
  };
  // A choice changes nothing until saved (issue 38: the model picker seemed to do nothing): say so.
  const unsaved = prices !== undefined && draft !== null && JSON.stringify(draft) !== JSON.stringify(draftOf(prices));
  return (
    <ChartCard
      title="Prices"
      subtitle={
        pricing.data
          ? `Default table of ${pricing.data.prices.tableDate}, USD per million tokens · tokens counted with ${pricing.data.prices.tokenizer}`
          : undefined
      }
      loading={!pricing.data || !draft}
      height={120}
    >
      {data && draft && model && (
        <Box
          component="form"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
          sx={{ display: 'grid', gap: 2 }}
        >
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start' }}>
            <TextField
              select
              size="small"
              label="Model"
              value={draft.model}
              onChange={(e) => setDraft({ ...draft, model: e.target.value })}
              sx={{ minWidth: 220 }}
            >
              {data.table.map((entry) => (
                <MenuItem key={entry.id} value={entry.id}>
                  {entry.name} · ${entry.inputPerMillion} / ${entry.outputPerMillion}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              size="small"
              label="Input $/M"
              placeholder={String(model.inputPerMillion)}
              value={draft.input}
              onChange={(e) => setDraft({ ...draft, input: e.target.value })}
              error={values?.input === undefined}
              helperText="Blank: the table's"
              sx={{ width: 130 }}
            />
            <TextField
              size="small"
              label="Output $/M"
              placeholder={String(model.outputPerMillion)}
              value={draft.output}
              onChange={(e) => setDraft({ ...draft, output: e.target.value })}
              error={values?.output === undefined}
              helperText="Blank: the table's"
              sx={{ width: 130 }}
            />
            <TextField
              size="small"
              label="Token factor"
              placeholder={String(model.correctionFactor)}
              value={draft.factor}
              onChange={(e) => setDraft({ ...draft, factor: e.target.value })}
              error={values?.factor === undefined}
              helperText={model.exactTokenizer ? 'Counts are exact' : 'Counts are estimates'}
              sx={{ width: 130 }}
            />
            <Button type="submit" variant="contained" disabled={invalid || saving.isLoading} sx={{ mt: 0.25 }}>
              {saving.isLoading ? 'Saving…' : 'Save prices'}
            </Button>
          </Box>
          {!model.exactTokenizer && (
            <Typography variant="caption" color="text.secondary">
              {model.vendor} publishes no offline tokenizer: its counts are o200k_base counts times the factor (
              {model.correctionFactor} by default), an estimate you can correct.
            </Typography>
          )}
          <Typography variant="caption" color="text.secondary">
            Results and arguments longer than {data.prices.sampledAboveChars.toLocaleString('en')} characters are
            counted from a sample scaled to their length: their counts are estimates.
          </Typography>
          {unsaved && (
            <Alert severity="info" role="status">
              Unsaved changes: the charts use the saved prices until you save.
            </Alert>
          )}
          {saving.isError && <Alert severity="error">{errorMessage(saving.error)}</Alert>}
          {saving.isSuccess && !unsaved && (
            <Alert severity="success">Prices saved: every chart is re-priced from the stored token counts.</Alert>
          )}
        </Box>
      )}
    </ChartCard>
  );
}
