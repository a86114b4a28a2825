import { useState } from 'react';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import {
  EXPORTER_PRESETS,
  OTLP_PROTOCOLS,
  TELEMETRY_SIGNALS,
  type OtlpProtocol,
  type TelemetrySignal,
} from '../../../../contract/telemetry';
import type { FieldErrors } from '../../../api/apiError';
import type { FormFailure } from '../../../components/useFormDialogSubmit';
import { bindTextFields } from '../../../components/bindTextFields';
import { FormDialog } from '../../../components/FormDialog';
import { FormFields } from '../../../components/FormFields';
import { menuOptions } from '../../../components/menuOptions';
import { useValidatedFormSubmit } from '../../../components/useValidatedFormSubmit';

export interface ExporterFormValues {
  name: string;
  endpoint: string;
  protocol: OtlpProtocol;
  headers: { name: string; value: string }[];
  signals: TelemetrySignal[];
  samplingRatio: string;
  enabled: boolean;
}

export const EMPTY_EXPORTER: ExporterFormValues = {
  name: '',
  endpoint: '',
  protocol: 'http/protobuf',
  headers: [],
  signals: ['traces', 'metrics'],
  samplingRatio: '1',
  enabled: true,
};

/** Every problem the browser can see, keyed by field. */
export function validateExporter(values: ExporterFormValues): FieldErrors {
  const errors: FieldErrors = {};
  if (!values.name.trim()) errors.name = 'Name the exporter';
  try {
    const url = new URL(values.endpoint.trim());
    if (url.protocol !== 'http:' && url.protocol !== 'https:') errors.endpoint = 'Expected an http or https URL';
  } catch {
    errors.endpoint = 'Expected the collector URL, e.g. http://localhost:4318';
  }
  const ratio = Number(values.samplingRatio);
  if (values.samplingRatio.trim() === '' || !Number.isFinite(ratio) || ratio < 0 || ratio > 1)
    errors.samplingRatio = 'A number from 0 to 1';
  if (values.signals.length === 0) errors.signals = 'Choose traces, metrics or both';
  if (values.headers.some((h) => !h.name.trim())) errors.headers = 'Every header needs a name';
  return errors;
}

interface ExporterFormDialogProps {
  title: string;
  submitLabel: string;
  initial?: ExporterFormValues;
  onSubmit: (values: ExporterFormValues) => Promise<FormFailure | null>;
  onClose: () => void;
}

/** Add or edit an OTLP exporter, starting from a backend preset. */
export function ExporterFormDialog({
  title,
  submitLabel,
  initial = EMPTY_EXPORTER,
  onSubmit,
  onClose,
}: ExporterFormDialogProps) {
  const [values, setValues] = useState(initial);
  const { busy, errors, general, submit } = useValidatedFormSubmit(values, validateExporter, onSubmit);
  const [preset, setPreset] = useState('');
  const set = <K extends keyof ExporterFormValues>(field: K, value: ExporterFormValues[K]) =>
    setValues((v) => ({ ...v, [field]: value }));

  const applyPreset = (id: string) => {
    setPreset(id);
    const chosen = EXPORTER_PRESETS.find((p) => p.id === id);
    if (!chosen) return;
    setValues((v) => ({
      ...v,
      name: v.name || chosen.label,
      endpoint: chosen.endpoint,
      protocol: chosen.protocol,
      headers: Object.keys(chosen.headers).map((name) => ({ name, value: '' })),
      signals: chosen.id === 'langfuse' ? ['traces'] : v.signals,
    }));
  };

  const chosenPreset = EXPORTER_PRESETS.find((p) => p.id === preset);
  const field = bindTextFields(values, errors, busy, set);
  return (
    <FormDialog
      titleId="exporter-form-title"
      title={title}
      busy={busy}
      onSubmit={submit}
      onClose={onClose}
      submitLabel={submitLabel}
      busyLabel="Saving…"
    >
      <FormFields error={general}>
        <TextField
          select
          label="Start from"
          value={preset}
          onChange={(e) => applyPreset(e.target.value)}
          disabled={busy}
          helperText={chosenPreset?.help ?? 'A preset fills in the endpoint and the headers a backend expects'}
        >
          {EXPORTER_PRESETS.map((p) => (
            <MenuItem key={p.id} value={p.id}>
              {p.label}
            </MenuItem>
          ))}
        </TextField>
        <TextField label="Name" {...field('name')} required />
        <TextField
          label="Endpoint"
          {...field('endpoint', { help: 'The base URL: /v1/traces and /v1/metrics are added' })}
          required
        />
        <TextField select label="Protocol" {...field('protocol')}>
          {menuOptions(OTLP_PROTOCOLS, (protocol) => protocol)}
        </TextField>
        <div>
          <Typography variant="subtitle2">Headers</Typography>
          <Typography variant="caption" color="text.secondary">
            Sent with every export (API keys); stored encrypted and never shown again.
          </Typography>
          {values.headers.map((header, i) => (
            <Stack key={i} direction="row" spacing={1} sx={{ mt: 1 }}>
              <TextField
                size="small"
                label="Header name"
                value={header.name}
                disabled={busy}
                onChange={(e) =>
                  set(
                    'headers',
                    values.headers.map((h, j) => (j === i ? { ...h, name: e.target.value } : h)),
                  )
                }
              />
              <TextField
                size="small"
                label="Value"
                type="password"
                autoComplete="off"
                value={header.value}
                disabled={busy}
                sx={{ flex: 1 }}
                onChange={(e) =>
                  set(
                    'headers',
                    values.headers.map((h, j) => (j === i ? { ...h, value: e.target.value } : h)),
                  )
                }
              />
              <IconButton
                aria-label={`Remove header ${header.name || i + 1}`}
                onClick={() =>
                  set(
                    'headers',
                    values.headers.filter((_, j) => j !== i),
                  )
                }
                disabled={busy}
              >
                <DeleteOutlineIcon />
              </IconButton>
            </Stack>
          ))}
          {errors.headers && (
            <Typography variant="caption" color="error.main" component="p">
              {errors.headers}
            </Typography>
          )}
          <Button
            size="small"
            sx={{ mt: 1 }}
            onClick={() => set('headers', [...values.headers, { name: '', value: '' }])}
            disabled={busy}
          >
            Add header
          </Button>
        </div>
        <FormGroup row aria-label="Signals">
          {TELEMETRY_SIGNALS.map((signal) => (
            <FormControlLabel
              key={signal}
              label={signal === 'traces' ? 'Traces' : 'Metrics'}
              control={
                <Checkbox
                  checked={values.signals.includes(signal)}
                  disabled={busy}
                  onChange={(e) =>
                    set(
                      'signals',
                      e.target.checked ? [...values.signals, signal] : values.signals.filter((s) => s !== signal),
                    )
                  }
                />
              }
            />
          ))}
        </FormGroup>
        {errors.signals && (
          <Typography variant="caption" color="error.main">
            {errors.signals}
          </Typography>
        )}
        <TextField
          label="Sampling ratio"
          {...field('samplingRatio', { help: '1 keeps every trace; 0.1 keeps one in ten (decided per trace id)' })}
        />
      </FormFields>
    </FormDialog>
  );
}
