import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import type { CustomPattern } from '../../../../contract/redaction';

interface Props {
  patterns: CustomPattern[];
  onChange: (patterns: CustomPattern[]) => void;
  disabled: boolean;
}

/** The workspace's own patterns (RE2 syntax; group 1, when present, is the value replaced). */
export function CustomPatternsEditor({ patterns, onChange, disabled }: Props) {
  const set = (index: number, change: Partial<CustomPattern>) =>
    onChange(patterns.map((pattern, i) => (i === index ? { ...pattern, ...change } : pattern)));
  return (
    <Stack spacing={1.5}>
      {patterns.map((pattern, index) => (
        <Box key={index} sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
          <TextField
            size="small"
            label="Rule name"
            value={pattern.id}
            disabled={disabled}
            onChange={(e) => set(index, { id: e.target.value })}
            helperText="Lowercase, digits, dashes"
          />
          <TextField
            size="small"
            label="Pattern"
            value={pattern.pattern}
            disabled={disabled}
            onChange={(e) => set(index, { pattern: e.target.value })}
            helperText="RE2 syntax, e.g. acct-(\d{6})"
            sx={{ flex: 1, minWidth: 240 }}
            slotProps={{ htmlInput: { style: { fontFamily: 'monospace' } } }}
          />
          <FormControlLabel
            label="Keyed hash"
            control={
              <Checkbox
                size="small"
                checked={pattern.hash}
                disabled={disabled}
                onChange={(e) => set(index, { hash: e.target.checked })}
              />
            }
          />
          <IconButton
            aria-label={`Remove pattern ${pattern.id || index + 1}`}
            disabled={disabled}
            onClick={() => onChange(patterns.filter((_, i) => i !== index))}
          >
            <DeleteOutlineIcon />
          </IconButton>
        </Box>
      ))}
      <Box>
        <Button
          size="small"
          disabled={disabled}
          onClick={() => onChange([...patterns, { id: '', pattern: '', hash: false }])}
        >
          Add pattern
        </Button>
      </Box>
    </Stack>
  );
}
