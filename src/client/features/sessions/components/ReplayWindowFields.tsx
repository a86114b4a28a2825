import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';

/** The replay's time window, as ISO times for the endpoint's startTime/endTime. */
export interface ReplayWindow {
  startTime?: string;
  endTime?: string;
}

/** ISO → the value of a datetime-local input (local time, to the second). */
function toLocalInput(iso: string | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 19);
}

function fromLocalInput(value: string): string | undefined {
  if (!value) return undefined;
  const time = new Date(value).getTime();
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

export function ReplayWindowFields({
  value,
  onChange,
}: {
  value: ReplayWindow;
  onChange: (next: ReplayWindow) => void;
}) {
  const invalid = Boolean(value.startTime && value.endTime && value.startTime > value.endTime);
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', mb: 1 }}>
      <TextField
        size="small"
        type="datetime-local"
        label="From"
        fullWidth={false}
        sx={{ width: 250 }}
        value={toLocalInput(value.startTime)}
        onChange={(e) => onChange({ ...value, startTime: fromLocalInput(e.target.value) })}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 1 } }}
      />
      <TextField
        size="small"
        type="datetime-local"
        label="To"
        fullWidth={false}
        sx={{ width: 250 }}
        value={toLocalInput(value.endTime)}
        onChange={(e) => onChange({ ...value, endTime: fromLocalInput(e.target.value) })}
        error={invalid}
        helperText={invalid ? 'Must not be before From' : undefined}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 1 } }}
      />
      {(value.startTime || value.endTime) && (
        <Button size="small" onClick={() => onChange({})}>
          Whole session
        </Button>
      )}
    </Box>
  );
}
