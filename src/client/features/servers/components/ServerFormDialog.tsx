import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { ServerTransport } from '../../../../contract/servers';
import { useFormDialogSubmit, type FormFailure } from '../../../components/useFormDialogSubmit';
import { bindTextFields } from '../../../components/bindTextFields';
import { FormDialog } from '../../../components/FormDialog';
import { FormFields } from '../../../components/FormFields';
import { headersFromRows, UpstreamHeadersFields, type HeaderRow } from './UpstreamHeadersFields';

export interface ServerFormValues {
  url: string;
  name: string;
  description: string;
  transport: ServerTransport;
  /** Absent: keep what is stored. `{}`: remove the stored headers. Else: replace them. */
  headers?: Record<string, string>;
  /** Browser pages (origins) that may call the proxy URL (CORS); [] = none but Toolscope's own. */
  allowedOrigins: string[];
}

/** What the form starts from: the server as the API shows it (headers are write-only: only whether some are set). */
export interface ServerFormInitial {
  url: string;
  name: string;
  description: string;
  transport: ServerTransport;
  hasCredentials: boolean;
  allowedOrigins: string[];
}

const URL_HELP: Record<ServerTransport, string> = {
  'streamable-http': 'The Streamable HTTP endpoint of your MCP server (e.g. …/mcp)',
  sse: 'The SSE endpoint of a legacy HTTP+SSE server (e.g. …/sse)',
};

interface ServerFormDialogProps {
  title: string;
  submitLabel: string;
  busyLabel: string;
  initial?: ServerFormInitial;
  /** Resolves to null on success, or to the error to show (message and per-field texts). */
  onSubmit: (values: ServerFormValues) => Promise<FormFailure | null>;
  onClose: () => void;
}

const EMPTY: ServerFormInitial = {
  url: '',
  name: '',
  description: '',
  transport: 'streamable-http',
  hasCredentials: false,
  allowedOrigins: [],
};

/** One origin per line (commas work too); blank lines dropped. The server checks each. */
export function originsFromText(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((origin) => origin.trim())
    .filter(Boolean);
}

type StoredHeaders = 'keep' | 'replace' | 'remove';

/**
 * The add / edit server form: url, transport, name, description and the upstream authentication
 * headers (write-only: a stored header shows as set, never its value); the server's field errors
 * show at the field.
 */
export function ServerFormDialog({
  title,
  submitLabel,
  busyLabel,
  initial = EMPTY,
  onSubmit,
  onClose,
}: ServerFormDialogProps) {
  const [values, setValues] = useState({
    url: initial.url,
    name: initial.name,
    description: initial.description,
    transport: initial.transport,
    allowedOrigins: initial.allowedOrigins.join('\n'),
  });
  const [stored, setStored] = useState<StoredHeaders>(initial.hasCredentials ? 'keep' : 'replace');
  const [rows, setRows] = useState<HeaderRow[]>([]);
  const [headerError, setHeaderError] = useState<string | undefined>(undefined);
  const blank = !values.url.trim() || !values.name.trim();
  const { busy, fields, general, submit } = useFormDialogSubmit(async () => {
    let headers: Record<string, string> | undefined;
    if (stored === 'remove') headers = {};
    else if (stored === 'replace') {
      const parsed = headersFromRows(rows);
      if ('error' in parsed) {
        setHeaderError(parsed.error);
        return { message: parsed.error, fields: { headers: parsed.error } };
      }
      // Nothing typed on a new server: send no headers; on a server that had some and the user chose to replace: send what was typed.
      headers = Object.keys(parsed.headers).length > 0 || initial.hasCredentials ? parsed.headers : undefined;
    }
    setHeaderError(undefined);
    return onSubmit({
      url: values.url.trim(),
      name: values.name.trim(),
      description: values.description.trim(),
      transport: values.transport,
      allowedOrigins: originsFromText(values.allowedOrigins),
      ...(headers ? { headers } : {}),
    });
  }, blank);

  // The server names a bad origin by its index (allowedOrigins.2): shown at the one field.
  const originsErrorKey =
    fields.allowedOrigins !== undefined
      ? 'allowedOrigins'
      : Object.keys(fields).find((key) => key.startsWith('allowedOrigins.'));
  const field = bindTextFields(values, fields, busy, (name, text) =>
    setValues((current) => ({ ...current, [name]: text })),
  );

  return (
    <FormDialog
      titleId="server-form-title"
      title={title}
      busy={busy}
      onSubmit={submit}
      onClose={onClose}
      submitLabel={submitLabel}
      busyLabel={busyLabel}
      submitDisabled={blank}
    >
      <FormFields error={general}>
        <TextField
          label="Server URL"
          {...field('url', { help: URL_HELP[values.transport] })}
          placeholder="https://tools.example.com/mcp"
          required
          autoFocus
        />
        <TextField select label="Transport" {...field('transport', { help: 'How Toolscope talks to this server' })}>
          <MenuItem value="streamable-http">Streamable HTTP (MCP 2025-03-26 and later)</MenuItem>
          <MenuItem value="sse">HTTP+SSE (legacy, MCP 2024-11-05)</MenuItem>
        </TextField>
        <TextField label="Name" {...field('name')} required />
        <TextField label="Description" {...field('description')} multiline minRows={2} />
        <TextField
          label="Allowed browser origins"
          {...field('allowedOrigins', {
            help: 'Web pages that may call the proxy URL from a browser, one origin per line (e.g. the MCP Inspector). Empty: none.',
            errorKey: originsErrorKey,
          })}
          placeholder="http://localhost:6274"
          multiline
          minRows={1}
        />
        <Box>
          <Typography variant="subtitle2">Upstream authentication</Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            Headers Toolscope adds to every call to this server, e.g. Authorization: Bearer … Stored encrypted; never
            shown again.
          </Typography>
          {initial.hasCredentials && stored !== 'replace' ? (
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
              <Typography variant="body2" role="status">
                {stored === 'keep'
                  ? 'Headers are set (values hidden).'
                  : 'The stored headers will be removed when you save.'}
              </Typography>
              <Button size="small" onClick={() => setStored('replace')} disabled={busy}>
                Replace
              </Button>
              {stored === 'keep' ? (
                <Button size="small" color="error" onClick={() => setStored('remove')} disabled={busy}>
                  Remove
                </Button>
              ) : (
                <Button size="small" onClick={() => setStored('keep')} disabled={busy}>
                  Keep them
                </Button>
              )}
            </Box>
          ) : (
            <>
              <UpstreamHeadersFields
                rows={rows}
                onChange={setRows}
                disabled={busy}
                error={headerError ?? fields.headers}
              />
              {initial.hasCredentials && (
                <Button size="small" onClick={() => setStored('keep')} disabled={busy}>
                  Keep the stored headers
                </Button>
              )}
            </>
          )}
        </Box>
      </FormFields>
    </FormDialog>
  );
}
