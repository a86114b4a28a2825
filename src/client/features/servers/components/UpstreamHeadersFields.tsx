import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import AddIcon from '@mui/icons-material/Add';
import { UpstreamHeaders } from '../../../../contract/servers';

export interface HeaderRow {
  name: string;
  value: string;
}

export const BEARER_ROW: HeaderRow = { name: 'Authorization', value: '' };

/** The rows as the API's headers object (blank rows left out), or the first problem with them. */
export function headersFromRows(rows: readonly HeaderRow[]): { headers: Record<string, string> } | { error: string } {
  const headers: Record<string, string> = {};
  for (const row of rows) {
    const name = row.name.trim();
    if (!name && !row.value) continue;
    if (!name) return { error: 'Every header needs a name' };
    if (Object.keys(headers).some((known) => known.toLowerCase() === name.toLowerCase()))
      return { error: `${name} is given twice` };
    if (!row.value) return { error: `${name} needs a value` };
    headers[name] = row.value;
  }
  const checked = UpstreamHeaders.safeParse(headers);
  if (!checked.success) return { error: checked.error.issues[0]?.message ?? 'Invalid headers' };
  return { headers };
}

interface UpstreamHeadersFieldsProps {
  rows: HeaderRow[];
  onChange: (rows: HeaderRow[]) => void;
  disabled: boolean;
  error?: string;
}

/**
 * Headers the proxy adds to every upstream call (e.g. `Authorization: Bearer …` for GitHub or
 * Linear). Write-only: values are typed here and sent once; the API never returns them.
 */
export function UpstreamHeadersFields({ rows, onChange, disabled, error }: UpstreamHeadersFieldsProps) {
  const update = (index: number, patch: Partial<HeaderRow>) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  return (
    <Box role="group" aria-label="Upstream authentication headers">
      {rows.map((row, index) => (
        <Box
          key={index}
          sx={{
            display: 'grid',
            gridTemplateColumns: { xs: 'minmax(0, 1fr) auto', sm: 'minmax(0, 2fr) minmax(0, 3fr) auto' },
            gap: 1,
            mb: 1,
            alignItems: 'start',
          }}
        >
          <TextField
            size="small"
            label="Header name"
            value={row.name}
            onChange={(e) => update(index, { name: e.target.value })}
            disabled={disabled}
            slotProps={{ htmlInput: { maxLength: 100, autoComplete: 'off' } }}
          />
          <TextField
            size="small"
            label="Value"
            type="password"
            value={row.value}
            onChange={(e) => update(index, { value: e.target.value })}
            disabled={disabled}
            placeholder={row.name.toLowerCase() === 'authorization' ? 'Bearer …' : undefined}
            slotProps={{ htmlInput: { maxLength: 8192, autoComplete: 'new-password' } }}
            sx={{ gridColumn: { xs: '1 / 2', sm: 'auto' }, gridRow: { xs: index * 2 + 2, sm: 'auto' } }}
          />
          <IconButton
            aria-label={`Remove header ${row.name || index + 1}`}
            onClick={() => onChange(rows.filter((_, i) => i !== index))}
            disabled={disabled}
          >
            <DeleteIcon fontSize="small" />
          </IconButton>
        </Box>
      ))}
      <Button
        size="small"
        startIcon={<AddIcon />}
        onClick={() => onChange([...rows, { name: rows.length === 0 ? 'Authorization' : '', value: '' }])}
        disabled={disabled || rows.length >= 20}
      >
        Add header
      </Button>
      {error && (
        <Typography variant="caption" color="error" role="alert" sx={{ display: 'block', mt: 0.5 }}>
          {error}
        </Typography>
      )}
    </Box>
  );
}
