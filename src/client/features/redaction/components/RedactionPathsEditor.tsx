import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import type { RedactionPath } from '../../../../contract/redaction';

interface Props {
  paths: RedactionPath[];
  onChange: (paths: RedactionPath[]) => void;
  disabled: boolean;
}

/** JSON paths whose whole value is redacted: `arguments.password`, `result.content[*].text` of one tool. */
export function RedactionPathsEditor({ paths, onChange, disabled }: Props) {
  const set = (index: number, change: Partial<RedactionPath>) =>
    onChange(paths.map((path, i) => (i === index ? { ...path, ...change } : path)));
  return (
    <Stack spacing={1.5}>
      {paths.map((path, index) => (
        <Box key={index} sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
          <TextField
            size="small"
            label="JSON path"
            value={path.path}
            disabled={disabled}
            onChange={(e) => set(index, { path: e.target.value })}
            helperText="From a request's params or a response's result/error"
            sx={{ flex: 1, minWidth: 240 }}
            slotProps={{ htmlInput: { style: { fontFamily: 'monospace' } } }}
          />
          <TextField
            size="small"
            label="Only for tool"
            value={path.tool ?? ''}
            disabled={disabled}
            onChange={(e) => set(index, { tool: e.target.value })}
            helperText="Empty: every tool"
          />
          <IconButton
            aria-label={`Remove path ${path.path || index + 1}`}
            disabled={disabled}
            onClick={() => onChange(paths.filter((_, i) => i !== index))}
          >
            <DeleteOutlineIcon />
          </IconButton>
        </Box>
      ))}
      <Box>
        <Button size="small" disabled={disabled} onClick={() => onChange([...paths, { path: '' }])}>
          Add path
        </Button>
      </Box>
    </Stack>
  );
}
