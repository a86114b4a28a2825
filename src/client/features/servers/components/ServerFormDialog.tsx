import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useFormDialogSubmit, type FormFailure } from '../../../components/useFormDialogSubmit';

export interface ServerFormValues {
  url: string;
  name: string;
  description: string;
}

interface ServerFormDialogProps {
  title: string;
  submitLabel: string;
  busyLabel: string;
  initial?: ServerFormValues;
  /** Resolves to null on success, or to the error to show (message and per-field texts). */
  onSubmit: (values: ServerFormValues) => Promise<FormFailure | null>;
  onClose: () => void;
}

const EMPTY: ServerFormValues = { url: '', name: '', description: '' };

/** The add / edit server form: url, name, description; the server's field errors show at the field. */
export function ServerFormDialog({ title, submitLabel, busyLabel, initial = EMPTY, onSubmit, onClose }: ServerFormDialogProps) {
  const [values, setValues] = useState(initial);
  const blank = !values.url.trim() || !values.name.trim();
  const { busy, fields, general, submit } = useFormDialogSubmit(
    () => onSubmit({ url: values.url.trim(), name: values.name.trim(), description: values.description.trim() }),
    blank,
  );

  const change = (field: keyof ServerFormValues) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [field]: event.target.value }));


  return (
    <Dialog open onClose={busy ? undefined : onClose} fullWidth maxWidth="sm" aria-labelledby="server-form-title">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id="server-form-title">{title}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {general && <Alert severity="error">{general}</Alert>}
            <TextField
              label="Server URL"
              name="url"
              value={values.url}
              onChange={change('url')}
              placeholder="https://tools.example.com/mcp"
              required
              autoFocus
              disabled={busy}
              error={Boolean(fields.url)}
              helperText={fields.url ?? 'The Streamable HTTP endpoint of your MCP server'}
            />
            <TextField
              label="Name"
              name="name"
              value={values.name}
              onChange={change('name')}
              required
              disabled={busy}
              error={Boolean(fields.name)}
              helperText={fields.name}
            />
            <TextField
              label="Description"
              name="description"
              value={values.description}
              onChange={change('description')}
              multiline
              minRows={2}
              disabled={busy}
              error={Boolean(fields.description)}
              helperText={fields.description}
            />
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={blank || busy}>
            {busy ? busyLabel : submitLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
